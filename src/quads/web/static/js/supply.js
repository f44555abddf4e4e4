// The supply: the pieces on neither the board nor in hand, in a fixed order
// (0 to F) so that a piece never jumps around.  When a piece is to be handed
// over, pressing one hands it over; safe pieces can be marked.

import { t } from "./i18n.js";
import { pieceLabel, pieceSvg } from "./pieces.js";
import { focusItem, makeRoving, restoreTabStop } from "./roving.js";
import { markValue } from "./turn-values.js";

export class Supply {
  /** `container` is an empty element; `onGive(piece)` is called when a piece is pressed. */
  constructor(container, onGive) {
    this.container = container;
    this.onGive = onGive;
    this.canGive = false;
    makeRoving(container, () => this.columns());
    container.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button || !this.canGive) return;
      this.onGive(button.dataset.key);
    });
  }

  /** How many pieces one row of the grid holds at the current width. */
  columns() {
    const template = getComputedStyle(this.container).gridTemplateColumns;
    return Math.max(1, template.split(" ").filter(Boolean).length);
  }

  /**
   * Draw the pieces of `supply`.  Options: canGive, safe (pieces to mark as
   * safe, or null to mark none), hint (a piece), values (the analysis: each
   * piece's value when handed over, by piece).
   * @param {string[]} supply the pieces, hex digits
   * @param {{ canGive?: boolean, safe?: string[] | null, hint?: string | null,
   *   values?: Record<string, import("./turn-values.js").ValuedTurn> | null }} [options]
   */
  render(supply, { canGive = false, safe = null, hint = null, values = null } = {}) {
    this.canGive = canGive;
    const focused = document.activeElement;
    const focusedKey = focused instanceof HTMLElement && this.container.contains(focused)
      ? focused.dataset.key
      : null;
    const buttons = [...supply].sort().map((piece) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "supply-piece";
      button.dataset.key = piece;
      button.append(pieceSvg(piece));
      let label = pieceLabel(piece);
      if (safe && safe.includes(piece)) {
        button.classList.add("safe");
        const badge = document.createElement("span");
        badge.className = "safe-badge";
        badge.setAttribute("aria-hidden", "true");
        badge.textContent = "✓";
        button.append(badge);
        label += `, ${t("safe.badge")}`;
      }
      if (piece === hint) button.classList.add("hinted");
      if (values && values[piece]) label += `, ${markValue(button, values[piece])}`;
      button.setAttribute("aria-disabled", String(!canGive));
      if (canGive) button.classList.add("playable");
      button.setAttribute("aria-label", label);
      return button;
    });
    this.container.replaceChildren(...buttons);
    restoreTabStop(this.container);
    // Keep the focus in the supply after drawing anew (on the same piece if
    // it is still there), without scrolling.
    if (focusedKey) {
      const again = this.container.querySelector(`[data-key="${focusedKey}"]`);
      if (again) focusItem(this.container, again, { preventScroll: true });
      else this.focus({ preventScroll: true });
    }
  }

  focus(options = {}) {
    focusItem(this.container, this.container.querySelector('button[tabindex="0"]'), options);
  }
}
