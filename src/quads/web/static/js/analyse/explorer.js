// What people played from a position (GET /api/explorer), in rows for the analysis
// board without the DOM: each turn with its games, the share of each result and, from
// the analysis of the same position, its exact value.  explorer-panel.js draws them.
// Tested in node (tests/js/explorer.test.mjs).

/**
 * A turn's text from the analysis's parts ("B4" and "6": "B46").
 * @param {{ place?: string | null, give?: string | null }} move
 */
export function moveText(move) {
  return `${move.place || ""}${move.give || ""}`;
}

/**
 * Whole percentages of `first`, `draws` and `second` out of `games` that add up to
 * 100 (the largest remainders rounded up).
 * @param {{ games: number, first: number, draws: number, second: number }} turn
 */
export function shares(turn) {
  const parts = [turn.first, turn.draws, turn.second];
  if (!turn.games) return { first: 0, draws: 0, second: 0 };
  const exact = parts.map((part) => (part * 100) / turn.games);
  const whole = exact.map(Math.floor);
  let left = 100 - whole.reduce((sum, part) => sum + part, 0);
  const order = exact.map((value, index) => [value - whole[index], index]).sort((a, b) => b[0] - a[0]);
  for (const [, index] of order) {
    if (left <= 0) break;
    if (parts[index] > 0) {
      whole[index] += 1;
      left -= 1;
    }
  }
  return { first: whole[0], draws: whole[1], second: whole[2] };
}

/**
 * The explorer's turns as rows, each with its shares and the analysis's value of it
 * (of the turn or of one symmetric to it; null while the analysis is not there).
 * @param {{ turns: any[] }} explored
 * @param {any[] | null} moves the analysis's turns, or null
 */
export function explorerRows(explored, moves) {
  const values = new Map((moves || []).map((move) => [moveText(move), move]));
  return explored.turns.map((turn) => {
    const valued = [turn.turn, ...turn.same].map((text) => values.get(text)).find(Boolean) || null;
    return { turn: turn.turn, games: turn.games, shares: shares(turn), move: valued };
  });
}
