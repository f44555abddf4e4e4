// Unit tests of the exercises' screen without the page
// (src/quads/web/static/js/mistakes/words.js): the position shown, the prompt, a
// placement that ends the turn, the answer's text, when an exercise comes back and
// the coming week's counts.  Run by .ci/run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  answerText,
  dueByDay,
  dueWords,
  placementEnds,
  promptKey,
  shownPosition,
  turnParts,
} from "../../src/quads/web/static/js/mistakes/words.js";

const catalogue = (lang) =>
  JSON.parse(readFileSync(new URL(`../../src/quads/catalogue/${lang}.json`, import.meta.url), "utf8"));

const WON = "A0../1F.D/27../4.BC 8"; // the library's example: B4 then 6 keeps the win
const NOW = Date.parse("2026-12-07T12:00:00Z");
const HOUR = 3_600_000;

test("the position shown: its cells by name order, the piece in hand and the rest", () => {
  const shown = shownPosition(WON);
  assert.deepEqual(shown.board.slice(0, 4), ["A", "0", null, null]); // row 1: A1, B1, C1, D1
  assert.equal(shown.board[4], "1"); // A2
  assert.equal(shown.hand, "8");
  assert.equal(shown.board.filter(Boolean).length + shown.supply.length + 1, 16);
  assert.ok(!shown.supply.includes("8") && !shown.supply.includes("A"));
  assert.deepEqual(shownPosition("..../..../..../.... -").supply.length, 16);
});

test("the prompt says the value to keep, then the hand-over", () => {
  assert.equal(promptKey({ kind: "turn", keep: "win" }, false), "mistakes.prompt.turn.win");
  assert.equal(promptKey({ kind: "turn", keep: "draw" }, true), "mistakes.prompt.then_give");
  assert.equal(promptKey({ kind: "give", keep: "draw" }, false), "mistakes.prompt.give.draw");
  for (const lang of ["en", "de"]) {
    const words = catalogue(lang);
    for (const key of ["mistakes.prompt.turn.win", "mistakes.prompt.turn.draw", "mistakes.prompt.give.win",
      "mistakes.prompt.give.draw", "mistakes.prompt.then_give", "mistakes.due.now", "mistakes.due.hours",
      "mistakes.due.days"]) {
      assert.ok(words[key], `${lang} ${key}`);
    }
  }
});

test("a placement that completes a shape is the whole turn", () => {
  // Row 1 holds A, 0 and nothing else: no shape is one piece short there.
  assert.equal(placementEnds(WON, "quads", "B4"), false);
  // Three pieces sharing a trait and the fourth cell empty: 0, 1 and 2 are all short,
  // so is 3; placing 3 on D1 completes row 1.
  assert.equal(placementEnds("012./..../..../.... 3", "quads", "D1"), true);
  assert.equal(placementEnds("012./..../..../.... 3", "quads", "D2"), false);
});

test("the answer's text and its parts", () => {
  assert.equal(answerText("B4", "6"), "B46");
  assert.equal(answerText("D1", null), "D1");
  assert.equal(answerText(null, "F"), "F");
  assert.deepEqual(turnParts("B46"), { cell: "B4", piece: "6" });
  assert.throws(() => answerText(null, null));
});

test("when an exercise comes back", () => {
  assert.deepEqual(dueWords(new Date(NOW - HOUR).toISOString(), NOW), { key: "mistakes.due.now", count: 0 });
  assert.deepEqual(dueWords(new Date(NOW + 5 * HOUR).toISOString(), NOW), { key: "mistakes.due.hours", count: 5 });
  assert.deepEqual(dueWords(new Date(NOW + 60 * HOUR).toISOString(), NOW), { key: "mistakes.due.days", count: 3 });
});

test("the coming week's exercises due, those overdue today", () => {
  const due = (hours) => ({ due: new Date(NOW + hours * HOUR).toISOString() });
  const counts = dueByDay([due(-50), due(1), due(30), due(30), due(24 * 6 + 1), due(24 * 9)], NOW);
  assert.deepEqual(counts, [2, 2, 0, 0, 0, 0, 1]);
  assert.deepEqual(dueByDay([], NOW, 3), [0, 0, 0]);
});
