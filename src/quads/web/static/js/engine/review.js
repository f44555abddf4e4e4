// The review of a finished game without the server: the ReviewView of
// `GET /api/games/{id}/review` (quads/web/views.py review_view), as the Python
// library's quads.review judges each turn: the value of the position before it
// for the player to move, the value of the turn played, a best turn, and what
// the turn threw away.  Values come from the opening book near the empty board,
// else from the solver within a time budget per position (a value it cannot
// reach in time is "unknown", and such a turn gets no verdict).  Values assume
// perfect calls: under `declare`, a placement that completes a shape counts as won.
//
//   await review(engine, { rules: "classic", actions: ["give 7", "place A1", ...] })
//     // -> { turns: [{ ply, position, player, turn: { place, give }, before,
//     //      before_plies, after, after_plies, best, threw_away }] }

import { cellName } from "../rules/cells.js";
import { ENDINGS } from "../rules/game.js";
import { pieceName } from "../rules/pieces.js";
import { Turn } from "../rules/turn.js";
import { EngineError, readGame } from "./engine.js";
import { solveWithBook } from "./book.js";
import { scoreOf, turnScore, valueOf } from "./solver.js";

/** The solver's time for each position the book does not hold (the server's
 * api.REVIEW_SECONDS). */
export const SECONDS = 3.0;

const RANK = { win: 2, draw: 1, loss: 0 };

/** Each turn of GAME: [index of its first action, player, position before it, Turn]. */
function turnsOf(game) {
  const found = [];
  const states = game.states;
  let actions = game.actions;
  if (actions.length && ENDINGS.has(actions[actions.length - 1].type)) {
    actions = actions.slice(0, -1); // a resignation or a timeout is no turn
  }
  let index = 0;
  while (index < actions.length) {
    const start = index;
    const state = states[index];
    let place = null;
    let give = null;
    while (index < actions.length && states[index].toMove === state.toMove) {
      const action = actions[index];
      if (action.type === "place") place = action.cell;
      else if (action.type === "give") give = action.piece;
      index += 1;
    }
    if (place !== null || give !== null) {
      found.push([start, state.toMove, state.position, new Turn(place, give)]);
    }
  }
  return found;
}

/** The value of TURN in POSITION for the player making it. */
function turnValue(context, position, turn, rules, seconds) {
  let after = position;
  let placements = 0;
  if (turn.place !== null) {
    if ((position.winningCells(position.hand, rules) >> turn.place) & 1) {
      return { value: "win", plies: 1 };
    }
    after = position.place(turn.place);
    placements = 1;
  }
  if (turn.give === null) return { value: "draw", plies: null }; // the board is full
  const [child] = solveWithBook(context.kernel, context.book, after.give(turn.give), rules,
    { seconds });
  // (a won or lost value whose distance the time did not reach is unknown here; the
  // Python library has no score for it either)
  if (child.value === "unknown" || (child.value !== "draw" && child.plies === null)) {
    return { value: "unknown", plies: null };
  }
  return valueOf(turnScore(scoreOf(child.value, child.plies), placements));
}

function turnRef(turn) {
  if (turn === null) return null;
  return {
    place: turn.place === null ? null : cellName(turn.place),
    give: turn.give === null ? null : pieceName(turn.give),
  };
}

/**
 * Every turn of GAME judged, as the review view; CONTEXT is { kernel, book }.
 * @param {{ kernel: import("./kernel.js").Kernel, book: import("./book.js").Book | null }} context
 * @param {import("../rules/game.js").Game} game
 * @param {number} [seconds]
 */
export function reviewGame(context, game, seconds = SECONDS) {
  const { rules } = game;
  const turns = [];
  for (const [ply, player, position, turn] of turnsOf(game)) {
    const [solution] = solveWithBook(context.kernel, context.book, position, rules, { seconds });
    const after = turnValue(context, position, turn, rules, seconds);
    /** @type {"win" | "draw" | null} */
    let threwAway = null;
    if (solution.value in RANK && after.value in RANK && RANK[after.value] < RANK[solution.value]) {
      threwAway = solution.value === "win" ? "win" : "draw";
    }
    turns.push({
      ply,
      position: position.toString(),
      player,
      turn: turnRef(turn),
      before: solution.value,
      before_plies: solution.plies,
      after: after.value,
      after_plies: after.plies,
      best: turnRef(solution.best),
      threw_away: threwAway,
    });
  }
  return { turns };
}

/**
 * The review of a finished game: the ReviewView of `GET /api/games/{id}/review`.
 * @param {import("./engine.js").Engine} engine
 * @param {import("../rules/game.js").Game | object} game a Game or its plain data (readGame)
 * @param {{ seconds?: number }} [options]
 * @throws {EngineError} `not_over` while the game goes on
 */
export async function review(engine, game, { seconds = SECONDS } = {}) {
  const played = readGame(game);
  if (!played.isOver()) throw new EngineError("not_over", "a game is reviewed once it is over");
  const book = await engine.bookFor(played.rules);
  return reviewGame({ kernel: engine.kernel, book }, played, seconds);
}
