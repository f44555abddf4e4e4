// The analysis board without the server: every legal turn of a position with its
// value, best first, in the JSON shape of `GET /api/analysis` (AnalysisView in
// quads/web/schemas/analysis.py), as quads/web/analysis_api.py answers it: the opening
// book where it judges every turn, else the solver within a time budget (turns
// still open then are "unknown").
//
//   await analysis(engine, "..../..../..../.... -", "quads", { seconds: 3 })
//     // -> { position, rules, value, plies, source: "book" | "search", complete,
//     //      moves: [{ place: "A1" | null, give: "F" | null, value, plies }] }

import { cellName } from "../rules/cells.js";
import { pieceName } from "../rules/pieces.js";
import { analyseWithBook } from "./book.js";
import { readPosition, readRules } from "./engine.js";

/** The search's time budget of one analysis (the server's analysis_api.SECONDS). */
export const SECONDS = 3.0;

/** The view of an analysis (as the server's route builds it). */
export function analysisView(result, source) {
  return {
    position: result.position.toString(),
    rules: result.rules.name,
    value: result.value,
    plies: result.plies,
    source,
    complete: result.complete,
    moves: result.moves.map((m) => ({
      place: m.turn.place === null ? null : cellName(m.turn.place),
      give: m.turn.give === null ? null : pieceName(m.turn.give),
      value: m.value,
      plies: m.plies,
    })),
  };
}

/**
 * Every legal turn of POSITION under RULES with its value, best first: the
 * AnalysisView of `GET /api/analysis`.
 * @param {import("./engine.js").Engine} engine
 * @param {import("../rules/position.js").Position | string} position
 * @param {import("../rules/rules.js").Rules | string} rules
 * @param {{ seconds?: number }} [options]
 * @throws {import("../rules/errors.js").QuadsError} if the rules or the position cannot
 *   be read, or the position is impossible under the rules
 */
export async function analysis(engine, position, rules, { seconds = SECONDS } = {}) {
  const gameRules = readRules(rules);
  const read = readPosition(position);
  read.check(gameRules);
  const book = await engine.bookFor(gameRules);
  const [result, source] = analyseWithBook(engine.kernel, book, read, gameRules, { seconds });
  return analysisView(result, source);
}
