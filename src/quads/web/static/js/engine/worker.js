// The engine's Web Worker, so that a search never freezes the page.  client.js
// starts it and speaks to it; started by hand it is a module worker:
//
//   const worker = new Worker(new URL("./engine/worker.js", import.meta.url), { type: "module" });
//   worker.postMessage({ id: 1, method: "analysis", args: [position, rules, { seconds: 3 }] });
//   worker.onmessage = ({ data }) => ...
//     // { id: 1, result } or { id: 1, error: message, name, code, reason, params }
//   worker.postMessage({ cancel: 1 });   // skip request 1 if it has not started yet
//     // -> { id: 1, cancelled: true }
//
// The methods: the engine's answers in the JSON shapes of the server's API
// (analysis, computerActions, hint, review, mistakes, checkPuzzle: see client.js) and the
// kernel's own (solve, analyse, danger, safePieces, winningCells: kernel.js).
// Requests are answered one at a time, in the order they came; the engine (the
// WebAssembly kernel, and the opening books when first needed) loads with the
// first request.

import { analysis } from "./analysis.js";
import { Engine } from "./engine.js";
import { hint } from "./hints.js";
import { mistakes } from "./mistakes.js";
import { computerActions } from "./players.js";
import { checkPuzzle } from "./puzzle.js";
import { review } from "./review.js";

const KERNEL = new Set(["solve", "analyse", "danger", "safePieces", "winningCells"]);
const ENGINE = { analysis, computerActions, hint, review, mistakes, checkPuzzle };

/** What an error says, as plain data (the rules' errors carry a code, a reason and params). */
function failure(error) {
  return {
    error: String(error?.message ?? error),
    name: error?.name ?? "Error",
    code: error?.code ?? null,
    reason: error?.reason ?? null,
    params: error?.params ?? null,
  };
}

/**
 * Answer the requests that come to SCOPE (the worker's global scope, or anything with
 * addEventListener("message") and postMessage), one at a time and in order, with the
 * engine LOAD makes (by default Engine.load(): engine/quads.wasm and the server's books).
 */
export function serve(scope, load = () => Engine.load()) {
  /** @type {Promise<Engine> | null} */
  let engine = null;
  let busy = false;
  const queue = [];
  const cancelled = new Set();

  async function run({ id, method, args = [] }) {
    try {
      if (!KERNEL.has(method) && !Object.hasOwn(ENGINE, method)) {
        throw new Error(`unknown method ${method}`);
      }
      engine ??= load();
      let ready;
      try {
        ready = await engine;
      } catch (error) {
        engine = null; // try again with the next request
        throw error;
      }
      const result = KERNEL.has(method) ? ready.kernel[method](...args)
        : await ENGINE[method](ready, ...args);
      scope.postMessage({ id, result });
    } catch (error) {
      scope.postMessage({ id, ...failure(error) });
    }
  }

  function pump() {
    if (busy || !queue.length) return;
    const next = queue.shift();
    if (cancelled.delete(next.id)) {
      scope.postMessage({ id: next.id, cancelled: true });
      setTimeout(pump, 0);
      return;
    }
    busy = true;
    run(next).finally(() => {
      busy = false;
      setTimeout(pump, 0); // a cancel already sent is read before the next request starts
    });
  }

  scope.addEventListener("message", ({ data }) => {
    if (data && data.cancel !== undefined) {
      if (queue.some((request) => request.id === data.cancel)) cancelled.add(data.cancel);
      return;
    }
    queue.push(data ?? {});
    setTimeout(pump, 0);
  });
}

/** The class of a worker's global scope: there only when this module runs as a worker. */
const WorkerScope = /** @type {{ WorkerGlobalScope?: Function }} */ (/** @type {unknown} */ (globalThis))
  .WorkerGlobalScope;
if (WorkerScope !== undefined && globalThis instanceof WorkerScope) {
  serve(globalThis);
}
