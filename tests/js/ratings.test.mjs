// Unit tests of the words of ratings (src/quads/web/static/js/players/ratings.js) and of
// the rating chart's scales and ticks (players/chart.js).
// Run by .ci/run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  CATEGORIES, admits, changeLabel, rangeBounds, ratingLabel, readClock, speedOf, splitCategory,
} from "../../src/quads/web/static/js/players/ratings.js";
import { chartOf, fromStart, linear, niceStep, ticks } from "../../src/quads/web/static/js/players/chart.js";

test("twelve categories, each a rule set and a speed", () => {
  assert.equal(CATEGORIES.length, 12);
  assert.ok(CATEGORIES.includes("quads-blitz"));
  assert.deepEqual(splitCategory("classic-correspondence"), { rules: "classic", speed: "correspondence" });
  assert.equal(splitCategory("color-blitz"), null);
});

test("a rating is rounded and marked with ? while provisional", () => {
  assert.equal(ratingLabel({ rating: 1500, provisional: true }), "1500?");
  assert.equal(ratingLabel({ rating: 1712.4, provisional: false }), "1712");
  assert.equal(ratingLabel(null), "");
});

test("a change has its sign: a plus, a minus sign, or ±0", () => {
  assert.equal(changeLabel(12), "+12");
  assert.equal(changeLabel(-12), "\u221212");
  assert.equal(changeLabel(0.2), "\u00b10");
});

test("the speed of a time control as the server reckons it", () => {
  assert.equal(speedOf({ initial: 60, increment: 0 }), "blitz");
  assert.equal(speedOf({ initial: 180, increment: 2 }), "rapid"); // 196 s
  assert.equal(speedOf({ initial: 120, increment: 9 }), "rapid");
  assert.equal(speedOf({ initial: 600, increment: 40 }), "classical");
  assert.equal(speedOf({ days: 3 }), "correspondence");
  assert.equal(speedOf(null), null);
});

test("a range's bounds around one's own rating, or 1500 without one", () => {
  assert.deepEqual(rangeBounds(1620, 100), { rating_min: 1520, rating_max: 1720 });
  assert.deepEqual(rangeBounds(null, 200), { rating_min: 1300, rating_max: 1700 });
  assert.deepEqual(rangeBounds(50, 300), { rating_min: 0, rating_max: 350 });
  assert.deepEqual(rangeBounds(1500, null), {});
});

test("a seek's range admits a rating, or says why not", () => {
  const seek = { rated: true, rating_min: 1400, rating_max: 1600 };
  assert.equal(admits(seek, 1500, true), "ok");
  assert.equal(admits(seek, 1399, true), "low");
  assert.equal(admits(seek, 1601, true), "high");
  assert.equal(admits(seek, null, true), "ok");
  assert.equal(admits(seek, 1500, false), "account");
  assert.equal(admits({ rated: false, rating_min: null, rating_max: null }, 2500, false), "ok");
});

test("round steps and ticks that take in every value", () => {
  assert.equal(niceStep(100, 4), 50);
  assert.equal(niceStep(37, 4), 10);
  assert.equal(niceStep(0, 4), 1);
  assert.deepEqual(ticks(1488, 1512, 4), [1480, 1490, 1500, 1510, 1520]);
  assert.deepEqual(ticks(1500, 1500), [1450, 1500, 1550]);
  const some = ticks(1234, 1876);
  assert.ok(some[0] <= 1234 && some[some.length - 1] >= 1876);
  assert.ok(some.length <= 6);
});

test("a linear scale, and a single value in the middle", () => {
  const y = linear(1400, 1600, 100, 0);
  assert.equal(y(1400), 100);
  assert.equal(y(1500), 50);
  assert.equal(linear(5, 5, 0, 10)(5), 5);
});

test("the chart of a rating history: the line, its ticks, from and to", () => {
  assert.equal(chartOf([]), null);
  const points = [
    { moment: "2025-05-01T12:00:00Z", rating: 1500 },
    { moment: "2025-05-02T12:00:00Z", rating: 1662 },
    { moment: "2025-05-03T12:00:00Z", rating: 1590 },
  ];
  const size = { width: 100, height: 100, left: 0, right: 0, top: 0, bottom: 0 };
  const chart = chartOf(points, size);
  assert.ok(chart);
  const xs = chart.line.split(" ").map((pair) => Number(pair.split(",")[0]));
  assert.deepEqual(xs, [0, 50, 100]);
  for (const pair of chart.line.split(" ")) {
    const y = Number(pair.split(",")[1]);
    assert.ok(y >= 0 && y <= 100, pair);
  }
  assert.equal(chart.ratingTicks[0].y, 100);
  assert.equal(chart.ratingTicks[chart.ratingTicks.length - 1].y, 0);
  assert.deepEqual(chart.timeTicks.map((tick) => tick.x), [0, 50, 100]);
  assert.equal(chart.first, 1500);
  assert.equal(chart.last, 1590);
  const one = chartOf([points[0]], size);
  assert.ok(one);
  assert.equal(one.line, "50,50");
});

test("a finished game's time control is read from its text", () => {
  assert.deepEqual(readClock("180+2"), { initial: 180, increment: 2 });
  assert.deepEqual(readClock("3d"), { days: 3 });
  assert.deepEqual(readClock({ initial: 60, increment: 0 }), { initial: 60, increment: 0 });
  assert.equal(readClock(null), null);
  assert.equal(readClock("soon"), null);
});

test("a whole history starts at the newcomer's rating; one cut short does not", () => {
  const points = [{ moment: "2025-05-01T12:00:00Z", rating: 1742, game: "g" }];
  assert.deepEqual(fromStart(points, 1, 1500).map((point) => point.rating), [1500, 1742]);
  assert.deepEqual(fromStart(points, 5, 1500), points);
  assert.deepEqual(fromStart([], 0, 1500), []);
});
