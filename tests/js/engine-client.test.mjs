// The page's promise API over the engine's worker (js/engine/client.js and
// worker.js), with the worker's code running in a stand-in for a Web Worker that
// passes structured clones both ways: answers equal the modules' own, come in the
// order asked, refusals carry the rules' code, reason and params, and a question
// given up is never answered (nor started, when it waited).
import { test } from "node:test";
import assert from "node:assert/strict";

import { Game, Rules } from "../../src/quads/web/static/js/rules/index.js";
import { EngineClient, EngineFailure } from "../../src/quads/web/static/js/engine/client.js";
import { serve } from "../../src/quads/web/static/js/engine/worker.js";
import { analysis } from "../../src/quads/web/static/js/engine/analysis.js";
import { engine as makeEngine } from "./engine-cases.mjs";

const engine = await makeEngine();

/** A Web Worker running worker.js's serve() in this process. */
class StandIn extends EventTarget {
  constructor(calls) {
    super();
    const scope = new EventTarget();
    const deliver = (target, data) => setTimeout(() => target.dispatchEvent(
      new MessageEvent("message", { data: structuredClone(data) })), 0);
    scope.postMessage = (data) => { if (!this.terminated) deliver(this, data); };
    this.postMessage = (data) => {
      if (data.method) calls.push(data.method);
      deliver(scope, data);
    };
    this.terminated = false;
    serve(scope, async () => engine);
  }

  terminate() {
    this.terminated = true;
  }
}

function client() {
  const calls = [];
  const workers = [];
  const made = new EngineClient({
    createWorker: () => {
      const worker = new StandIn(calls);
      workers.push(worker);
      return worker;
    },
  });
  return { made, calls, workers };
}

test("the worker answers as the modules do, the kernel's calls too", async () => {
  const { made, workers } = client();
  assert.equal(workers.length, 0, "the worker starts with the first question");
  const position = "7.A./..../15.8/F..6 2";
  assert.deepEqual(await made.analysis(position, Rules.parse("quads"), { seconds: 60 }),
    await analysis(engine, position, "quads", { seconds: 60 }));
  const game = new Game(Rules.parse("classic"));
  game.give(7);
  const actions = await made.computerActions(game, 3, { seed: 1 });
  assert.equal(actions.length, 2);
  assert.match(actions[0], /^place [A-D][1-4]$/);
  const advice = await made.hint({ rules: "classic", actions: ["give 7"] });
  assert.equal(advice.value, "draw");
  assert.equal((await made.call("solve", ["0.../1.../2.../.... 3", "quads"])).value, "win");
  assert.equal(workers.length, 1);
});

test("questions are answered in the order asked", async () => {
  const { made } = client();
  const order = [];
  const asked = [
    made.analysis("..../..../..../.... -", "quads").then(() => order.push(1)),
    made.call("danger", ["0.../1.../2.../.... 3", "quads"]).then(() => order.push(2)),
    made.review({ rules: "quads", actions: ["give 0", "place A1", "give 1", "place B1",
      "give 2", "place C1", "give 3", "place D1"] }).then(() => order.push(3)),
  ];
  await Promise.all(asked);
  assert.deepEqual(order, [1, 2, 3]);
});

test("a refusal carries the rules' code, reason and params", async () => {
  const { made } = client();
  const puzzle = { rules: "quads", position: "0.../1.../2.../.... 3", goal: { plies: 1 } };
  await assert.rejects(made.checkPuzzle(puzzle, [], "A1"), (error) => {
    assert.ok(error instanceof EngineFailure);
    assert.equal(error.kind, "IllegalActionError");
    assert.equal(error.code, "illegal_action");
    assert.equal(error.reason, "cell_taken");
    assert.deepEqual(error.params, { cell: "A1" });
    return true;
  });
  await assert.rejects(made.review({ rules: "quads", actions: [] }),
    { name: "EngineFailure", code: "not_over" });
  await assert.rejects(made.call("nothing"), /unknown method nothing/);
  const verdict = await made.checkPuzzle(puzzle, [], "A4");
  assert.equal(verdict.solved, true);
});

test("a question given up rejects at once, and is skipped if it waited", async () => {
  const { made, calls } = client();
  const first = made.analysis("..../..../3.../7.F. 9", "classic", { seconds: 0.3 });
  const controller = new AbortController();
  const second = made.analysis("..../..../..../.... -", "quads", { signal: controller.signal });
  const third = made.call("danger", ["0.../1.../2.../.... 3", "quads"]);
  controller.abort();
  await assert.rejects(second, { name: "AbortError" });
  assert.equal((await first).position, "..../..../3.../7.F. 9");
  assert.equal(typeof await third, "number");
  assert.deepEqual(calls, ["analysis", "analysis", "danger"]);
  await assert.rejects(made.analysis("..../..../..../.... -", "quads",
    { signal: AbortSignal.abort() }), { name: "AbortError" });
  const all = [made.call("danger", ["..../..../..../.... -", "quads"]),
    made.call("danger", ["..../..../..../.... -", "quads"])];
  made.cancelAll();
  for (const pending of all) await assert.rejects(pending, { name: "AbortError" });
});

test("stop ends the worker and every question pending; the next question starts anew",
  async () => {
    const { made, workers } = client();
    const pending = made.analysis("..../..../3.../7.F. 9", "classic", { seconds: 0.3 });
    made.stop();
    await assert.rejects(pending, { name: "AbortError" });
    assert.equal(workers[0].terminated, true);
    assert.equal((await made.call("solve", ["0.../1.../2.../.... 3", "quads"])).plies, 1);
    assert.equal(workers.length, 2);
  });
