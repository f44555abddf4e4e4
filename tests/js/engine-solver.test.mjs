// The page's opening books and the stages of a solve (js/engine/book.js and
// solver.js) against the Python library: the books' analysis, solution and held
// scores (tests/js/cases/engine-books.json), and solve and analyse with one thread,
// node for node, complete and cut short by budgets (engine-solve.json).
import { test } from "node:test";
import assert from "node:assert/strict";

import { Position, Rules } from "../../src/quads/web/static/js/rules/index.js";
import { readBook, gameName } from "../../src/quads/web/static/js/engine/book.js";
import { analyse, solve } from "../../src/quads/web/static/js/engine/solver.js";
import { engine as makeEngine, loadCases } from "./engine-cases.mjs";

const engine = await makeEngine();
const { kernel } = engine;

function analysisJson(a) {
  return {
    value: a.value, plies: a.plies, complete: a.complete,
    moves: a.moves.map((m) => [m.turn.text, m.value, m.plies]),
  };
}

function solutionJson(s) {
  return { value: s.value, plies: s.plies, best: s.best ? s.best.text : null,
    complete: s.complete, nodes: s.nodes };
}

test("the books are read, checked and found for their rule sets", async () => {
  const { books } = loadCases("books");
  for (const [name, game] of Object.entries(books)) {
    const book = await engine.bookFor(name === "lines" ? "classic" : "quads");
    assert.ok(book, name);
    assert.equal(book.game, game);
  }
  assert.equal(await engine.bookFor("lines:color,height"), null);
  assert.equal(gameName(Rules.parse("advanced")), "lines+squares:color,height,shape,top");
  assert.equal(await engine.bookFor("advanced"), await engine.bookFor("quads"));
});

test("a damaged book is refused", async () => {
  const good = new Uint8Array(await (await import("node:fs/promises")).readFile(
    new URL("./cases/books/lines-squares.bin", import.meta.url)));
  await readBook(good);
  const flipped = good.slice();
  flipped[flipped.length - 3] ^= 1;
  await assert.rejects(readBook(flipped), /do not match/);
  await assert.rejects(readBook(good.slice(0, good.length - 11)), /do not match/);
  await assert.rejects(readBook(good.slice(5)), /not a Quads book/);
});

test("book analysis, solution and scores equal the Python book's", async () => {
  const { cases } = loadCases("books");
  assert.ok(cases.length >= 300, `only ${cases.length} cases`);
  for (const name of ["quads", "classic", "advanced"]) {
    assert.ok(cases.filter((c) => c.rules === name && c.analysis).length >= 100, name);
  }
  for (const c of cases) {
    const where = `${c.rules} ${c.position}`;
    const rules = Rules.parse(c.rules);
    const position = Position.fromString(c.position);
    const book = await engine.bookFor(rules);
    assert.equal(book.covers(position), c.covers, where);
    assert.equal(book.score(kernel, position, rules), c.score, where);
    const analysis = book.analysis(kernel, position, rules);
    assert.deepEqual(analysis && analysisJson(analysis), c.analysis, where);
    const solution = book.solution(kernel, position, rules);
    assert.deepEqual(solution && solutionJson(solution), c.solution, where);
  }
});

test("solve and analyse equal Python's, node for node, complete or cut short", () => {
  const { cases } = loadCases("solve");
  assert.ok(cases.length >= 100, `only ${cases.length} cases`);
  let refined = 0;
  let short = 0;
  for (const c of cases) {
    const rules = Rules.parse(c.rules);
    const position = Position.fromString(c.position);
    for (const [options, expected] of c.solve) {
      const where = `${c.rules} ${c.position} ${JSON.stringify(options)}`;
      assert.deepEqual(solutionJson(solve(kernel, position, rules, options)), expected, where);
      if (options.refine) refined += 1;
      if (!expected.complete) short += 1;
    }
    for (const [options, expected] of c.analyse) {
      const where = `${c.rules} ${c.position} analyse ${JSON.stringify(options)}`;
      const got = analyse(kernel, position, rules, options);
      assert.deepEqual({ ...analysisJson(got), nodes: got.nodes }, expected, where);
      if (!expected.complete) short += 1;
    }
  }
  assert.ok(refined >= 80 && short >= 40, `${refined} refined, ${short} cut short`);
});
