// One's exercises while the server cannot be reached (docs/web-api.md, "Answers given
// offline").  The page keeps two kinds on the device (js/local/store.js): those the
// server listed when it last could (source "server", without their answers), and
// those the page's engine found in the games played on the device (source "device",
// engine/mistakes.js: the player's own turns, both sides of a game of two people on
// the device).  Offline, the due ones not answered yet are asked; the page's engine
// judges an answer (every turn that keeps the value), which waits on the device until
// it is sent (js/local/sync.js) and counted by the server at the moment it was given.
// No DOM: the store and the engine are arguments.
//
// API:
//   findOnDevice({store, engine, now, onProgress}) -> how many exercises were found:
//       every finished device game not looked at (in its revision) is, once
//   keepListed(store, listed, now)   the server's list kept for offline use; the device's
//       own exercises it holds now (or older than ANSWER_DAYS) are dropped
//   offlineQueue(exercises, answers, nowMs) -> the exercises to ask now, soonest due
//       first (a game's in the order played): due, not answered offline yet, one per
//       position and kind
//   judge(exercise, turn, analyse) -> {right, answers}: analyse(position, rules) is the
//       page engine's analysis (engine.analysis), asked only when the answers are unknown
//   newAnswer(exercise, turn, {id, now}) -> an answer to keep until it is sent

import { ANSWER_DAYS } from "../local/sync.js";
import { restoreGame } from "../local/device-game.js";

/** The solver's time for each position of a device game's review, at most: the Python
 * library's default (most positions take far less: the book holds those near the
 * empty board, and those near the end are solved at once). */
export const LOOK_SECONDS = 5;

/** What names an exercise across the server and the device: its rules, kind and position. */
export function exerciseName(exercise) {
  return `${exercise.rules} ${exercise.kind} ${exercise.position}`;
}

/** The device game's side whose mistakes count: the person's, or both (null). */
function learner(device) {
  return device.mode === "computer" ? device.human : null;
}

/**
 * Find the exercises of the device's finished games not looked at yet (in the revision
 * they have now), with the page's engine; the game is marked looked at.
 * @param {{ store: import("../local/store.js").DeviceStore,
 *   engine: { mistakes: (game: any, side: any, options: any) => Promise<any[]> },
 *   now?: () => Date, onProgress?: (done: number, count: number) => void }} options
 */
export async function findOnDevice({ store, engine, now = () => new Date(), onProgress = () => {} }) {
  const games = (await store.listGames()).filter(
    (device) => device.mistakes_revision !== device.revision && restoreGame(device).isOver());
  // A game looked at again (undone and ended anew): its exercises of before go.
  const looked = new Set(games.map((device) => device.id));
  for (const old of await store.listExercises()) {
    if (old.source === "device" && looked.has(old.game)) await store.deleteExercise(old.id);
  }
  let found = 0;
  for (const [index, device] of games.entries()) {
    onProgress(index, games.length);
    const exercises = await engine.mistakes(device.game, learner(device), { seconds: LOOK_SECONDS });
    const at = now().toISOString();
    for (const exercise of exercises) {
      await store.putExercise({
        id: `${device.id}/${exercise.ply}`, source: "device", rules: exercise.rules,
        position: exercise.position, kind: exercise.kind, keep: exercise.keep,
        played: exercise.played, answers: exercise.answers, game: device.id,
        found: at, seen: 1, due: at, learnt: false, tries: 0, ply: exercise.ply,
      });
    }
    found += exercises.length;
    await store.updateGame(device.id, (stored) => ({ ...stored, mistakes_revision: device.revision }));
  }
  onProgress(games.length, games.length);
  return found;
}

/**
 * Keep the server's list `listed` for offline use; drop the device's own exercises
 * the server holds now, and those found more than ANSWER_DAYS ago.
 * @param {import("../local/store.js").DeviceStore} store
 * @param {any[]} listed
 * @param {number} nowMs
 */
export async function keepListed(store, listed, nowMs) {
  await store.replaceExercises("server", listed.map((exercise) => ({ ...exercise, source: "server" })));
  const held = new Set(listed.map(exerciseName));
  const oldest = nowMs - ANSWER_DAYS * 86_400_000;
  for (const exercise of await store.listExercises()) {
    if (exercise.source === "device" && (held.has(exerciseName(exercise)) || Date.parse(exercise.found) < oldest)) {
      await store.deleteExercise(exercise.id);
    }
  }
}

/**
 * The exercises to ask now, soonest due first: due by `nowMs`, not answered offline
 * yet, one per position and kind (the server's first).
 * @param {any[]} exercises
 * @param {any[]} answers
 * @param {number} nowMs
 */
export function offlineQueue(exercises, answers, nowMs) {
  const answered = new Set(answers.map(exerciseName));
  const seen = new Set();
  const ordered = [...exercises].sort((a, b) => (a.source === b.source ? 0 : a.source === "server" ? -1 : 1));
  const queue = [];
  for (const exercise of ordered) {
    const name = exerciseName(exercise);
    if (Date.parse(exercise.due) > nowMs || answered.has(name) || seen.has(name)) continue;
    seen.add(name);
    queue.push(exercise);
  }
  // The same moment: a game's in the order played.
  return queue.sort((a, b) => Date.parse(a.due) - Date.parse(b.due) || (a.ply ?? 0) - (b.ply ?? 0));
}

/** A move of an analysis as a turn's text: `B46`, `B4` or `6`. */
function moveText(move) {
  return `${move.place ?? ""}${move.give ?? ""}`;
}

/**
 * Judge `turn` (a turn's text; a piece for a hand-over exercise): right when it keeps
 * the value, as the server judges it.  The exercise's answers, or those of the
 * analysis `analyse(position, rules)` gives when it has none; `right` is null when the
 * engine could not reach the value of the turn given in its time (the server judges it).
 * @param {any} exercise
 * @param {string} turn
 * @param {(position: string, rules: string) => Promise<any>} analyse
 * @returns {Promise<{ right: boolean | null, answers: string[] }>}
 */
export async function judge(exercise, turn, analyse) {
  const given = exercise.kind === "give" ? turn.slice(-1) : turn;
  if (exercise.answers) return { right: exercise.answers.includes(given), answers: exercise.answers };
  const { moves } = await analyse(exercise.position, exercise.rules);
  const answers = moves.filter((move) => move.value === exercise.keep).map(moveText);
  const unknown = moves.some((move) => move.value === "unknown" && moveText(move).endsWith(given));
  return { right: answers.includes(given) ? true : unknown ? null : false, answers };
}

/**
 * An answer given offline, to keep until it is sent.
 * @param {any} exercise
 * @param {string} turn
 * @param {{ id?: string, now?: () => Date }} [options]
 */
export function newAnswer(exercise, turn, options = {}) {
  return {
    id: options.id ?? globalThis.crypto.randomUUID(),
    rules: exercise.rules,
    position: exercise.position,
    kind: exercise.kind,
    turn,
    at: (options.now ?? (() => new Date()))().toISOString(),
    device: exercise.source === "device" ? exercise.game : null,
    error: null,
  };
}
