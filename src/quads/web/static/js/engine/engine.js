// The engine in the page: the WebAssembly kernel and the opening books, together.
// The modules that answer what the server's engine answers (analysis.js,
// players.js, hints.js, review.js, puzzle.js) take one as their first argument.
//
//   const engine = await Engine.load();    // engine/quads.wasm, books from the server
//   const book = await engine.bookFor(rules);  // the rule set's book, or null
//
// Rules are ../rules/ Rules or their names; positions ../rules/ Positions or strings;
// games ../rules/ Games or plain data (readGame).

import { Game } from "../rules/game.js";
import { EMPTY, Position } from "../rules/position.js";
import { Rules } from "../rules/rules.js";
import { BookShelf } from "./book.js";
import { loadKernel } from "./kernel.js";

export class Engine {
  /**
   * @param {import("./kernel.js").Kernel} kernel
   * @param {BookShelf} [shelf]
   */
  constructor(kernel, shelf = new BookShelf()) {
    this.kernel = kernel;
    this.shelf = shelf;
  }

  /** The kernel from WASM (its bytes or address; by default engine/quads.wasm) and the
   * books from BOOKS (a BookShelf; by default the server's /engine/books/).
   * @param {{ wasm?: Parameters<typeof loadKernel>[0], books?: BookShelf }} [options]
   */
  static async load({ wasm, books } = {}) {
    return new Engine(await (wasm === undefined ? loadKernel() : loadKernel(wasm)), books);
  }

  /** The opening book of RULES, or null (none for the game, or none to be had). */
  bookFor(rules) {
    return this.shelf.bookFor(readRules(rules));
  }
}

/** RULES as a Rules (a Rules, or a name Rules.parse reads). */
export function readRules(rules) {
  return rules instanceof Rules ? rules : Rules.parse(rules);
}

/** POSITION as a Position (a Position, or a string Position.fromString reads). */
export function readPosition(position) {
  return position instanceof Position ? position : Position.fromString(position);
}

/**
 * GAME as a Game: a Game, its snapshot(), or plain data { rules (a name), start (a
 * position string; the empty board by default), actions (texts as actionText writes
 * them) }, replayed by the rules.
 * @throws {import("../rules/errors.js").QuadsError} if the data is no game the rules allow
 */
export function readGame(game) {
  if (game instanceof Game) return game;
  const { rules, start, headers, actions, redo } = game;
  return Game.restore({
    rules: rules instanceof Rules ? rules.name : rules,
    start: start === undefined || start === null ? EMPTY.toString() : String(start),
    headers: headers ?? {},
    actions: actions ?? [],
    redo: redo ?? [],
  });
}

/** A refusal of the engine itself (not of the rules), with the code the server's API
 * gives the same refusal, e.g. `not_over`. */
export class EngineError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }

  get name() {
    return "EngineError";
  }
}
