// Unit tests of the analysis board's logic without the page: what a shared address
// holds, or why it cannot be read (src/quads/web/static/js/analyse/address.js), and
// the shapes already complete in a position (analyse/completed.js).  Run by .ci/run
// with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { analyseAddress, readAddress } from "../../src/quads/web/static/js/analyse/address.js";
import { completedShapes } from "../../src/quads/web/static/js/analyse/completed.js";
import { readPosition } from "../../src/quads/web/static/js/position.js";

const CATALOGUE = JSON.parse(readFileSync(new URL("../../src/quads/catalogue/en.json", import.meta.url), "utf8"));
const ENDGAME = "0F8./71.3/.A.2/59.6 C";
const EMPTY = Array(16).fill(null);

test("an address without rules or position is the empty board under Quads", () => {
  for (const hash of ["#/analyse", "#/analyse/", "#/analyse/quads", "#/analyse/quads/"]) {
    assert.deepEqual(readAddress(hash), { setup: { rules: "quads", board: EMPTY, hand: null } }, hash);
  }
});

test("no address of the analysis board is read as one", () => {
  for (const hash of ["", "#/", "#/new", "#/analysed", "#/puzzle/quads/x"]) assert.equal(readAddress(hash), null);
});

test("an address that the board writes is read back", () => {
  const hash = analyseAddress("classic", ENDGAME);
  assert.deepEqual(readAddress(hash), { setup: { rules: "classic", ...readPosition(ENDGAME) } });
  assert.equal(readAddress(hash).setup.hand, "C");
});

test("every rule set the rules know is read, by the name the library writes", () => {
  const position = encodeURIComponent(ENDGAME);
  for (const [text, name] of [
    ["quads", "quads"], ["advanced", "advanced"], ["Classic", "classic"],
    ["lines+squares:color:auto", "lines+squares:color:auto"],
    ["lines+squares:height,color:auto", "lines+squares:height,color:auto"],
    ["lines:color:declare", "lines:color:declare"],
    ["classic:losing-calls", "classic:losing-calls"],
    [encodeURIComponent("lines+squares:color:auto"), "lines+squares:color:auto"],
  ]) {
    const read = readAddress(`#/analyse/${text}/${position}`);
    assert.ok(read && "setup" in read, text);
    assert.equal(read.setup.rules, name);
  }
});

test("a position written loosely (small letters, more space) is read", () => {
  const read = readAddress(`#/analyse/quads/${encodeURIComponent("0f8./71.3/.a.2/59.6   c")}`);
  assert.deepEqual(read, { setup: { rules: "quads", ...readPosition(ENDGAME) } });
});

test("a position that cannot come about is still set up: the analysis says why", () => {
  // a piece twice, a piece in hand and on the board, a won shape under automatic calling
  for (const text of ["0000/..../..../.... -", "0.../..../..../.... 0", "0123/..../..../.... -"]) {
    const read = readAddress(`#/analyse/quads/${encodeURIComponent(text)}`);
    assert.ok(read && "setup" in read, text);
    assert.equal(read.setup.board[0], "0");
  }
});

/** What is wrong with `hash`, which must be one thing. @param {string} hash */
function broken(hash) {
  const read = readAddress(hash);
  assert.ok(read && "broken" in read, `${hash} is read as a position`);
  assert.equal(read.broken.length, 1, JSON.stringify(read.broken));
  for (const { key } of read.broken) assert.ok(Object.hasOwn(CATALOGUE, key), `${key} is in the catalogue`);
  return read.broken[0];
}

test("a position cut short says what it lacks", () => {
  const whole = encodeURIComponent(ENDGAME);
  // cut anywhere: a row short, the piece in hand missing, or in the middle of an escape
  for (let end = 1; end < whole.length; end += 1) {
    const cut = whole.slice(0, end);
    const read = readAddress(`#/analyse/quads/${cut}`);
    assert.ok(read && "broken" in read, cut);
  }
  assert.deepEqual(broken("#/analyse/quads/0F8.%2F71.3%2F.A"),
    { key: "error.invalid_position.malformed", params: { position: "0F8./71.3/.A" } });
  assert.deepEqual(broken(`#/analyse/quads/${encodeURIComponent("0F8./71.3/.A C")}`),
    { key: "error.invalid_position.rows", params: { position: "0F8./71.3/.A C" } });
  assert.equal(broken(`#/analyse/quads/${encodeURIComponent("0F8./71.3/.A.2/59.6")}`).key, "error.invalid_position.malformed");
  assert.equal(broken(`#/analyse/quads/${encodeURIComponent("0F8./71.3/.A.2/59.6 ")}`).key, "error.invalid_position.malformed");
  assert.deepEqual(broken("#/analyse/quads/0F8.%2F71.3%2F.A.2%2F59.6%2"), { key: "analyse.broken.escape", params: {} });
});

test("a garbled position names what is wrong", () => {
  assert.deepEqual(broken(`#/analyse/quads/${encodeURIComponent("0F8./71.3/.X.2/59.6 C")}`),
    { key: "error.invalid_position.character", params: { char: "X", cell: "B3" } });
  assert.deepEqual(broken(`#/analyse/quads/${encodeURIComponent("0F8./71.3/.A.2/59.6 CC")}`),
    { key: "error.invalid_position.hand", params: { hand: "CC" } });
  assert.equal(broken("#/analyse/quads/hello").key, "error.invalid_position.malformed");
  assert.equal(broken("#/analyse/quads/%E0%A4%A").key, "analyse.broken.escape");
  assert.equal(broken(`#/analyse/quads/${encodeURIComponent(ENDGAME)}/more`).key, "error.invalid_position.hand");
});

test("rules the page does not know are named", () => {
  const position = encodeURIComponent(ENDGAME);
  for (const rules of ["bogus", "qua", "lines+squares:colour:auto", "lines:auto:auto", "classic:free"]) {
    assert.deepEqual(broken(`#/analyse/${encodeURIComponent(rules)}/${position}`),
      { key: "analyse.broken.rules", params: { rules } });
  }
  assert.equal(broken("#/analyse/%ZZ").key, "analyse.broken.escape");
});

test("rules and position both broken: each is said", () => {
  assert.deepEqual(readAddress("#/analyse/adv/0F8.%2F71"), { broken: [
    { key: "analyse.broken.rules", params: { rules: "adv" } },
    { key: "error.invalid_position.malformed", params: { position: "0F8./71" } },
  ] });
  assert.deepEqual(readAddress("#/analyse/adv/0F8.%2"), { broken: [
    { key: "analyse.broken.rules", params: { rules: "adv" } },
    { key: "analyse.broken.escape", params: {} },
  ] });
  // one garbled address is said once
  assert.deepEqual(readAddress("#/analyse/qu%a/0F8.%2"), { broken: [{ key: "analyse.broken.escape", params: {} }] });
});

test("a completed shape is found with its cells: won under automatic calling", () => {
  const { board, hand } = readPosition("0123/..../..../.... -");
  assert.deepEqual(completedShapes(board, hand, "quads"),
    { shapes: ["row1"], cells: ["A1", "B1", "C1", "D1"], won: true });
});

test("under declared calling a completed shape is dead", () => {
  const { board, hand } = readPosition("0123/..../..../.... 4");
  assert.deepEqual(completedShapes(board, hand, "classic"),
    { shapes: ["row1"], cells: ["A1", "B1", "C1", "D1"], won: false });
});

test("every completed shape counts, squares only where the rules count them", () => {
  // row 1 and the square A1-B2 share "0" pieces' traits; classic counts lines only
  const { board, hand } = readPosition("0123/45../..../.... -");
  assert.deepEqual(completedShapes(board, hand, "quads").shapes, ["row1", "sqA1"]);
  assert.deepEqual(completedShapes(board, hand, "quads").cells, ["A1", "B1", "C1", "D1", "A2", "B2"]);
  assert.deepEqual(completedShapes(board, hand, "classic").shapes, ["row1"]);
  // one trait counts: 0, 1, 2 and 3 share a colour, 0, 1, 4 and 5 a shape
  assert.deepEqual(completedShapes(board, hand, "lines+squares:color:auto").shapes, ["row1"]);
  assert.deepEqual(completedShapes(board, hand, "lines+squares:shape:auto").shapes, ["sqA1"]);
});

test("a position without a completed shape, or one that cannot be read, marks none", () => {
  const none = { shapes: [], cells: [], won: false };
  let { board, hand } = readPosition(ENDGAME);
  assert.deepEqual({ ...completedShapes(board, hand, "quads"), won: false }, none);
  ({ board, hand } = readPosition("0000/..../..../.... -"));
  assert.deepEqual(completedShapes(board, hand, "quads"), none);
  assert.deepEqual(completedShapes(EMPTY, null, "bogus"), none);
});
