// The shapes that can win: rows, columns, diagonals and 2x2 squares.  Each
// shape holds the mask of its four cells; a rule set wins with LINES (10) or
// SHAPES (19).  The order and the identifiers are those of Python's library.

import { CELL_NAMES } from "./cells.js";

/** @typedef {"row" | "column" | "diagonal" | "square"} ShapeKind */
/**
 * @typedef {object} Shape
 * @property {number} index position in SHAPES, and the bit of the shape in a shape mask
 * @property {ShapeKind} kind
 * @property {string} id a short stable identifier: `row1`, `colA`, `diagA1`, `diagD1`, `sqB2` ...
 * @property {number} cells the mask of the four cells
 * @property {string} name the English name, e.g. `row 2`, `diagonal A1-D4`, `square B2-C3`
 */

/** @param {number[]} cells */
const mask = (cells) => cells.reduce((m, c) => m | (1 << c), 0);

/**
 * @param {ShapeKind} kind
 * @param {number} cells
 * @returns {string}
 */
function englishName(kind, cells) {
  const names = CELL_NAMES.filter((_, c) => (cells >> c) & 1);
  const first = names[0];
  const last = names[names.length - 1];
  if (kind === "row") return `row ${first[1]}`;
  if (kind === "column") return `column ${first[0]}`;
  if (kind === "diagonal") return first === "A1" ? "diagonal A1-D4" : "diagonal D1-A4";
  return `square ${first}-${last}`;
}

/** @returns {Shape[]} */
function build() {
  /** @type {[ShapeKind, string, number][]} */
  const list = [];
  for (let row = 0; row < 4; row += 1) list.push(["row", `row${row + 1}`, mask([0, 1, 2, 3].map((c) => row * 4 + c))]);
  for (let col = 0; col < 4; col += 1) list.push(["column", `col${"ABCD"[col]}`, mask([0, 1, 2, 3].map((r) => r * 4 + col))]);
  list.push(["diagonal", "diagA1", mask([0, 5, 10, 15])]);
  list.push(["diagonal", "diagD1", mask([3, 6, 9, 12])]);
  for (let row = 0; row < 3; row += 1) {
    for (let col = 0; col < 3; col += 1) {
      const top = row * 4 + col;
      list.push(["square", `sq${CELL_NAMES[top]}`, mask([top, top + 1, top + 4, top + 5])]);
    }
  }
  return list.map(([kind, id, cells], index) => Object.freeze({ index, kind, id, cells, name: englishName(kind, cells) }));
}

/** All 19 shapes: rows 1-4, columns A-D, the two diagonals, then the nine squares. */
export const SHAPES = Object.freeze(build());
/** The ten lines. */
export const LINES = Object.freeze(SHAPES.slice(0, 10));
/** The nine 2x2 squares. */
export const SQUARES = Object.freeze(SHAPES.slice(10));

const BY_ID = new Map(SHAPES.map((shape) => [shape.id.toLowerCase(), shape]));

/**
 * The shape with identifier `id` (e.g. `row1`, `sqB2`, any case), or undefined.
 * @param {string} id
 * @returns {Shape | undefined}
 */
export function shapeById(id) {
  return BY_ID.get(id.toLowerCase());
}
