// The solver's search core as WebAssembly (engine/quads.wasm, built from
// src/quads/solver/core by tools/build_wasm.py): the exact value of a position
// and of every turn, in the terms of the Python library's quads.solver.
// Runs in node, in a page and in a Web Worker; nothing here touches the DOM.
//
//   const kernel = await loadKernel();
//   kernel.solve("0.../1.../2.../.... 3", "quads")
//     // -> { value: "win", plies: 1, complete: true, best: { place: 12, give: null }, nodes }
//   kernel.analyse(position, rules, { seconds: 0.5 })
//     // -> { value, plies, complete, nodes, moves: [{ place, give, value, plies }, ...] }
//
// A position is a position string ("F..0/..A./..../.3.. 7") or a rules/ Position;
// rules are a rule-set name ("quads", "classic", "advanced" or
// SHAPES:TRAITS:CALLING) or a rules/ Rules: both are read by the page's rules
// (Position.fromString, Rules.parse), which refuse what is not one.  Pieces are
// numbers 0-15.
// Values are for the side to move (solve) or for the player making the turn
// (analyse); plies count placements up to the end, the last included, and are
// null for a draw or an unknown value.

import { popcount } from "../rules/bits.js";
import { Position } from "../rules/position.js";
import { Rules } from "../rules/rules.js";

/** Node's file module, imported only when a file: address is read (in node's tests): a
 * name, not a literal, so that nothing takes it for a module the page loads. */
const NODE_FS = "node:fs/promises";

const WIN = 100;
/** @type {Record<number, string>} */
const ERRORS = {
  [-1]: "invalid trait mask",
  [-2]: "invalid shapes",
  [-6]: "impossible position (a piece twice, or a full board with a piece in hand)",
};

/**
 * A node of a search in the kernel's words: those of its position (readPosition), the
 * pieces left to hand over (a mask) and the placements made so far.
 * @typedef {{ occupied: number, lo: number, hi: number, hand: number, supply: number, ply: number }} SearchNode
 */

/**
 * The canonical key of a position (the opening books' key): bits 79-64, 31-0 and 63-32.
 * @typedef {{ occ: number, lo: number, hi: number }} Key
 */

/**
 * The shape set and trait mask of a rule set, as the kernel takes them.  Calling
 * (auto or declare) does not change any value, so it is left out.
 * @param {Rules | string} rules a Rules, or a name Rules.parse reads
 * @returns {{ squares: boolean, traits: number }}
 * @throws {import("../rules/errors.js").InvalidRulesError} if the name is no rule set
 */
export function readRules(rules) {
  const read = rules instanceof Rules ? rules : Rules.parse(rules);
  return { squares: read.shapes !== "lines", traits: read.traits };
}

/**
 * The words of a position, as the kernel takes them: { occupied (a cell mask), lo, hi
 * (the cells' pieces, four bits each: cells 0-7 and 8-15), hand (-1: none) }.
 * @param {Position | string} position a Position, or a string Position.fromString reads
 * @returns {{ occupied: number, lo: number, hi: number, hand: number }}
 * @throws {import("../rules/errors.js").InvalidPositionError} if the string is no position
 */
export function readPosition(position) {
  const read = position instanceof Position ? position : Position.fromString(position);
  let lo = 0;
  let hi = 0;
  read.cells.forEach((piece, cell) => {
    if (piece === null) return;
    if (cell < 8) lo |= piece << (4 * cell);
    else hi |= piece << (4 * (cell - 8));
  });
  return { occupied: read.occupied, lo: lo >>> 0, hi: hi >>> 0, hand: read.hand ?? -1 };
}

/** The value and placements to the end of a solver score (as quads.solver.value_of). */
export function valueOf(score) {
  if (score > 0) return { value: "win", plies: WIN - score };
  if (score < 0) return { value: "loss", plies: WIN + score };
  return { value: "draw", plies: null };
}

/** The table size (MiB) for a position with EMPTIES empty cells: the Python library's
 * default (quads.solver.default_table_mb), at most 64 MiB in a page. */
export function defaultTableMb(empties) {
  if (empties <= 13) return 2;
  return empties === 14 ? 16 : 64;
}

function log2Entries(tableMb) {
  let log2 = 2;
  while (2 ** (log2 + 1) * 16 <= tableMb * 2 ** 20) log2 += 1;
  return log2;
}

/** The search core, instantiated.  Build one with loadKernel(). */
export class Kernel {
  constructor(instance) {
    this.exports = instance.exports;
    this.engines = new Map();
    this.scratch = this.exports.qk_scratch();
  }

  // The engine of a rule set, with a table of TABLE_MB (any table when null: the
  // questions that search nothing keep the table a search filled).
  engine(rules, tableMb = null) {
    const { squares, traits } = readRules(rules);
    const key = `${squares ? 1 : 0}:${traits}`;
    const known = this.engines.get(key);
    if (known && tableMb === null) return known.pointer;
    const log2 = log2Entries(tableMb ?? 0);
    if (known && known.log2 === log2) return known.pointer;
    if (known) this.exports.qk_engine_free(known.pointer);
    const pointer = this.exports.qk_engine_new(squares ? 1 : 0, traits, log2);
    if (!pointer) throw new Error(`cannot make an engine for ${JSON.stringify(rules)}`);
    this.engines.set(key, { pointer, log2 });
    return pointer;
  }

  /** Forget what ENGINE's table learnt. */
  clear(engine) {
    this.exports.qk_engine_clear(engine);
  }

  ints(count) {
    return new Int32Array(this.exports.memory.buffer, this.scratch, count);
  }

  prepare(position, rules, budget) {
    const p = readPosition(position);
    const empties = 16 - popcount(p.occupied);
    const engine = this.engine(rules, budget.tableMb ?? defaultTableMb(empties));
    if (budget.fresh) this.exports.qk_engine_clear(engine);
    return { p, engine };
  }

  /** The value of a position for the side to move, with a best turn.
   *
   * budget: { nodes, seconds, distance (default true: also the distance to the end),
   * tableMb, fresh (forget what earlier calls learnt) }.  When the budget runs out the
   * value is "unknown" (or known without its distance) and complete is false. */
  solve(position, rules, budget = {}) {
    const { p, engine } = this.prepare(position, rules, budget);
    const distance = budget.distance ?? true;
    const rc = this.exports.qk_solve(engine, p.occupied, p.lo, p.hi, p.hand, budget.nodes ?? 0,
      budget.seconds ?? 0, distance ? 1 : 0);
    if (rc) throw new Error(ERRORS[rc] ?? `solver error ${rc}`);
    const [known, exact, score, place, give] = this.ints(5);
    const nodes = this.exports.qk_engine_nodes(engine);
    const best = place < 0 && give < 0 ? null
      : { place: place < 0 ? null : place, give: give < 0 ? null : give };
    if (!known) return { value: "unknown", plies: null, complete: false, best: null, nodes };
    const { value } = valueOf(score);
    const plies = exact ? valueOf(score).plies : null;
    return { value, plies, complete: Boolean(exact) || !distance, best, nodes };
  }

  /** The value of every legal turn, best first (fastest win, then draws, then the
   * longest loss; ties in cell then piece order), as quads.solver.analyse orders them.
   * Turns the budget left unknown come last with value "unknown". */
  analyse(position, rules, budget = {}) {
    const { p, engine } = this.prepare(position, rules, budget);
    const n = this.exports.qk_analyse(engine, p.occupied, p.lo, p.hi, p.hand, budget.nodes ?? 0,
      budget.seconds ?? 0);
    if (n < 0) throw new Error(ERRORS[n] ?? `solver error ${n}`);
    const out = this.ints(4 * n);
    const moves = [];
    for (let i = 0; i < n; i += 1) {
      const [place, give, known, score] = out.subarray(4 * i, 4 * i + 4);
      const turn = { place: place < 0 ? null : place, give: give < 0 ? null : give };
      moves.push({ ...turn, ...(known ? valueOf(score) : { value: "unknown", plies: null }),
        rank: known ? score : -2 * (WIN + 1) });
    }
    const order = (m) => [-m.rank, m.place ?? -1, m.give ?? -1];
    moves.sort((a, b) => {
      const x = order(a);
      const y = order(b);
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    });
    const complete = moves.every((m) => m.value !== "unknown");
    let head = { value: "draw", plies: null };
    if (moves.length) head = complete ? moves[0] : { value: "unknown", plies: null };
    const nodes = this.exports.qk_engine_nodes(engine);
    moves.forEach((m) => delete m.rank);
    return { value: head.value, plies: head.plies, complete, nodes, moves };
  }

  // -- the pieces of a solve, for solver.js (the Python library's stages) -----

  /** The legal turns of a position in groups, as quads.solver.root.root_groups makes
   * them: { turns: [{ place, give, group }] in legal-turn order (group: the index of
   * its group), groups: [...] in search order }.  A group is { searched, score
   * (exact when not searched), node: { occupied, lo, hi, hand, supply, ply } (when
   * searched), key: { occ, hi, lo } (its canonical key: bits 79-64, 63-32, 31-0) }.
   * POSITION may also be a node's words ({ occupied, lo, hi, hand }). */
  rootGroups(engine, position) {
    const words = typeof position === "object" && "lo" in position; // a node's words
    const p = words ? position : readPosition(position);
    const rc = this.exports.qk_root(engine, p.occupied, p.lo, p.hi, p.hand);
    if (rc < 0) throw new Error(ERRORS[rc] ?? `solver error ${rc}`);
    const nturns = rc & 0xffff;
    const ngroups = rc >>> 16;
    const out = this.ints(3 * nturns + 11 * ngroups);
    const turns = [];
    for (let i = 0; i < nturns; i += 1) {
      const place = out[3 * i];
      const give = out[3 * i + 1];
      turns.push({ place: place < 0 ? null : place, give: give < 0 ? null : give,
        group: out[3 * i + 2] });
    }
    const groups = [];
    for (let i = 0; i < ngroups; i += 1) {
      const g = out.subarray(3 * nturns + 11 * i, 3 * nturns + 11 * (i + 1));
      const searched = g[0] === 1;
      groups.push({
        searched,
        score: searched ? null : g[1],
        node: searched ? { occupied: g[2], lo: g[3] >>> 0, hi: g[4] >>> 0, hand: g[5],
          supply: g[6], ply: g[7] } : null,
        key: searched ? { occ: g[8], lo: g[9] >>> 0, hi: g[10] >>> 0 } : null,
      });
    }
    return { turns, groups };
  }

  /** Start a budget of NODES nodes and SECONDS seconds (0: none) for the searchNode
   * calls that follow; nodes(engine) counts them. */
  begin(engine, nodes = 0, seconds = 0) {
    this.exports.qk_begin(engine, nodes, seconds);
  }

  /** Nodes searched since the last begin (or solve, or analysis) on ENGINE. */
  nodes(engine) {
    return this.exports.qk_engine_nodes(engine);
  }

  /** Search one node (as rootGroups gives it) within the window (ALPHA, BETA): its
   * fail-soft score for the node's side to move, or null if the budget ran out. */
  searchNode(engine, node, alpha, beta) {
    const rc = this.exports.qk_search(engine, node.occupied, node.lo, node.hi, node.hand,
      node.supply, node.ply, alpha, beta);
    if (rc < 0) throw new Error(ERRORS[rc] ?? `solver error ${rc}`);
    return rc ? this.ints(1)[0] : null;
  }

  /** The canonical key of a position whose side to move holds a piece (the opening
   * books' key): { occ, hi, lo }, bits 79-64, 63-32 and 31-0 of the key. */
  key(position, rules) {
    const p = readPosition(position);
    if (p.hand < 0) throw new Error("a key needs a piece in hand");
    this.exports.qk_key(this.engine(rules), p.occupied, p.lo, p.hi, p.hand);
    const [occ, lo, hi] = this.ints(3);
    return { occ, lo: lo >>> 0, hi: hi >>> 0 };
  }

  /** The pieces (a 16-bit mask) that would complete a winning shape on some empty cell. */
  danger(position, rules) {
    const p = readPosition(position);
    return this.exports.qk_danger(this.engine(rules), p.occupied, p.lo, p.hi);
  }

  /** The supply pieces that cannot complete a winning shape anywhere (a mask): the safe
   * pieces to hand over (as Position.safe_pieces). */
  safePieces(position, rules) {
    const p = readPosition(position);
    let used = p.hand >= 0 ? 1 << p.hand : 0;
    for (let cell = 0; cell < 16; cell += 1) {
      const word = cell < 8 ? p.lo >>> (4 * cell) : p.hi >>> (4 * (cell - 8));
      if (p.occupied >> cell & 1) used |= 1 << (word & 15);
    }
    return 0xFFFF & ~used & ~this.danger(position, rules);
  }

  /** The cells (a mask) where PIECE would complete a winning shape. */
  winningCells(position, piece, rules) {
    const p = readPosition(position);
    return this.exports.qk_winning_cells(this.engine(rules), p.occupied, p.lo, p.hi, piece);
  }
}

async function readBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source instanceof URL ? source : new URL(source, import.meta.url);
  if (url.protocol === "file:") {
    const { readFile } = await import(NODE_FS);
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: ${response.status}`);
  return response.arrayBuffer();
}

/** Instantiate the kernel from SOURCE: the module's bytes, a compiled
 * WebAssembly.Module, or its address (by default engine/quads.wasm beside js/). */
export async function loadKernel(source = new URL("../../engine/quads.wasm", import.meta.url)) {
  const imports = { env: { now: () => performance.now() / 1000 } };
  const instance = source instanceof WebAssembly.Module
    ? await WebAssembly.instantiate(source, imports)
    : (await WebAssembly.instantiate(await readBytes(source), imports)).instance;
  /** @type {() => void} */ (instance.exports._initialize)();
  return new Kernel(instance);
}
