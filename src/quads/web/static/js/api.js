// Talking to the server (docs/web-api.md).  Nothing else on the page uses fetch.
//
// Every call resolves to the JSON answer or throws an ApiError carrying the
// contract's error code.  When the server cannot be reached (stopped,
// restarting, network down) a call waits and tries again until it gets an
// answer (at once when the browser says the network is back), telling the page
// through onConnectionChange so it can say so.
// Retrying a changing request is safe: it carries the `revision` it saw, so a repeat of a
// request that already went through is refused as `stale`.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

let connectionListener = () => {};

/** Register fn(reachable: boolean), called with false after each attempt that
 * found no server and with true after each answer of the server. */
export function onConnectionChange(fn) {
  connectionListener = fn;
}

const RETRY_DELAYS_MS = [500, 1000, 2000, 3000];

/** Wait `ms`, or less if the browser's network comes back meanwhile. */
function pause(ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener("online", done);
  });
}

/**
 * Send one request and read its answer.  `wait: false` gives up at once when
 * the server cannot be reached, throwing ApiError code "unreachable" (and telling
 * nobody).  `cached: true` marks a request that the service worker may answer
 * from its copy: its answer says nothing about the server.
 */
async function request(method, path, body, { wait = true, cached = false } = {}) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let attempt = 0;
  for (;;) {
    let response;
    try {
      response = await fetch(path, options);
    } catch {
      response = null; // network error: the server is down or unreachable
    }
    const unreachable = response === null || [502, 503, 504].includes(response.status);
    if (!unreachable) {
      if (!cached) connectionListener(true);
      return readAnswer(response);
    }
    if (!wait) throw new ApiError(0, "unreachable");
    connectionListener(false);
    await pause(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]);
    attempt += 1;
  }
}

async function readAnswer(response) {
  let data = null;
  try {
    data = await response.json();
  } catch {
    // an answer without JSON; handled below
  }
  if (response.ok) return data;
  const error = data && data.error;
  if (error && error.code) throw new ApiError(response.status, error.code, error.message);
  // A route the server does not know answers 404 without our error object.
  throw new ApiError(response.status, response.status === 404 ? "no_route" : "unknown");
}

export const fetchMessages = (lang) =>
  request("GET", `/api/messages/${lang}`, undefined, { cached: true });

export const newGame = (settings) => request("POST", "/api/games", settings);

export const listGames = (status) =>
  request("GET", status ? `/api/games?status=${status}` : "/api/games");

/** `options.wait: false`: throw ApiError "unreachable" rather than wait for the server. */
export const getGame = (id, options) =>
  request("GET", `/api/games/${encodeURIComponent(id)}`, undefined, options);

/** Play one action: {action: "place", cell} | {action: "give", piece} | {action: "declare"|"claim"|"decline"}. */
export const act = (id, revision, action) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/actions`, { revision, ...action });

export const computerTurn = (id, revision) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/computer`, { revision });

export const undo = (id, revision) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/undo`, { revision });

export const redo = (id, revision) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/redo`, { revision });

/** Give up: the caller's side loses (on one device, the side to move). */
export const resign = (id, revision) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/resign`, { revision });

/** "Play again": the next game with the sides swapped; answers its view. */
export const rematch = (id) => request("POST", `/api/games/${encodeURIComponent(id)}/rematch`);

/** Delete one of the caller's unfinished games. */
export const deleteGame = (id) => request("DELETE", `/api/games/${encodeURIComponent(id)}`);

// ---- online games -------------------------------------------------------------

/** The online game an invitation token seats one in: {game, rules, calling, seat, joined}. */
export const getInvite = (token) => request("GET", `/api/invites/${encodeURIComponent(token)}`);

/** Take the free seat of online game `id` with its invitation token. */
export const join = (id, invite) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/join`, { invite });

/** The address of the invitation's QR code (an SVG image). */
export const inviteQrUrl = (id) => `/api/games/${encodeURIComponent(id)}/invite.svg`;

/** Accept or refuse the opponent's undo request. */
export const answerUndo = (id, revision, accept) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/undo/answer`, { revision, accept });

export const hint = (id, lang) =>
  request("GET", `/api/games/${encodeURIComponent(id)}/hint?lang=${encodeURIComponent(lang)}`);

/** A finished game's turns judged (slow: solved on the server). */
export const review = (id) => request("GET", `/api/games/${encodeURIComponent(id)}/review`);

/** Every legal turn of a position with its value (docs/web-api.md). */
export const analysis = (position, rules) =>
  request("GET", `/api/analysis?${new URLSearchParams({ position, rules })}`);

export const importRecord = (record, settings) =>
  request("POST", "/api/games/import", { record, ...settings });

/** The address of a game's record, for a download link. */
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;

// ---- the daily puzzle ---------------------------------------------------------

/** The puzzle of `date` ("YYYY-MM-DD" or "today"), without its solution. */
export const getPuzzle = (date) => request("GET", `/api/puzzles/${encodeURIComponent(date)}`);

/** Judge the player's `turn` ("A1F", or "A1" for a placement alone) after `played`. */
export const checkPuzzle = (date, played, turn) =>
  request("POST", `/api/puzzles/${encodeURIComponent(date)}/check`, { played, turn });

/** Store one attempt {tries, seconds, solved} of the calling player (the cookie says who);
 *  answers their history.  `solved: true` counts only after a checked turn solved it. */
export const puzzleResult = (date, result) =>
  request("POST", `/api/puzzles/${encodeURIComponent(date)}/result`, result);

/** The calling player's puzzle history. */
export const puzzleHistory = () => request("GET", "/api/puzzles/history");

/** Take over the results an earlier version of the page stored under an id it made up. */
export const adoptPuzzleResults = (player) => request("POST", "/api/puzzles/adopt", { player });
