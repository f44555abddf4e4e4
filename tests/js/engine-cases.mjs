// What the engine's node tests share: the cases tests/js/make_engine_cases.py
// writes (.ci/run does so before `node --test`), the kernel and the books.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";

import { loadKernel } from "../../src/quads/web/static/js/engine/kernel.js";
import { BookShelf } from "../../src/quads/web/static/js/engine/book.js";
import { Engine } from "../../src/quads/web/static/js/engine/engine.js";

const CASES = new URL("./cases/", import.meta.url);

/** The cases of one section (books, solve, analysis, hints, review, puzzles, levels). */
export function loadCases(section) {
  const file = new URL(`engine-${section}.json`, CASES);
  assert.ok(existsSync(file),
    `no engine cases: run \`python tests/js/make_engine_cases.py\` first (.ci/run does)`);
  return JSON.parse(readFileSync(file, "utf8"));
}

/** The books as the server serves them, from the cases' copies. */
export function shelf() {
  return new BookShelf((name) => new URL(`books/${name}.bin`, CASES));
}

/** An engine over the kernel and the cases' books. */
export async function engine() {
  return new Engine(await loadKernel(), shelf());
}
