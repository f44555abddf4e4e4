// The player's puzzles as the puzzle screen and the new-game screen's card show them:
// the history (the server's, or without it the one kept on the device with the
// puzzles solved there meanwhile) and the puzzles of the coming fortnight kept for
// play without a network (puzzles/kept.js keeps them all).
// Earlier versions of the page made up a player id of their own and kept it in
// localStorage: its results are handed over to the player once, and the id is
// forgotten.

import * as api from "../api.js";
import { deviceStore } from "../device.js";
import { keepHistory, keepPuzzles, keptHistory, localDate, withSolves } from "./kept.js";

const OLD_PLAYER_KEY = "quads.player";
const OLD_PLAYER_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
/** @type {Promise<void> | null} */
let adoption = null;

/** Once per page: take over the results stored under this browser's old made-up id. */
export function adoptOldResults() {
  if (!adoption) adoption = adopt();
  return adoption;
}

async function adopt() {
  const old = localStorage.getItem(OLD_PLAYER_KEY);
  if (old === null) return;
  if (OLD_PLAYER_PATTERN.test(old)) {
    try {
      await api.adoptPuzzleResults(old, { wait: false });
    } catch (error) {
      // try again on the next visit
      if (!(error instanceof api.ApiError) || error.code === "unreachable") return;
    }
  }
  localStorage.removeItem(OLD_PLAYER_KEY);
}

/** The history `history` once the attempt of `answer` (a result's answer) is stored. */
export function withResult(history, answer) {
  const days = history.days.map((day) => (day.date === answer.day.date ? answer.day : day));
  return {
    ...history,
    today: answer.today,
    streak: answer.streak,
    solved: answer.solved,
    days,
  };
}

/** Keep today's puzzle and the coming fortnight's on the device, for play without a
 * network: asked whenever the server answers, and again while some are still being
 * generated (a few times, a little later). */
export async function keepComingPuzzles(tries = 6) {
  let ahead;
  try {
    ahead = await api.puzzlesAhead({ wait: false });
  } catch {
    return;
  }
  keepPuzzles(ahead.puzzles);
  if (!ahead.complete && tries > 1) setTimeout(() => keepComingPuzzles(tries - 1), 15_000);
}

/** The attempts kept on the device until the server has them, solved ones as {date, tries,
 * seconds} (none where the browser keeps no IndexedDB). */
async function waitingSolves() {
  try {
    const results = await (await deviceStore()).listResults();
    return results.filter((result) => result.solved && !result.error);
  } catch {
    return [];
  }
}

/** The player's history: the server's (kept for later), or without it the one kept,
 * with the puzzles solved on the device meanwhile; null when there is none. */
export async function currentHistory() {
  try {
    const history = await api.puzzleHistory({ wait: false });
    keepHistory(history);
    return history;
  } catch (error) {
    if (error.code !== "unreachable") return null;
  }
  const kept = keptHistory();
  return kept ? withSolves(kept, await waitingSolves(), localDate()) : null;
}
