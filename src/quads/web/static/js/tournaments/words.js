// Tournaments in words, without the page: an event's name (the site's own arenas
// are named by their slot, worded in the reader's language), its clock, the
// countdown to its start or end as the server's time sees it, a player's sheet of
// points, and which game of the event the page should open.
//
// `t` (the catalogue) is handed in, so the module runs, and is tested, without a
// browser (tests/js/tournaments.test.mjs).

import { clockName } from "../clocks.js";

/** The site's own arenas' slots (quads/site/tournaments/schedule.py). */
export const SLOTS = ["hourly-quads", "daily-classic"];

/** An API clock "180+2" (seconds + seconds a turn) as a time control, or null. */
export function parseClock(text) {
  const match = /^(\d+)\+(\d+)$/.exec(String(text));
  return match ? { initial: Number(match[1]), increment: Number(match[2]) } : null;
}

/** The short name of an event's clock: "3+2". */
export function eventClock(event) {
  const control = parseClock(event.clock);
  return control ? clockName(control) : String(event.clock);
}

/** Whether `event` (a summary, or a game's {id, name}) is one of the site's own
 * arenas: its name is a slot and its id that slot and its start, "hourly-quads-2026120618". */
export function isScheduled(event) {
  return SLOTS.includes(event.name) && new RegExp(`^${event.name}-\\d{10}$`).test(event.id);
}

/** An event's name for the reader: a scheduled arena's slot in words, a name its
 * maker gave, or "Arena 3+2" for one without (then `event.clock` is needed). */
export function eventName(event, t) {
  if (isScheduled(event)) return t(`tournaments.slot.${event.name}`);
  if (event.name) return event.name;
  return event.clock ? t("tournaments.unnamed", { clock: eventClock(event) }) : t("tournaments.arena");
}

/** A span of time counting down: "m:ss", "h:mm:ss" from an hour, or days and hours
 * in words from a day ({key, params} of the catalogue, with `t`). */
export function countdownText(ms, t) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const days = Math.floor(total / 86_400);
  if (days) return t("clock.left.days", { days, hours: Math.floor((total % 86_400) / 3600) });
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * What the countdown of `event` says at the server's time `nowMs`: {key, time}
 * (tournaments.starts_in / starting / ends_in / ending / waiting / round / over),
 * `time` the countdown's text or "" when none counts; a Swiss event under way tells
 * its round ({key: "tournaments.round", round, rounds}), or before its first that it
 * waits for a second player.
 */
export function countdown(event, nowMs, t) {
  if (event.status === "finished") return { key: "tournaments.over", time: "" };
  const starts = Date.parse(event.starts);
  const ends = Date.parse(event.ends);
  if (event.status === "created" && nowMs < starts) return { key: "tournaments.starts_in", time: countdownText(starts - nowMs, t) };
  if (event.status === "created") return { key: "tournaments.starting", time: "" };
  if (event.kind === "swiss" && !event.round) return { key: "tournaments.waiting", time: "" };
  if (event.kind === "swiss") return { key: "tournaments.round", time: "", round: event.round, rounds: event.rounds };
  if (nowMs < ends) return { key: "tournaments.ends_in", time: countdownText(ends - nowMs, t) };
  return { key: "tournaments.ending", time: "" };
}

/** Points as a table shows them: "3", "2½", "½". */
export function pointsText(points) {
  const whole = Math.floor(points);
  const half = points - whole >= 0.5;
  if (!half) return String(whole);
  return whole ? `${whole}½` : "½";
}

/** The server's time now, from a view's `at` received at the device's `receivedMs`
 * and the device's `nowMs`: the device's clock may be off, the time since is not. */
export function serverNow(at, receivedMs, nowMs) {
  const then = Date.parse(at);
  return Number.isNaN(then) ? nowMs : then + (nowMs - receivedMs);
}

/**
 * Whether the view read at `read` was read before the one read at `shown` (the
 * server's times, ISO 8601 with up to microseconds).  Two reads a fraction of a
 * millisecond apart are told apart: Date.parse keeps milliseconds only, and a read
 * begun just before a join and the join's own answer often fall in one.
 */
export function readBefore(read, shown) {
  const [a, b] = [instant(read), instant(shown)];
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/** A time as [whole seconds since 1970 in ms, microseconds within the second]. */
function instant(text) {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(String(text));
  if (!match) return [Date.parse(text), 0];
  return [Date.parse(match[1] + match[3]), Number((match[2] || "").padEnd(6, "0").slice(0, 6))];
}

/** A sheet of points, oldest first: "2 4 0 1", a Swiss event's "1 ½ 0". */
export function sheetText(sheet) {
  return sheet.map(pointsText).join(" ");
}

/**
 * The game of the event to open for a player: their game being played now (`me`,
 * the socket's own part), when it is not the one shown (`shown`), and the one shown
 * is over (a game in play is never left by itself); null otherwise.
 */
export function gameToOpen(me, shown, shownOver) {
  if (!me || !me.playing || me.playing === shown) return null;
  return shown && !shownOver ? null : me.playing;
}
