// Sending what waits on the device (src/quads/web/static/js/local/sync.js), driven
// against a fake transport and a fake server that keeps the server's promises (one
// game per device id, an upload not newer changes nothing, an attempt stored once):
// everything is sent once, a lost answer or a server that is down is tried again
// with growing pauses and never doubles anything, and refusals are kept for the
// page to say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { openStore } from "../../src/quads/web/static/js/local/store.js";
import { act, needsUpload, newDeviceGame, playComputer } from "../../src/quads/web/static/js/local/device-game.js";
import { ANSWER_DAYS, backoff, createSync, newPuzzleResult } from "../../src/quads/web/static/js/local/sync.js";

let clockTime = Date.parse("2026-11-30T09:00:00Z");
const now = () => new Date((clockTime += 1000));

/** A server that answers as the real one does, and counts what it stored. */
class FakeServer {
  constructor() {
    this.games = new Map(); // device id -> {id, revision, actions, redo}
    this.results = new Map(); // attempt -> body
    this.requests = [];
    this.refuse = new Set(); // actions (as text) the rules refuse
    this.player = "known";
    this.exercises = new Set(); // "position kind" of the player's exercises
    this.looking = new Set(); // device games whose mistakes are still to be looked for
  }

  handle({ method, path, body }) {
    this.requests.push({ method, path, body });
    if (this.player !== "known") return { status: 401, body: { error: { code: "unknown_player", message: "who?" } } };
    const device = /^\/api\/games\/device\/(.+)$/.exec(path);
    if (method === "PUT" && device) {
      const bad = body.actions.find((action) => this.refuse.has(action));
      if (bad) {
        return { status: 422, body: { error: { code: "illegal_action", message: `cannot ${bad}`, reason: "cell_taken", params: { cell: "A1" } } } };
      }
      const known = this.games.get(device[1]);
      if (!known) {
        const stored = { id: `server-${this.games.size + 1}`, revision: body.device_revision, actions: body.actions };
        this.games.set(device[1], stored);
        return { status: 201, body: { id: stored.id, device: device[1] } };
      }
      if (body.device_revision > known.revision) Object.assign(known, { revision: body.device_revision, actions: body.actions });
      return { status: 200, body: { id: known.id, device: device[1] } };
    }
    const result = /^\/api\/puzzles\/(.+)\/result$/.exec(path);
    if (method === "POST" && result) {
      if (body.solved && !body.line) return { status: 409, body: { error: { code: "not_solved", message: "not checked" } } };
      if (!this.results.has(body.attempt)) this.results.set(body.attempt, { date: result[1], ...body });
      return { status: 201, body: { solved: this.results.size } };
    }
    if (method === "POST" && path === "/api/mistakes/answers") {
      if (body.answers.length > 50) return { status: 400, body: { error: { code: "invalid_request", message: "too many" } } };
      return {
        status: 200,
        body: {
          answers: body.answers.map((a) => {
            if (this.exercises.has(`${a.position} ${a.kind}`)) {
              return { id: a.id, state: "kept", right: a.turn === "6" };
            }
            return { id: a.id, state: a.device && this.looking.has(a.device) ? "waiting" : "gone" };
          }),
        },
      };
    }
    return { status: 404, body: { error: { code: "no_route", message: path } } };
  }
}

/**
 * A transport to `server` that fails as `faults` says, one entry per request:
 * "down" (no server: nothing arrives), "lost" (the server stored it, the answer is
 * lost), a status (a proxy's answer: 503 ...), or undefined (all well).
 */
function transport(server, faults = []) {
  let count = 0;
  return async (request) => {
    const fault = faults[count];
    count += 1;
    if (fault === "down") throw new TypeError("Failed to fetch");
    const answer = server.handle(structuredClone(request));
    if (fault === "lost") throw new TypeError("network connection was lost");
    if (typeof fault === "number") return { status: fault, body: null };
    return structuredClone(answer);
  };
}

async function setUp(count = 2) {
  const store = await openStore({ indexedDB: new IDBFactory() });
  const ids = [];
  for (let i = 0; i < count; i += 1) {
    let game = newDeviceGame({ mode: "computer", level: 3, human: "first" }, { id: `dev-${i}`, now });
    game = act(game, "give 7", { now });
    await store.putGame(game);
    ids.push(game.id);
  }
  return { store, ids };
}

function sync(store, server, faults, options = {}) {
  const pauses = [];
  const runner = createSync({
    store, transport: transport(server, faults), sleep: async (ms) => { pauses.push(ms); }, random: () => 0.5, now,
    ...options,
  });
  return { runner, pauses };
}

test("every waiting game is sent once; a second run sends nothing", async () => {
  const { store, ids } = await setUp(3);
  const server = new FakeServer();
  const changes = [];
  const { runner } = sync(store, server, [], { onChange: (change) => changes.push(change) });
  const report = await runner.run();
  assert.deepEqual(report, { state: "done", uploaded: ids, refused: [], sent: [], answered: [], waiting: [] });
  assert.equal(server.requests.length, 3);
  assert.deepEqual(server.requests[0].body, {
    mode: "computer", rules: "quads", level: 3, human: "first", actions: ["give 7"], redo: [],
    created: (await store.getGame(ids[0])).created, device_revision: 1,
  });
  for (const id of ids) {
    const game = await store.getGame(id);
    assert.equal(game.uploaded.revision, 1);
    assert.match(game.uploaded.game, /^server-/);
    assert.equal(needsUpload(game), false);
  }
  assert.deepEqual(changes.map((c) => c.outcome), ["uploaded", "uploaded", "uploaded"]);
  assert.deepEqual(await runner.run(), { state: "done", uploaded: [], refused: [], sent: [], answered: [], waiting: [] });
  assert.equal(server.requests.length, 3);
  store.close();
});

test("a lost answer is asked again and never makes a second game", async () => {
  const { store, ids } = await setUp(1);
  const server = new FakeServer();
  const { runner, pauses } = sync(store, server, ["lost", "lost"]);
  const report = await runner.run();
  assert.equal(report.state, "done");
  assert.deepEqual(report.uploaded, ids);
  assert.equal(server.requests.length, 3, "sent three times");
  assert.equal(server.games.size, 1, "stored once");
  assert.deepEqual(pauses, [375, 750], "the pause doubles (with jitter)");
  assert.equal((await store.getGame(ids[0])).uploaded.game, server.games.get(ids[0]).id);
  store.close();
});

test("a server that stays down is given up for now; nothing is marked", async () => {
  const { store, ids } = await setUp(2);
  const server = new FakeServer();
  const faults = ["down", 503, "down", 502, "down", 504];
  const { runner, pauses } = sync(store, server, faults, { retries: 6, firstDelay: 1000, maxDelay: 8000 });
  const report = await runner.run();
  assert.deepEqual(report, { state: "unreachable", uploaded: [], refused: [], sent: [], answered: [], waiting: [] });
  assert.deepEqual(pauses, [750, 1500, 3000, 6000, 6000]);
  for (const id of ids) assert.equal(needsUpload(await store.getGame(id)), true);
  // Back online: the next run sends everything.
  const back = sync(store, server, []);
  assert.deepEqual((await back.runner.run()).uploaded, ids);
  store.close();
});

test("the backoff doubles up to its cap, between half and all of each step", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map((n) => backoff(n, 500, 30000, () => 0.999999)).map(Math.round),
    [500, 1000, 2000, 4000, 8000, 16000, 30000]);
  assert.equal(backoff(3, 500, 30000, () => 0), 2000);
});

test("a refusal by the rules is kept on the game and not sent again until it changes", async () => {
  const store = await openStore({ indexedDB: new IDBFactory() });
  let game = newDeviceGame({ mode: "local" }, { id: "bad", now });
  game = act(act(act(game, "give 7", { now }), "place A1", { now }), "give 3", { now });
  await store.putGame(game);
  const server = new FakeServer();
  server.refuse.add("place A1");
  const changes = [];
  const { runner } = sync(store, server, [], { onChange: (change) => changes.push(change) });
  assert.deepEqual(await runner.run(), { state: "done", uploaded: [], refused: ["bad"], sent: [], answered: [], waiting: [] });
  const refused = await store.getGame("bad");
  assert.deepEqual(refused.upload_error, {
    revision: 3,
    error: { status: 422, code: "illegal_action", message: "cannot place A1", reason: "cell_taken", params: { cell: "A1" } },
  });
  assert.deepEqual(changes, [{ kind: "game", id: "bad", outcome: "refused" }]);
  assert.equal((await runner.run()).refused.length, 0);
  assert.equal(server.requests.length, 1);
  // Changed on the device (undone and played otherwise), it is sent again.
  server.refuse.clear();
  await store.updateGame("bad", (g) => act(g, "place B1", { now }));
  assert.deepEqual((await runner.run()).uploaded, ["bad"]);
  const stored = await store.getGame("bad");
  assert.equal(stored.upload_error, null);
  assert.equal(stored.uploaded.revision, 4);
  store.close();
});

test("a game changed while it is sent is sent again in its new revision", async () => {
  const { store, ids } = await setUp(1);
  const server = new FakeServer();
  let moved = false;
  const slow = async (request) => {
    if (!moved) {
      moved = true; // the person plays on while the first upload is on its way
      await store.updateGame(ids[0], (g) => playComputer(g, ["place A1", "give C"], { now }));
    }
    return server.handle(structuredClone(request));
  };
  const runner = createSync({ store, transport: slow, sleep: async () => {}, now });
  const report = await runner.run();
  assert.deepEqual(report.uploaded, [ids[0], ids[0]]);
  assert.deepEqual(server.requests.map((r) => r.body.device_revision), [1, 2]);
  const game = await store.getGame(ids[0]);
  assert.equal(game.uploaded.revision, 2);
  assert.deepEqual(server.games.get(ids[0]).actions, ["give 7", "place A1", "give C"]);
  store.close();
});

test("an unknown player stops the run and leaves everything waiting", async () => {
  const { store, ids } = await setUp(2);
  const server = new FakeServer();
  server.player = "reset";
  const { runner } = sync(store, server, []);
  assert.deepEqual(await runner.run(), { state: "unknown_player", uploaded: [], refused: [], sent: [], answered: [], waiting: [] });
  assert.equal(server.requests.length, 1);
  for (const id of ids) {
    const game = await store.getGame(id);
    assert.equal(needsUpload(game), true);
    assert.equal(game.upload_error, null);
  }
  store.close();
});

test("puzzle results are sent with their line and id, once, then forgotten", async () => {
  const store = await openStore({ indexedDB: new IDBFactory() });
  const solved = newPuzzleResult({ date: "2026-11-29", tries: 2, seconds: 75, solved: true, line: ["B2C", "D4E", "A3"] }, { id: "a1", now });
  const failed = newPuzzleResult({ date: "2026-11-30", tries: 1, seconds: 20, solved: false }, { id: "a2", now });
  const unproven = newPuzzleResult({ date: "2026-11-30", tries: 2, seconds: 40, solved: true }, { id: "a3", now });
  for (const result of [solved, failed, unproven]) await store.putResult(result);
  const server = new FakeServer();
  const { runner } = sync(store, server, ["lost", undefined, 503]);
  const report = await runner.run();
  assert.deepEqual(report, { state: "done", uploaded: [], refused: ["a3"], sent: ["a1", "a2"], answered: [], waiting: [] });
  assert.deepEqual(server.requests.map((r) => [r.path, r.body]), [
    ["/api/puzzles/2026-11-29/result", { tries: 2, seconds: 75, solved: true, attempt: "a1", line: ["B2C", "D4E", "A3"] }],
    ["/api/puzzles/2026-11-29/result", { tries: 2, seconds: 75, solved: true, attempt: "a1", line: ["B2C", "D4E", "A3"] }],
    ["/api/puzzles/2026-11-30/result", { tries: 1, seconds: 20, solved: false, attempt: "a2" }],
    ["/api/puzzles/2026-11-30/result", { tries: 1, seconds: 20, solved: false, attempt: "a2" }],
    ["/api/puzzles/2026-11-30/result", { tries: 2, seconds: 40, solved: true, attempt: "a3" }],
  ]);
  assert.equal(server.results.size, 2, "each attempt stored once");
  const left = await store.listResults();
  assert.deepEqual(left.map((r) => [r.id, r.error.code]), [["a3", "not_solved"]]);
  assert.equal((await runner.run()).sent.length, 0, "a refused result is not sent again");
  store.close();
});

test("answers given offline are sent after the games, in batches, each settled once", async () => {
  const { store } = await setUp(1);
  const at = (minute) => new Date(Date.parse("2026-11-30T09:00:00Z") + minute * 60_000).toISOString();
  const answers = Array.from({ length: 53 }, (_, i) => ({
    id: `ans-${String(i).padStart(2, "0")}`, rules: "quads", position: `p${i % 3}`, kind: "give",
    turn: "6", at: at(i), device: i % 3 === 1 ? "dev-waiting" : null,
  }));
  for (const answer of answers) await store.putAnswer(answer);
  const server = new FakeServer();
  server.exercises.add("p0 give");
  server.looking.add("dev-waiting");
  const changes = [];
  const { runner } = sync(store, server, [undefined, "lost"], { onChange: (change) => changes.push(change) });
  const report = await runner.run();
  assert.equal(report.state, "done");
  const paths = server.requests.map((r) => r.path);
  assert.deepEqual(paths, ["/api/games/device/dev-0", "/api/mistakes/answers", "/api/mistakes/answers",
    "/api/mistakes/answers"], "the games first; a lost answer asked again");
  assert.deepEqual(server.requests.slice(1).map((r) => r.body.answers.length), [50, 50, 3]);
  assert.deepEqual(server.requests[1].body.answers[0],
    { id: "ans-00", rules: "quads", position: "p0", kind: "give", turn: "6", at: at(0) });
  assert.equal(server.requests[1].body.answers[1].device, "dev-waiting");
  // Counted and gone ones are settled; those whose game is not looked at yet wait.
  const waiting = answers.filter((a) => a.device).map((a) => a.id);
  assert.deepEqual(report.answered, answers.map((a) => a.id).filter((id) => !waiting.includes(id)));
  assert.deepEqual((await store.listAnswers()).map((a) => a.id), waiting);
  assert.deepEqual(report.waiting, waiting);
  assert.ok(changes.some((c) => c.kind === "answer" && c.outcome === "waiting"));
  assert.deepEqual(server.requests[2].body, server.requests[1].body, "sent again under the same ids");
  // The server looked at the game: they go; a second run then has nothing to send.
  server.looking.clear();
  assert.deepEqual((await runner.run()).answered, waiting);
  assert.deepEqual(await store.listAnswers(), []);
  const sent = server.requests.length;
  await runner.run();
  assert.equal(server.requests.length, sent);
  store.close();
});

test("an answer that waits too long is dropped, a batch refused is kept unsent", async () => {
  const store = await openStore({ indexedDB: new IDBFactory() });
  const old = new Date(clockTime - (ANSWER_DAYS + 1) * 86_400_000).toISOString();
  await store.putAnswer({ id: "old", rules: "quads", position: "p", kind: "turn", turn: "B46", at: old, device: "d" });
  await store.putAnswer({ id: "new", rules: "quads", position: "p", kind: "turn", turn: "B46", at: new Date(clockTime).toISOString(), device: "d" });
  const server = new FakeServer();
  server.looking.add("d");
  const report = await sync(store, server, []).runner.run();
  assert.deepEqual(report.answered, ["old"]);
  assert.deepEqual((await store.listAnswers()).map((a) => a.id), ["new"]);
  const refused = await sync(store, server, [400]).runner.run();
  assert.deepEqual(refused.answered, []);
  const [kept] = await store.listAnswers();
  assert.equal(kept.error.status, 400);
  const requests = server.requests.length;
  await sync(store, server, []).runner.run();
  assert.equal(server.requests.length, requests, "not sent again");
  store.close();
});

test("a waiting puzzle result is plain data with the attempt's id", () => {
  const result = newPuzzleResult({ date: "2026-11-29", tries: 2, seconds: 75, solved: 1, line: ["B2C", "D4E", "A3"] },
    { now: () => new Date("2026-11-30T09:12:03.120Z") });
  assert.match(result.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual({ ...result, id: "x" }, {
    id: "x", date: "2026-11-29", tries: 2, seconds: 75, solved: true, line: ["B2C", "D4E", "A3"],
    created: "2026-11-30T09:12:03.120Z", error: null,
  });
  assert.equal(newPuzzleResult({ date: "2026-11-29", tries: 1, seconds: 5, solved: false }).line, null);
});

test("a second run asked for meanwhile is the same run", async () => {
  const { store } = await setUp(2);
  const server = new FakeServer();
  const { runner } = sync(store, server, []);
  const first = runner.run();
  assert.equal(runner.running, true);
  assert.equal(runner.run(), first);
  await first;
  assert.equal(runner.running, false);
  assert.equal(server.requests.length, 2);
  store.close();
});
