// Unit tests of the clocks of online games without the page
// (src/quads/web/static/js/clocks.js): the clock chosen as the API's body, a
// ClockView counted down from its receipt, and the words of a time control and of
// the time left.  Run by .ci/run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  PRESETS,
  clockChoice,
  clockName,
  clockTimes,
  controlLong,
  controlWords,
  faceText,
  formatClock,
  formatWaited,
  isLow,
  leftWords,
  presetClock,
} from "../../src/quads/web/static/js/clocks.js";

/** The page's English catalogue, as the server serves it. */
const EN = JSON.parse(readFileSync(new URL("../../src/quads/catalogue/en.json", import.meta.url), "utf8"));
const t = (key, params = {}) => EN[key].replace(/\{(\w+)\}/g, (_, name) => String(params[name]));

const AS_OF = "2025-05-01T12:00:00+00:00";

function view(fields) {
  return {
    control: { initial: 180, increment: 2 },
    first_ms: 180_000,
    second_ms: 180_000,
    running: "first",
    grace: false,
    deadline: null,
    as_of: AS_OF,
    ...fields,
  };
}

// ---- the choice, as the API's body ------------------------------------------------

test("the presets are written minutes+seconds and sent in seconds", () => {
  assert.deepEqual(presetClock("1+2"), { initial: 60, increment: 2 });
  assert.deepEqual(presetClock("10+5"), { initial: 600, increment: 5 });
  assert.deepEqual(presetClock("7d"), { days: 7 });
  assert.equal(presetClock("4d"), null);
  assert.equal(presetClock("2+1"), null);
  assert.deepEqual(PRESETS, ["1+2", "3+2", "5+3", "10+5", "1d", "2d", "3d", "7d"]);
  for (const name of PRESETS) assert.equal(clockName(presetClock(name)), name);
});

test("a choice is no clock, a preset or a custom real-time clock", () => {
  assert.deepEqual(clockChoice("none"), { clock: null });
  assert.deepEqual(clockChoice("3+2"), { clock: { initial: 180, increment: 2 } });
  assert.deepEqual(clockChoice("3d"), { clock: { days: 3 } });
  assert.deepEqual(clockChoice("custom", { minutes: "0", seconds: "5", increment: "0" }),
    { clock: { initial: 5, increment: 0 } });
  assert.deepEqual(clockChoice("custom", { minutes: "15", seconds: "", increment: "10" }),
    { clock: { initial: 900, increment: 10 } });
});

test("a custom clock out of the server's range is refused before it is sent", () => {
  const refused = { error: "clock.custom.invalid" };
  assert.deepEqual(clockChoice("custom", { minutes: "0", seconds: "4", increment: "0" }), refused);
  assert.deepEqual(clockChoice("custom", { minutes: "181", seconds: "0", increment: "0" }), refused);
  assert.deepEqual(clockChoice("custom", { minutes: "1", seconds: "0", increment: "181" }), refused);
  assert.deepEqual(clockChoice("custom", { minutes: "1.5", seconds: "0", increment: "0" }), refused);
  assert.deepEqual(clockChoice("custom", { minutes: "-1", seconds: "30", increment: "0" }), refused);
  assert.deepEqual(clockChoice("custom", { minutes: "180", seconds: "0", increment: "180" }),
    { clock: { initial: 10_800, increment: 180 } });
});

// ---- counting down from the receipt ------------------------------------------------

test("the running side counts down from the view's figures, the other side stands", () => {
  const clock = view({ first_ms: 61_000, second_ms: 90_000, running: "first" });
  const times = clockTimes(clock, 1_500);
  assert.equal(times.first, 59_500);
  assert.equal(times.second, 90_000);
  assert.equal(times.running, "first");
  assert.equal(times.grace, null);
  const later = clockTimes({ ...clock, running: "second" }, 10_000);
  assert.equal(later.first, 61_000);
  assert.equal(later.second, 80_000);
});

test("the device's time of day plays no part: only the time since receipt", () => {
  // as_of far in the past or future of this device changes nothing.
  const now = clockTimes(view({ as_of: "1999-01-01T00:00:00Z" }), 2_000);
  const then = clockTimes(view({ as_of: "2099-01-01T00:00:00Z" }), 2_000);
  assert.equal(now.first, 178_000);
  assert.deepEqual(now, then);
});

test("a clock stops at 0 and waits for the server", () => {
  const times = clockTimes(view({ first_ms: 3_000 }), 60_000);
  assert.equal(times.first, 0);
  assert.equal(formatClock(times.first), "0:00.0");
});

test("a real-time first move's grace counts down to the deadline while the clock stands", () => {
  const clock = view({ grace: true, deadline: "2025-05-01T12:00:25+00:00" });
  const times = clockTimes(clock, 4_000);
  assert.equal(times.first, 180_000); // the grace runs, not the clock
  assert.equal(times.grace, 21_000);
  assert.equal(times.firstMove, true);
  assert.equal(leftWords(times.grace, t), "21 s");
  assert.equal(clockTimes(clock, 30_000).grace, 0);
});

test("a correspondence move counts down in days and hours, its grace with it", () => {
  const day = 86_400_000;
  const clock = view({ control: { days: 3 }, first_ms: 3 * day, second_ms: 3 * day, grace: true,
                       deadline: "2025-05-04T12:00:00+00:00" });
  const times = clockTimes(clock, 5 * 3_600_000);
  assert.equal(times.grace, null); // the move's own time is its grace
  assert.equal(times.firstMove, true);
  assert.equal(times.first, 3 * day - 5 * 3_600_000);
  assert.equal(faceText(clock.control, times.first, t), "2 d 19 h");
  assert.equal(faceText(clock.control, times.second, t), "3 d"); // no "0 h" beside "2 d 19 h"
});

test("no side runs before the start and after the end", () => {
  const times = clockTimes(view({ running: null }), 5_000);
  assert.equal(times.first, 180_000);
  assert.equal(times.second, 180_000);
  assert.equal(times.running, null);
});

// ---- words -------------------------------------------------------------------------

test("a real-time clock's face", () => {
  assert.equal(formatClock(180_000), "3:00");
  assert.equal(formatClock(179_001), "3:00"); // a second shows until it is spent
  assert.equal(formatClock(179_000), "2:59");
  assert.equal(formatClock(10_000), "0:10");
  assert.equal(formatClock(9_999), "0:10");
  assert.equal(formatClock(9_901), "0:10"); // a tenth shows until it is spent
  assert.equal(formatClock(9_900), "0:09.9");
  assert.equal(formatClock(450), "0:00.5");
  assert.equal(formatClock(0), "0:00.0");
  assert.equal(formatClock(-20), "0:00.0");
  assert.equal(formatClock(3_723_000), "1:02:03");
});

test("time left in words, its two largest units", () => {
  assert.equal(leftWords(2 * 86_400_000 + 5 * 3_600_000 + 59_000, t), "2 d 5 h");
  assert.equal(leftWords(5 * 3_600_000 + 12 * 60_000, t), "5 h 12 min");
  assert.equal(leftWords(12 * 60_000 + 30_000, t), "12 min");
  assert.equal(leftWords(24_200, t), "25 s");
  assert.equal(leftWords(-5, t), "0 s");
});

test("a time control in words", () => {
  assert.equal(controlWords({ initial: 180, increment: 2 }, t), "3+2");
  assert.equal(controlWords({ initial: 5, increment: 0 }, t), "0:05+0");
  assert.equal(controlWords({ initial: 90, increment: 1 }, t), "1:30+1");
  assert.equal(controlWords({ days: 1 }, t), "1 day per move");
  assert.equal(controlWords({ days: 7 }, t), "7 days per move");
  assert.equal(controlWords(null, t), "No clock");
  assert.equal(controlLong({ initial: 180, increment: 2 }, t), "3 min + 2 s");
  assert.equal(controlLong({ initial: 5, increment: 0 }, t), "5 s + 0 s");
  assert.equal(controlLong({ initial: 90, increment: 1 }, t), "1 min 30 s + 1 s");
});

test("low time: ten seconds of a real-time clock, two hours of a correspondence move", () => {
  assert.ok(isLow({ initial: 180, increment: 2 }, 9_999));
  assert.ok(!isLow({ initial: 180, increment: 2 }, 10_000));
  assert.ok(isLow({ days: 1 }, 3_600_000));
  assert.ok(!isLow({ days: 1 }, 3 * 3_600_000));
});

test("how long a seek waited, in whole seconds", () => {
  assert.equal(formatWaited(0), "0:00");
  assert.equal(formatWaited(59_999), "0:59");
  assert.equal(formatWaited(61_000), "1:01");
  assert.equal(formatWaited(3_661_000), "1:01:01");
  assert.equal(formatWaited(-3_000), "0:00");
});
