// Sending what waits on the device once the server can be reached: the games
// played there whose revision the server has not stored (PUT
// /api/games/device/{id}), the puzzle results kept while offline (POST
// /api/puzzles/{date}/result, with the line played and the attempt's id), and the
// answers to exercises given offline (POST /api/mistakes/answers, 50 at a time, after
// the games they may come from).  One request at a time.  A request that finds no server (the transport throws, or
// 408, 429 or 5xx) is sent again after a pause that doubles (with jitter); since
// both routes are idempotent, a request whose answer was lost is never applied
// twice.  A refusal (any other 4xx) is kept on the game (upload_error: the
// server's code, reason and params, for the page to word) or on the result
// (`error`), and not sent again until the game changes; `401 unknown_player`
// stops the run and leaves everything waiting.  No DOM: the transport is an
// argument.
//
// API:
//   createSync({store, transport, sleep, random, retries, firstDelay, maxDelay, now, onChange})
//     -> {run(): Promise<Report>, get running(): boolean}
//     store      a DeviceStore (js/local/store.js)
//     transport  async ({method, path, body}) -> {status, body}: one HTTP request
//                with a JSON body, its status and its JSON answer (null if none);
//                throws when no answer came (network down, server gone)
//     sleep      async (ms) -> void (default: setTimeout); random () -> [0, 1)
//     retries    tries of one request before the run gives up (default 6);
//     firstDelay, maxDelay   the pauses between them, in ms (default 500, 30000)
//     onChange   ({kind: "game" | "result" | "answer", id,
//                outcome: "uploaded" | "refused" | "sent" | "waiting"})
//                after each item the run settled, so the page can show it
//     run() sends everything waiting (a second call meanwhile gets the same run)
//     and resolves {state: "done" | "unreachable" | "unknown_player", uploaded,
//     refused, sent, answered, waiting}: the ids of the games stored and refused, of the
//     results sent, of the answers settled (counted, or dropped: no such exercise, or
//     refused) and of those still waiting for their exercise on the server.
//     An answer the server says is `waiting` (the game it came from not looked at yet)
//     stays for a later run, for ANSWER_DAYS at most.
//   newPuzzleResult({date, tries, seconds, solved, line}, {id, now}) -> a waiting
//     puzzle result for store.putResult(): {id (the attempt's UUID), date, tries,
//     seconds, solved, line (record tokens, or null), created, error: null}
//   backoff(attempt, first, max, random) -> ms   the pause before try attempt + 1

import { markRefused, markUploaded, needsUpload, uploadBody } from "./device-game.js";

/**
 * The pause before the next try, after `attempt` tries that found no server:
 * `first` doubling up to `max`, with jitter (between half and all of it).
 * @param {number} attempt
 * @param {number} first
 * @param {number} max
 * @param {() => number} [random]
 */
export function backoff(attempt, first, max, random = Math.random) {
  const step = Math.min(max, first * 2 ** attempt);
  return step / 2 + (step / 2) * random();
}

/**
 * A puzzle result to keep until it is sent.
 * @param {{ date: string, tries: number, seconds: number, solved: boolean, line?: string[] | null }} result
 * @param {{ id?: string, now?: () => Date }} [options]
 */
export function newPuzzleResult({ date, tries, seconds, solved, line = null }, options = {}) {
  return {
    id: options.id ?? globalThis.crypto.randomUUID(),
    date,
    tries,
    seconds,
    solved: Boolean(solved),
    line: line === null ? null : [...line],
    created: (options.now ?? (() => new Date()))().toISOString(),
    error: null,
  };
}

/** Whether an answer means "no server now": try again later. @param {number} status */
function unreachable(status) {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The refusal in an answer, as the page words it: {status, code, message, reason?, params?}.
 * @param {{ status: number, body: any }} answer
 */
function refusal(answer) {
  const error = answer.body?.error ?? {};
  return {
    status: answer.status,
    code: typeof error.code === "string" ? error.code : "unknown",
    message: typeof error.message === "string" ? error.message : `HTTP ${answer.status}`,
    ...(error.reason ? { reason: error.reason } : {}),
    ...(error.params ? { params: error.params } : {}),
  };
}

/** Days an answer given offline waits for its exercise on the server at most. */
export const ANSWER_DAYS = 14;

/** Answers sent in one request at most (the server's MOST_LATE_ANSWERS). */
export const ANSWER_BATCH = 50;

class Unreachable extends Error {}
class UnknownPlayer extends Error {}

/**
 * What a run did: how it ended, and the ids of the games stored and refused and of the
 * results sent.
 * @typedef {{ state: "done" | "unreachable" | "unknown_player", uploaded: string[],
 *   refused: string[], sent: string[], answered: string[], waiting: string[] }} Report
 */

/**
 * The sending of what waits on the device (see the module's API).
 * @param {{
 *   store: import("./store.js").DeviceStore,
 *   transport: (request: { method: string, path: string, body?: unknown }) => Promise<{ status: number, body: any }>,
 *   sleep?: (ms: number) => Promise<unknown>, random?: () => number, retries?: number,
 *   firstDelay?: number, maxDelay?: number, now?: () => Date,
 *   onChange?: (change: { kind: "game" | "result" | "answer", id: string, outcome: string }) => void,
 * }} options
 */
export function createSync({
  store, transport, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random = Math.random, retries = 6, firstDelay = 500, maxDelay = 30000, now = () => new Date(),
  onChange = () => {},
}) {
  /** @type {Promise<Report> | null} */
  let current = null;

  /** One request, tried again while no server answers. */
  async function send(method, path, body) {
    for (let attempt = 0; ; attempt += 1) {
      let answer;
      try {
        answer = await transport({ method, path, body });
      } catch {
        answer = null; // no answer: the request may or may not have arrived
      }
      if (answer !== null && !unreachable(answer.status)) {
        if (answer.status === 401) throw new UnknownPlayer();
        return answer;
      }
      if (attempt + 1 >= retries) throw new Unreachable();
      await sleep(backoff(attempt, firstDelay, maxDelay, random));
    }
  }

  async function uploadGame(game, report) {
    const revision = game.revision;
    const answer = await send("PUT", `/api/games/device/${encodeURIComponent(game.id)}`, uploadBody(game));
    if (answer.status >= 200 && answer.status < 300) {
      await store.updateGame(game.id, (stored) => markUploaded(stored, revision, answer.body?.id ?? null, { now }));
      report.uploaded.push(game.id);
      onChange({ kind: "game", id: game.id, outcome: "uploaded" });
    } else {
      await store.updateGame(game.id, (stored) => markRefused(stored, revision, refusal(answer)));
      report.refused.push(game.id);
      onChange({ kind: "game", id: game.id, outcome: "refused" });
    }
  }

  async function sendResult(result, report) {
    const body = { tries: result.tries, seconds: result.seconds, solved: result.solved, attempt: result.id };
    if (result.line !== null && result.line !== undefined) body.line = result.line;
    const answer = await send("POST", `/api/puzzles/${encodeURIComponent(result.date)}/result`, body);
    if (answer.status >= 200 && answer.status < 300) {
      await store.deleteResult(result.id);
      report.sent.push(result.id);
      onChange({ kind: "result", id: result.id, outcome: "sent" });
    } else {
      await store.updateResult(result.id, (stored) => ({ ...stored, error: refusal(answer) }));
      report.refused.push(result.id);
      onChange({ kind: "result", id: result.id, outcome: "refused" });
    }
  }

  /** Send a batch of answers; settle each as the server says. */
  async function sendAnswers(batch, report) {
    const body = {
      answers: batch.map(({ id, rules, position, kind, turn, at, device }) => (
        { id, rules, position, kind, turn, at, ...(device ? { device } : {}) })),
    };
    const answer = await send("POST", "/api/mistakes/answers", body);
    if (answer.status < 200 || answer.status >= 300) {
      const error = refusal(answer); // the batch cannot be read: kept, not sent again
      for (const item of batch) await store.updateAnswer(item.id, (kept) => ({ ...kept, error }));
      return;
    }
    /** @type {Map<string, string>} */
    const states = new Map((answer.body?.answers ?? []).map((a) => [a.id, a.state]));
    const oldest = now().getTime() - ANSWER_DAYS * 86_400_000;
    for (const item of batch) {
      const state = states.get(item.id) ?? "waiting";
      if (state === "waiting" && Date.parse(item.at) > oldest) {
        report.waiting.push(item.id);
        onChange({ kind: "answer", id: item.id, outcome: "waiting" });
        continue;
      }
      await store.deleteAnswer(item.id);
      report.answered.push(item.id);
      onChange({ kind: "answer", id: item.id, outcome: state === "kept" ? "sent" : "refused" });
    }
  }

  async function runOnce() {
    /** @type {Report} */
    const report = { state: "done", uploaded: [], refused: [], sent: [], answered: [], waiting: [] };
    try {
      // A game changed while it was being sent waits for the next pass.
      for (let pass = 0; pass < 100; pass += 1) {
        const games = (await store.listGames()).filter(needsUpload).reverse(); // oldest change first
        if (!games.length) break;
        for (const game of games) await uploadGame(game, report);
      }
      for (const result of await store.listResults()) {
        if (result.error === null || result.error === undefined) await sendResult(result, report);
      }
      const answers = (await store.listAnswers()).filter((a) => a.error === null || a.error === undefined);
      for (let start = 0; start < answers.length; start += ANSWER_BATCH) {
        await sendAnswers(answers.slice(start, start + ANSWER_BATCH), report);
      }
    } catch (error) {
      if (error instanceof Unreachable) report.state = "unreachable";
      else if (error instanceof UnknownPlayer) report.state = "unknown_player";
      else throw error;
    }
    return report;
  }

  return {
    run() {
      if (current === null) {
        current = runOnce().finally(() => {
          current = null;
        });
      }
      return current;
    },
    get running() {
      return current !== null;
    },
  };
}
