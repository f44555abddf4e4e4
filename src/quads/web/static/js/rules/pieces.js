// The sixteen pieces and their four traits.  A piece is a plain integer 0-15
// whose bits are its traits (bit 3 height, 2 colour, 1 shape, 0 top); it is
// written as one hex digit.  A set of pieces is a 16-bit mask.

import { InvalidPieceError, InvalidRulesError } from "./errors.js";
import { repr, str, strip } from "./text.js";

/** @typedef {"height" | "color" | "shape" | "top"} Trait */

/** The set of all sixteen pieces, as a mask. */
export const ALL_PIECES = 0xffff;

/** The four traits in their conventional order (high bit first), with their bits. */
export const TRAITS = Object.freeze(/** @type {const} */ (["height", "color", "shape", "top"]));

/** The bit of each trait within a piece code. */
export const TRAIT_BIT = Object.freeze({ height: 3, color: 2, shape: 1, top: 0 });

/** The trait of each bit, 0-3. */
export const BIT_TRAIT = Object.freeze(/** @type {const} */ (["top", "shape", "color", "height"]));

const HEX = "0123456789ABCDEF";
const HEX_DIGITS = "0123456789abcdefABCDEF";

/**
 * Whether `value` is a piece, 0-15.
 * @param {unknown} value
 * @returns {value is number}
 */
export function isPiece(value) {
  return Number.isInteger(value) && /** @type {number} */ (value) >= 0 && /** @type {number} */ (value) < 16;
}

/**
 * The piece written as the hex digit `text` (case-insensitive).
 * @param {string} text
 * @returns {number}
 * @throws {InvalidPieceError} if `text` is not a single hex digit
 */
export function parsePiece(text) {
  if (typeof text !== "string" || text.length !== 1 || !HEX_DIGITS.includes(text)) {
    throw new InvalidPieceError(`invalid piece ${repr(text)}: expected one hex digit 0-F`, "piece", { piece: str(text) });
  }
  return parseInt(text, 16);
}

/**
 * The hex digit of `piece`, upper-case.
 * @param {number} piece
 * @returns {string}
 * @throws {InvalidPieceError} if `piece` is not 0-15
 */
export function pieceName(piece) {
  if (!isPiece(piece)) {
    throw new InvalidPieceError(`invalid piece ${repr(piece)}: expected an integer 0-15`, "piece", { piece: str(piece) });
  }
  return HEX[piece];
}

/**
 * The trait named `text` (`height`, `color`, `shape` or `top`, any case, as
 * Python's `Trait.parse`).
 * @param {string} text
 * @returns {Trait}
 * @throws {InvalidRulesError} if `text` names no trait
 */
export function parseTrait(text) {
  const name = strip(text).toUpperCase().toLowerCase();
  const upper = strip(text).toUpperCase();
  if (["HEIGHT", "COLOR", "SHAPE", "TOP"].includes(upper)) return /** @type {Trait} */ (name);
  throw new InvalidRulesError(
    `unknown trait ${repr(text)}: expected one of height, color, shape, top`, "trait", { trait: text },
  );
}

/**
 * The `[trait, value]` pairs of the four traits of `piece`, high bit first.
 * @param {number} piece
 * @returns {[Trait, boolean][]}
 */
export function pieceTraits(piece) {
  pieceName(piece);
  return TRAITS.map((trait) => [trait, Boolean((piece >> TRAIT_BIT[trait]) & 1)]);
}
