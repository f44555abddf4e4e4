// What the review says of one turn and marks on its board: the value before and
// after the turn in few words ("draw → loss in 2", "win in 3, kept", "win in 1 →
// won"), and the cell and piece played with, where the turn threw something
// away, a better cell or piece.  Pure: tested with `node --test`.

import { t } from "../i18n.js";
import { readPosition } from "../position.js";
import { valueWords } from "../turn-values.js";

/**
 * A turn of a review (a ReviewView's turn, docs/web-api.md).
 * @typedef {{ place: string | null, give: string | null }} TurnRef
 * @typedef {{ ply: number, position: string, player: string, turn: TurnRef,
 *   before: string, before_plies: number | null, after: string, after_plies: number | null,
 *   best: TurnRef | null, threw_away: string | null }} ReviewTurn
 */

/**
 * The turn's value before and after it, in words: "draw → loss in 2"; "win in 3,
 * kept" when the turn kept the value the position had, to the placement; "win in 1
 * → won" when its placement won at once.
 * @param {ReviewTurn} turn
 */
export function turnValueWords(turn) {
  const before = valueWords({ value: turn.before, plies: turn.before_plies });
  if (turn.after === "win" && turn.after_plies === 1 && turn.turn.place) {
    return t("review.value.changed", { before, after: t("review.value.won") });
  }
  if (turn.after === turn.before && turn.after_plies === turn.before_plies && turn.before !== "unknown") {
    return t("review.value.kept", { value: before });
  }
  const after = valueWords({ value: turn.after, plies: turn.after_plies });
  return t("review.value.changed", { before, after });
}

/**
 * What the board of a turn marks: the cell played on and the piece handed over
 * (rings), the piece that was to be placed, and, only where the turn threw a win
 * or a draw away, the better cell and piece (dashed rings) that differ from the
 * ones played.
 * @param {ReviewTurn} turn
 */
export function turnMarks(turn) {
  const read = readPosition(turn.position);
  const better = turn.threw_away && turn.best ? turn.best : null;
  const betterCell = better && better.place && better.place !== turn.turn.place ? better.place : null;
  const betterPiece = better && better.give && better.give !== turn.turn.give ? better.give : null;
  return {
    placed: turn.turn.place ? (read ? read.hand : null) : null,
    cell: turn.turn.place,
    piece: turn.turn.give,
    betterCell,
    betterPiece,
  };
}

/**
 * The caption of the board of turn `number`: the board is the one before it;
 * each ring drawn is said, and no ring that is not drawn.
 * @param {number} number
 * @param {ReturnType<typeof turnMarks>} marks
 */
export function boardCaption(number, marks) {
  const parts = [t("review.board", { number })];
  if (marks.cell) parts.push(t("review.board.cell"));
  if (marks.piece) parts.push(t("review.board.piece"));
  if (marks.betterCell || marks.betterPiece) parts.push(t("review.board.better"));
  return parts.join(" ");
}
