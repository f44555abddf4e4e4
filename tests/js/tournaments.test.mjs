// Unit tests of tournaments in words without the page
// (src/quads/web/static/js/tournaments/words.js): an event's name, its clock, the
// countdown at the server's time, a sheet of points and the game to open.  Run by
// .ci/run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  countdown,
  countdownText,
  eventClock,
  eventName,
  gameToOpen,
  isScheduled,
  parseClock,
  pointsText,
  readBefore,
  serverNow,
  sheetText,
} from "../../src/quads/web/static/js/tournaments/words.js";

const catalogue = (lang) =>
  JSON.parse(readFileSync(new URL(`../../src/quads/catalogue/${lang}.json`, import.meta.url), "utf8"));
const EN = catalogue("en");
const DE = catalogue("de");
const wording = (words) => (key, params = {}) => {
  assert.ok(key in words, `no catalogue entry ${key}`);
  return words[key].replace(/\{(\w+)\}/g, (_, name) => String(params[name]));
};
const t = wording(EN);

const EVENT = {
  id: "Ab3_x-9Q",
  name: "",
  clock: "180+2",
  status: "created",
  starts: "2026-12-06T18:00:00+00:00",
  ends: "2026-12-06T18:55:00+00:00",
};

test("an API clock reads as a time control, and anything else as nothing", () => {
  assert.deepEqual(parseClock("180+2"), { initial: 180, increment: 2 });
  assert.equal(parseClock("3d"), null);
  assert.equal(parseClock("180+"), null);
  assert.equal(eventClock(EVENT), "3+2");
  assert.equal(eventClock({ clock: "90+0" }), "1:30+0");
});

test("the site's arenas are named by their slot, in the reader's language", () => {
  const hourly = { ...EVENT, id: "hourly-quads-2026120618", name: "hourly-quads" };
  assert.ok(isScheduled(hourly));
  assert.equal(eventName(hourly, t), EN["tournaments.slot.hourly-quads"]);
  assert.equal(eventName(hourly, wording(DE)), DE["tournaments.slot.hourly-quads"]);
  assert.notEqual(EN["tournaments.slot.hourly-quads"], DE["tournaments.slot.hourly-quads"]);
  const daily = { id: "daily-classic-2026120618", name: "daily-classic" };
  assert.equal(eventName(daily, t), EN["tournaments.slot.daily-classic"]);
  // A player's arena that took a slot's key as its name keeps it as written.
  const copied = { ...EVENT, name: "hourly-quads" };
  assert.ok(!isScheduled(copied));
  assert.equal(eventName(copied, t), "hourly-quads");
  assert.equal(eventName({ ...EVENT, name: "Friday club" }, t), "Friday club");
  assert.equal(eventName(EVENT, t), t("tournaments.unnamed", { clock: "3+2" }));
  assert.equal(eventName({ id: "x", name: "" }, t), t("tournaments.arena"));
});

test("the countdown runs to the start, then to the end, at the server's time", () => {
  const before = Date.parse("2026-12-06T17:47:30+00:00");
  assert.deepEqual(countdown(EVENT, before, t), { key: "tournaments.starts_in", time: "12:30" });
  const late = Date.parse("2026-12-06T18:00:01+00:00");
  assert.deepEqual(countdown(EVENT, late, t), { key: "tournaments.starting", time: "" });
  const running = { ...EVENT, status: "started" };
  assert.deepEqual(countdown(running, late, t), { key: "tournaments.ends_in", time: "54:59" });
  const after = Date.parse("2026-12-06T19:00:00+00:00");
  assert.deepEqual(countdown(running, after, t), { key: "tournaments.ending", time: "" });
  assert.deepEqual(countdown({ ...EVENT, status: "finished" }, after, t), { key: "tournaments.over", time: "" });
});

test("a Swiss event under way tells its round, not a time", () => {
  const swiss = { ...EVENT, kind: "swiss", status: "started", round: 2, rounds: 5 };
  const said = countdown(swiss, Date.parse("2026-12-06T18:30:00+00:00"), t);
  assert.deepEqual(said, { key: "tournaments.round", time: "", round: 2, rounds: 5 });
  assert.equal(t(said.key, said), "Round 2 of 5");
  assert.equal(countdown({ ...swiss, round: 0 }, 0, t).key, "tournaments.waiting");
  assert.equal(countdown({ ...swiss, status: "created" }, Date.parse("2026-12-06T17:00:00+00:00"), t).key, "tournaments.starts_in");
});

test("points show halves as a table does", () => {
  assert.equal(pointsText(0), "0");
  assert.equal(pointsText(0.5), "½");
  assert.equal(pointsText(2.5), "2½");
  assert.equal(pointsText(12), "12");
  assert.equal(sheetText([1, 0.5, 0]), "1 ½ 0");
});

test("a countdown shows hours, then days in words", () => {
  assert.equal(countdownText(0, t), "0:00");
  assert.equal(countdownText(999, t), "0:01");
  assert.equal(countdownText(3_600_000, t), "1:00:00");
  assert.equal(countdownText(3_725_000, t), "1:02:05");
  assert.equal(countdownText(2 * 86_400_000 + 3 * 3_600_000, t), t("clock.left.days", { days: 2, hours: 3 }));
});

test("the server's time goes on from a view's, whatever the device's clock says", () => {
  const at = "2026-12-06T18:00:00+00:00";
  const received = 1_000_000; // the device's clock, far off
  assert.equal(serverNow(at, received, received + 2_500), Date.parse(at) + 2_500);
  assert.equal(serverNow("not a time", received, 42), 42);
});

test("a sheet of points reads oldest first", () => {
  assert.equal(sheetText([2, 4, 0, 1]), "2 4 0 1");
  assert.equal(sheetText([]), "");
});

test("the player's next game opens only once the game shown is over", () => {
  assert.equal(gameToOpen({ playing: "g2" }, null, false), "g2"); // on the tournament page
  assert.equal(gameToOpen({ playing: "g2" }, "g1", true), "g2");
  assert.equal(gameToOpen({ playing: "g2" }, "g1", false), null); // a game in play stays
  assert.equal(gameToOpen({ playing: "g1" }, "g1", false), null);
  assert.equal(gameToOpen({ playing: null }, "g1", true), null);
  assert.equal(gameToOpen(null, null, true), null);
});

test("a view read a fraction of a millisecond before another is older", () => {
  // The same millisecond: only the microseconds tell them apart.
  assert.equal(readBefore("2026-12-07T10:00:00.123400Z", "2026-12-07T10:00:00.123456Z"), true);
  assert.equal(readBefore("2026-12-07T10:00:00.123456Z", "2026-12-07T10:00:00.123400Z"), false);
  assert.equal(readBefore("2026-12-07T10:00:00.123456Z", "2026-12-07T10:00:00.123456Z"), false);
  // A time on the whole second is written without a fraction.
  assert.equal(readBefore("2026-12-07T10:00:00Z", "2026-12-07T10:00:00.000001Z"), true);
  assert.equal(readBefore("2026-12-07T10:00:01Z", "2026-12-07T10:00:00.999999Z"), false);
  // Seconds decide before their fractions, across a minute and a time zone's offset.
  assert.equal(readBefore("2026-12-07T10:00:59.9Z", "2026-12-07T10:01:00.1Z"), true);
  assert.equal(readBefore("2026-12-07T11:00:00.5+01:00", "2026-12-07T10:00:00.4Z"), false);
});
