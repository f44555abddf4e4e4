// Unit tests of what the review says of a turn and rings on its board
// (src/quads/web/static/js/game/review-words.js).  Run by .ci/run with
// `node --test tests/js/`; the review itself is tested in Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installPage } from "./page-stubs.mjs";

installPage();

const { setLanguage } = await import("../../src/quads/web/static/js/i18n.js");
const { boardCaption, turnMarks, turnValueWords } = await import("../../src/quads/web/static/js/game/review-words.js");

/** A review's turn: placed on `place` (or none), handed over `give` (or none). */
function turn(fields) {
  return {
    ply: 3, position: "012./..../..../.... 3", player: "second", turn: { place: "D1", give: "4" },
    before: "draw", before_plies: null, after: "draw", after_plies: null, best: null, threw_away: null,
    ...fields,
  };
}

test("a kept value is said once, a change with an arrow, a winning placement as won", async () => {
  await setLanguage("en");
  assert.equal(turnValueWords(turn({})), "draw, kept");
  assert.equal(turnValueWords(turn({ before: "win", before_plies: 3, after: "win", after_plies: 3 })),
    "win in 3, kept");
  assert.equal(turnValueWords(turn({ before: "win", before_plies: 3, after: "win", after_plies: 5 })),
    "win in 3 → win in 5");
  assert.equal(turnValueWords(turn({ after: "loss", after_plies: 2 })), "draw → loss in 2");
  assert.equal(turnValueWords(turn({ before: "win", before_plies: 1, after: "win", after_plies: 1 })),
    "win in 1 → won");
  // a hand-over cannot win at once: no "won" without a placement
  assert.equal(turnValueWords(turn({ turn: { place: null, give: "4" }, before: "unknown", after: "unknown" })),
    "not worked out → not worked out");
  await setLanguage("de");
  assert.equal(turnValueWords(turn({ before: "win", before_plies: 1, after: "win", after_plies: 1 })),
    "Sieg in 1 → gewonnen");
  assert.equal(turnValueWords(turn({})), "Remis, gehalten");
});

test("the rings: the cell and piece played, and a better one only where the turn threw something away", () => {
  const best = { place: "A2", give: "F" };
  assert.deepEqual(turnMarks(turn({ best })), {
    placed: "3", cell: "D1", piece: "4", betterCell: null, betterPiece: null });
  assert.deepEqual(turnMarks(turn({ best, threw_away: "draw", after: "loss", after_plies: 2 })), {
    placed: "3", cell: "D1", piece: "4", betterCell: "A2", betterPiece: "F" });
  // a better turn that shares the cell or the piece rings only what differs
  assert.deepEqual(turnMarks(turn({ best: { place: "D1", give: "F" }, threw_away: "win" })), {
    placed: "3", cell: "D1", piece: "4", betterCell: null, betterPiece: "F" });
  // a hand-over: no cell, and no piece to place
  assert.deepEqual(turnMarks(turn({ position: "..../..../..../.... -", turn: { place: null, give: "0" } })), {
    placed: null, cell: null, piece: "0", betterCell: null, betterPiece: null });
});

test("the caption says each ring drawn and no other", async () => {
  await setLanguage("en");
  const marks = { placed: null, cell: null, piece: "0", betterCell: null, betterPiece: null };
  assert.equal(boardCaption(1, marks),
    "The board before turn 1. Beside the board, the ring marks the piece handed over.");
  assert.equal(boardCaption(4, { ...marks, cell: "C1", betterCell: "A2" }),
    "The board before turn 4. The ring marks the cell played. Beside the board, the ring marks the piece handed over. "
    + "A dashed ring marks a better choice.");
  assert.equal(boardCaption(5, { ...marks, piece: null, cell: "D1" }),
    "The board before turn 5. The ring marks the cell played.");
});
