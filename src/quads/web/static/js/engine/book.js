// The opening books in the page: every turn of a position near the empty board
// judged without search, as the Python library's quads.book.probe judges them.
//
// The server serves each shipped book's records decompressed at
// /engine/books/NAME.bin (quads/web/books.py), which the service worker keeps:
//
//   QUADS-BOOK-RECORDS\n
//   {"format": 1, "game": "lines:color,height,shape,top", "min_empty": 13,
//    "positions": 88629, "sha256": "..."}\n       (the book file's own header line)
//   the records, sorted by key: 10 bytes of canonical key (big-endian), 1 byte of
//   score (signed, for the side to move; see solver.js)
//
//   const book = await readBook(bytes);          // checks the count and the digest
//   book.covers(position)                        // every turn judged by the book
//   book.analysis(kernel, position, rules)       // every turn's value, or null
//   book.solution(kernel, position, rules)       // value and best turn, or null
//   solveWithBook(kernel, book, position, rules, { seconds })  // [solution, "book" | "search"]
//   analyseWithBook(kernel, book, position, rules, { seconds }) // [analysis, "book" | "search"]
//
// A BookShelf finds the book of a rule set (fetched once, when first needed).

import { analyse, exactOf, rootGroups, solve, turnScore, valueOf } from "./solver.js";

export const MAGIC = "QUADS-BOOK-RECORDS\n";
export const FORMAT = 1;
/** Node's file module, imported only when a file: address is read (in node's tests): a
 * name, not a literal, so that nothing takes it for a module the page loads. */
const NODE_FS = "node:fs/promises";

const RECORD = 11;

/** A book that cannot be used: unreadable, damaged or foreign. */
export class BookError extends Error {
  get name() { return "BookError"; }
}

/** What a book's values depend on: the shape set and the counted traits, e.g.
 * `lines+squares:color,height,shape,top` (Python's quads.book.game_name). */
export function gameName(rules) {
  return `${rules.shapes}:${[...rules.countedTraits].sort().join(",")}`;
}

/** The books shipped with the package, by game (quads and advanced share one). */
export const SHIPPED = Object.freeze({
  "lines+squares:color,height,shape,top": "lines-squares",
  "lines:color,height,shape,top": "lines",
});

/** The SHA-256 digest of BYTES in hex, or null where the browser offers no digest (a
 * page served over plain HTTP to another machine is no secure context; it has no
 * service worker either, so it plays offline never and checks the count only). */
async function sha256Hex(bytes) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function compareOrder(a, b) {
  return (a.place ?? -1) - (b.place ?? -1) || (a.give ?? -1) - (b.give ?? -1);
}

/** A book read into memory: its header and its sorted records. */
export class Book {
  /**
   * @param {{ format: number, game: string, min_empty: number, positions: number,
   *   sha256: string }} header
   * @param {Uint8Array} records
   */
  constructor(header, records) {
    this.header = header;
    this.game = header.game;
    this.minEmpty = header.min_empty;
    this.count = header.positions;
    this.records = records;
    this.view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  }

  /** The score stored under KEY ({ occ, hi, lo }, as the kernel gives keys), or null. */
  find(key) {
    const { view } = this;
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = middle * RECORD;
      const diff = view.getUint16(at) - key.occ || view.getUint32(at + 2) - key.hi
        || view.getUint32(at + 6) - key.lo;
      if (diff === 0) return view.getInt8(at + 10);
      if (diff < 0) low = middle + 1;
      else high = middle - 1;
    }
    return null;
  }

  /** Whether every turn of POSITION is judged by the book: those of a position with at
   * least minEmpty empty cells, and those of a position one cell short of it with no piece
   * in hand (giving a piece leads to a position the book holds). */
  covers(position) {
    const empty = position.emptyCount;
    return empty >= this.minEmpty || (position.hand === null && empty === this.minEmpty - 1);
  }

  /** The exact score of POSITION for its side to move if the book holds it (a position
   * with a piece in hand that cannot win at once), else null. */
  score(kernel, position, rules) {
    if (position.hand === null || position.winningCells(position.hand, rules)) return null;
    return this.find(kernel.key(position, rules));
  }

  /** The turn groups of POSITION in search order, each with its score; null if the
   * book does not know them all. */
  scoredGroups(kernel, position, rules) {
    position.check(rules);
    const scored = [];
    for (const group of rootGroups(kernel, kernel.engine(rules), position)) {
      let score = exactOf(group);
      if (group.node !== null) {
        const child = this.find(group.key);
        score = child === null ? null : turnScore(child, group.node.ply);
      }
      if (score === null) return null;
      scored.push({ group, score });
    }
    return scored;
  }

  /** Every legal turn of POSITION with its value, best first, as solver.analyse gives
   * them; null if the book does not know them all. */
  analysis(kernel, position, rules) {
    const scored = this.scoredGroups(kernel, position, rules);
    return scored === null ? null : analysisOf(position, rules, scored);
  }

  /** The value of POSITION and a best turn, as solver.solve gives them (among drawing
   * turns the first in search order); null if the book does not know every turn. */
  solution(kernel, position, rules) {
    const scored = this.scoredGroups(kernel, position, rules);
    if (scored === null) return null;
    const analysis = analysisOf(position, rules, scored);
    let best = null;
    if (analysis.moves.length) {
      best = analysis.moves[0].turn;
      if (analysis.value === "draw") best = scored.find(({ score }) => score === 0).group.turns[0];
    }
    return {
      position, rules, value: analysis.value, plies: analysis.plies, best, nodes: 0,
      complete: true,
    };
  }
}

function analysisOf(position, rules, scored) {
  const ranked = [];
  for (const { group, score } of scored) {
    for (const turn of group.turns) ranked.push({ score, move: { turn, ...valueOf(score) } });
  }
  ranked.sort((a, b) => b.score - a.score || compareOrder(a.move.turn, b.move.turn));
  const moves = ranked.map((r) => r.move);
  const head = moves.length ? moves[0] : { value: "draw", plies: null };
  return {
    position, rules, value: head.value, plies: head.plies, moves, nodes: 0, complete: true,
  };
}

/**
 * Read a book as the server serves it (see above), checking its header, its record
 * count and its SHA-256 digest.
 * @param {ArrayBuffer | ArrayBufferView} data
 * @returns {Promise<Book>}
 * @throws {BookError} if it is not a sound book
 */
export async function readBook(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const magic = new TextEncoder().encode(MAGIC);
  if (bytes.length < magic.length || magic.some((b, i) => bytes[i] !== b)) {
    throw new BookError("not a Quads book");
  }
  const end = bytes.indexOf(10, magic.length);
  let header;
  try {
    if (end < 0) throw new Error("no header");
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(magic.length, end)));
  } catch {
    throw new BookError("the book's header is damaged");
  }
  if (header?.format !== FORMAT) throw new BookError(`book format ${header?.format}, not ${FORMAT}`);
  const { game, min_empty: minEmpty, positions, sha256 } = header;
  if (typeof game !== "string" || !Number.isInteger(minEmpty) || !Number.isInteger(positions)
      || typeof sha256 !== "string") {
    throw new BookError("the book's header is damaged");
  }
  const records = bytes.slice(end + 1);
  const digest = records.length === positions * RECORD ? await sha256Hex(records) : "";
  if (digest !== null && digest !== sha256) {
    throw new BookError("the book's positions do not match its header");
  }
  return new Book(header, records);
}

async function readBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source instanceof URL ? source : new URL(source, globalThis.location?.href);
  if (url.protocol === "file:") {
    const { readFile } = await import(NODE_FS);
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new BookError(`cannot load ${url}: ${response.status}`);
  return response.arrayBuffer();
}

/** Where the server serves the shipped book NAME. */
export function bookAddress(name) {
  return `/engine/books/${name}.bin`;
}

/** The books of the rule sets, each read once when first asked for.  SOURCE gives a
 * shipped book's name ("lines-squares", "lines") its bytes or address (by default
 * the server's /engine/books/NAME.bin).  A book that cannot be had (offline before it
 * was ever kept, or damaged) is none: search answers instead, as in Python. */
export class BookShelf {
  constructor(source = bookAddress) {
    this.source = source;
    this.books = new Map();
    this.problems = [];
  }

  /** The book of RULES, or null. @returns {Promise<Book | null>} */
  async bookFor(rules) {
    const game = gameName(rules);
    const name = SHIPPED[game];
    if (!name) return null;
    if (!this.books.has(name)) {
      this.books.set(name, (async () => {
        try {
          const book = await readBook(await readBytes(await this.source(name)));
          if (book.game !== game) throw new BookError(`a book of ${book.game}, not of ${game}`);
          return book;
        } catch (error) {
          this.problems.push(`${name}: ${error.message}`);
          this.books.delete(name); // try again next time (the network may be back)
          return null;
        }
      })());
    }
    return this.books.get(name);
  }
}

/** Solve as solver.solve, answered by BOOK when it judges every turn: [solution,
 * "book" | "search"] (Python's solve_with_book). */
export function solveWithBook(kernel, book, position, rules, search = {}) {
  if (book !== null && book.covers(position)) {
    const known = book.solution(kernel, position, rules);
    if (known !== null) return [known, "book"];
  }
  const solution = solve(kernel, position, rules, search);
  const held = book === null ? null : book.score(kernel, position, rules);
  if (solution.value === "unknown" && held !== null) {
    // out of time, but the book holds the value itself (not yet every turn's)
    const { value, plies } = valueOf(held);
    return [{ ...solution, value, plies, best: null, complete: false }, "book"];
  }
  return [solution, "search"];
}

/** Analyse as solver.analyse, answered by BOOK where it can: [analysis, "book" |
 * "search"] (Python's analyse_with_book). */
export function analyseWithBook(kernel, book, position, rules, search = {}) {
  if (book !== null && book.covers(position)) {
    const known = book.analysis(kernel, position, rules);
    if (known !== null) return [known, "book"];
  }
  return [analyse(kernel, position, rules, search), "search"];
}
