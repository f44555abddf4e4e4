// The page's engine without the server: promises over one Web Worker (worker.js),
// started when the first question comes, so a search never freezes the page.
// Every answer has the JSON shape of the server's answer to the same question
// (docs/web-api.md, quads/web/schemas/), proven equal to it by node tests
// (tests/js/engine-*.test.mjs, with cases the Python library writes).
//
//   import { engineClient as engine } from "./engine/client.js";
//
//   await engine.analysis(position, rules, { seconds: 3 })
//     // AnalysisView of GET /api/analysis: { position, rules, value, plies,
//     //   source: "book" | "search", complete, moves: [{ place, give, value, plies }] }
//   await engine.computerActions(game, level, { seed })
//     // the computer's whole turn at level 1-5, as action texts: ["place A1", "give F"],
//     //   ["declare"], ["claim"], ["give 7"] (parseAction of rules/game.js reads them);
//     //   seed: the turn's seed (turnSeed(gameSeed, ply) of players.js replays a game)
//   await engine.hint(game, { seconds: 1 })
//     // HintView of GET /api/games/{id}/hint without `reason` (word it from reason_key,
//     //   reason_params and shapes): { action, place, give, value, plies, safe,
//     //   reason_key, reason_params, shapes }
//   await engine.review(game, { seconds: 3 })
//     // ReviewView of GET /api/games/{id}/review: { turns: [...] } (a finished game)
//   await engine.mistakes(game, side, { seconds: 3 })
//     // the exercises of a finished game's turns that threw away a win or a draw (side
//     //   "first", "second" or null: both), as quads.mistakes finds them (mistakes.js)
//   await engine.checkPuzzle(puzzle, played, turn)
//     // VerdictView of POST /api/puzzles/{date}/check; puzzle: the PuzzleView
//     //   ({ rules, position, goal: { plies } }), played: ["C3A", ...], turn: "D4F", or "D4" for
//     //   a placement alone (needs_give says when it needs its piece)
//
// Positions are position strings (or rules/ Positions), rules are rule-set names (or
// rules/ Rules), games are rules/ Games, their snapshot(), or plain data
// { rules: "classic", start?: "..../..../..../.... -", actions: ["give 7", "place A1", ...] }
// (action texts as actionText of rules/game.js writes them).  The kernel's own calls
// (solve, analyse, danger, safePieces, winningCells of kernel.js) are there too, as
// engine.call("solve", [position, rules, budget]).
//
// Questions are answered one at a time, in the order they were asked.  A refusal
// rejects the promise with an EngineFailure carrying what the server's error body
// carries (code, reason, params: the rules' own, e.g. code "illegal_action", or
// "not_over" for the review of a game that goes on).  To drop a question whose answer
// is no longer wanted, pass { signal } (an AbortSignal) in its options, or call
// engine.cancelAll(): the promise rejects at once with an AbortError and, if the
// worker has not started on it, it never does.  A search already running cannot be
// interrupted, but engine.stop() ends the worker (every question pending is
// rejected); the next question starts a new one.  The books (/engine/books/*.bin) and
// the module (engine/quads.wasm) are fetched by the worker when first needed, and kept
// by the service worker for offline use.

const WORKER = new URL("./worker.js", import.meta.url);

/** A question the engine refused: what the server's error body would carry. */
export class EngineFailure extends Error {
  constructor({ error, name, code, reason, params }) {
    super(error);
    this.kind = name; // the class of the error in the worker, e.g. "IllegalActionError"
    this.code = code;
    this.reason = reason;
    this.params = params;
  }

  get name() {
    return "EngineFailure";
  }
}

function aborted() {
  return new DOMException("the question was cancelled", "AbortError");
}

function positionText(position) {
  return typeof position === "string" ? position : String(position);
}

function rulesText(rules) {
  return typeof rules === "string" ? rules : rules.name;
}

function gameData(game) {
  return typeof game?.snapshot === "function" ? game.snapshot() : game;
}

/** The options to send: everything but the signal. */
function sent(options) {
  const rest = { ...options };
  delete rest.signal;
  return rest;
}

export class EngineClient {
  /** @param {{ createWorker?: () => Worker }} [options] how to start the worker */
  constructor({ createWorker = () => new Worker(WORKER, { type: "module" }) } = {}) {
    this.createWorker = createWorker;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
  }

  start() {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.addEventListener("message", ({ data }) => this.answer(data));
    worker.addEventListener("error", (event) => {
      event.preventDefault?.();
      this.fail(new Error(`the engine stopped: ${event.message ?? "worker error"}`));
    });
    this.worker = worker;
    return worker;
  }

  answer(data) {
    const request = this.pending.get(data?.id);
    if (!request) return; // cancelled: nobody waits for it
    this.pending.delete(data.id);
    request.signal?.removeEventListener("abort", request.onAbort);
    if (data.cancelled) request.reject(aborted());
    else if ("error" in data) request.reject(new EngineFailure(data));
    else request.resolve(data.result);
  }

  fail(error) {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    for (const request of waiting) request.reject(error);
  }

  /**
   * Ask the worker METHOD with ARGS; OPTIONS may carry { signal } to cancel it.
   * @param {string} method
   * @param {unknown[]} [args]
   * @param {{ signal?: AbortSignal }} [options]
   */
  call(method, args = [], { signal } = {}) {
    if (signal?.aborted) return Promise.reject(aborted());
    const worker = this.start();
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      const request = { resolve, reject, signal, onAbort: () => this.cancel(id) };
      this.pending.set(id, request);
      signal?.addEventListener("abort", request.onAbort, { once: true });
      worker.postMessage({ id, method, args });
    });
  }

  /** Give up question ID: its promise rejects with an AbortError; the worker skips it
   * if it has not started on it. */
  cancel(id) {
    const request = this.pending.get(id);
    if (!request) return;
    this.pending.delete(id);
    request.signal?.removeEventListener("abort", request.onAbort);
    this.worker?.postMessage({ cancel: id });
    request.reject(aborted());
  }

  /** Give up every question pending. */
  cancelAll() {
    for (const id of [...this.pending.keys()]) this.cancel(id);
  }

  /** End the worker now (a running search too): every question pending rejects with an
   * AbortError; the next question starts a new worker. */
  stop() {
    this.fail(aborted());
  }

  /** AnalysisView of GET /api/analysis. */
  analysis(position, rules, options = {}) {
    return this.call("analysis", [positionText(position), rulesText(rules), sent(options)], options);
  }

  /** The computer's whole turn at LEVEL, as action texts. */
  computerActions(game, level, options = {}) {
    return this.call("computerActions", [gameData(game), level, sent(options)], options);
  }

  /** HintView of GET /api/games/{id}/hint (without `reason`). */
  hint(game, options = {}) {
    return this.call("hint", [gameData(game), sent(options)], options);
  }

  /** ReviewView of GET /api/games/{id}/review. */
  review(game, options = {}) {
    return this.call("review", [gameData(game), sent(options)], options);
  }

  /** The exercises of a finished game's turns (engine/mistakes.js), SIDE's or both (null). */
  mistakes(game, side, options = {}) {
    return this.call("mistakes", [gameData(game), side, sent(options)], options);
  }

  /** VerdictView of POST /api/puzzles/{date}/check. */
  checkPuzzle(puzzle, played, turn, options = {}) {
    return this.call("checkPuzzle", [puzzle, [...played], turn], options);
  }
}

/** The page's one engine client (its worker starts with the first question). */
export const engineClient = new EngineClient();
