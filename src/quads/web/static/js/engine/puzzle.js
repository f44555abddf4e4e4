// The daily puzzle without the server: the VerdictView of
// `POST /api/puzzles/{date}/check` (quads/web/puzzle_views.py check), judged as the
// Python library's quads.puzzles.check judges it: a turn is accepted when it
// keeps a forced win within the goal (any such turn, not only the puzzle's own
// line), and answered with the defender's reply, the solver's best turn.
//
//   await checkPuzzle(engine, puzzle, ["C3A", "B2"], "D4")
//     // puzzle: a PuzzleView ({ rules, position, goal: { plies } }; the rest is unused)
//     // -> { needs_give, accepted, solved, turn, reply, played, value, moves_left,
//     //      position, board, hand, supply, winner, cells }

import { bitsOf } from "../rules/bits.js";
import { cellName } from "../rules/cells.js";
import { IllegalActionError } from "../rules/errors.js";
import { pieceName } from "../rules/pieces.js";
import { repr } from "../rules/text.js";
import { Turn } from "../rules/turn.js";
import { readPosition, readRules } from "./engine.js";
import { solve } from "./solver.js";

/** The table of every puzzle search (the library's quads.puzzles.generate.TABLE_MB). */
export const TABLE_MB = 2;

/** A puzzle's rule set, position and goal (placements of both sides) from its view. */
function readPuzzle(puzzle) {
  return {
    rules: readRules(puzzle.rules),
    position: readPosition(puzzle.position),
    plies: puzzle.goal?.plies ?? puzzle.plies,
  };
}

function wins(position, turn, puzzle) {
  return turn.place !== null && position.hand !== null
    && Boolean((position.winningCells(position.hand, puzzle.rules) >> turn.place) & 1);
}

function playTurn(position, turn, puzzle) {
  if (wins(position, turn, puzzle)) return position.place(turn.place); // the game ends with it
  if (turn.give === null && position.emptyCount > 1) {
    throw new IllegalActionError(
      `turn ${repr(turn.text)} in ${repr(position.toString())}: a piece must be handed over`,
      "piece_missing", { turn: turn.text });
  }
  return position.play(turn);
}

/** The position after PLAYED (the player's and the defender's turns, alternating). */
function positionAfter(puzzle, played) {
  let position = puzzle.position;
  for (const turn of played) {
    if (position.hand === null) {
      throw new IllegalActionError(`turn ${repr(turn.text)} comes after the end of the game`,
        "after_end", { turn: turn.text });
    }
    position = playTurn(position, turn, puzzle);
  }
  return position;
}

function needsHandover(puzzle, turn, played) {
  if (turn.give !== null || turn.place === null) return false;
  const position = positionAfter(puzzle, played);
  if (position.hand === null) throw new IllegalActionError("the puzzle's game is over", "game_over");
  return !wins(position, turn, puzzle) && position.emptyCount > 1;
}

/** Python's check_turn: { accepted, solved, position, reply, pliesLeft, value, plies }. */
function checkTurn(kernel, puzzle, turn, played) {
  if (played.length % 2) {
    throw new IllegalActionError("it is the defender's turn: the turns played so far are odd",
      "defenders_turn");
  }
  const position = positionAfter(puzzle, played);
  const left = puzzle.plies - played.length;
  if (position.hand === null) throw new IllegalActionError("the puzzle's game is over", "game_over");
  const after = playTurn(position, turn, puzzle);
  if (wins(position, turn, puzzle)) {
    return { accepted: left >= 1, solved: left >= 1, reply: null, pliesLeft: 0, value: "loss" };
  }
  const answer = solve(kernel, after, puzzle.rules, { tableMb: TABLE_MB });
  const accepted = answer.value === "loss" && answer.plies !== null && answer.plies <= left - 1;
  return {
    accepted, solved: false, reply: answer.best, pliesLeft: accepted ? left - 2 : left,
    value: answer.value,
  };
}

function verdictView(puzzle, shown, line, fields) {
  let cells = 0;
  if (!fields.needs_give) for (const shape of shown.winningShapes(puzzle.rules)) cells |= shape.cells;
  const winning = bitsOf(cells).map(cellName);
  return {
    needs_give: fields.needs_give,
    accepted: fields.accepted,
    solved: fields.solved,
    turn: fields.turn.text,
    reply: fields.reply === null ? null : fields.reply.text,
    played: line.map((step) => step.text),
    value: fields.value,
    moves_left: fields.moves_left,
    position: shown.toString(),
    board: shown.cells.map((piece) => (piece === null ? null : pieceName(piece))),
    hand: shown.hand === null ? null : pieceName(shown.hand),
    supply: bitsOf(shown.supply).map(pieceName),
    winner: winning.length ? (fields.solved ? "player" : "opponent") : null,
    cells: winning,
  };
}

/**
 * Judge the player's TURN after the turns PLAYED since the puzzle position: the
 * VerdictView of `POST /api/puzzles/{date}/check`.
 * @param {{ kernel: import("./kernel.js").Kernel }} engine an Engine (books are not used)
 * @param {{ rules: string, position: string, goal: { plies: number } }} puzzle a PuzzleView
 * @param {string[]} played the turns since the puzzle position, as record tokens (`A1F`)
 * @param {string} turn the player's turn: `A1F`, or `A1` for a placement alone
 * @throws {import("../rules/errors.js").QuadsError} if a token cannot be read or a turn is
 *   not legal (as the server refuses it)
 */
export function checkPuzzleNow(engine, puzzle, played, turn) {
  const read = readPuzzle(puzzle);
  const line = played.map((token) => Turn.parse(token));
  const mine = Turn.parse(turn);
  if (needsHandover(read, mine, line)) {
    const shown = positionAfter(read, line).place(mine.place);
    return verdictView(read, shown, [...line, mine], {
      needs_give: true, accepted: false, solved: false, turn: mine, reply: null,
      value: "unknown", moves_left: 0,
    });
  }
  const verdict = checkTurn(engine.kernel, read, mine, line);
  const full = [...line, mine, ...(verdict.reply !== null ? [verdict.reply] : [])];
  const shown = positionAfter(read, full);
  const movesLeft = verdict.accepted && verdict.pliesLeft > 0 ? (verdict.pliesLeft + 1) >> 1 : 0;
  return verdictView(read, shown, full, {
    needs_give: false, accepted: verdict.accepted, solved: verdict.solved, turn: mine,
    reply: verdict.reply, value: verdict.value, moves_left: movesLeft,
  });
}

/** checkPuzzleNow, as a promise (the other engine calls are). */
export async function checkPuzzle(engine, puzzle, played, turn) {
  return checkPuzzleNow(engine, puzzle, played, turn);
}
