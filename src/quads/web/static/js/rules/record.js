// Game records (docs/record-format.md): header fields and move text, read and
// written exactly as Python's quads.record reads and writes them.
//
//   [Event "Club night"]
//   [Rules "classic"]
//   [Result "0-1"]
//
//   1. 7 A1C 2. B2?3 ! 0-1
//
// A game that ended by a resignation has the winner's result and the header
// [Termination "resignation"]; the player who resigned is the one who lost.

import { IllegalActionError, InvalidPositionError, InvalidRecordError, QuadsError } from "./errors.js";
import { ABORT, AGREE, Game, abandonment, timeout } from "./game.js";
import { FIRST, SECOND } from "./outcome.js";
import { parseToken, writeTokens } from "./notation.js";
import { EMPTY, Position } from "./position.js";
import { QUADS, Rules } from "./rules.js";
import { SPACE_CLASS, digitsValue, repr, splitLines, splitWords, strip } from "./text.js";

/** Result tokens: first player won, second player won, draw, unfinished. */
export const RESULTS = Object.freeze(["1-0", "0-1", "1/2-1/2", "*"]);

/** The `Termination` header of a game that ended by a resignation. */
export const RESIGNATION = "resignation";
/** The terminations that a record's `Termination` header says (the others its moves). */
const ENDINGS = new Set([RESIGNATION, "time", "abandonment", "agreement", "aborted"]);

const ORDER = ["Event", "Site", "Date", "Round", "First", "Second", "Rules", "Position", "Result", "Termination"];
/** `Termination` values of records written before resignation was part of the rules,
 * with the result `*`: the side that resigned. */
const LEGACY_RESIGNATION = new Map([["first player resigned", FIRST], ["second player resigned", SECOND]]);
const HEADER = new RegExp(`^\\[([A-Za-z][A-Za-z0-9_]*)[${SPACE_CLASS}]+"((?:[^"\\\\]|\\\\.)*)"\\]$`, "su");
const KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
const NUMBER = /^(\p{Nd}+)\.$/u;
const WIDTH = 79;

/** @param {Game} game */
function resultOf(game) {
  return game.outcome === null ? "*" : game.outcome.result;
}

/**
 * The record of `game`: its headers, then its move text.  `Rules` and `Result`
 * are always written from the game itself, and `Termination` (`resignation`, `time`,
 * `abandonment`, `agreement`, `aborted`) when, and only when, the game ended so; `Position` only when the game did not start on
 * the empty board.  Line breaks inside a header value become spaces.
 * @param {Game} game
 * @returns {string}
 * @throws {InvalidRecordError} if a header key is not letters, digits and `_`
 */
export function writeRecord(game) {
  /** @type {Map<string, string>} */
  const headers = new Map(Object.entries(game.headers));
  headers.set("Rules", game.rules.name);
  headers.set("Result", resultOf(game));
  headers.delete("Termination");
  const outcome = game.outcome;
  if (outcome !== null && ENDINGS.has(outcome.termination)) headers.set("Termination", outcome.termination);
  if (!game.start.equals(EMPTY)) headers.set("Position", game.start.toString());
  else headers.delete("Position");
  const keys = [...ORDER.filter((k) => headers.has(k)), ...[...headers.keys()].filter((k) => !ORDER.includes(k))];
  const lines = [];
  for (const key of keys) {
    if (!KEY.test(key)) {
      throw new InvalidRecordError(`invalid header key ${repr(key)}: letters, digits and _ only`, "header_key", { key });
    }
    // A record keeps one header a line: line breaks in a value become spaces.
    const value = splitLines(/** @type {string} */ (headers.get(key))).join(" ").replaceAll("\\", "\\\\").replaceAll('"', '\\"');
    lines.push(`[${key} "${value}"]`);
  }
  const words = [];
  writeTokens(game.states, game.actions).forEach((token, index) => {
    if (index % 2 === 0) words.push(`${index / 2 + 1}.`);
    words.push(token);
  });
  words.push(resultOf(game));
  const textLines = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + 1 + word.length > WIDTH) {
      textLines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  textLines.push(line);
  return `${lines.join("\n")}\n\n${textLines.join("\n")}\n`;
}

/**
 * Read a record and replay it, checking every token against the rules.  A
 * `Termination` of `resignation` ends the replayed game with the resignation of the
 * player the result says lost; records written before resignations were part of the
 * rules (`[Termination "first player resigned"]` with the result `*`) are read as
 * resigned games too.
 * @param {string} text
 * @returns {Game}
 * @throws {InvalidRecordError} if a header is malformed, a token cannot be played
 *   (the message names the token and why), the result written disagrees with the
 *   game, or a resignation is not possible where it stands
 */
export function readRecord(text) {
  /** @type {Map<string, string>} */
  const headers = new Map();
  const lines = splitLines(text);
  let bodyStart = lines.length;
  for (let number = 0; number < lines.length; number += 1) {
    const stripped = strip(lines[number]);
    if (!stripped) continue;
    if (!stripped.startsWith("[")) {
      bodyStart = number;
      break;
    }
    const match = HEADER.exec(stripped);
    if (match === null) {
      throw new InvalidRecordError(`line ${number + 1}: malformed header ${repr(stripped)}`, "header", { line: number + 1 });
    }
    const key = match[1];
    const value = match[2].replace(/\\(.)/gsu, "$1");
    if (headers.has(key)) {
      throw new InvalidRecordError(`line ${number + 1}: header ${repr(key)} given twice`, "header_twice", { line: number + 1, key });
    }
    headers.set(key, value);
  }
  /** @param {string} key */
  const pop = (key) => {
    const value = headers.get(key);
    headers.delete(key);
    return value;
  };
  let game;
  let rules;
  try {
    const rulesText = pop("Rules");
    rules = rulesText !== undefined ? Rules.parse(rulesText) : QUADS;
    const positionText = pop("Position");
    const start = positionText !== undefined ? Position.fromString(positionText) : EMPTY;
    game = new Game(rules, start);
  } catch (error) {
    if (!(error instanceof QuadsError)) throw error;
    throw new InvalidRecordError(`bad header: ${error.message}`, "header_value", { ...error.params });
  }
  const writtenResult = pop("Result");
  const termination = pop("Termination");
  game.headers = Object.fromEntries(headers);

  const words = splitWords(lines.slice(bodyStart).join(" "));
  /** @type {string | null} */
  let result = null;
  const moves = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index];
    if (RESULTS.includes(word)) {
      if (index !== words.length - 1) {
        throw new InvalidRecordError(`token ${repr(word)}: the result must end the move text`, "result_not_last", { token: word });
      }
      result = word;
      continue;
    }
    const turnNumber = NUMBER.exec(word);
    if (turnNumber) {
      const expected = Math.floor(moves.length / 2) + 1;
      if (moves.length % 2 || digitsValue(turnNumber[1]) !== expected) {
        throw new InvalidRecordError(
          `token ${repr(word)}: expected the turn number ${expected}. before the first player's turn`,
          "turn_number", { token: word, number: expected },
        );
      }
      continue;
    }
    moves.push(word);
  }
  for (let index = 0; index < moves.length; index += 1) {
    const token = moves[index];
    try {
      for (const action of parseToken(token, game.state, rules, { last: index === moves.length - 1 })) game.apply(action);
    } catch (error) {
      if (error instanceof InvalidRecordError || !(error instanceof QuadsError)) throw error;
      if (error instanceof InvalidPositionError || error instanceof IllegalActionError) {
        throw new InvalidRecordError(`token ${repr(token)}: ${error.message}`, error.reason || "unreadable", { ...error.params, token });
      }
      throw new InvalidRecordError(`token ${repr(token)}: ${error.message}`, "unreadable", { token });
    }
  }
  const legacy = termination !== undefined && LEGACY_RESIGNATION.has(termination);
  if (termination !== undefined) resignFrom(game, termination, result ?? writtenResult ?? null);
  const actual = resultOf(game);
  for (const [claimed, where] of /** @type {const} */ ([[result, "move text"], [writtenResult, "Result header"]])) {
    if (claimed !== null && claimed !== undefined && claimed !== actual && !(legacy && claimed === "*")) {
      throw new InvalidRecordError(
        `the ${where} says ${repr(claimed)} but the game's result is ${repr(actual)}`,
        "result_mismatch", { claimed, actual },
      );
    }
  }
  return game;
}

/**
 * End the replayed `game` by the ending that `termination` and `result` say, as
 * Python's record._resign does, message for message.
 * @param {Game} game
 * @param {string} termination
 * @param {string | null} result
 */
function resignFrom(game, termination, result) {
  const names = [...ENDINGS].sort();
  let kind = ENDINGS.has(termination) ? termination : null;
  if (LEGACY_RESIGNATION.has(termination)) kind = RESIGNATION;
  else if (kind === null) {
    throw new InvalidRecordError(
      `header Termination ${repr(termination)}: expected one of ${names.join(", ")}, or no Termination`,
      "termination", { termination },
    );
  }
  if (game.isOver()) {
    throw new InvalidRecordError(`header Termination says ${repr(termination)}, but the game ended by the rules`, "resigned_after_end");
  }
  if (kind === "aborted") {
    game.apply(ABORT);
    return;
  }
  if (kind === "agreement") {
    if (result !== "1/2-1/2") {
      throw new InvalidRecordError(
        `a game drawn by agreement needs the result 1/2-1/2, not ${result || "none"}`,
        "agreement_result", { result: result || "" },
      );
    }
    game.apply(AGREE);
    return;
  }
  let loser;
  if (LEGACY_RESIGNATION.has(termination)) loser = /** @type {import("./outcome.js").Player} */ (LEGACY_RESIGNATION.get(termination));
  else if (result === "1-0" || result === "0-1") loser = result === "1-0" ? SECOND : FIRST;
  else if (kind === "abandonment" && result === "1/2-1/2" && game.toMove !== null) {
    game.apply(abandonment(game.toMove, true));
    return;
  } else {
    throw new InvalidRecordError(
      `a game ended by ${repr(termination)} needs the result 1-0 or 0-1, not ${result || "none"}`,
      "resignation_result", { result: result || "" },
    );
  }
  if (kind === "time") game.apply(timeout(loser));
  else if (kind === "abandonment") game.apply(abandonment(loser));
  else game.resign(loser);
}
