// Hints, reviews, mistakes and puzzle verdicts in the page (js/engine/hints.js,
// review.js, mistakes.js, puzzle.js) against the server's views of the Python
// library's answers (and its exercises, quads.mistakes): the
// HintView of random games (from the book, from search, at the moments to call or
// to claim), the ReviewView of random finished games, and the VerdictView of the
// puzzles of several dates for right and wrong turns, or the refusal: its class,
// code, message, reason and params (tests/js/cases/engine-hints, engine-review and
// engine-puzzles.json).
import { test } from "node:test";
import assert from "node:assert/strict";

import { hint } from "../../src/quads/web/static/js/engine/hints.js";
import { review } from "../../src/quads/web/static/js/engine/review.js";
import { mistakes } from "../../src/quads/web/static/js/engine/mistakes.js";
import { checkPuzzle } from "../../src/quads/web/static/js/engine/puzzle.js";
import { engine as makeEngine, loadCases } from "./engine-cases.mjs";

const engine = await makeEngine();

test("hints equal the server's: the turn, the value, the reason's key and params", async () => {
  const { cases } = loadCases("hints");
  assert.ok(cases.length >= 100, `only ${cases.length} cases`);
  const keys = new Set(cases.map((c) => c.view.reason_key));
  for (const key of ["hint.declare", "hint.claim", "hint.win_now", "hint.forced_win",
    "hint.losing", "hint.draw", "hint.only_safe"]) {
    assert.ok(keys.has(key), `no case of ${key}`);
  }
  for (const c of cases) {
    const got = await hint(engine, c.game, { seconds: 60 });
    assert.deepEqual(got, c.view, `${c.game.rules} ${c.game.actions.join(", ")}`);
  }
});

test("a hint when the game is over is refused", async () => {
  const over = { rules: "quads", actions: ["give 0", "place A1", "give 1", "place B1",
    "give 2", "place C1", "give 3", "place D1"] };
  await assert.rejects(hint(engine, over), { name: "IllegalActionError", reason: "game_over" });
});

test("reviews equal the server's, turn by turn", async () => {
  const { cases } = loadCases("review");
  assert.ok(cases.length >= 12, `only ${cases.length} cases`);
  assert.ok(cases.some((c) => c.game.actions.at(-1).startsWith("resign")));
  assert.ok(cases.some((c) => c.view.turns.some((t) => t.threw_away === "win")));
  assert.ok(cases.some((c) => c.view.turns.some((t) => t.threw_away === "draw")));
  for (const c of cases) {
    const got = await review(engine, c.game, { seconds: 60 });
    assert.deepEqual(got, c.view, `${c.game.rules} ${c.game.actions.join(", ")}`);
  }
});

test("a game's exercises equal the Python library's, for one side and both", async () => {
  const { cases } = loadCases("mistakes");
  assert.ok(cases.length >= 12, `only ${cases.length} cases`);
  const found = cases.flatMap((c) => c.exercises);
  for (const kind of ["turn", "give"]) assert.ok(found.some((e) => e.kind === kind), `no ${kind}`);
  for (const keep of ["win", "draw"]) assert.ok(found.some((e) => e.keep === keep), `no ${keep}`);
  assert.ok(cases.some((c) => c.side === null) && cases.some((c) => c.side !== null));
  for (const c of cases) {
    const got = await mistakes(engine, c.game, c.side, { seconds: 60 });
    assert.deepEqual(got, c.exercises, `${c.game.rules} ${c.side} ${c.game.actions.join(", ")}`);
  }
  await assert.rejects(mistakes(engine, { rules: "quads", actions: ["give 0"] }, null),
    { name: "EngineError", code: "not_over" });
});

test("a game that goes on is not reviewed", async () => {
  await assert.rejects(review(engine, { rules: "quads", actions: ["give 0"] }),
    { name: "EngineError", code: "not_over" });
});

test("puzzle verdicts equal the server's, for right and wrong turns", async () => {
  const { cases } = loadCases("puzzles");
  assert.ok(cases.length >= 7, `only ${cases.length} puzzles`);
  let accepted = 0;
  let refused = 0;
  let needsGive = 0;
  let errors = 0;
  const reasons = new Set();
  for (const { date, puzzle, checks } of cases) {
    for (const c of checks) {
      const where = `${date} ${JSON.stringify(c.played)} ${c.turn}`;
      if (c.error) {
        await assert.rejects(checkPuzzle(engine, puzzle, c.played, c.turn),
          (error) => {
            const { code, message, reason, params } = error;
            assert.deepEqual({ class: error.name, code, message, reason, params }, c.error, where);
            return true;
          });
        errors += 1;
        reasons.add(`${c.error.code}.${c.error.reason}`);
        continue;
      }
      const got = await checkPuzzle(engine, puzzle, c.played, c.turn);
      assert.deepEqual(got, c.view, where);
      if (got.needs_give) needsGive += 1;
      else if (got.accepted) accepted += 1;
      else refused += 1;
    }
  }
  assert.ok(accepted >= 20 && refused >= 20 && needsGive >= 5 && errors >= 100,
    `${accepted} accepted, ${refused} refused, ${needsGive} placements alone, ${errors} errors`);
  for (const reason of ["illegal_action.defenders_turn", "illegal_action.after_end", "illegal_action.piece_missing",
    "illegal_action.cell_taken", "illegal_action.place_first", "illegal_action.not_in_supply", "invalid_cell.cell",
    "invalid_cell.turn", "invalid_piece.piece", "invalid_piece.turn"]) {
    assert.ok(reasons.has(reason), `no refusal ${reason}`);
  }
});
