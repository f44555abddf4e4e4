// One's exercises without the server (src/quads/web/static/js/mistakes/offline.js):
// the device's finished games looked at once per revision (an engine that says what
// it was asked), the server's list kept with the device's own exercises it holds
// dropped, the queue of what to ask, answers judged as the server judges them, and
// the answers kept until they are sent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { openStore } from "../../src/quads/web/static/js/local/store.js";
import { act, newDeviceGame } from "../../src/quads/web/static/js/local/device-game.js";
import {
  LOOK_SECONDS, findOnDevice, judge, keepListed, newAnswer, offlineQueue,
} from "../../src/quads/web/static/js/mistakes/offline.js";

const NOW = Date.parse("2026-12-06T10:00:00Z");
const now = () => new Date(NOW);

/** A game on the device played to its end: four pieces in a row. */
function finished(id, settings) {
  let game = newDeviceGame({ mode: "local" }, { id, now });
  for (const action of ["give 0", "place A1", "give 1", "place B1", "give 2", "place C1", "give 3", "place D1"]) {
    game = act(game, action, { now });
  }
  return { ...newDeviceGame(settings, { id, now }), game: game.game, revision: game.revision };
}

test("each finished device game is looked at once, for the person's side", async () => {
  const store = await openStore({ indexedDB: new IDBFactory() });
  await store.putGame(finished("g-computer", { mode: "computer", level: 2, human: "second" }));
  await store.putGame(finished("g-local", { mode: "local" }));
  await store.putGame(act(newDeviceGame({ mode: "local" }, { id: "g-going", now }), "give 7", { now }));
  const asked = [];
  const engine = {
    async mistakes(game, side, options) {
      asked.push([game.actions.length, side, options.seconds]);
      return [{ ply: 4, player: "first", rules: "quads", position: "0.../..../..../.... 1", kind: "turn",
        keep: "win", played: "B11", answers: ["B22"] }];
    },
  };
  const progress = [];
  assert.equal(await findOnDevice({ store, engine, now, onProgress: (d, c) => progress.push([d, c]) }), 2);
  assert.deepEqual(asked.map(([, side, seconds]) => [side, seconds]).sort(),
    [["second", LOOK_SECONDS], [null, LOOK_SECONDS]].sort());
  assert.deepEqual(progress, [[0, 2], [1, 2], [2, 2]]);
  const kept = await store.listExercises();
  assert.deepEqual(kept.map((e) => [e.id, e.source, e.game, e.due]).sort(), [
    ["g-computer/4", "device", "g-computer", now().toISOString()],
    ["g-local/4", "device", "g-local", now().toISOString()]]);
  // Looked at: not again, until the game changes.
  assert.equal(await findOnDevice({ store, engine, now }), 0);
  assert.equal(asked.length, 2);
  await store.updateGame("g-local", (g) => ({ ...g, revision: g.revision + 1 }));
  assert.equal(await findOnDevice({ store, engine, now }), 1);
  assert.equal((await store.listExercises()).length, 2, "the game's exercises replaced, not doubled");
  store.close();
});

test("the server's list is kept; the device's exercises it holds go", async () => {
  const store = await openStore({ indexedDB: new IDBFactory() });
  const at = now().toISOString();
  const old = new Date(NOW - 15 * 86_400_000).toISOString();
  const device = (id, position, found) => ({ id, source: "device", rules: "quads", kind: "turn", position, found, due: found });
  await store.putExercise(device("d/1", "p1", at));
  await store.putExercise(device("d/2", "p2", at));
  await store.putExercise(device("d/3", "p3", old));
  await keepListed(store, [{ id: "s1", rules: "quads", kind: "turn", position: "p1", due: at }], NOW);
  assert.deepEqual((await store.listExercises()).map((e) => [e.id, e.source]).sort(),
    [["d/2", "device"], ["s1", "server"]]);
  store.close();
});

test("the queue: due, not answered offline, one per position and kind, soonest first", () => {
  const at = (hours) => new Date(NOW + hours * 3_600_000).toISOString();
  const one = (id, source, position, due, kind = "turn") => ({ id, source, rules: "quads", kind, position, due });
  const exercises = [
    one("d/1", "device", "p1", at(-1)), one("s1", "server", "p1", at(-3)), one("s2", "server", "p2", at(-2)),
    one("s3", "server", "p3", at(5)), one("s4", "server", "p4", at(-5)), one("d/2", "device", "p4", at(-4), "give"),
  ];
  const answers = [{ rules: "quads", kind: "turn", position: "p4" }];
  assert.deepEqual(offlineQueue(exercises, answers, NOW).map((e) => e.id), ["d/2", "s1", "s2"]);
  const game = [11, 3, 7].map((ply) => ({ ...one(`g/${ply}`, "device", `q${ply}`, at(-1)), ply }));
  assert.deepEqual(offlineQueue(game, [], NOW).map((e) => e.ply), [3, 7, 11], "a game's in the order played");
});

test("answers are judged as the server judges them", async () => {
  const never = () => assert.fail("no analysis needed");
  const found = { kind: "turn", keep: "win", answers: ["B46", "C26"], position: "p", rules: "quads" };
  assert.deepEqual(await judge(found, "B46", never), { right: true, answers: ["B46", "C26"] });
  assert.equal((await judge(found, "B4", never)).right, false);
  const give = { ...found, kind: "give", answers: ["6"] };
  assert.equal((await judge(give, "6", never)).right, true);
  assert.equal((await judge(give, "B43", never)).right, false, "a hand-over counts by its piece");
  // The server's exercises come without their answers: the engine's analysis gives them.
  const listed = { kind: "turn", keep: "draw", position: "p", rules: "quads" };
  const analysis = {
    moves: [{ place: "A1", give: "2", value: "draw" }, { place: "B2", give: "2", value: "loss" },
      { place: "C3", give: "5", value: "unknown" }, { place: "D4", give: null, value: "draw" }],
  };
  const analyse = async (position, rules) => {
    assert.deepEqual([position, rules], ["p", "quads"]);
    return analysis;
  };
  assert.deepEqual(await judge(listed, "A12", analyse), { right: true, answers: ["A12", "D4"] });
  assert.equal((await judge(listed, "B22", analyse)).right, false);
  assert.equal((await judge(listed, "C35", analyse)).right, null, "not reached in time: the server judges it");
});

test("an answer kept until it is sent names its exercise and its device game", () => {
  const exercise = { source: "device", game: "g1", rules: "quads", position: "p", kind: "give" };
  assert.deepEqual(newAnswer(exercise, "6", { id: "a1", now }), {
    id: "a1", rules: "quads", position: "p", kind: "give", turn: "6", at: now().toISOString(),
    device: "g1", error: null,
  });
  assert.equal(newAnswer({ ...exercise, source: "server" }, "6", { id: "a2", now }).device, null);
});
