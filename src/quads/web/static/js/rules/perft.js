// Move counts in the spirit of chess perft: the number of sequences of `depth`
// record tokens (one token per turn, or `!` for a claim) from a state; a token
// that ends the game counts only at the last ply.  The counts pinned in
// tests/test_perft.py hold for this function too.

/** @typedef {import("./game.js").GameState} GameState */
/** @typedef {import("./rules.js").Rules} Rules */

/**
 * Count the token sequences of length `depth` from `state`.
 * @param {GameState} state
 * @param {Rules} rules
 * @param {number} depth
 * @returns {number}
 */
export function perft(state, rules, depth) {
  if (depth === 0) return 1;
  const leaf = depth === 1;
  let total = 0;
  for (const action of state.legalActions()) {
    if (action.type === "claim") {
      total += leaf ? 1 : 0;
      continue;
    }
    const after = state.apply(action, rules);
    if (action.type === "give") total += perft(after, rules, depth - 1); // a hand-over alone
    else if (after.outcome !== null) total += leaf ? 1 : 0; // a placement that ends the game
    else {
      // the placer declares, declines or hands over: that ends the token
      for (const second of after.legalActions()) {
        if (second.type === "give" && !leaf) total += perft(after.apply(second, rules), rules, depth - 1);
        else total += leaf ? 1 : 0;
      }
    }
  }
  return total;
}
