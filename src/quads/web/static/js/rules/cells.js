// The sixteen cells of the board.  A cell is a plain integer 0-15:
// (row - 1) * 4 + column, columns A-D left to right, rows 1-4 top to bottom, so
// A1 is 0 and D4 is 15.  A set of cells is a 16-bit mask.

import { InvalidCellError } from "./errors.js";
import { repr, str } from "./text.js";

/** The names of the cells, by index: `A1`, `B1`, ... `D4`. */
export const CELL_NAMES = Object.freeze(
  Array.from({ length: 16 }, (_, c) => `${"ABCD"[c % 4]}${Math.floor(c / 4) + 1}`),
);
const BY_NAME = new Map(CELL_NAMES.map((name, cell) => [name, cell]));

/**
 * Whether `value` is a cell index, 0-15.
 * @param {unknown} value
 * @returns {value is number}
 */
export function isCell(value) {
  return Number.isInteger(value) && /** @type {number} */ (value) >= 0 && /** @type {number} */ (value) < 16;
}

/**
 * The cell in `column` (0-3, A-D) and `row` (0-3, rows 1-4).
 * @param {number} column
 * @param {number} row
 * @returns {number}
 */
export function makeCell(column, row) {
  if (!(Number.isInteger(column) && Number.isInteger(row) && column >= 0 && column < 4 && row >= 0 && row < 4)) {
    throw new InvalidCellError(`invalid cell coordinates (${column}, ${row})`, "cell", { cell: `${column},${row}` });
  }
  return row * 4 + column;
}

/**
 * The cell named `text` (`A1` .. `D4`, case-insensitive).
 * @param {string} text
 * @returns {number}
 * @throws {InvalidCellError} if `text` names no cell
 */
export function parseCell(text) {
  const cell = typeof text === "string" ? BY_NAME.get(text.toUpperCase()) : undefined;
  if (cell === undefined) {
    throw new InvalidCellError(`invalid cell ${repr(text)}: expected A1 .. D4`, "cell", { cell: str(text) });
  }
  return cell;
}

/**
 * The name of `cell`, e.g. `B3`.
 * @param {number} cell
 * @returns {string}
 * @throws {InvalidCellError} if `cell` is not 0-15
 */
export function cellName(cell) {
  if (!isCell(cell)) {
    throw new InvalidCellError(`invalid cell ${repr(cell)}: expected an integer 0-15`, "cell", { cell: str(cell) });
  }
  return CELL_NAMES[cell];
}
