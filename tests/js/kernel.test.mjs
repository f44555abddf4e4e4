// Conformance of the WebAssembly kernel (src/quads/web/static/engine/quads.wasm,
// through js/engine/kernel.js) with the Python library: the cases are written by
// tests/js/make_kernel_cases.py (.ci/run does so before `node --test`), this
// checks every one: danger, safe pieces, winning cells, the solve's value,
// distance and node count (the same search, node for node), the value alone, and
// the value of every turn in the analysis, in the Python library's order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";

import {
  loadKernel, readPosition, readRules,
} from "../../src/quads/web/static/js/engine/kernel.js";

const CASES = new URL("./cases/kernel.json", import.meta.url);

function loadCases() {
  assert.ok(existsSync(CASES),
    "no kernel cases: run `python tests/js/make_kernel_cases.py` first (.ci/run does)");
  return JSON.parse(readFileSync(CASES, "utf8"));
}

const kernel = await loadKernel();

test("the cases cover every preset and custom rule sets, hundreds of positions", () => {
  const { cases } = loadCases();
  assert.ok(cases.length >= 300, `only ${cases.length} cases`);
  const names = new Set(cases.map((c) => c.rules));
  for (const name of ["quads", "classic", "advanced"]) assert.ok(names.has(name), name);
  assert.ok([...names].filter((n) => n.includes(":")).length >= 4);
  assert.ok(cases.some((c) => c.position.endsWith("-")), "no position with a hand-over first");
});

test("danger, safe pieces and winning cells agree with Position", () => {
  for (const c of loadCases().cases) {
    const where = `${c.rules} ${c.position}`;
    assert.equal(kernel.danger(c.position, c.rules), c.danger, where);
    assert.equal(kernel.safePieces(c.position, c.rules), c.safe, where);
    if (c.winning !== null) {
      const { hand } = readPosition(c.position);
      assert.equal(kernel.winningCells(c.position, hand, c.rules), c.winning, where);
    }
  }
});

test("solve gives the value, the distance and the node count of the Python solver", () => {
  const { cases, table_mb: tableMb } = loadCases();
  for (const c of cases) {
    const where = `${c.rules} ${c.position}`;
    const got = kernel.solve(c.position, c.rules, { tableMb, fresh: true });
    assert.deepEqual({ value: got.value, plies: got.plies, nodes: got.nodes }, c.solve, where);
    assert.ok(got.complete, where);
    const quick = kernel.solve(c.position, c.rules, { tableMb, fresh: true, distance: false });
    assert.deepEqual({ value: quick.value, nodes: quick.nodes }, c.value_only, where);
    // The best turn reaches the value: its value in the Python analysis is the position's.
    if (got.best) {
      const turn = c.analyse.moves
        .find((m) => m.place === got.best.place && m.give === got.best.give);
      assert.ok(turn, `${where}: best turn ${JSON.stringify(got.best)} is not legal`);
      assert.deepEqual([turn.value, turn.plies], [got.value, got.plies], where);
    }
  }
});

test("analyse gives every turn's value and distance, best first, as the Python analysis", () => {
  const { cases, table_mb: tableMb } = loadCases();
  for (const c of cases) {
    const where = `${c.rules} ${c.position}`;
    const got = kernel.analyse(c.position, c.rules, { tableMb, fresh: true });
    assert.deepEqual({ value: got.value, plies: got.plies, nodes: got.nodes, moves: got.moves },
      c.analyse, where);
    assert.ok(got.complete, where);
  }
});

test("a node budget that runs out leaves the value unknown, never wrong", () => {
  const position = "..../..../3.../7.F. 9";
  const got = kernel.solve(position, "classic", { nodes: 5000, fresh: true });
  assert.equal(got.value, "unknown");
  assert.equal(got.complete, false);
  const moves = kernel.analyse(position, "classic", { nodes: 5000, fresh: true });
  assert.equal(moves.complete, false);
  assert.ok(moves.moves.some((m) => m.value === "unknown"));
  assert.equal(moves.value, "unknown");
});

test("rule-set names read as the Python library reads them", () => {
  assert.deepEqual(readRules("classic"), { squares: false, traits: 15 });
  assert.deepEqual(readRules("lines:color,height:auto"), { squares: false, traits: 12 });
  assert.deepEqual(readRules("lines+squares:shape,top:declare"), { squares: true, traits: 3 });
  assert.throws(() => readRules("lines:colour"));
});

test("an impossible position is refused", () => {
  // A position string is read by the page's rules, which refuse it as the library does.
  assert.throws(() => kernel.solve("00../..../..../.... 1", "quads"),
    { name: "InvalidPositionError", reason: "piece_twice" });
  assert.throws(() => kernel.solve("0.../..../..../.... 0", "quads"),
    { name: "InvalidPositionError", reason: "hand_on_board" });
  // A node's words are checked by the kernel itself.
  const engine = kernel.engine("quads");
  assert.throws(() => kernel.rootGroups(engine, { occupied: 0b11, lo: 0, hi: 0, hand: 1 }),
    /impossible/);
  assert.throws(() => kernel.rootGroups(engine, { occupied: 0b1, lo: 0, hi: 0, hand: 0 }),
    /impossible/);
});

test("the table outlives the questions that search nothing", () => {
  const position = ".73./..../2.../6.0. 8";
  const first = kernel.solve(position, "classic", { fresh: true });
  assert.equal(kernel.safePieces(position, "classic"), 0b1111111000110010);
  kernel.danger(position, "classic");
  const again = kernel.solve(position, "classic");
  assert.deepEqual([again.value, again.plies], [first.value, first.plies]);
  assert.ok(again.nodes < first.nodes / 10, `${again.nodes} nodes again, ${first.nodes} first`);
});

test("a time budget stops the search: the clock the module imports runs", () => {
  // About three million nodes: seconds of search without a budget.
  const got = kernel.solve("..../..../3.../7.F. 9", "classic", { seconds: 0.05, fresh: true });
  assert.equal(got.complete, false);
  assert.ok(got.nodes < 2_000_000, `${got.nodes} nodes in 0.05 s`);
});
