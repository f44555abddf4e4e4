// Who plays, and how a game ends.

/** @typedef {"first" | "second"} Player  `first` hands over the first piece of the game. */
/** @typedef {"win" | "declaration" | "claim" | "false-call" | "full-board" | "resignation" | "time" | "abandonment" | "agreement" | "aborted"} Termination */
/** @typedef {import("./shapes.js").Shape} Shape */
/** @typedef {import("./pieces.js").Trait} Trait */

/** The first player: the one who hands over the first piece. */
export const FIRST = "first";
/** The other player. */
export const SECOND = "second";

/**
 * The opponent of `player`.
 * @param {Player} player
 * @returns {Player}
 */
export function other(player) {
  return player === FIRST ? SECOND : FIRST;
}

/** The end of a game: how, who won (null for a draw), and with what.  Immutable. */
export class Outcome {
  /**
   * @param {Termination} termination
   * @param {Player | null} winner
   * @param {readonly Shape[]} [shapes] the winning shapes (empty for a draw or a resignation)
   * @param {readonly [Trait, boolean][]} [traits] the counted trait values the winning shapes' pieces share
   */
  constructor(termination, winner, shapes = [], traits = []) {
    this.termination = termination;
    this.winner = winner;
    this.shapes = Object.freeze([...shapes]);
    this.traits = Object.freeze(traits.map((pair) => Object.freeze([...pair])));
    Object.freeze(this);
  }

  /** The result in record notation: `1-0`, `0-1`, `1/2-1/2` or, aborted, `*`. */
  get result() {
    if (this.termination === "aborted") return "*";
    if (this.winner === null) return "1/2-1/2";
    return this.winner === FIRST ? "1-0" : "0-1";
  }
}
