// The marks of the analysis: each cell or piece shows the value of the best
// turn through it for the player to move, by colour and by a short text
// (W3: win in 3 placements, D: draw, L5: loss in 5), so that nothing depends
// on colour alone; its spoken label says it in words.

import { t } from "./i18n.js";

/**
 * A turn with its value, as GET /api/analysis and the review give it: the cell
 * placed on and the piece handed over (names, or null), the value for the player
 * making it, and the placements to the end.
 * @typedef {{ place?: string | null, give?: string | null, value: string, plies?: number | null }} ValuedTurn
 */

/**
 * The best turn through each cell and through each piece handed over.
 * @typedef {{ cells: Record<string, ValuedTurn>, pieces: Record<string, ValuedTurn> }} Marks
 */

/**
 * The best value through each cell and through each piece handed over, from
 * the moves of GET /api/analysis (best first): {cells: {A1: move}, pieces: {}}.
 * @param {ValuedTurn[]} moves
 * @returns {Marks}
 */
export function valuesByTarget(moves) {
  /** @type {Record<string, ValuedTurn>} */
  const cells = {};
  /** @type {Record<string, ValuedTurn>} */
  const pieces = {};
  for (const move of moves) {
    if (move.place && !(move.place in cells)) cells[move.place] = move;
    if (!move.place && move.give && !(move.give in pieces)) pieces[move.give] = move;
  }
  return { cells, pieces };
}

/**
 * The value in words: "win in 3", "draw", "loss in 5" or "not worked out".
 * @param {{ value: string, plies?: number | null }} move
 */
export function valueWords(move) {
  if (move.value === "win" || move.value === "loss") return t(`analysis.${move.value}`, { plies: move.plies });
  return t(`analysis.${move.value}`);
}

/**
 * Put the mark of `move` on `button`; return the words to add to its label.
 * @param {HTMLElement} button
 * @param {ValuedTurn} move
 */
export function markValue(button, move) {
  button.classList.add("valued", `value-${move.value}`);
  const mark = document.createElement("span");
  mark.className = "value-mark";
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = t(`analysis.mark.${move.value}`, { plies: move.plies });
  button.append(mark);
  return valueWords(move);
}
