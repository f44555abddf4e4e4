// The moves of the game shown, for people: each token of the record ("A1F") worded as a
// player would say it ("on A1, then hands over tall dark square hollow"), each a
// button that shows the board as it was after that move.  Stepping back and forward
// (the buttons under the list, or ← and → in it) changes only what the board shows:
// the game itself goes on, and "Back to the game" shows it as it stands.

import { t } from "../i18n.js";
import { pieceLabel } from "../pieces.js";
import { Game, Rules, parseToken } from "../rules/index.js";

const TOKEN = /^(?<claim>[xX!])?(?<cell>[A-Da-d][1-4])?(?<mark>[!?xX])?(?<piece>[0-9A-Fa-f])?$/;

/** The words of one move token ("A1F", "7", "!", "A1?F", "xB2F" …), or the token itself. */
export function moveWords(token) {
  const match = TOKEN.exec(token);
  if (!match || !token) return token;
  const { claim, cell, mark, piece } = /** @type {Record<string, string | undefined>} */ (match.groups);
  const parts = [];
  if (claim === "!" && !cell && !piece) return t("moves.claim");
  if (claim === "x" || claim === "X") parts.push(t("moves.false_claim"));
  const given = piece ? pieceLabel(piece.toUpperCase()) : null;
  if (cell) {
    const name = cell.toUpperCase();
    if (mark === "!") parts.push(t("moves.win", { cell: name }));
    else if (mark === "?") parts.push(t(given ? "moves.missed_give" : "moves.missed", { cell: name, piece: given }));
    else if (mark === "x" || mark === "X") parts.push(t(given ? "moves.false_give" : "moves.false", { cell: name, piece: given }));
    else parts.push(t(given ? "moves.place_give" : "moves.place", { cell: name, piece: given }));
  } else if (given) {
    parts.push(t("moves.give", { piece: given }));
  }
  return parts.join(" ");
}

/**
 * The board after each move of `tokens` under the rule set `rules` (its name): for each
 * token, the 16 cells (a hex digit or null) and the cell placed on, if any; shorter if
 * a token cannot be read (the moves before it are kept).
 * @param {string} rules
 * @param {readonly string[]} tokens
 * @returns {{ board: (string | null)[], placed: string | null }[]}
 */
export function boardsAfter(rules, tokens) {
  const boards = [];
  let parsed;
  try {
    parsed = Rules.parse(rules);
  } catch {
    return boards;
  }
  const game = new Game(parsed);
  tokens.forEach((token, index) => {
    if (boards.length < index) return; // a token before could not be read
    try {
      const actions = parseToken(token, game.state, parsed, { last: index === tokens.length - 1 });
      for (const action of actions) game.apply(action);
    } catch {
      return;
    }
    const cells = game.position.cells.map((piece) => (piece === null ? null : piece.toString(16).toUpperCase()));
    const cell = /^[xX!]?([A-Da-d][1-4])/.exec(token);
    boards.push({ board: cells, placed: cell ? cell[1].toUpperCase() : null });
  });
  return boards;
}

/** Which move the board shows: `at` null while it shows the game as it stands. */
export class MoveHistory {
  /** `changed()` has the screen drawn again. */
  constructor(changed) {
    this.changed = changed;
    /** @type {number | null} the index of the move shown, or null: the game as it stands */
    this.at = null;
    this.key = "";
    /** @type {string | null} the game whose moves these are */
    this.game = null;
    /** @type {{ board: (string | null)[], placed: string | null }[]} */
    this.boards = [];
  }

  /** The boards of `view`'s moves (read again only when the moves changed). */
  follow(view) {
    const key = `${view.id}|${view.rules}|${view.moves.join(" ")}`;
    if (key === this.key) return;
    if (view.id !== this.game) this.at = null; // another game: shown as it stands
    this.game = view.id;
    this.key = key;
    this.boards = boardsAfter(view.rules, view.moves);
    if (this.at !== null && this.at >= this.boards.length) this.at = null;
  }

  /** Show the board after move `index` (null: the game as it stands). */
  show(index) {
    this.at = index;
    this.changed();
  }

  /** One move back (-1) or forward (+1); forward past the last move is the game itself. */
  step(delta) {
    const last = this.boards.length - 1;
    if (last < 0) return;
    const from = this.at === null ? last + 1 : this.at;
    const to = Math.min(Math.max(from + delta, 0), last + 1);
    this.at = to > last ? null : to;
    this.changed();
  }

  /** Forget the game left. */
  close() {
    this.at = null;
    this.game = null;
    this.key = "";
    this.boards = [];
  }
}
