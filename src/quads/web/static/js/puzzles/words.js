// The puzzle screen's words: turns in their parts and in sentences, times, tries,
// streaks and dates, in the page's language.

import { currentLanguage, t } from "../i18n.js";
import { pieceLabel } from "../pieces.js";
import { cellName, parseCell } from "../rules/cells.js";
import { parsePiece, pieceName } from "../rules/pieces.js";
import { Turn } from "../rules/turn.js";

/** A turn's text ("A1F", "7", "D4") in its parts: {place: "A1" | null, give: "F" | null}. */
export function readTurn(text) {
  const turn = Turn.parse(text);
  return { place: turn.place === null ? null : cellName(turn.place), give: turn.give === null ? null : pieceName(turn.give) };
}

/** The text of a turn given in parts, as the library writes it. */
export function turnText({ place = null, give = null }) {
  return new Turn(place === null ? null : parseCell(place), give === null ? null : parsePiece(give)).text;
}

/** "0:42", "12:05" or "1:02:03". */
export function formatTime(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function triesText(count) {
  return t(count === 1 ? "puzzle.tries.one" : "puzzle.tries.many", { count });
}

export function streakText(count) {
  if (!count) return t("puzzle.streak.none");
  return t(count === 1 ? "puzzle.streak.one" : "puzzle.streak.many", { count });
}

/**
 * The words of `date` (YYYY-MM-DD) in the page's language.
 * @param {string} date
 * @param {Intl.DateTimeFormatOptions} [options]
 */
export function dateText(date, options = { weekday: "long", day: "numeric", month: "long", year: "numeric" }) {
  const format = new Intl.DateTimeFormat(currentLanguage(), { ...options, timeZone: "UTC" });
  return format.format(new Date(`${date}T00:00:00Z`));
}

/** A turn of the computer in words: "places X on C3 and hands you Y". */
export function replyText(reply, placed, wins) {
  const { place: cell, give } = readTurn(reply);
  const piece = pieceLabel(placed);
  if (give) return t("puzzle.reply", { piece, cell, give: pieceLabel(give) });
  return t(wins ? "puzzle.reply.wins" : "puzzle.reply.place", { piece, cell });
}
