// The 4 x 4 board: sixteen buttons, A1 top left to D4 bottom right.
//
// A cell can be pressed when the view says a piece is to be placed (the caller
// passes `canPlace`); every cell stays focusable so that the board can be
// explored by keyboard and screen reader at any time.

import { t } from "./i18n.js";
import { pieceLabel, pieceSvg } from "./pieces.js";
import { prefersReducedMotion } from "./reveal.js";
import { focusItem, makeRoving, restoreTabStop } from "./roving.js";
import { CELL_NAMES } from "./rules/cells.js";
import { markValue } from "./turn-values.js";

/** The names of the cells, A1 to D4, in reading order (the rules' cell indices). */
export const CELLS = CELL_NAMES;

const LANDING_MS = 420; // how long a placed piece takes to drop in

export class Board {
  /** `container` is an empty element; `onPlace(cell)` is called when a free cell is pressed. */
  constructor(container, onPlace) {
    this.container = container;
    this.onPlace = onPlace;
    this.canPlace = false;
    this.landing = null; // {cell, since}: the piece dropping in
    makeRoving(container, () => 4);
    container.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button || !this.canPlace || button.getAttribute("aria-disabled") === "true") return;
      this.onPlace(button.dataset.key);
    });
  }

  /**
   * Draw `board` (sixteen hex digits or nulls).  Options:
   * canPlace, last (cell placed last), winning (cells of the win),
   * arrived (a cell where a piece has just landed: it drops in), hint (a cell),
   * marked (cells to point at, as the tutorial does), values (the analysis:
   * the best turn through each cell, by cell name), everyCell (every cell can
   * be pressed, a piece on it too: the analysis board sets up positions).
   * @param {(string | null)[]} board
   * @param {{ canPlace?: boolean, last?: string | null, winning?: string[], arrived?: string | null,
   *   hint?: string | null, marked?: string[],
   *   values?: Record<string, import("./turn-values.js").ValuedTurn> | null, everyCell?: boolean }} [options]
   */
  render(board, {
    canPlace = false, last = null, winning = [], arrived = null, hint = null, marked = [], values = null,
    everyCell = false,
  } = {}) {
    this.canPlace = canPlace || everyCell;
    const focused = document.activeElement;
    const focusedKey = focused instanceof HTMLElement && this.container.contains(focused)
      ? focused.dataset.key
      : null;
    const buttons = CELLS.map((cell, index) => {
      const piece = board[index];
      const button = document.createElement("button");
      button.type = "button";
      button.className = "cell";
      button.dataset.key = cell;
      let label = piece ? t("cell.piece", { cell, piece: pieceLabel(piece) }) : t("cell.empty", { cell });
      if (piece) {
        button.dataset.piece = piece;
        button.append(pieceSvg(piece));
      }
      if (cell === last) {
        button.classList.add("last");
        label = t("cell.last", { label });
      }
      if (winning.includes(cell)) {
        button.classList.add("winning");
        label = t("cell.winning", { label });
      }
      if (cell === hint) button.classList.add("hinted");
      if (marked.includes(cell) && !winning.includes(cell)) button.classList.add("marked");
      if (values && values[cell] && !piece) label += `, ${markValue(button, values[cell])}`;
      const playable = (canPlace && !piece) || everyCell;
      button.setAttribute("aria-disabled", String(!playable));
      if (playable) button.classList.add("playable");
      button.setAttribute("aria-label", label);
      return button;
    });
    this.container.replaceChildren(...buttons);
    if (arrived) this.landing = { cell: arrived, since: performance.now() };
    this.animateLanding();
    const firstFree = CELLS.find((_, index) => !board[index]);
    restoreTabStop(this.container, firstFree);
    // Keep the focus on the same cell after drawing anew, without scrolling.
    if (focusedKey) {
      focusItem(this.container, this.container.querySelector(`[data-key="${focusedKey}"]`), { preventScroll: true });
    }
  }

  /**
   * Let the piece that has just landed drop in.  The board is drawn anew on
   * every change, so a drawing during the drop continues it where it was
   * rather than starting it over or cutting it short.  Nothing moves under
   * prefers-reduced-motion.
   */
  animateLanding() {
    const landing = this.landing;
    if (!landing) return;
    const elapsed = performance.now() - landing.since;
    const piece = this.container.querySelector(`[data-key="${landing.cell}"] .piece`);
    if (elapsed >= LANDING_MS || !piece || prefersReducedMotion() || !piece.animate) {
      this.landing = null;
      return;
    }
    piece.animate(
      [
        { transform: "translateY(-30%) scale(1.15)", opacity: 0 },
        { transform: "none", opacity: 1 },
      ],
      { duration: LANDING_MS, delay: -elapsed, easing: "ease-out", fill: "backwards" },
    );
  }

  /** Put the keyboard focus on the board: on the first free cell when one is to be placed. */
  focus(options = {}) {
    const free = this.container.querySelector("button.playable");
    focusItem(this.container, free || this.container.querySelector('button[tabindex="0"]'), options);
  }
}
