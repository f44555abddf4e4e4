// A turn: place the piece in hand on a cell, then hand over a piece.  Its text:
// `A1F` places on A1 and hands over F; `7` is a hand-over alone (the first turn
// of a game); `D4` a placement with nothing handed over (the game ends with it).

import { cellName, parseCell } from "./cells.js";
import { InvalidCellError, InvalidPieceError, QuadsError } from "./errors.js";
import { parsePiece, pieceName } from "./pieces.js";
import { repr, strip } from "./text.js";

/** A placement and/or a hand-over.  Immutable. */
export class Turn {
  /**
   * @param {number | null} place the cell, or null
   * @param {number | null} give the piece handed over, or null
   * @throws {QuadsError} if both are null, or one is out of range
   */
  constructor(place, give) {
    if (place === null && give === null) {
      throw new QuadsError("invalid turn: it places a piece, hands one over, or both", "turn");
    }
    if (place !== null) cellName(place);
    if (give !== null) pieceName(give);
    this.place = place;
    this.give = give;
    Object.freeze(this);
  }

  /** The turn as text: `A1F`, `7` or `D4`. */
  get text() {
    return (this.place === null ? "" : cellName(this.place)) + (this.give === null ? "" : pieceName(this.give));
  }

  toString() {
    return this.text;
  }

  /**
   * Read a turn written as `A1F`, `7` or `D4`.
   * @param {string} text
   * @returns {Turn}
   * @throws {InvalidCellError | InvalidPieceError} if a part is wrong
   */
  static parse(text) {
    const word = strip(text);
    const chars = Array.from(word); // Python counts code points
    if (chars.length === 1) return new Turn(null, parsePiece(word));
    if (chars.length === 2) return new Turn(parseCell(word), null);
    if (chars.length === 3) return new Turn(parseCell(chars[0] + chars[1]), parsePiece(chars[2]));
    const why = `invalid turn ${repr(word)}: expected a cell and a piece, e.g. A1F`;
    if (chars.length && "ABCD".includes(chars[0].toUpperCase())) throw new InvalidCellError(why, "turn", { turn: word });
    throw new InvalidPieceError(why, "turn", { turn: word });
  }
}
