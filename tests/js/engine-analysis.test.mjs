// The analysis board in the page (js/engine/analysis.js) against the server's
// `GET /api/analysis` (analyse_with_book): the same view, field for field, for
// positions the opening books judge and positions searched to the end, a rule set
// without a book among them (tests/js/cases/engine-analysis.json).
import { test } from "node:test";
import assert from "node:assert/strict";

import { analysis } from "../../src/quads/web/static/js/engine/analysis.js";
import { engine as makeEngine, loadCases } from "./engine-cases.mjs";

const engine = await makeEngine();

test("the analysis view equals the server's, from the book and from search", async () => {
  const { cases } = loadCases("analysis");
  assert.ok(cases.length >= 50, `only ${cases.length} cases`);
  const sources = new Set(cases.map((c) => `${c.view.source} ${c.rules}`));
  for (const source of ["book quads", "book classic", "book advanced", "search quads",
    "search classic", "search lines:color,height:declare"]) {
    assert.ok(sources.has(source), source);
  }
  for (const c of cases) {
    const got = await analysis(engine, c.position, c.rules, { seconds: 60 });
    assert.deepEqual(got, c.view, `${c.rules} ${c.position}`);
  }
});

test("an impossible position or an unknown rule set is refused as the library refuses it",
  async () => {
    await assert.rejects(analysis(engine, "0123/..../..../.... 4", "quads"),
      { name: "InvalidPositionError", reason: "already_won", params: { shape: "row1" } });
    await assert.rejects(analysis(engine, "00../..../..../.... 1", "quads"),
      { name: "InvalidPositionError", reason: "piece_twice", params: { piece: "0" } });
    await assert.rejects(analysis(engine, "..../..../..../.... -", "lines:colour"),
      { name: "InvalidRulesError", reason: "rules", params: { rules: "lines:colour" } });
  });

test("a search cut short by its budget leaves turns unknown", async () => {
  const got = await analysis(engine, "..../..../..../.... -", "lines:color,height",
    { seconds: 0.05 });
  assert.equal(got.source, "search");
  assert.equal(got.complete, false);
  assert.equal(got.value, "unknown");
  assert.ok(got.moves.every((m) => m.give !== null && m.place === null));
});
