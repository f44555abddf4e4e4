// The stages of a solve, as the Python library runs them with one thread
// (quads/solver/search.py), over the WebAssembly kernel's pieces (kernel.js:
// the root turns in groups, a budget, the search of one node).  The same groups,
// the same order, the same windows and a table of the same size, made anew for
// every solve: a solve here visits the same nodes as Python's
// `solve(position, rules, threads=1)` and chooses the same turn, drawing turns
// compared as Python compares them (fewest non-losing replies for the opponent).
//
//   solve(kernel, position, rules, { nodes, seconds, tableMb, refine, distance })
//     // -> { position, rules, value, plies, best: Turn | null, nodes, complete }
//   analyse(kernel, position, rules, { nodes, seconds, tableMb })
//     // -> { position, rules, value, plies, moves: [{ turn, value, plies }], nodes, complete }
//
// Positions, rules and turns are those of ../rules/ (Position, Rules, Turn).
// Values are "win", "draw", "loss" or "unknown" (the budget ran out), for the side
// to move (solve) or the player making the turn (analyse).

import { Turn } from "../rules/turn.js";
import { defaultTableMb } from "./kernel.js";

/** The score of a win in zero placements; every real score lies strictly inside ±WIN. */
export const WIN = 100;
/** Beyond every score: the open ends of a search window. */
export const INFINITY = WIN + 1;
/** By default drawing turns are compared only up to this many empty cells (Python's
 * REFINE_MAX_EMPTIES). */
export const REFINE_MAX_EMPTIES = 10;

/** The value and placements to the end of a score (Python's value_of). */
export function valueOf(score) {
  if (score > 0) return { value: "win", plies: WIN - score };
  if (score < 0) return { value: "loss", plies: WIN + score };
  return { value: "draw", plies: null };
}

/** The score of a known value (Python's score_of). */
export function scoreOf(value, plies) {
  if (value === "draw") return 0;
  if (value === "unknown" || plies === null || plies === undefined) {
    throw new Error(`no score for ${value} in ${plies} placements`);
  }
  return value === "win" ? WIN - plies : plies - WIN;
}

/** The score of a turn for the player making it, from the score CHILD of the position
 * it leads to, PLACEMENTS placements later (Python's turn_score). */
export function turnScore(child, placements) {
  if (child > 0) return -(child - placements);
  if (child < 0) return -(child + placements);
  return 0;
}

/** A group's score once known exactly, else null. */
export function exactOf(group) {
  return group.lower === group.upper ? group.lower : null;
}

function learn(group, score, alpha, beta) {
  if (score <= alpha) group.upper = Math.min(group.upper, score);
  else if (score >= beta) group.lower = Math.max(group.lower, score);
  else group.lower = group.upper = score;
}

/**
 * Turns that lead to the same position (up to symmetry), searched once: `node` is the
 * kernel's words of that position (null when its score is known without a search),
 * `key` its canonical key, and `lower` and `upper` the bounds of its score known so far.
 * @typedef {{ turns: Turn[], node: import("./kernel.js").SearchNode | null,
 *   key: import("./kernel.js").Key | null, lower: number, upper: number }} Group
 */

/**
 * The legal turns of POSITION (a Position, or the words of a node) in groups, in search
 * order (Python's root_groups).
 * @returns {Group[]}
 */
export function rootGroups(kernel, engine, position) {
  const { turns, groups } = kernel.rootGroups(engine, position);
  const made = groups.map((g) => ({
    turns: [],
    node: g.node,
    key: g.key,
    lower: g.searched ? -INFINITY : g.score,
    upper: g.searched ? INFINITY : g.score,
  }));
  for (const t of turns) made[t.group].turns.push(new Turn(t.place, t.give));
  return made;
}

function turnOrder(a, b) {
  return (a.place ?? -1) - (b.place ?? -1) || (a.give ?? -1) - (b.give ?? -1);
}

function positive(name, value) {
  if (value !== undefined && value !== null && !(value > 0)) {
    throw new RangeError(`invalid ${name} ${value}: expected a positive number`);
  }
}

/** One solve or analysis: the kernel's engine with a fresh table, the budget, the groups. */
class Search {
  constructor(kernel, position, rules, options = {}) {
    position.check(rules);
    const { nodes, seconds, tableMb, refine, distance = true } = options;
    positive("node budget", nodes);
    positive("time budget", seconds);
    positive("table size", tableMb);
    this.kernel = kernel;
    this.position = position;
    this.rules = rules;
    this.engine = kernel.engine(rules, tableMb ?? defaultTableMb(position.emptyCount));
    kernel.clear(this.engine); // the Python library makes a new table for every solve
    kernel.begin(this.engine, nodes ?? 0, seconds ?? 0);
    this.refine = refine ?? position.emptyCount <= REFINE_MAX_EMPTIES;
    this.distance = distance;
    this.groups = rootGroups(kernel, this.engine, position);
  }

  get nodes() {
    return this.kernel.nodes(this.engine);
  }

  /** The fail-soft score of GROUP within (ALPHA, BETA), or null on budget. */
  run(group, alpha, beta) {
    const score = this.kernel.searchNode(this.engine, group.node, -beta, -alpha);
    return score === null ? null : -score;
  }

  static known(group, alpha, beta) {
    const exact = exactOf(group);
    if (exact !== null) return exact;
    if (group.upper <= alpha) return group.upper;
    if (group.lower >= beta) return group.lower;
    return null;
  }

  /**
   * The best score over GROUPS (not empty) within (ALPHA, BETA) (fail-soft) and its
   * group, or null if the budget ran out.
   * @param {Group[]} groups
   * @param {number} alpha
   * @param {number} beta
   * @returns {{ score: number, group: Group } | null}
   */
  alphaBeta(groups, alpha, beta) {
    let best = -INFINITY;
    let bestGroup = groups[0];
    for (const group of groups) {
      if (alpha >= beta) break;
      let score = Search.known(group, alpha, beta);
      if (score === null && group.node === null) score = group.lower;
      if (score === null) {
        score = this.run(group, alpha, beta);
        if (score === null) return null;
        learn(group, score, alpha, beta);
      }
      if (score > best) {
        best = score;
        bestGroup = group;
      }
      alpha = Math.max(alpha, score);
    }
    return { score: best, group: bestGroup };
  }

  /** Make every group's score exact (sign first, then distance); false on budget. */
  exactScores(groups) {
    const todo = groups.filter((g) => exactOf(g) === null);
    while (todo.length) {
      const group = todo.shift();
      let alpha = -1;
      let beta = 1;
      if (group.lower >= 1) [alpha, beta] = [0, WIN];
      else if (group.upper <= -1) [alpha, beta] = [-WIN, 0];
      const score = this.run(group, alpha, beta);
      if (score === null) return false;
      learn(group, score, alpha, beta);
      if (exactOf(group) === null) todo.unshift(group);
    }
    return true;
  }

  solution(value, plies, best, complete) {
    return {
      position: this.position, rules: this.rules, value, plies, best, nodes: this.nodes, complete,
    };
  }

  solve() {
    const groups = this.groups;
    if (!groups.length) return this.solution("draw", null, null, true); // the board is full
    const found = this.alphaBeta(groups, -1, 1);
    if (found === null) return this.solution("unknown", null, null, false);
    const { score, group } = found;
    if (score !== 0 && !this.distance) {
      return this.solution(score >= 1 ? "win" : "loss", null, group.turns[0], true);
    }
    if (score !== 0) return this.distanceStage(groups, group, score >= 1);
    return this.drawStage(groups, group);
  }

  distanceStage(groups, first, win) {
    const value = win ? "win" : "loss";
    const candidates = [first, ...groups.filter((g) => g !== first && (g.upper >= 1 || !win))];
    const found = win ? this.alphaBeta(candidates, 0, WIN) : this.alphaBeta(candidates, -WIN, 0);
    if (found === null) return this.solution(value, null, first.turns[0], false);
    return this.solution(value, valueOf(found.score).plies, found.group.turns[0], true);
  }

  drawStage(groups, first) {
    if (!this.refine) return this.solution("draw", null, first.turns[0], true);
    const open = groups.filter((g) => g.upper >= 0 && g.lower < 0 && g !== first);
    for (const group of open) group.upper = Math.min(group.upper, 0); // nothing beats the draw
    for (const group of open) {
      const score = this.run(group, -1, 0);
      if (score === null) return this.solution("draw", null, first.turns[0], false);
      learn(group, score, -1, 0);
    }
    const drawing = groups.filter((g) => g.lower >= 0);
    if (drawing.length === 1) return this.solution("draw", null, first.turns[0], true);
    let best = drawing[0];
    let bestCount = INFINITY;
    for (const group of drawing) {
      const count = this.nonLosingReplies(group, bestCount);
      if (count === null) return this.solution("draw", null, best.turns[0], false);
      if (count < bestCount) [best, bestCount] = [group, count];
    }
    return this.solution("draw", null, best.turns[0], true);
  }

  /** How many of the opponent's replies after GROUP do not lose (counting stops at
   * ENOUGH), or null on budget. */
  nonLosingReplies(group, enough) {
    const replies = rootGroups(this.kernel, this.engine, group.node);
    // replies known to lose (for the opponent) last, else in search order
    const ordered = [
      ...replies.filter((r) => !(r.node === null && r.lower < 0)),
      ...replies.filter((r) => r.node === null && r.lower < 0),
    ];
    let count = 0;
    for (const reply of ordered) {
      if (reply.node !== null && exactOf(reply) === null) {
        const score = this.kernel.searchNode(this.engine, reply.node, 0, 1);
        if (score === null) return null;
        learn(reply, -score, -1, 0);
      }
      if (reply.upper >= 0) {
        count += reply.turns.length;
        if (count >= enough) return count;
      }
    }
    return count;
  }

  analyse() {
    const complete = this.exactScores(this.groups);
    const ranked = [];
    for (const group of this.groups) {
      const score = exactOf(group);
      for (const turn of group.turns) {
        const move = score === null ? { turn, value: "unknown", plies: null }
          : { turn, ...valueOf(score) };
        ranked.push({ rank: score === null ? -2 * INFINITY : score, move });
      }
    }
    ranked.sort((a, b) => b.rank - a.rank || turnOrder(a.move.turn, b.move.turn));
    const moves = ranked.map((r) => r.move);
    let head = { value: "draw", plies: null };
    if (moves.length) head = complete ? moves[0] : { value: "unknown", plies: null };
    return {
      position: this.position, rules: this.rules, value: head.value, plies: head.plies, moves,
      nodes: this.nodes, complete,
    };
  }
}

/**
 * The value of POSITION for the side to move and a best turn, as Python's
 * `solve(position, rules, threads=1, ...)` gives them.
 * @param {import("./kernel.js").Kernel} kernel
 * @param {import("../rules/position.js").Position} position
 * @param {import("../rules/rules.js").Rules} rules
 * @param {{ nodes?: number, seconds?: number, tableMb?: number, refine?: boolean,
 *   distance?: boolean }} [options]
 */
export function solve(kernel, position, rules, options = {}) {
  return new Search(kernel, position, rules, options).solve();
}

/**
 * The value of POSITION and of every legal turn, best first, as Python's
 * `analyse(position, rules, threads=1, ...)` gives them.
 * @param {import("./kernel.js").Kernel} kernel
 * @param {import("../rules/position.js").Position} position
 * @param {import("../rules/rules.js").Rules} rules
 * @param {{ nodes?: number, seconds?: number, tableMb?: number }} [options]
 */
export function analyse(kernel, position, rules, options = {}) {
  return new Search(kernel, position, rules, options).analyse();
}
