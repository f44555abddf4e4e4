// The rules of Quads in the page: one copy, shared by the offline game and the
// screens, proven equal to Python's library (tests/js/rules.test.mjs).  Plain
// integers and bitmasks under small immutable values; no DOM, no network, so it
// runs in a page, a Web Worker and node alike.

export { FULL, bitsOf, lsb, popcount } from "./bits.js";
export { CELL_NAMES, cellName, isCell, makeCell, parseCell } from "./cells.js";
export {
  IllegalActionError, InvalidCellError, InvalidPieceError, InvalidPositionError, InvalidRecordError,
  InvalidRulesError, QuadsError,
} from "./errors.js";
export {
  CLAIM, DECLARE, DECLINE, Game, GameState, actionText, give, parseAction, place, resignation, sameAction,
} from "./game.js";
export { parseToken, writeTokens } from "./notation.js";
export { FIRST, Outcome, SECOND, other } from "./outcome.js";
export { perft } from "./perft.js";
export {
  ALL_PIECES, BIT_TRAIT, TRAITS, TRAIT_BIT, isPiece, parsePiece, parseTrait, pieceName, pieceTraits,
} from "./pieces.js";
export { EMPTY, Position, piecesWith } from "./position.js";
export { RESIGNATION, RESULTS, readRecord, writeRecord } from "./record.js";
export { ADVANCED, ALL_TRAITS, CLASSIC, PRESETS, QUADS, Rules, parseTraits } from "./rules.js";
export { LINES, SHAPES, SQUARES, shapeById } from "./shapes.js";
export { Turn } from "./turn.js";
