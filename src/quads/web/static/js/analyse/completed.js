// The shapes already complete in a position set up on the analysis board: four
// pieces in a winning shape that share a counted trait.  Under automatic calling
// the game would be over (the position cannot come about: the shapes are won);
// under declared calling nobody called them, so they are dead and win nothing.
// No page, no network: tested by node (tests/js/analyse.test.mjs).

import { positionString } from "../position.js";
import { CELL_NAMES } from "../rules/cells.js";
import { QuadsError } from "../rules/errors.js";
import { Position } from "../rules/position.js";
import { Rules } from "../rules/rules.js";

/**
 * The completed shapes of `board` and `hand` under `rules` (a name): their ids, the
 * names of their cells (A1 .. D4, in reading order), and whether they are won (else
 * dead).  None for a position that cannot be read (a piece twice: the analysis says so).
 * @param {(string | null)[]} board
 * @param {string | null} hand
 * @param {string} rules
 * @returns {{ shapes: string[], cells: string[], won: boolean }}
 */
export function completedShapes(board, hand, rules) {
  let position;
  let read;
  try {
    position = Position.fromString(positionString(board, hand));
    read = Rules.parse(rules);
  } catch (error) {
    if (!(error instanceof QuadsError)) throw error;
    return { shapes: [], cells: [], won: false };
  }
  const shapes = position.winningShapes(read);
  const mask = shapes.reduce((cells, shape) => cells | shape.cells, 0);
  return {
    shapes: shapes.map((shape) => shape.id),
    cells: CELL_NAMES.filter((_, cell) => (mask >> cell) & 1),
    won: !read.declare,
  };
}
