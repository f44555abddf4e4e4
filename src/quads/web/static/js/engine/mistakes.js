// A player's mistakes in a game played on the device, as exercises, without the
// server: what the Python library's quads.mistakes finds (the same exercises, in the
// same order, proven equal by node tests), so that a game played offline leaves its
// exercises on the device at once.  A turn that threw away a win or a draw (the
// review's verdict, engine/review.js) becomes an exercise: the position before it and
// every turn that keeps the value; when the placement kept it and only the piece
// handed over threw it away, the hand-over alone from the position after the
// placement.  A position whose values the solver cannot all reach in its time gets
// no exercise.
//
//   await mistakes(engine, { rules: "quads", actions: [...] }, "first", { seconds: 3 })
//     // -> [{ ply, player, rules, position, kind: "turn" | "give", keep: "win" | "draw",
//     //       played: "B43" | "3", answers: ["B46", ...] }]   (side null: both players')

import { parseCell } from "../rules/cells.js";
import { parsePiece } from "../rules/pieces.js";
import { Turn } from "../rules/turn.js";
import { analyseWithBook } from "./book.js";
import { EngineError, readGame, readPosition } from "./engine.js";
import { reviewGame, SECONDS } from "./review.js";

/**
 * The turns of POSITION worth VALUE for the player making them, or null when some
 * turn's value is unknown (no verdict).
 */
function keeping(context, position, rules, value, seconds) {
  const [result] = analyseWithBook(context.kernel, context.book, position, rules, { seconds });
  if (!result.complete) return null;
  return result.moves.filter((move) => move.value === value).map((move) => move.turn.text);
}

/** The exercise of one reviewed turn that threw away a win or a draw, or null. */
function exercise(context, reviewed, rules, seconds) {
  const keep = reviewed.threw_away;
  const position = readPosition(reviewed.position);
  const { place, give } = reviewed.turn;
  const base = { ply: reviewed.ply, player: reviewed.player, rules: rules.name, keep };
  if (place !== null && give !== null) {
    const placed = position.place(parseCell(place));
    const gives = keeping(context, placed, rules, keep, seconds);
    if (gives && gives.length) { // the placement kept the value: the piece threw it away
      return { ...base, position: placed.toString(), kind: "give", played: give, answers: gives };
    }
  }
  const right = keeping(context, position, rules, keep, seconds);
  if (!right || !right.length) return null;
  const played = new Turn(place === null ? null : parseCell(place),
    give === null ? null : parsePiece(give)).text;
  return { ...base, position: position.toString(), kind: "turn", played, answers: right };
}

/**
 * The exercises of GAME's turns that threw away a win or a draw, in order: SIDE's
 * ("first" or "second") only, or both players' (null).
 * @param {import("./engine.js").Engine} engine
 * @param {import("../rules/game.js").Game | object} game a Game or its plain data (readGame)
 * @param {"first" | "second" | null} side
 * @param {{ seconds?: number }} [options]
 * @throws {EngineError} `not_over` while the game goes on
 */
export async function mistakes(engine, game, side, { seconds = SECONDS } = {}) {
  const played = readGame(game);
  if (!played.isOver()) throw new EngineError("not_over", "a game's mistakes are found once it is over");
  const book = await engine.bookFor(played.rules);
  const context = { kernel: engine.kernel, book };
  const found = [];
  for (const reviewed of reviewGame(context, played, seconds).turns) {
    if (reviewed.threw_away === null || (side !== null && reviewed.player !== side)) continue;
    const one = exercise(context, reviewed, played.rules, seconds);
    if (one !== null) found.push(one);
  }
  return found;
}
