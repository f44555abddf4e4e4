// The puzzles and history kept on the device (js/puzzles/kept.js).
import assert from "node:assert/strict";
import test from "node:test";

import {
  KEPT_MAX,
  addDays,
  keepHistory,
  keepPuzzles,
  keptDates,
  keptHistory,
  keptPuzzle,
  localDate,
  streakOf,
  withSolves,
} from "../../src/quads/web/static/js/puzzles/kept.js";

/** A Storage of its own for each test. */
function storage() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
  };
}

const view = (date) => ({ date, rules: "quads", position: "..../..../..../.... 0", goal: { moves: 2 } });

test("dates are counted in days across months and years", () => {
  assert.equal(addDays("2026-12-30", 3), "2027-01-02");
  assert.equal(addDays("2024-03-01", -1), "2024-02-29");
  assert.equal(localDate(new Date(2026, 0, 5, 23, 59)), "2026-01-05");
});

test("puzzles are kept by date, the newest when there are too many", () => {
  const kept = storage();
  assert.equal(keptPuzzle("2026-12-02", kept), null);
  const dates = Array.from({ length: KEPT_MAX + 5 }, (_, i) => addDays("2026-10-01", i));
  keepPuzzles(dates.map(view), kept);
  assert.deepEqual(keptDates(kept), dates.slice(5));
  assert.equal(keptPuzzle(dates[0], kept), null);
  assert.deepEqual(keptPuzzle(dates.at(-1), kept), view(dates.at(-1)));
  // Kept again: replaced, never doubled.
  keepPuzzles([{ ...view(dates.at(-1)), goal: { moves: 3 } }], kept);
  assert.equal(keptDates(kept).length, KEPT_MAX);
  assert.equal(keptPuzzle(dates.at(-1), kept).goal.moves, 3);
});

test("a damaged store keeps nothing rather than failing", () => {
  const kept = storage();
  kept.setItem("quads.puzzles", "{not json");
  assert.equal(keptPuzzle("2026-12-02", kept), null);
  keepPuzzles([view("2026-12-02")], kept);
  assert.deepEqual(keptDates(kept), ["2026-12-02"]);
  assert.equal(keptHistory(kept), null);
  keepHistory({ streak: 2 }, kept);
  assert.deepEqual(keptHistory(kept), { streak: 2 });
});

test("the streak counts back from today or yesterday, as the library does", () => {
  const today = "2026-12-02";
  assert.equal(streakOf([], today), 0);
  assert.equal(streakOf(["2026-12-02", "2026-12-01", "2026-11-30", "2026-11-28"], today), 3);
  assert.equal(streakOf(["2026-12-01", "2026-11-30"], today), 2); // today still open
  assert.equal(streakOf(["2026-11-30"], today), 0);
  assert.equal(streakOf(["2026-12-03", "2026-12-02"], today), 1); // a date after today does not count
});

function history(today, solvedDates, streak, solved) {
  const days = Array.from({ length: 5 }, (_, back) => {
    const date = addDays(today, -back);
    const done = solvedDates.includes(date);
    return { date, solved: done, tries: done ? 1 : null, seconds: done ? 30 : null, attempts: done ? 1 : 0 };
  });
  return { today, streak, solved, days, results: [] };
}

test("a puzzle solved offline counts in the history shown until the server has it", () => {
  // Seen yesterday: a streak of 2 ending then, 7 dates solved in all.
  const before = history("2026-12-01", ["2026-12-01", "2026-11-30"], 2, 7);
  const after = withSolves(before, [{ date: "2026-12-02", tries: 2, seconds: 80 }], "2026-12-02");
  assert.equal(after.today, "2026-12-02");
  assert.equal(after.streak, 3);
  assert.equal(after.solved, 8);
  assert.deepEqual(after.days[0], { date: "2026-12-02", solved: true, tries: 2, seconds: 80, attempts: 1 });
  assert.equal(after.days.length, before.days.length);
  assert.equal(after.days[1].date, "2026-12-01");
  // A date solved before keeps its first solve, and is not counted twice.
  const again = withSolves(after, [{ date: "2026-12-01", tries: 5, seconds: 1 }], "2026-12-02");
  assert.equal(again.solved, 8);
  assert.equal(again.days[1].tries, 1);
  // A streak longer than the archive goes on.
  const long = withSolves({ ...before, streak: 40 }, [{ date: "2026-12-02", tries: 1, seconds: 9 }], "2026-12-02");
  assert.equal(long.streak, 41);
  // Nothing solved yesterday or today: the streak is broken.
  const broken = withSolves(before, [], "2026-12-04");
  assert.equal(broken.streak, 0);
});
