// The clocks of online games, without the page: the time controls offered (the
// presets, correspondence days, a custom real-time clock) and the API body of a
// choice; a game's ClockView (docs/web-api.md, "Clocks") counted down from the
// moment the page received it, never from the device's own time of day; and the
// words of a time control and of the time left.
//
// Nothing here touches the page: `t` (the catalogue) is handed in, so the module
// runs, and is tested, without a browser (tests/js/clocks.test.mjs).

/** Real-time presets, written minutes+seconds: minutes for the game, seconds added per move. */
export const REALTIME_PRESETS = ["1+2", "3+2", "5+3", "10+5"];

/** Correspondence presets: days for each move. */
export const DAY_PRESETS = ["1d", "2d", "3d", "7d"];

export const PRESETS = [...REALTIME_PRESETS, ...DAY_PRESETS];

/** The limits of a real-time clock (the server's RealTimeClock). */
export const INITIAL_MIN = 5;
export const INITIAL_MAX = 10_800;
export const INCREMENT_MAX = 180;

/** Below this, a real-time clock is low (and a correspondence move below a day's twelfth). */
export const LOW_MS = 10_000;
export const LOW_DAYS_MS = 2 * 3_600_000;

/**
 * A time control as the API speaks of it: real time (seconds at the start and seconds
 * added per move) or correspondence (days per move).
 * @typedef {{ initial: number, increment: number } | { days: number }} TimeControl
 */

/**
 * The API clock of a preset ("3+2", "3d"), or null for anything else.
 * @param {string} name
 * @returns {TimeControl | null}
 */
export function presetClock(name) {
  let match = /^(\d+)\+(\d+)$/.exec(name);
  if (match && REALTIME_PRESETS.includes(name)) {
    return { initial: Number(match[1]) * 60, increment: Number(match[2]) };
  }
  match = /^(\d)d$/.exec(name);
  if (match && DAY_PRESETS.includes(name)) return { days: Number(match[1]) };
  return null;
}

/** The short name of a time control: "3+2" (minutes+seconds), "0:05+0" (a base
 * of no whole minutes), or "3d" (days per move). */
export function clockName(control) {
  if (!control) return "";
  if ("days" in control) return `${control.days}d`;
  const minutes = Math.floor(control.initial / 60);
  const seconds = control.initial % 60;
  const base = seconds ? `${minutes}:${String(seconds).padStart(2, "0")}` : String(minutes);
  return `${base}+${control.increment}`;
}

/**
 * Whether a time control is a correspondence clock (days per move).
 * @param {TimeControl | null | undefined} control
 * @returns {control is { days: number }}
 */
export function isCorrespondence(control) {
  return control !== null && control !== undefined && "days" in control;
}

/**
 * The real-time clock of a custom choice: {minutes, seconds, increment} as typed
 * (strings or numbers).  Answers {clock} or {error: catalogue key}.
 * @param {{ minutes?: string | number, seconds?: string | number, increment?: string | number }} custom
 */
export function customClock({ minutes, seconds, increment }) {
  const whole = (value) => {
    const text = String(value ?? "").trim();
    if (text === "") return 0;
    return /^\d+$/.test(text) ? Number(text) : NaN;
  };
  const initial = whole(minutes) * 60 + whole(seconds);
  const added = whole(increment);
  if (!Number.isInteger(initial) || !Number.isInteger(added)) return { error: "clock.custom.invalid" };
  if (initial < INITIAL_MIN || initial > INITIAL_MAX || added > INCREMENT_MAX) {
    return { error: "clock.custom.invalid" };
  }
  return { clock: { initial, increment: added } };
}

/**
 * The API body's `clock` of a choice: "none", a preset ("3+2", "3d") or "custom"
 * (then `custom` holds what was typed).  Answers {clock} (null for "none") or
 * {error: catalogue key}.
 * @param {string | null | undefined} choice
 * @param {{ minutes?: string | number, seconds?: string | number, increment?: string | number }} [custom]
 */
export function clockChoice(choice, custom = {}) {
  if (!choice || choice === "none") return { clock: null };
  if (choice === "custom") return customClock(custom);
  const clock = presetClock(choice);
  return clock ? { clock } : { error: "clock.custom.invalid" };
}

/**
 * The clocks of a ClockView `elapsed` ms after the page received it:
 * {first, second, running, grace, correspondence, control}.  `first` and `second`
 * are the ms each side has left (the running side's counting down, never below 0);
 * `grace` is the ms left for a real-time first move (its time does not run
 * meanwhile), or null.  The server's `as_of` and `deadline` are both its own
 * times, so their difference is trusted; the device's time of day never is.
 */
export function clockTimes(view, elapsed) {
  const spent = Math.max(0, elapsed);
  const correspondence = isCorrespondence(view.control);
  const running = view.running || null;
  const graceRuns = Boolean(running && view.grace && !correspondence);
  const left = (side) => {
    const base = side === "first" ? view.first_ms : view.second_ms;
    if (side !== running || graceRuns) return Math.max(0, base);
    return Math.max(0, base - spent);
  };
  /** @type {number | null} */
  let grace = null;
  if (graceRuns && view.deadline && view.as_of) {
    const total = Date.parse(view.deadline) - Date.parse(view.as_of);
    grace = Number.isFinite(total) ? Math.max(0, total - spent) : null;
  }
  return {
    first: left("first"),
    second: left("second"),
    running,
    grace,
    firstMove: Boolean(running && view.grace),
    correspondence,
    control: view.control,
  };
}

/** Whether `ms` left is low time for `control`. */
export function isLow(control, ms) {
  return ms < (isCorrespondence(control) ? LOW_DAYS_MS : LOW_MS);
}

/**
 * A real-time clock's face: "h:mm:ss" from an hour, "m:ss" from 10 s, "0:0s.t" below
 * (tenths).  A second shows until it is wholly spent, so 0 shows only at 0.
 */
export function formatClock(ms) {
  const left = Math.max(0, ms);
  const tenths = Math.ceil(left / 100);
  if (tenths < 100) return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  const total = Math.ceil(left / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  return `${minutes}:${seconds}`;
}

/** Time left in words of its two largest units: {key, params} of the catalogue
 * (clock.left.days, .hours, .minutes, .seconds). */
export function leftParts(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  // "1 d", not "1 d 0 h" beside "23 h 59 min": a unit of nothing is left out.
  if (days) return hours ? { key: "clock.left.days", params: { days, hours } } : { key: "clock.left.days_only", params: { days } };
  if (hours) return { key: "clock.left.hours", params: { hours, minutes } };
  if (minutes) return { key: "clock.left.minutes", params: { minutes } };
  return { key: "clock.left.seconds", params: { seconds: total } };
}

/** Time left in words ("2 d 5 h", "12 min"), with the catalogue's `t`. */
export function leftWords(ms, t) {
  const { key, params } = leftParts(ms);
  return t(key, params);
}

/** A side's clock face: a real-time clock's digits, a correspondence move's time left in words. */
export function faceText(control, ms, t) {
  return isCorrespondence(control) ? leftWords(ms, t) : formatClock(ms);
}

/** A time control in words: "3+2", or "3 days per move". */
export function controlWords(control, t) {
  if (!control) return t("clock.none");
  if (isCorrespondence(control)) {
    return t(control.days === 1 ? "clock.days.one" : "clock.days.many", { days: control.days });
  }
  return clockName(control);
}

/** A real-time control explained: "3 min + 2 s"; for correspondence its words. */
export function controlLong(control, t) {
  if (isCorrespondence(control)) return controlWords(control, t);
  const minutes = Math.floor(control.initial / 60);
  const seconds = control.initial % 60;
  const base = minutes && seconds
    ? t("clock.base.both", { minutes, seconds })
    : minutes ? t("clock.base.minutes", { minutes }) : t("clock.base.seconds", { seconds });
  return t("clock.long", { base, increment: control.increment });
}

/** How long a seek has waited: "m:ss", or "h:mm:ss" from an hour (whole seconds). */
export function formatWaited(ms) {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  return `${minutes}:${seconds}`;
}
