// Move text: one token per turn, with marks for calling a win (as Python's
// quads.notation writes and reads them):
//   7     hand over 7 (the first turn of a game)
//   A1F   place on A1, hand over F
//   A1!   place on A1 and win: declared, or at once under auto calling
//   A1?F  place on A1 completing a winning shape, hand over F without declaring
//   D4?   the sixteenth piece completes a shape, and its placer does not declare
//   !     claim the shape the opponent missed, before placing
//   A1xF  place on A1, declare with nothing to declare (a false call, under
//         forfeited false calls), hand over F
//   A1x   the same false declaration, under losing false calls: the game is lost
//   xB2F  a false claim (before placing, nothing to claim), then the turn
//   x     the same false claim, under losing false calls
//   D4    the sixteenth piece, no win; or, last in an unfinished game, a placement
//         whose hand-over is still to come
// The marks are checked against the game: a token that could be read two ways,
// or says something the board contradicts, is refused.

import { cellName, parseCell } from "./cells.js";
import { IllegalActionError, InvalidRecordError } from "./errors.js";
import { CLAIM, DECLARE, DECLINE, give, place } from "./game.js";
import { parsePiece, pieceName } from "./pieces.js";
import { repr } from "./text.js";

/** @typedef {import("./game.js").Action} Action */
/** @typedef {import("./game.js").GameState} GameState */
/** @typedef {import("./rules.js").Rules} Rules */

const TOKEN = /^(?<cell>[A-Da-d][1-4])?(?<mark>[!?xX])?(?<piece>[0-9A-Fa-f])?$/;

/**
 * Group a game's actions into tokens.  `states[i]` is the state before `actions[i]`.
 * An ending (a resignation, a loss on time, an abandonment, an abort) is not
 * written (the result says it).
 * @param {readonly GameState[]} states
 * @param {readonly (Action | import("./game.js").ResignAction)[]} actions
 * @returns {string[]}
 */
export function writeTokens(states, actions) {
  const tokens = [];
  let current = "";
  const n = Math.min(actions.length, states.length - 1);
  for (let i = 0; i < n; i += 1) {
    const [before, action, after] = [states[i], actions[i], states[i + 1]];
    if (action.type === "claim" && !before.claimable.length) {
      current = "x"; // a false claim: its turn follows in the same token
      if (after.outcome !== null) {
        tokens.push(current);
        current = "";
      }
    } else if (action.type === "claim") tokens.push("!");
    else if (action.type === "place") {
      current += cellName(action.cell);
      if (after.outcome !== null) {
        tokens.push(current + (after.outcome.termination === "win" ? "!" : ""));
        current = "";
      }
    } else if (action.type === "declare" && !before.declarable.length) {
      current += "x"; // a false declaration: the hand-over follows, if the game goes on
      if (after.outcome !== null) {
        tokens.push(current);
        current = "";
      }
    } else if (action.type === "declare") {
      tokens.push(`${current}!`);
      current = "";
    } else if (action.type === "decline") {
      tokens.push(`${current}?`);
      current = "";
    } else if (action.type === "give") {
      tokens.push(current + (before.declarable.length ? "?" : "") + pieceName(action.piece));
      current = "";
    }
  }
  if (current) tokens.push(current);
  return tokens;
}

/**
 * The actions a token stands for in `state`.  `last` says whether the token ends
 * the move text: only the last token may be a placement whose hand-over is still
 * to come.
 * @param {string} text
 * @param {GameState} state
 * @param {Rules} rules
 * @param {{ last: boolean }} options
 * @returns {Action[]}
 * @throws {InvalidRecordError} naming the token and why it cannot be played
 */
export function parseToken(text, state, rules, { last }) {
  /**
   * @param {string} why
   * @param {string} reason
   * @param {import("./errors.js").Params} [params]
   */
  const bad = (why, reason, params = {}) => new InvalidRecordError(`token ${repr(text)}: ${why}`, reason, { token: text, ...params });

  if (state.step === "over") throw bad("the game is already over", "after_end");
  if (text === "!") {
    if (!state.claimable.length) throw bad("there is no missed declaration to claim", "nothing_to_claim");
    return [CLAIM];
  }
  if ((text[0] === "x" || text[0] === "X") && state.step === "place") return falseClaim(text, state, rules, last, bad);
  const match = TOKEN.exec(text);
  if (match === null || !text) {
    throw bad("expected a cell and a piece (A1F), a piece alone (7) or a claim (!)", "unreadable");
  }
  const { cell: cellText, mark, piece: pieceText } = /** @type {Record<string, string | undefined>} */ (match.groups);
  const piece = pieceText ? parsePiece(pieceText) : null;
  if (cellText === undefined) {
    if (mark) throw bad(`the mark ${repr(mark)} follows a placement`, "mark_alone", { mark });
    if (state.step !== "give" || piece === null) throw expected(state, bad);
    return [give(piece)];
  }
  if (state.step !== "place") throw expected(state, bad);
  const cell = parseCell(cellText);
  let after;
  try {
    after = state.apply(place(cell), rules);
  } catch (error) {
    if (!(error instanceof IllegalActionError)) throw error;
    throw bad(error.message, error.reason, error.params);
  }
  /** @type {Action[]} */
  const actions = [place(cell)];
  const upper = cellText.toUpperCase();
  if (after.outcome === null && (mark === "x" || mark === "X")) return falseDeclaration(after, rules, actions, piece, last, bad, upper);
  if (after.outcome !== null) {
    const won = after.outcome.termination === "win";
    if (piece !== null) throw bad("the game ends with this placement; no piece can follow", "piece_after_end");
    if (won && mark !== "!") throw bad(`this placement wins; write ${upper}!`, "mark_win", { cell: upper });
    if (!won && mark) throw bad(`this placement completes no winning shape; drop the ${repr(mark)}`, "mark_without_shape", { mark });
    return actions;
  }
  if (after.declarable.length) {
    const names = after.declarable.map((shape) => shape.name).join(", ");
    if (mark === "!") {
      if (piece !== null) throw bad("a declaration ends the game; no piece can follow", "piece_after_end");
      return [...actions, DECLARE];
    }
    if (mark === "?") {
      if (piece === null) {
        if (after.position.supply) throw bad("a missed declaration is followed by the piece handed over", "missed_without_piece");
        return [...actions, DECLINE];
      }
      return [...actions, give(piece)];
    }
    if (piece !== null) {
      throw bad(
        `this placement completes ${names}: write ${upper}! to declare or ${upper}?${pieceName(piece)} for a missed declaration`,
        "mark_missing", { cell: upper, piece: pieceName(piece), shape: after.declarable[0].id },
      );
    }
  } else if (mark) {
    throw bad(`this placement completes no winning shape; drop the ${repr(mark)}`, "mark_without_shape", { mark });
  } else if (piece !== null) {
    return [...actions, give(piece)];
  }
  if (!last) throw bad("a placement must be followed by the piece handed over", "piece_missing");
  return actions;
}

/** @typedef {(why: string, reason: string, params?: import("./errors.js").Params) => InvalidRecordError} Bad */

/**
 * Apply `action` to `state`, an illegal one refused as the token's error.
 * @param {GameState} state
 * @param {Action} action
 * @param {Rules} rules
 * @param {Bad} bad
 */
function applied(state, action, rules, bad) {
  try {
    return state.apply(action, rules);
  } catch (error) {
    if (!(error instanceof IllegalActionError)) throw error;
    throw bad(error.message, error.reason, error.params);
  }
}

/**
 * The actions of a token that begins with `x`: a false claim, then the turn.
 * @param {string} text
 * @param {GameState} state
 * @param {Rules} rules
 * @param {boolean} last
 * @param {Bad} bad
 * @returns {Action[]}
 */
function falseClaim(text, state, rules, last, bad) {
  if (state.claimable.length) throw bad("this claim wins; write !", "claim_wins");
  const called = applied(state, CLAIM, rules, bad);
  const rest = text.slice(1);
  if (called.outcome !== null) {
    if (rest) throw bad("the false call ends the game; nothing can follow", "piece_after_end");
    return [CLAIM];
  }
  if (!rest) {
    if (!last) throw bad("a false claim is written with the turn that follows it (xA1F)", "false_claim_alone");
    return [CLAIM];
  }
  return [CLAIM, ...parseToken(rest, called, rules, { last })];
}

/**
 * The actions of a placement on `cell` marked `x` (a false declaration), then `piece`.
 * @param {GameState} after
 * @param {Rules} rules
 * @param {Action[]} actions
 * @param {number | null} piece
 * @param {boolean} last
 * @param {Bad} bad
 * @param {string} cell the placement's cell, as the token wrote it (upper case)
 * @returns {Action[]}
 */
function falseDeclaration(after, rules, actions, piece, last, bad, cell) {
  if (after.declarable.length) {
    throw bad(`this placement completes a winning shape: a declaration wins; write ${cell}!`, "mark_win", { cell });
  }
  const called = applied(after, DECLARE, rules, bad);
  const done = [...actions, DECLARE];
  if (called.outcome !== null) {
    if (piece !== null) throw bad("the false call ends the game; no piece can follow", "piece_after_end");
    return done;
  }
  if (piece !== null) return [...done, give(piece)];
  if (!last) throw bad("a placement must be followed by the piece handed over", "piece_missing");
  return done;
}

/**
 * @param {GameState} state
 * @param {Bad} bad
 */
function expected(state, bad) {
  if (state.step === "give") return bad("a piece must be handed over here, without a placement", "expected_give");
  const hand = pieceName(/** @type {number} */ (state.position.hand));
  return bad(`piece ${hand} must be placed here: expected a cell first`, "expected_place", { hand });
}
