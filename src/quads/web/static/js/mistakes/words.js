// The exercises' screen without the DOM: what an exercise asks, the answer sent for
// what the player did on the board, when an exercise comes back, and the coming
// week's count of exercises due, which mistakes-view.js draws as a small chart.
// Tested in node (tests/js/mistakes.test.mjs).

import { bitsOf, cellName, parseCell, parsePiece, pieceName, Position, Rules, Turn } from "../rules/index.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The exercise's position for the board: the sixteen cells (hex digits or null), the
 * piece in hand, and the pieces to hand over.
 * @param {string} text a position string
 */
export function shownPosition(text) {
  const position = Position.fromString(text);
  const board = [];
  for (let cell = 0; cell < 16; cell += 1) {
    const piece = position.pieceAt(cell);
    board.push(piece === null ? null : pieceName(piece));
  }
  return {
    board,
    hand: position.hand === null ? null : pieceName(position.hand),
    supply: bitsOf(position.supply).map(pieceName),
  };
}

/**
 * What the player is asked: the catalogue key of the prompt, by the exercise's kind,
 * the value to keep, and whether the piece in hand was placed already.
 * @param {{ kind: string, keep: string }} exercise
 * @param {boolean} placed
 */
export function promptKey(exercise, placed) {
  if (exercise.kind === "give") return `mistakes.prompt.give.${exercise.keep}`;
  return placed ? "mistakes.prompt.then_give" : `mistakes.prompt.turn.${exercise.keep}`;
}

/**
 * Whether placing the piece in hand of `position` on `cell` ends the turn (it
 * completes a shape, or nothing is left to hand over): the answer is then the cell alone.
 * @param {string} position a position string
 * @param {string} rules a rule set's name
 * @param {string} cell
 */
export function placementEnds(position, rules, cell) {
  const read = Position.fromString(position);
  if (read.hand === null) return false;
  const at = parseCell(cell);
  return Boolean((read.winningCells(read.hand, Rules.parse(rules)) >> at) & 1) || read.supply === 0;
}

/**
 * The answer's text: a cell and a piece ("B46"), a cell alone ("B4"), or a piece
 * alone ("6", a hand-over exercise).
 * @param {string | null} cell
 * @param {string | null} piece
 */
export function answerText(cell, piece) {
  return new Turn(cell === null ? null : parseCell(cell), piece === null ? null : parsePiece(piece)).text;
}

/**
 * The parts of a turn's text ("B46"), to show where it goes.
 * @param {string} text
 */
export function turnParts(text) {
  const turn = Turn.parse(text);
  return { cell: turn.place === null ? null : cellName(turn.place), piece: turn.give === null ? null : pieceName(turn.give) };
}

/**
 * When an exercise comes back, as the catalogue says it: {key, count}.
 * @param {string} due ISO 8601
 * @param {number} nowMs
 */
export function dueWords(due, nowMs) {
  const left = Date.parse(due) - nowMs;
  if (left <= 0) return { key: "mistakes.due.now", count: 0 };
  if (left < DAY) return { key: "mistakes.due.hours", count: Math.max(1, Math.round(left / HOUR)) };
  return { key: "mistakes.due.days", count: Math.round(left / DAY) };
}

/**
 * How many exercises are due on each of the coming `days` days, today first (those
 * due already count today).
 * @param {{ due: string }[]} exercises
 * @param {number} nowMs
 * @param {number} [days]
 */
export function dueByDay(exercises, nowMs, days = 7) {
  const counts = new Array(days).fill(0);
  for (const exercise of exercises) {
    const day = Math.floor((Date.parse(exercise.due) - nowMs) / DAY);
    if (day < days) counts[Math.max(0, day)] += 1;
  }
  return counts;
}
