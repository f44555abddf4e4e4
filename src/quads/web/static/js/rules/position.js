// An immutable position: the board, and the piece the side to move must place.
// The board is five 16-bit masks: the occupied cells, and for each trait bit the
// cells whose piece has that bit set.  A position knows nothing of the rule set;
// every question whose answer depends on it takes a Rules (or any value with
// `shapeMasks` and `traits`, e.g. a computer player's narrower view).
//
// Text form: `ROW1/ROW2/ROW3/ROW4 HAND`, e.g. `F..0/..A./..../.3.. 7`; HAND is
// `-` when the side to move must first hand over a piece.

import { bitsOf, popcount } from "./bits.js";
import { cellName, isCell } from "./cells.js";
import { IllegalActionError, InvalidPositionError } from "./errors.js";
import { ALL_PIECES, isPiece, pieceName } from "./pieces.js";
import { repr, splitWords } from "./text.js";
import { Turn } from "./turn.js";

/** @typedef {import("./rules.js").Rules} Rules */
/** @typedef {import("./shapes.js").Shape} Shape */
/**
 * What decides a win: the shapes that count and the counted traits.
 * @typedef {{ shapeMasks: readonly number[], traits: number }} WinCondition
 */

const HEX = "0123456789ABCDEF";
const HEX_DIGITS = "0123456789abcdefABCDEF";

/** PIECES_WITH[bit][value]: the pieces whose trait `bit` equals `value`, as a mask. */
const PIECES_WITH = [0, 1, 2, 3].map((bit) => [0, 1].map((value) => {
  let mask = 0;
  for (let p = 0; p < 16; p += 1) if (((p >> bit) & 1) === value) mask |= 1 << p;
  return mask;
}));

/**
 * The set of pieces whose trait `bit` equals `value`, as a mask.
 * @param {number} bit
 * @param {boolean} value
 */
export function piecesWith(bit, value) {
  return PIECES_WITH[bit][value ? 1 : 0];
}

/** A position as the side to move sees it. */
export class Position {
  /**
   * @param {number} occupied the occupied cells, as a mask
   * @param {readonly number[]} bits `bits[b]`: the cells whose piece has trait bit `b` set
   * @param {number | null} hand the piece to place, or null when a piece must be handed over first
   */
  constructor(occupied, bits, hand) {
    this.occupied = occupied;
    this.bits = Object.freeze([bits[0], bits[1], bits[2], bits[3]]);
    this.hand = hand;
    Object.freeze(this);
  }

  /**
   * Build a position from cells and pieces (a Map or a plain object of cell to piece).
   * @param {Map<number, number> | Record<number, number>} board
   * @param {number | null} [hand]
   * @returns {Position}
   * @throws {InvalidPositionError} if a piece appears twice, or a piece or cell is out of range
   */
  static fromPieces(board, hand = null) {
    let occupied = 0;
    const bits = [0, 0, 0, 0];
    let used = 0;
    const entries = board instanceof Map ? [...board] : Object.entries(board).map(([c, p]) => [Number(c), p]);
    for (const [cell, piece] of entries) {
      if (!isCell(cell) || !isPiece(piece)) {
        throw new InvalidPositionError(`invalid cell or piece (${repr(cell)}, ${repr(piece)})`, "out_of_range");
      }
      if ((used >> piece) & 1) {
        throw new InvalidPositionError(`piece ${HEX[piece]} appears twice`, "piece_twice", { piece: HEX[piece] });
      }
      used |= 1 << piece;
      occupied |= 1 << cell;
      for (let b = 0; b < 4; b += 1) if ((piece >> b) & 1) bits[b] |= 1 << cell;
    }
    if (hand !== null) {
      if (!isPiece(hand)) throw new InvalidPositionError(`invalid piece in hand ${repr(hand)}`, "out_of_range");
      if ((used >> hand) & 1) {
        throw new InvalidPositionError(`piece ${HEX[hand]} is in hand and on the board`, "hand_on_board", { piece: HEX[hand] });
      }
    }
    return new Position(occupied, bits, hand);
  }

  /**
   * Read a position string such as `F..0/..A./..../.3.. 7`, as Python's
   * Position.from_string reads it (any case, any whitespace between the parts).
   * @param {string} text
   * @returns {Position}
   * @throws {InvalidPositionError} if the string is malformed or a piece appears twice
   */
  static fromString(text) {
    if (typeof text !== "string") {
      throw new InvalidPositionError(`invalid position ${repr(text)}: expected a string`, "malformed");
    }
    const parts = splitWords(text);
    if (parts.length !== 2) {
      throw new InvalidPositionError(
        `invalid position ${repr(text)}: expected four rows and the piece in hand, e.g. '..../..../..../.... -'`,
        "malformed", { position: text },
      );
    }
    const [rowsText, handText] = parts;
    // Python counts characters (code points), not UTF-16 units.
    const rows = rowsText.split("/").map((row) => Array.from(row));
    if (rows.length !== 4 || rows.some((row) => row.length !== 4)) {
      throw new InvalidPositionError(
        `invalid position ${repr(text)}: the board must be four rows of four characters separated by '/'`,
        "rows", { position: text },
      );
    }
    /** @type {Map<number, number>} */
    const board = new Map();
    for (let r = 0; r < 4; r += 1) {
      for (let c = 0; c < 4; c += 1) {
        const char = rows[r][c];
        if (char === ".") continue;
        if (!HEX_DIGITS.includes(char)) {
          throw new InvalidPositionError(
            `invalid position ${repr(text)}: ${repr(char)} at ${cellName(r * 4 + c)} is neither '.' nor a hex digit`,
            "character", { char, cell: cellName(r * 4 + c) },
          );
        }
        board.set(r * 4 + c, parseInt(char, 16));
      }
    }
    /** @type {number | null} */
    let hand;
    if (handText === "-") hand = null;
    else if (Array.from(handText).length === 1 && HEX_DIGITS.includes(handText)) hand = parseInt(handText, 16);
    else {
      throw new InvalidPositionError(
        `invalid position ${repr(text)}: the piece in hand must be a hex digit or '-', not ${repr(handText)}`,
        "hand", { hand: handText },
      );
    }
    let position;
    try {
      position = Position.fromPieces(board, hand);
    } catch (error) {
      if (!(error instanceof InvalidPositionError)) throw error;
      throw new InvalidPositionError(`invalid position ${repr(text)}: ${error.message}`, error.reason, { ...error.params });
    }
    if (position.occupied === 0xffff && hand !== null) {
      throw new InvalidPositionError(`invalid position ${repr(text)}: the board is full`, "board_full");
    }
    return position;
  }

  // -- reading ---------------------------------------------------------------

  /**
   * The piece on `cell`, or null if it is empty.
   * @param {number} cell
   * @returns {number | null}
   */
  pieceAt(cell) {
    if (!((this.occupied >> cell) & 1)) return null;
    const [b0, b1, b2, b3] = this.bits;
    return ((b0 >> cell) & 1) | (((b1 >> cell) & 1) << 1) | (((b2 >> cell) & 1) << 2) | (((b3 >> cell) & 1) << 3);
  }

  /** The pieces on the board, by cell. @returns {Map<number, number>} */
  get board() {
    return new Map(bitsOf(this.occupied).map((cell) => [cell, /** @type {number} */ (this.pieceAt(cell))]));
  }

  /** The sixteen cells in reading order, each a piece or null. @returns {(number | null)[]} */
  get cells() {
    return Array.from({ length: 16 }, (_, cell) => this.pieceAt(cell));
  }

  /** The set of pieces on the board, as a mask. */
  get onBoard() {
    let used = 0;
    for (const cell of bitsOf(this.occupied)) used |= 1 << /** @type {number} */ (this.pieceAt(cell));
    return used;
  }

  /** The pieces on neither the board nor in hand, as a mask. */
  get supply() {
    let taken = this.onBoard;
    if (this.hand !== null) taken |= 1 << this.hand;
    return ALL_PIECES & ~taken;
  }

  /** The empty cells, as a mask. */
  get emptyCells() {
    return 0xffff & ~this.occupied;
  }

  /** The number of empty cells. */
  get emptyCount() {
    return 16 - popcount(this.occupied);
  }

  /** The position string, e.g. `F..0/..A./..../.3.. 7`. */
  toString() {
    const rows = [];
    for (let r = 0; r < 4; r += 1) {
      let row = "";
      for (let c = 0; c < 4; c += 1) {
        const piece = this.pieceAt(r * 4 + c);
        row += piece === null ? "." : HEX[piece];
      }
      rows.push(row);
    }
    return `${rows.join("/")} ${this.hand === null ? "-" : HEX[this.hand]}`;
  }

  /**
   * Whether `other` is the same position.
   * @param {Position} other
   */
  equals(other) {
    return this.occupied === other.occupied && this.hand === other.hand
      && this.bits.every((b, i) => b === other.bits[i]);
  }

  // -- shapes and wins -------------------------------------------------------

  /**
   * Whether the (full) cells of `mask` share a value of a counted trait.
   * @param {number} mask
   * @param {number} traits
   */
  shares(mask, traits) {
    for (let b = 0; b < 4; b += 1) {
      if ((traits >> b) & 1) {
        const ones = this.bits[b] & mask;
        if (ones === 0 || ones === mask) return true;
      }
    }
    return false;
  }

  /**
   * The counted `[trait bit, value]` pairs shared by every piece on `shape`, high bit first.
   * @param {Shape} shape
   * @param {Rules} rules
   * @returns {[number, boolean][]}
   */
  sharedValues(shape, rules) {
    const mask = shape.cells;
    /** @type {[number, boolean][]} */
    const shared = [];
    for (const b of [3, 2, 1, 0]) {
      if ((rules.traits >> b) & 1 && (this.occupied & mask) === mask) {
        const ones = this.bits[b] & mask;
        if (ones === mask) shared.push([b, true]);
        else if (ones === 0) shared.push([b, false]);
      }
    }
    return shared;
  }

  /**
   * The full shapes on the board whose four pieces share a counted trait.
   * @param {Rules} rules
   * @returns {Shape[]}
   */
  winningShapes(rules) {
    return rules.winningShapes.filter(
      (shape) => (this.occupied & shape.cells) === shape.cells && this.shares(shape.cells, rules.traits),
    );
  }

  /**
   * The winning shapes on the board that contain `cell`.
   * @param {number} cell
   * @param {Rules} rules
   */
  winningShapesThrough(cell, rules) {
    return this.winningShapes(rules).filter((shape) => (shape.cells >> cell) & 1);
  }

  /**
   * The empty cells where `piece` would complete a winning shape, as a mask.
   * @param {number} piece
   * @param {WinCondition} rules
   */
  winningCells(piece, rules) {
    const occ = this.occupied;
    let cells = 0;
    for (const mask of rules.shapeMasks) {
      const missing = mask & ~occ;
      if (missing && (missing & (missing - 1)) === 0) {
        for (let b = 0; b < 4; b += 1) {
          if ((rules.traits >> b) & 1) {
            const ones = this.bits[b] & mask;
            if ((ones === 0 && !((piece >> b) & 1)) || (ones === (mask & occ) && (piece >> b) & 1)) {
              cells |= missing;
              break;
            }
          }
        }
      }
    }
    return cells;
  }

  /**
   * Whether `piece` would complete a winning shape on some empty cell.
   * @param {number} piece
   * @param {WinCondition} rules
   */
  winsAnywhere(piece, rules) {
    return Boolean((this.danger(rules) >> piece) & 1);
  }

  /**
   * The pieces (on the board or not) that would complete a winning shape somewhere.
   * @param {WinCondition} rules
   */
  danger(rules) {
    const occ = this.occupied;
    let danger = 0;
    for (const mask of rules.shapeMasks) {
      const missing = mask & ~occ;
      if (missing && (missing & (missing - 1)) === 0) {
        const present = mask & occ;
        for (let b = 0; b < 4; b += 1) {
          if ((rules.traits >> b) & 1) {
            const ones = this.bits[b] & mask;
            if (ones === 0) danger |= PIECES_WITH[b][0];
            else if (ones === present) danger |= PIECES_WITH[b][1];
          }
        }
      }
    }
    return danger;
  }

  /**
   * The supply pieces that cannot complete a winning shape on any empty cell:
   * the pieces safe to hand over.
   * @param {WinCondition} rules
   */
  safePieces(rules) {
    return this.supply & ~this.danger(rules);
  }

  // -- moving ----------------------------------------------------------------

  /**
   * The position after placing the piece in hand on `cell` (the same side must now hand over).
   * @param {number} cell
   * @returns {Position}
   * @throws {IllegalActionError} if there is no piece in hand or the cell is taken
   */
  place(cell) {
    const name = cellName(cell);
    if (this.hand === null) {
      throw new IllegalActionError(
        `cannot place on ${name} in ${repr(this.toString())}: no piece in hand`, "give_first", { cell: name },
      );
    }
    if ((this.occupied >> cell) & 1) {
      throw new IllegalActionError(
        `cannot place on ${name} in ${repr(this.toString())}: the cell is taken`, "cell_taken", { cell: name },
      );
    }
    const bit = 1 << cell;
    const hand = this.hand;
    const [b0, b1, b2, b3] = this.bits;
    return new Position(
      this.occupied | bit,
      [b0 | (hand & 1 ? bit : 0), b1 | (hand & 2 ? bit : 0), b2 | (hand & 4 ? bit : 0), b3 | (hand & 8 ? bit : 0)],
      null,
    );
  }

  /**
   * The position after handing over `piece`, seen by the opponent.
   * @param {number} piece
   * @returns {Position}
   * @throws {IllegalActionError} if a piece must be placed first, or `piece` is not in the supply
   */
  give(piece) {
    const name = pieceName(piece);
    if (this.hand !== null) {
      throw new IllegalActionError(
        `cannot hand over ${name} in ${repr(this.toString())}: piece ${pieceName(this.hand)} must be placed first`,
        "place_first", { piece: name, hand: pieceName(this.hand) },
      );
    }
    if (!((this.supply >> piece) & 1)) {
      throw new IllegalActionError(
        `cannot hand over ${name} in ${repr(this.toString())}: it is not in the supply`, "not_in_supply", { piece: name },
      );
    }
    return new Position(this.occupied, this.bits, piece);
  }

  /**
   * The position after `turn` (a placement, a hand-over, or both).
   * @param {Turn} turn
   * @returns {Position}
   * @throws {IllegalActionError} if the turn is not legal here
   */
  play(turn) {
    /** @type {Position} */
    let position = this;
    if (turn.place !== null) position = position.place(turn.place);
    else if (this.hand !== null) {
      throw new IllegalActionError(
        `turn ${repr(turn.text)} in ${repr(this.toString())}: piece ${pieceName(this.hand)} must be placed first`,
        "place_first", { hand: pieceName(this.hand), turn: turn.text },
      );
    }
    if (turn.give !== null) position = position.give(turn.give);
    return position;
  }

  /** The cells where the piece in hand may go (none when nothing is in hand). */
  legalPlacements() {
    return this.hand === null ? [] : bitsOf(this.emptyCells);
  }

  /** The pieces that may be handed over (none while a piece must be placed). */
  legalHandovers() {
    return this.hand !== null ? [] : bitsOf(this.supply);
  }

  /**
   * Every legal whole turn, as a perfect player sees it: a placement that
   * completes a winning shape (or leaves nothing to hand over) comes without a
   * hand-over; on a `-` position the turns are hand-overs only.
   * @param {Rules} rules
   * @returns {Turn[]}
   */
  legalTurns(rules) {
    if (this.hand === null) return bitsOf(this.supply).map((piece) => new Turn(null, piece));
    const winning = this.winningCells(this.hand, rules);
    const supply = this.supply;
    const turns = [];
    for (const cell of bitsOf(this.emptyCells)) {
      if ((winning >> cell) & 1 || !supply) turns.push(new Turn(cell, null));
      else for (const piece of bitsOf(supply)) turns.push(new Turn(cell, piece));
    }
    return turns;
  }

  // -- validity --------------------------------------------------------------

  /**
   * Check that this position can arise in a game under `rules`: under `auto`
   * calling no winning shape may be on the board (under `declare` such shapes
   * are dead and allowed).
   * @param {Rules} rules
   * @throws {InvalidPositionError} if the position is impossible under `rules`
   */
  check(rules) {
    if (!rules.declare) {
      const shapes = this.winningShapes(rules);
      if (shapes.length) {
        throw new InvalidPositionError(
          `impossible position ${repr(this.toString())} under ${repr(rules.name)}: ${shapes[0].name} is already won`,
          "already_won", { shape: shapes[0].id },
        );
      }
    }
  }
}

/** The empty board at the start of a game: the first player must hand over a piece. */
export const EMPTY = new Position(0, [0, 0, 0, 0], null);
