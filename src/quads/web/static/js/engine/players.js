// The five computer levels in the page, as the Python library's quads.players
// plays them, over the page's rules (../rules/) and the WebAssembly kernel:
//
//   1 beginner  overlooks some traits and shapes each turn (simple.py)
//   2 casual    takes every win it sees, hands over a safe piece, else any turn
//   3 club      the tightest squeeze: fewest replies that keep the opponent a safe piece
//   4 expert    solves within a small node budget once 12 cells are empty, else squeezes
//   5 perfect   the opening book, then the solver (8,000,000 nodes); from a draw, the
//               drawing squeeze whose likely replies lose most often (strong.py)
//
//   await computerActions(engine, game, 5, { seed })   // -> ["place A1", "give F"]
//
// Budgets are nodes, never seconds, and the randomness is seeded: the same seed
// replays the same turn.  Level 5 searches exactly as Python's level 5 does (same
// groups, windows, tables and budgets: solver.js), so it plays the same turns
// wherever Python's does not draw at random; its random draws come from a small
// generator of its own (Random below), not from Python's.

import { bitsOf, popcount } from "../rules/bits.js";
import { IllegalActionError, QuadsError } from "../rules/errors.js";
import { DECLARE, CLAIM, actionText, give as giveAction, place as placeAction } from "../rules/game.js";
import { repr } from "../rules/text.js";
import { Turn } from "../rules/turn.js";
import { readGame } from "./engine.js";
import { solve } from "./solver.js";

/** A small seeded generator (splitmix32 over the seed): random() in [0, 1). */
export class Random {
  /** @param {number | null | undefined} seed any safe integer; none: a random seed */
  constructor(seed) {
    const state = seed === null || seed === undefined
      ? Math.floor(Math.random() * 2 ** 32)
      : Math.imul(Math.floor(seed / 2 ** 32), 0x9e3779b9) ^ (seed >>> 0);
    this.state = state >>> 0;
    for (let i = 0; i < 4; i += 1) this.next();
  }

  next() {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** A number in [0, 1). */
  random() {
    return this.next() / 2 ** 32;
  }

  /** A random element of a non-empty LIST. */
  choice(list) {
    return list[Math.floor(this.random() * list.length)];
  }
}

/** The seed of the computer's turn at PLY in a game of SEED (as the server's play.turn_seed). */
export function turnSeed(seed, ply) {
  return seed * 64 + ply;
}

function pick(random, mask) {
  return random.choice(bitsOf(mask));
}

// -- the squeeze (club.py) -------------------------------------------------------

/** How many placements of PIECE (handed over in POSITION) leave the receiver a safe
 * piece to hand back; 16 for the last piece (Python's replies_with_a_safe_piece). */
export function repliesWithASafePiece(position, piece, rules) {
  const received = position.give(piece);
  if (!received.supply) return 16;
  const occupied = received.occupied;
  if (rules.shapeMasks.every((mask) => popcount(mask & occupied) < 2)) return received.emptyCount;
  let count = 0;
  for (const cell of bitsOf(received.emptyCells)) {
    if (received.place(cell).safePieces(rules)) count += 1;
  }
  return count;
}

/** Every turn of POSITION with its squeeze score, best (lowest) first, as Python's
 * rank_turns: [[score, Turn]]. */
export function rankTurns(position, rules) {
  if (position.hand === null) {
    const safe = position.safePieces(rules);
    const gives = bitsOf(safe || position.supply).map((piece) => [
      safe ? repliesWithASafePiece(position, piece, rules) : 1 << 20, new Turn(null, piece)]);
    return gives.sort((a, b) => a[0] - b[0]);
  }
  const wins = position.winningCells(position.hand, rules);
  if (wins) return bitsOf(wins).map((cell) => [-1, new Turn(cell, null)]);
  const ranked = [];
  for (const cell of bitsOf(position.emptyCells)) {
    const after = position.place(cell);
    if (!after.supply) {
      ranked.push([0, new Turn(cell, null)]);
      continue;
    }
    const safe = after.safePieces(rules);
    for (const piece of bitsOf(safe || after.supply)) {
      const score = safe ? repliesWithASafePiece(after, piece, rules) : 1 << 20;
      ranked.push([score, new Turn(cell, piece)]);
    }
  }
  return ranked.sort((a, b) => a[0] - b[0]);
}

function tightest(ranked) {
  return ranked.filter(([score]) => score === ranked[0][0]).map(([, turn]) => turn);
}

// -- the players -----------------------------------------------------------------

/** What every level shares: turning a chosen turn into the game's actions, always
 * declaring and claiming when it may (base.py). */
export class ComputerPlayer {
  constructor(seed) {
    this.seed = seed;
    this.random = new Random(seed);
  }

  /**
   * The turn to play in POSITION (not over) under RULES; CONTEXT is { kernel, book }.
   * @param {{ kernel: import("./kernel.js").Kernel, book: import("./book.js").Book | null }} _context
   * @param {import("../rules/position.js").Position} _position
   * @param {import("../rules/rules.js").Rules} _rules
   * @returns {Turn}
   */
  chooseTurn(_context, _position, _rules) {
    throw new Error("a level chooses its turns");
  }

  /** The actions of this player's whole turn in GAME (a ../rules/ Game).
   * @throws {IllegalActionError} if the game is over */
  actions(context, game) {
    const state = game.state;
    if (state.step === "over") {
      throw new IllegalActionError("cannot choose a turn: the game is over", "game_over");
    }
    if (state.step === "give" && state.declarable.length) return [DECLARE];
    if (state.step === "place" && state.claimable.length) return [CLAIM];
    const turn = this.chooseTurn(context, state.position, game.rules);
    // A turn without a placement hands a piece over (Turn refuses one with neither).
    if (turn.place === null) return [giveAction(/** @type {number} */ (turn.give))];
    const actions = [placeAction(turn.place)];
    const after = state.apply(actions[0], game.rules);
    if (after.outcome !== null) return actions;
    if (after.declarable.length) return [...actions, DECLARE];
    let give = turn.give;
    if (give === null || !((after.position.supply >> give) & 1)) {
      give = Math.min(...after.position.legalHandovers()); // a view that did not see the end
    }
    return [...actions, giveAction(give)];
  }
}

/** Takes each win it sees, avoids handing over each winner it sees, else plays at random. */
class Looking extends ComputerPlayer {
  view(rules) {
    return rules;
  }

  chooseTurn(context, position, rules) {
    const view = this.view(rules);
    if (position.hand === null) return new Turn(null, this.giveIn(position, view));
    const wins = position.winningCells(position.hand, view);
    if (wins) return new Turn(pick(this.random, wins), null);
    const cell = pick(this.random, position.emptyCells);
    const after = position.place(cell);
    if (!after.supply) return new Turn(cell, null);
    return new Turn(cell, this.giveIn(after, view));
  }

  giveIn(position, view) {
    return pick(this.random, position.safePieces(view) || position.supply);
  }
}

const TRAIT_NOTICED = 0.6;
const SHAPE_NOTICED = { row: 0.9, column: 0.8, diagonal: 0.55, square: 0.5 };

/** Level 1: plays like someone in their first game. */
export class Beginner extends Looking {
  static level = 1;
  static id = "beginner";

  view(rules) {
    let traits = 0;
    for (const bit of [3, 2, 1, 0]) {
      if ((rules.traits >> bit) & 1 && this.random.random() < TRAIT_NOTICED) traits |= 1 << bit;
    }
    const shapeMasks = rules.winningShapes
      .filter((shape) => this.random.random() < SHAPE_NOTICED[shape.kind])
      .map((shape) => shape.cells);
    return { shapeMasks, traits };
  }
}

/** Level 2: never misses a win on the board or hands over a winner it could avoid. */
export class Casual extends Looking {
  static level = 2;
  static id = "casual";
}

/** Level 3: avoids running out of safe pieces and sets squeezes for the opponent. */
export class Club extends ComputerPlayer {
  static level = 3;
  static id = "club";

  chooseTurn(context, position, rules) {
    return this.random.choice(tightest(rankTurns(position, rules)));
  }
}

/** Solve within a node budget once few cells are empty; before that, squeeze. */
class Solving extends Club {
  /** @type {number} solve from this many empty cells on */
  static SOLVE_FROM;
  /** @type {number} the node budget of a solve */
  static NODES;
  /** refine the distance of a solved value from this many empty cells on */
  static REFINE_FROM = 0;

  chooseTurn(context, position, rules) {
    const { SOLVE_FROM, NODES, REFINE_FROM } = /** @type {typeof Solving} */ (this.constructor);
    if (position.emptyCount <= SOLVE_FROM) {
      const refine = position.emptyCount <= REFINE_FROM;
      const solution = solve(context.kernel, position, rules, { nodes: NODES, refine });
      if (solution.value !== "unknown" && solution.best !== null) {
        return this.amongSolved(context, position, rules, solution);
      }
    }
    return super.chooseTurn(context, position, rules);
  }

  amongSolved(context, position, rules, solution) {
    return solution.best;
  }
}

/** Level 4: exact in the endgame, a squeezer before it. */
export class Expert extends Solving {
  static level = 4;
  static id = "expert";
  static SOLVE_FROM = 12;
  static NODES = 100;
}

/** Level 5: never worsens a solved value; from a draw, sets the likeliest traps. */
export class Perfect extends Solving {
  static level = 5;
  static id = "perfect";
  static SOLVE_FROM = 13;
  static REFINE_FROM = 10;
  static NODES = 8_000_000;
  static TRAPS = 6;
  static LIKELY = 4;
  static TRAP_NODES = 500_000;
  static LOOK_AHEAD_FROM = 14;
  static LOOK_AHEAD_TRAPS = 4;
  static LOOK_AHEAD_NODES = 6_000_000;
  static EDGE_NODES = 500_000;

  chooseTurn(context, position, rules) {
    const { book, kernel } = context;
    if (book && book.covers(position)) {
      const analysis = book.analysis(kernel, position, rules);
      if (analysis !== null) return this.fromBook(context, position, rules, analysis);
    }
    if (book && book.score(kernel, position, rules) === 0) {
      const [turn] = this.trap(context, position, rules, Perfect.EDGE_NODES,
        { reserve: Perfect.NODES });
      if (turn !== null) return turn;
    }
    if (position.emptyCount === Perfect.LOOK_AHEAD_FROM && position.hand !== null) {
      const [turn] = this.trap(context, position, rules, Perfect.LOOK_AHEAD_NODES,
        { traps: Perfect.LOOK_AHEAD_TRAPS, winAtOnce: true });
      if (turn !== null) return turn;
    }
    return super.chooseTurn(context, position, rules);
  }

  fromBook(context, position, rules, analysis) {
    const { book, kernel } = context;
    const top = analysis.moves[0];
    const keeping = new Set(analysis.moves
      .filter((m) => m.value === top.value && m.plies === top.plies).map((m) => m.turn.text));
    if (top.value !== "draw") return top.turn;
    const squeezes = rankTurns(position, rules).map(([, turn]) => turn)
      .filter((turn) => keeping.has(turn.text));
    if (!squeezes.length) return top.turn;
    let best = squeezes[0];
    let bestChance = -1;
    for (const turn of squeezes.slice(0, Perfect.TRAPS)) {
      const received = position.play(turn);
      if (!book.covers(received)) break;
      const replies = book.analysis(kernel, received, rules);
      if (replies === null) break;
      const losing = new Set(replies.moves.filter((m) => m.value === "loss").map((m) => m.turn.text));
      const likely = tightest(rankTurns(received, rules)).slice(0, Perfect.LIKELY);
      const chance = likely.length
        ? likely.filter((t) => losing.has(t.text)).length / likely.length : 0;
      if (chance > bestChance) [best, bestChance] = [turn, chance];
    }
    return best;
  }

  amongSolved(context, position, rules, solution) {
    if (solution.value !== "draw"
        || (solution.complete && position.emptyCount <= Perfect.REFINE_FROM)) {
      return solution.best;
    }
    const budget = Math.min(Perfect.TRAP_NODES, Perfect.NODES - solution.nodes);
    const [turn] = this.trap(context, position, rules, budget);
    return turn ?? solution.best;
  }

  /** Among the tightest squeezes, the one the solver confirms does not lose and whose
   * likely replies lose most often: [turn (null if none was confirmed), that share,
   * the budget left] (Python's Perfect._trap).
   * @param {{ kernel: import("./kernel.js").Kernel, book: import("./book.js").Book | null }} context
   * @param {import("../rules/position.js").Position} position
   * @param {import("../rules/rules.js").Rules} rules
   * @param {number} budget
   * @param {{ traps?: number | null, winAtOnce?: boolean, reserve?: number }} [options]
   */
  trap(context, position, rules, budget, { traps = null, winAtOnce = false, reserve = 0 } = {}) {
    let choice = null;
    let bestChance = -1;
    const ranked = rankTurns(position, rules);
    for (let index = 0; index < ranked.length; index += 1) {
      const turn = ranked[index][1];
      const allowed = choice !== null ? budget : budget + reserve;
      const pastLimit = index >= (traps || Perfect.TRAPS);
      const searchingOn = choice === null && reserve > 0;
      if (turn.give === null || allowed <= 0 || (pastLimit && !searchingOn)) break;
      const received = position.play(turn);
      const reply = solve(context.kernel, received, rules, { nodes: allowed, distance: false });
      budget -= reply.nodes;
      if (winAtOnce && reply.value === "loss") return [turn, 1, budget];
      if (reply.value !== "draw") continue;
      let chance;
      [chance, budget] = this.chanceOfError(context, received, rules, budget);
      if (chance > bestChance) [choice, bestChance] = [turn, chance];
    }
    return [choice, bestChance, budget];
  }

  /** The share of a squeezing opponent's favourite replies in RECEIVED that lose, and the
   * node budget left. */
  chanceOfError(context, received, rules, budget) {
    const likely = tightest(rankTurns(received, rules)).slice(0, Perfect.LIKELY);
    let errors = 0;
    let checked = 0;
    for (const turn of likely) {
      if (turn.give === null || budget <= 0) break;
      const ours = solve(context.kernel, received.play(turn), rules,
        { nodes: budget, distance: false });
      budget -= ours.nodes;
      if (ours.value === "unknown") break;
      checked += 1;
      if (ours.value === "win") errors += 1;
    }
    return [checked ? errors / checked : 0, budget];
  }
}

/** The player class of each level. */
export const LEVELS = Object.freeze({ 1: Beginner, 2: Casual, 3: Club, 4: Expert, 5: Perfect });

/**
 * A computer player of LEVEL; the same SEED replays the same choices.
 * @throws {QuadsError} if there is no such level
 */
export function makePlayer(level, seed) {
  const Player = Number.isInteger(level) && Object.hasOwn(LEVELS, level) ? LEVELS[level] : null;
  if (!Player) {
    throw new QuadsError(`unknown level ${repr(level)}: expected one of 1, 2, 3, 4, 5`);
  }
  return new Player(seed);
}

/**
 * The actions of the computer's whole turn in GAME at LEVEL, as texts (actionText:
 * "give F", "place A1", "declare", "claim"), as the server's computer plays them.
 * @param {import("./engine.js").Engine} engine
 * @param {import("../rules/game.js").Game | object} game a Game, its snapshot(), or
 *   { rules, start?, actions: [action texts] }
 * @param {number} level 1-5
 * @param {{ seed?: number }} [options] the turn's seed (e.g. turnSeed(gameSeed, ply))
 * @returns {Promise<string[]>}
 * @throws {QuadsError} if the level is unknown, or the game over (an IllegalActionError)
 */
export async function computerActions(engine, game, level, { seed } = {}) {
  const played = readGame(game);
  const player = makePlayer(level, seed);
  const book = level === 5 ? await engine.bookFor(played.rules) : null;
  return player.actions({ kernel: engine.kernel, book }, played).map(actionText);
}
