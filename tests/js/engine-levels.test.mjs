// The computer levels in the page (js/engine/players.js).  Level 5 against a perfect
// opponent: along games from random openings that Python's level 5 played on both
// sides (tests/js/cases/engine-levels.json), the page's level 5 plays Python's turn
// wherever Python's did not draw at random, and every such turn keeps the Python
// solver's value.  Every level plays whole games of legal actions under presets and
// custom rule sets, declares and claims whenever it may, and replays with its seed.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Game, Position, Rules, parseAction } from "../../src/quads/web/static/js/rules/index.js";
import {
  Random, computerActions, makePlayer, rankTurns,
} from "../../src/quads/web/static/js/engine/players.js";
import { engine as makeEngine, loadCases } from "./engine-cases.mjs";

const engine = await makeEngine();
const MIRROR = { win: "loss", loss: "win", draw: "draw" };

test("level 5 plays Python's level 5's turns, and never leaves the solver's value", async () => {
  const { cases } = loadCases("levels");
  let same = 0;
  let random = 0;
  for (const { rules: name, turns } of cases) {
    const rules = Rules.parse(name);
    const book = await engine.bookFor(rules);
    for (const [index, t] of turns.entries()) {
      const where = `${name} ${t.position}`;
      const position = Position.fromString(t.position);
      const player = makePlayer(5, index);
      const turn = player.chooseTurn({ kernel: engine.kernel, book }, position, rules);
      assert.ok(position.legalTurns(rules).some((legal) => legal.text === turn.text), where);
      if (t.random) {
        random += 1;
        continue;
      }
      assert.equal(turn.text, t.turn, where);
      same += 1;
      const [before, beforePlies] = t.before;
      if (t.after === null) {
        // a winning placement, or the last piece placed
        assert.ok(before === "win" ? beforePlies === 1 : before === "draw", where);
        continue;
      }
      const [after, afterPlies] = t.after;
      assert.equal(MIRROR[after], before, `${where}: ${turn.text} leaves the value`);
      if (before !== "draw") assert.equal(afterPlies + 1, beforePlies, `${where}: distance`);
    }
  }
  assert.ok(same >= 50 && random <= same / 10, `${same} turns as Python's, ${random} at random`);
});

const RULES = ["quads", "classic", "advanced", "lines:color,height:declare", "lines+squares:top"];

async function playGame(rules, first, second, seed) {
  const game = new Game(Rules.parse(rules));
  const levels = { first, second };
  while (!game.isOver()) {
    const state = game.state;
    const actions = (await computerActions(engine, game, levels[state.toMove],
      { seed: seed * 64 + game.actions.length })).map(parseAction);
    assert.ok(actions.length >= 1 && actions.length <= 2);
    if (state.step === "give" && state.declarable.length) {
      assert.deepEqual(actions.map((a) => a.type), ["declare"]);
    }
    if (state.step === "place" && state.claimable.length) {
      assert.deepEqual(actions.map((a) => a.type), ["claim"]);
    }
    for (const action of actions) game.apply(action); // refuses any illegal action
  }
  return game;
}

test("every level plays whole games of legal actions, calling every win it may", async () => {
  let seed = 0;
  for (const rules of RULES) {
    for (const [first, second] of [[1, 2], [3, 1], [2, 4], [4, 3], [5, 1]]) {
      seed += 1;
      const game = await playGame(rules, first, second, seed);
      assert.ok(game.isOver());
    }
  }
});

test("a seed replays the same game; the same level with another seed may differ", async () => {
  const once = await playGame("quads", 1, 3, 7);
  const again = await playGame("quads", 1, 3, 7);
  assert.deepEqual(again.snapshot(), once.snapshot());
  const random = new Random(7);
  assert.deepEqual([random.random(), random.random()],
    [new Random(7).random(), (() => { const r = new Random(7); r.random(); return r.random(); })()]);
  assert.notEqual(new Random(7).random(), new Random(8).random());
});

test("level 5 never loses, and the club player squeezes", async () => {
  for (const [rules, seed] of [["quads", 1], ["classic", 2]]) {
    const game = await playGame(rules, 5, 2, seed);
    assert.notEqual(game.outcome.winner, "second", `${rules}: level 5 lost`);
    const other = await playGame(rules, 3, 5, seed);
    assert.notEqual(other.outcome.winner, "first", `${rules}: level 5 lost`);
  }
  const ranked = rankTurns(Position.fromString("7.../0.../1.../.... E"), Rules.parse("quads"));
  assert.ok(ranked.every(([score], i) => i === 0 || score >= ranked[i - 1][0]));
});

test("an unknown level or a finished game is refused", async () => {
  // As the library's make_player refuses it: a QuadsError with no reason of its own.
  assert.throws(() => makePlayer(6), { name: "QuadsError", code: "unprocessable", reason: "", params: {},
    message: "unknown level 6: expected one of 1, 2, 3, 4, 5" });
  assert.throws(() => makePlayer("3"), { message: "unknown level '3': expected one of 1, 2, 3, 4, 5" });
  const over = { rules: "quads", actions: ["give 0", "place A1", "give 1", "place B1",
    "give 2", "place C1", "give 3", "place D1"] };
  await assert.rejects(computerActions(engine, over, 3), { reason: "game_over" });
});
