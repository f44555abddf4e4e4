// Unit tests of the explorer's rows without the page
// (src/quads/web/static/js/analyse/explorer.js): a turn's text from the analysis, the
// shares of the results adding up to 100, and each turn's value found among its
// symmetric ones.  Run by .ci/run with `node --test tests/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";

import { explorerRows, moveText, shares } from "../../src/quads/web/static/js/analyse/explorer.js";

test("a turn's text from the analysis's parts", () => {
  assert.equal(moveText({ place: "B4", give: "6" }), "B46");
  assert.equal(moveText({ place: null, give: "F" }), "F");
  assert.equal(moveText({ place: "D1", give: null }), "D1");
});

test("the shares of the results add up to a hundred", () => {
  assert.deepEqual(shares({ games: 3, first: 1, draws: 1, second: 1 }), { first: 34, draws: 33, second: 33 });
  assert.deepEqual(shares({ games: 4, first: 4, draws: 0, second: 0 }), { first: 100, draws: 0, second: 0 });
  assert.deepEqual(shares({ games: 0, first: 0, draws: 0, second: 0 }), { first: 0, draws: 0, second: 0 });
  for (let games = 1; games < 40; games += 1) {
    for (let first = 0; first <= games; first += 3) {
      const second = Math.floor((games - first) / 2);
      const split = shares({ games, first, draws: games - first - second, second });
      assert.equal(split.first + split.draws + split.second, 100, `${games} ${first}`);
      if (!first) assert.equal(split.first, 0); // no game, no share
    }
  }
});

test("each turn's value, found among the turns symmetric to it", () => {
  const explored = { turns: [
    { turn: "A13", same: ["A15", "D45"], games: 2, first: 1, draws: 1, second: 0 },
    { turn: "B25", same: [], games: 1, first: 0, draws: 0, second: 1 },
  ] };
  const moves = [{ place: "D4", give: "5", value: "draw", plies: null }, { place: "C3", give: "1", value: "loss", plies: 4 }];
  const rows = explorerRows(explored, moves);
  assert.deepEqual(rows.map((row) => [row.turn, row.games, row.move && row.move.value]), [["A13", 2, "draw"], ["B25", 1, null]]);
  assert.deepEqual(explorerRows(explored, null).map((row) => row.move), [null, null]);
});
