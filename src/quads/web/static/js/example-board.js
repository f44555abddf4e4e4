// A small board that only shows a position: not a control, one picture with a
// label.  The learning pages draw their examples with it, and the review of a
// game the board before the turn chosen.

import { t } from "./i18n.js";
import { pieceLabel, pieceSvg } from "./pieces.js";
import { readPosition } from "./position.js";
import { CELL_NAMES } from "./rules/cells.js";

/** A new element `tag` with the class `className`. */
function element(tag, className) {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

/**
 * The board of `position` (a position string); `cells` (names, e.g. "A1") are marked,
 * in gold when they make a win (`win`); `counts`, one number per cell, are written in
 * the cells.
 * @param {string} position
 * @param {{ cells?: string[], win?: boolean, counts?: number[] | null }} [options]
 */
export function exampleBoard(position, { cells = [], win = false, counts = null } = {}) {
  const read = readPosition(position);
  if (!read) throw new Error(`not a position: ${position}`);
  const { board } = read;
  const grid = element("div", "mini-board");
  grid.setAttribute("role", "img");
  const described = [];
  CELL_NAMES.forEach((cell, index) => {
    const piece = board[index];
    const node = element("div", "cell");
    node.dataset.key = cell;
    if (piece) {
      node.dataset.piece = piece;
      node.append(pieceSvg(piece));
      described.push(t("cell.piece", { cell, piece: pieceLabel(piece) }));
    }
    if (counts) {
      const count = element("span", "cell-count");
      count.textContent = String(counts[index]);
      node.append(count);
      node.dataset.count = String(counts[index]);
    }
    if (cells.includes(cell)) node.classList.add(win ? "winning" : "marked");
    grid.append(node);
  });
  let label = described.length ? t("learn.board.label", { cells: described.join("; ") }) : t("learn.board.empty");
  if (cells.length) label += " " + t("learn.board.marked", { cells: cells.join(", ") });
  grid.setAttribute("aria-label", label);
  return grid;
}
