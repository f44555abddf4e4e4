// Unit tests of the moves for people (src/quads/web/static/js/game/move-history.js):
// each token worded, the board after each move replayed by the page's rules, and the
// steps back and forward, which never go past the game as it stands.  Run by .ci/run
// with `node --test tests/js/`; the page itself is tested in Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installPage } from "./page-stubs.mjs";

installPage();

const { setLanguage } = await import("../../src/quads/web/static/js/i18n.js");
const { MoveHistory, boardsAfter, moveWords } = await import("../../src/quads/web/static/js/game/move-history.js");
const { pieceLabel } = await import("../../src/quads/web/static/js/pieces.js");

test("each token reads as a player would say it, in the reader's language", async () => {
  await setLanguage("en");
  const seven = pieceLabel("7");
  assert.equal(moveWords("7"), `hands over ${seven}`);
  assert.equal(moveWords("A1F"), `on A1, then hands over ${pieceLabel("F")}`);
  assert.equal(moveWords("d4!"), "on D4: Quarto!");
  assert.equal(moveWords("A1?F"), `on A1, a win not called, then hands over ${pieceLabel("F")}`);
  assert.equal(moveWords("!"), "claims the win left uncalled");
  assert.equal(moveWords("xB2F"), `a false claim, then on B2, then hands over ${pieceLabel("F")}`);
  assert.equal(moveWords("A1x"), "on A1, with a false call");
  assert.equal(moveWords("nonsense"), "nonsense");
  await setLanguage("de");
  assert.equal(moveWords("D4!"), "auf D4: Quarto!");
  assert.ok(moveWords("7").startsWith("gibt "));
  await setLanguage("en");
});

test("the board after each move is the game's, replayed", () => {
  const boards = boardsAfter("quads", ["7", "A1C", "B2"]);
  assert.equal(boards.length, 3);
  assert.deepEqual(boards[0].board, Array(16).fill(null));
  assert.equal(boards[1].board[0], "7");
  assert.equal(boards[1].placed, "A1");
  assert.equal(boards[2].board.filter(Boolean).length, 2);
  assert.equal(boards[2].placed, "B2");
  // A token that cannot be read ends the boards there; bad rules give none.
  assert.equal(boardsAfter("quads", ["7", "A1C", "A1"]).length, 2);
  assert.deepEqual(boardsAfter("no such rules", ["7"]), []);
});

test("stepping goes back to the first move and forward to the game as it stands", () => {
  let drawn = 0;
  const history = new MoveHistory(() => { drawn += 1; });
  history.follow({ id: "g", rules: "quads", moves: ["7", "A1C", "B2"] });
  assert.equal(history.at, null);
  history.step(-1);
  assert.equal(history.at, 2);
  history.step(-1);
  history.step(-1);
  history.step(-1);
  assert.equal(history.at, 0, "never before the first move");
  history.step(1);
  history.step(1);
  history.step(1);
  assert.equal(history.at, null, "past the last move: the game itself");
  history.show(1);
  // The opponent moves meanwhile: the board stays where the reader is.
  history.follow({ id: "g", rules: "quads", moves: ["7", "A1C", "B2F", "C3"] });
  assert.equal(history.at, 1);
  // Another game: back to it as it stands.
  history.follow({ id: "h", rules: "quads", moves: ["3"] });
  assert.equal(history.at, null);
  assert.ok(drawn >= 8);
});
