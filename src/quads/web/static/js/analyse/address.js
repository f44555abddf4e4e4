// The address of the analysis board, #/analyse/RULES/POSITION: a rule set's name
// and a position string (its "/" and space escaped), either left out for the
// default (Quads, the empty board).  A shared address may come broken: cut short,
// garbled, naming rules the page does not know; `readAddress` says why.
// No page, no network: tested by node (tests/js/analyse.test.mjs).

import { readPosition } from "../position.js";
import { QuadsError } from "../rules/errors.js";
import { Position } from "../rules/position.js";
import { Rules } from "../rules/rules.js";

const ADDRESS = /^#\/analyse(?:\/([^/]*)(?:\/(.*))?)?$/;

/** The rule set of an address that names none. */
export const DEFAULT_RULES = "quads";

/** @typedef {{ key: string, params: Record<string, string | number> }} Message */
/**
 * A position to set up: the rule set's name as the library writes it, the sixteen
 * cells (a piece's hex digit or null) and the piece in hand (or null).
 * @typedef {{ rules: string, board: (string | null)[], hand: string | null }} Setup
 */

/** @type {Message} part of an address garbled: an escape ("%2F") cut short or made up */
const GARBLED = { key: "analyse.broken.escape", params: {} };

/**
 * The address of `rules` (a name) and `position` (a position string).
 * @param {string} rules
 * @param {string} position
 */
export function analyseAddress(rules, position) {
  return `#/analyse/${rules}/${encodeURIComponent(position)}`;
}

/**
 * What `hash` (an address such as location.hash) holds: null if it is no address
 * of the analysis board; else `setup`, the position to set up; or, if it cannot be
 * read, `broken`: what is wrong, each a message {key, params} of the catalogue (the
 * rules first, then the position).
 * @param {string} hash
 * @returns {null | { setup: Setup } | { broken: Message[] }}
 */
export function readAddress(hash) {
  const match = ADDRESS.exec(hash);
  if (!match) return null;
  /** @type {Message[]} */
  const broken = [];
  const rulesText = decoded(match[1]);
  const positionText = decoded(match[2]);
  let rules = DEFAULT_RULES;
  if (rulesText === null) broken.push(GARBLED);
  else if (rulesText) {
    try {
      rules = Rules.parse(rulesText).name;
    } catch (error) {
      if (!(error instanceof QuadsError)) throw error;
      broken.push({ key: "analyse.broken.rules", params: { rules: rulesText } });
    }
  }
  /** @type {{ board: (string | null)[], hand: string | null } | null} */
  let read = { board: Array(16).fill(null), hand: null };
  if (positionText === null) {
    if (rulesText !== null) broken.push(GARBLED);
  } else if (positionText) {
    read = readPosition(positionText);
    if (!read) broken.push(unreadable(positionText));
  }
  return read && !broken.length ? { setup: { rules, ...read } } : { broken };
}

/**
 * The text of a part of an address, its escapes undone and its ends trimmed; ""
 * for a part left out; null if it is garbled.
 * @param {string | undefined} part
 */
function decoded(part) {
  try {
    return decodeURIComponent(part ?? "").trim();
  } catch {
    return null;
  }
}

/**
 * Why `text`, which is no position string, cannot be read: the rules' own reason,
 * worded by the catalogue's error.invalid_position.<reason>.
 * @param {string} text
 * @returns {Message}
 */
function unreadable(text) {
  try {
    Position.fromString(text);
  } catch (error) {
    if (!(error instanceof QuadsError)) throw error;
    if (error.reason) return { key: `error.${error.code}.${error.reason}`, params: { ...error.params } };
  }
  return { key: "error.invalid_position", params: {} };
}
