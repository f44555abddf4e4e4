// The daily puzzles kept on this device, so that they play without a network: the
// puzzles of today and of the coming days (GET /api/puzzles/ahead) and those already
// opened from the archive, and the player's last history, brought up to date by
// what was solved offline.  Everything lives in localStorage (a few kilobytes), under
// two keys; nothing here touches the page, so it runs, and is tested, in node with any
// object that has getItem and setItem.

const PUZZLES_KEY = "quads.puzzles";
const HISTORY_KEY = "quads.puzzleHistory";
/** The most puzzles kept: the coming fortnight and some weeks of the archive. */
export const KEPT_MAX = 60;

const DAY_MS = 24 * 60 * 60 * 1000;

function read(storage, key, fallback) {
  try {
    const value = JSON.parse(storage.getItem(key));
    return value === null || value === undefined ? fallback : value;
  } catch {
    return fallback;
  }
}

function write(storage, key, value) {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or refused: the puzzles are only not kept
  }
}

/** This device's date, YYYY-MM-DD, in its own time zone. */
export function localDate(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The date `days` after `date` (both YYYY-MM-DD). */
export function addDays(date, days) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Keep `views` (PuzzleViews), newest dates first, at most KEPT_MAX in all. */
export function keepPuzzles(views, storage = globalThis.localStorage) {
  const kept = read(storage, PUZZLES_KEY, {});
  for (const view of views) kept[view.date] = view;
  const dates = Object.keys(kept).sort().reverse().slice(0, KEPT_MAX);
  write(storage, PUZZLES_KEY, Object.fromEntries(dates.map((date) => [date, kept[date]])));
}

/** The puzzle of `date` kept on this device, or null. */
export function keptPuzzle(date, storage = globalThis.localStorage) {
  return read(storage, PUZZLES_KEY, {})[date] ?? null;
}

/** The dates whose puzzles are kept, oldest first. */
export function keptDates(storage = globalThis.localStorage) {
  return Object.keys(read(storage, PUZZLES_KEY, {})).sort();
}

/** Keep the player's PuzzleHistory as the server last sent it. */
export function keepHistory(history, storage = globalThis.localStorage) {
  write(storage, HISTORY_KEY, history);
}

/** The history kept, or null. */
export function keptHistory(storage = globalThis.localStorage) {
  return read(storage, HISTORY_KEY, null);
}

/**
 * The number of consecutive dates of `solved` (YYYY-MM-DD) that end today or the day
 * before, dates after `today` left out: quads.puzzles.streak.
 */
export function streakOf(solved, today) {
  const days = new Set([...solved].filter((date) => date <= today));
  let day = days.has(today) ? today : addDays(today, -1);
  let count = 0;
  while (days.has(day)) {
    count += 1;
    day = addDays(day, -1);
  }
  return count;
}

/**
 * `history` (a PuzzleHistory) as it will be once the server has the results solved on
 * this device meanwhile, `solves` ([{date, tries, seconds}]), seen on `today`: their
 * dates marked solved (the first solve counts), the archive's days up to `today`, the
 * streak and the count of dates solved.
 */
export function withSolves(history, solves, today) {
  const days = new Map(history.days.map((day) => [day.date, { ...day }]));
  const solvedBefore = new Set(history.days.filter((day) => day.solved).map((day) => day.date));
  let added = 0;
  for (const { date, tries, seconds } of solves) {
    const known = days.get(date);
    if (known && known.solved) continue;
    if (!solvedBefore.has(date)) added += 1;
    solvedBefore.add(date);
    days.set(date, { date, solved: true, tries, seconds, attempts: (known ? known.attempts : 0) + 1 });
  }
  // The archive runs from today back, as long as it was.
  const length = history.days.length;
  const archive = [];
  for (let back = 0; back < length; back += 1) {
    const date = addDays(today, -back);
    archive.push(days.get(date) ?? { date, solved: false, tries: null, seconds: null, attempts: 0 });
  }
  const solved = [...days.values()].filter((day) => day.solved).map((day) => day.date);
  // Dates solved before the archive's window still carry the streak on.
  const streakDates = new Set(solved);
  if (history.streak > 0) {
    const end = history.days.find((day) => day.solved)?.date;
    if (end) for (let i = 0; i < history.streak; i += 1) streakDates.add(addDays(end, -i));
  }
  return {
    ...history,
    today,
    days: archive,
    solved: history.solved + added,
    streak: streakOf(streakDates, today),
  };
}
