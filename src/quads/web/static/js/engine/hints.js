// Hints without the server: the HintView of `GET /api/games/{id}/hint`
// (quads/web/views.py hint_view), as the Python library's quads.players.hints
// gives it: call or claim when one may, else the book's or the solver's best
// turn (the tightest squeeze while the solver cannot answer in time), with the
// reason as a catalogue key and its params.
//
//   await hint(engine, game, { seconds: 1 })
//     // -> { action, place, give, value, plies, safe, reason_key, reason_params, shapes }
//
// The reason's words come from the catalogue, as the page words the server's hints
// (reason_key, reason_params and shapes); `reason` itself is left out.

import { bitsOf, popcount } from "../rules/bits.js";
import { cellName } from "../rules/cells.js";
import { IllegalActionError } from "../rules/errors.js";
import { BIT_TRAIT, pieceName } from "../rules/pieces.js";
import { readGame } from "./engine.js";
import { rankTurns, repliesWithASafePiece } from "./players.js";
import { solve } from "./solver.js";

/** How long a hint may think (the server's play.HINT_SECONDS). */
export const SECONDS = 1.0;

function advice(safe, turn, action, value, plies, key, params = {}, shapes = [], board = null) {
  return { safe, turn, action, value, plies, key, params, shapes, board };
}

/**
 * The shape that the DANGEROUS pieces would complete most often (first found on ties).
 * Each dangerous piece completes a shape somewhere, so there is one.
 * @param {import("../rules/position.js").Position} position
 * @param {number} dangerous a mask of pieces
 * @param {import("../rules/rules.js").Rules} rules
 * @returns {import("../rules/shapes.js").Shape}
 */
function commonThreat(position, dangerous, rules) {
  const threats = new Map();
  for (const piece of bitsOf(dangerous)) {
    const received = position.give(piece);
    for (const cell of bitsOf(received.winningCells(piece, rules))) {
      for (const shape of received.place(cell).winningShapesThrough(cell, rules)) {
        threats.set(shape, (threats.get(shape) ?? 0) + 1);
      }
    }
  }
  /** @type {import("../rules/shapes.js").Shape | null} */
  let best = null;
  for (const [shape, count] of threats) if (best === null || count > threats.get(best)) best = shape;
  if (best === null) throw new Error("no dangerous piece completes a shape");
  return best;
}

/**
 * Advice for the player to move in GAME (Python's quads.players.hints.hint), within
 * about SECONDS of search; CONTEXT is { kernel, book }.
 * @throws {IllegalActionError} if the game is over
 */
export function advise(context, game, seconds = SECONDS) {
  const { state, rules } = game;
  const position = state.position;
  if (state.step === "over") throw new IllegalActionError("no hint: the game is over", "game_over");
  if (state.step === "give" && state.declarable.length) {
    return advice(0, null, "declare", "win", 0, "hint.declare", {}, state.declarable, position);
  }
  if (state.step === "place" && state.claimable.length) {
    return advice(0, null, "claim", "win", 0, "hint.claim", {}, state.claimable, position);
  }
  const { kernel, book } = context;
  const known = book && book.covers(position) ? book.solution(kernel, position, rules) : null;
  const solution = known ?? solve(kernel, position, rules, { seconds });
  let turn;
  let value;
  let plies;
  if (solution.value !== "unknown" && solution.best !== null) {
    ({ best: turn, value, plies } = solution);
  } else {
    [turn, value, plies] = [rankTurns(position, rules)[0][1], "unknown", null];
  }
  const after = turn.place === null ? position : position.place(turn.place);
  const safe = after.safePieces(rules);
  if (turn.place !== null && turn.give === null) {
    const shapes = after.winningShapesThrough(turn.place, rules);
    if (shapes.length) {
      return advice(safe, turn, null, "win", 1, "hint.win_now", { cell: cellName(turn.place) },
        shapes, after);
    }
  }
  if (value === "win") return advice(safe, turn, null, value, plies, "hint.forced_win", { plies: plies ?? 0 });
  if (value === "loss") return advice(safe, turn, null, value, plies, "hint.losing", { plies: plies ?? 0 });
  const supply = after.supply;
  if (popcount(safe) === 1 && popcount(supply) > 1) {
    return advice(safe, turn, null, value, plies, "hint.only_safe",
      { shape: commonThreat(after, supply & ~safe, rules).id });
  }
  const replies = turn.give === null ? 0 : repliesWithASafePiece(after, turn.give, rules);
  return advice(safe, turn, null, value, plies, value === "draw" ? "hint.draw" : "hint.squeeze",
    { replies, safe: popcount(safe), total: popcount(supply) });
}

/** The HintView of an advice (the server's views.hint_view, without `reason`). */
export function hintView(given, rules) {
  const { turn } = given;
  return {
    action: given.action,
    place: turn === null || turn.place === null ? null : cellName(turn.place),
    give: turn === null || turn.give === null ? null : pieceName(turn.give),
    value: given.value,
    plies: given.plies,
    safe: bitsOf(given.safe).map(pieceName),
    reason_key: given.key,
    reason_params: { ...given.params },
    shapes: given.board === null ? [] : given.shapes.map((shape) => ({
      shape: shape.id,
      traits: given.board.sharedValues(shape, rules)
        .map(([bit, value]) => ({ trait: BIT_TRAIT[bit], value })),
    })),
  };
}

/**
 * A hint for the player to move in GAME: the HintView of `GET /api/games/{id}/hint`
 * (without `reason`, which the page words from reason_key, reason_params and shapes).
 * @param {import("./engine.js").Engine} engine
 * @param {import("../rules/game.js").Game | object} game a Game or its plain data (readGame)
 * @param {{ seconds?: number }} [options]
 * @throws {IllegalActionError} if the game is over
 */
export async function hint(engine, game, { seconds = SECONDS } = {}) {
  const played = readGame(game);
  const book = await engine.bookFor(played.rules);
  return hintView(advise({ kernel: engine.kernel, book }, played, seconds), played.rules);
}
