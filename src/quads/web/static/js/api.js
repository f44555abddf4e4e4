// Talking to the server (docs/web-api.md).  Nothing else on the page uses fetch.
//
// Every call resolves to the JSON answer or throws an ApiError carrying the
// contract's error code.  When the server cannot be reached (stopped,
// restarting, network down) a call waits and tries again until it gets an
// answer (at once when the browser says the network is back), telling the page
// through onConnectionChange so it can say so.
// Retrying a changing request is safe: it carries the `revision` it saw, so a repeat of a
// request that already went through is refused as `stale`.  A request the engine
// is too busy for (429 engine_busy) is asked again a few times after its Retry-After.

export class ApiError extends Error {
  /** `reason` and `params`: what exactly is wrong, for the page to word (js/errors.js). */
  constructor(status, code, message, reason = null, params = {}) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.params = params;
  }
}

/** @type {(reachable: boolean) => void} */
let connectionListener = () => {};

/** Register fn(reachable: boolean), called with false after each attempt that
 * found no server and with true after each answer of the server. */
export function onConnectionChange(fn) {
  connectionListener = fn;
}

/** @type {(() => Promise<unknown>) | null} */
let unknownPlayerListener = null;
/** @type {Promise<void> | null} */
let startingOver = null;

/** What the listener of onUnknownPlayer resolves to when the person signed in again. */
export const SIGNED_IN_AGAIN = "signed_in";

/** Register fn(), called when the server answers `401 unknown_player`: it does not know
 * this browser's player (its database was reset, the cookie is damaged, or the device's
 * session was ended on another device).  fn returns a promise that resolves once the
 * person chose to go on as a new player: then the server is asked for one
 * (`POST /api/players`) and the refused request is sent again; or to SIGNED_IN_AGAIN
 * once they signed in again: the refused request is sent again as their account.
 * Without a listener the refusal is thrown like any other. */
export function onUnknownPlayer(fn) {
  unknownPlayerListener = fn;
}

/** Ask the person once, however many requests were refused meanwhile. */
function startOver() {
  if (!startingOver) {
    startingOver = (async () => {
      const chosen = await unknownPlayerListener?.();
      if (chosen !== SIGNED_IN_AGAIN) await request("POST", "/api/players");
    })().finally(() => {
      startingOver = null;
    });
  }
  return startingOver;
}

const RETRY_DELAYS_MS = [500, 1000, 2000, 3000];

const ENGINE_RETRIES = 4; // a request the engine is too busy for (429 engine_busy) is asked
// again after its Retry-After, but never sooner than 1, 2, 4, 8 s (a server that has
// not timed any work yet knows only its guess), and never later than ...
const ENGINE_WAIT_MAX_S = 5;

/** Wait `ms`, or less if the browser's network comes back meanwhile. */
function pause(ms) {
  return /** @type {Promise<void>} */ (new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener("online", done);
  }));
}

/** How long one attempt of a request that must not wait (`wait: false`) waits for an
 * answer at most. */
const QUICK_TIMEOUT_MS = 5000;

let lastReachable = typeof navigator === "undefined" || navigator.onLine;

/** Whether the server answered the last request (false after a request that found
 * none, or while the browser says it is offline). */
export function reachable() {
  return lastReachable && (typeof navigator === "undefined" || navigator.onLine);
}

function tell(answered) {
  lastReachable = answered;
  connectionListener(answered);
  if (!answered) watchServer();
}

// While the server cannot be reached, the page asks now and then whether it answers
// again (a HEAD request, which no service worker answers from a copy), so that what
// waits for it goes on by itself: the banner, the list of games, what was played
// offline.
const WATCH_FIRST_MS = 2000;
const WATCH_MAX_MS = 30_000;
/** @type {ReturnType<typeof setTimeout> | null} */
let watching = null;

function watchServer(delay = WATCH_FIRST_MS) {
  if (watching !== null || typeof window === "undefined") return;
  const again = () => {
    watching = null;
    window.removeEventListener("online", now);
    probe(delay);
  };
  const now = () => {
    if (watching !== null) clearTimeout(watching);
    again();
  };
  watching = setTimeout(again, delay);
  window.addEventListener("online", now, { once: true });
}

async function probe(delay) {
  let answered;
  try {
    const response = await fetch("/sw.js", { method: "HEAD", cache: "no-store" });
    answered = ![502, 503, 504].includes(response.status);
  } catch {
    answered = false;
  }
  if (answered) {
    if (!lastReachable) tell(true);
    return;
  }
  if (lastReachable) {
    lastReachable = false;
    connectionListener(false);
  }
  watchServer(Math.min(WATCH_MAX_MS, delay * 2));
}

/**
 * Send one request and read its answer.  `wait: false` gives up at once when
 * the server cannot be reached (or gives no answer within a few seconds), throwing
 * ApiError code "unreachable".  `cached: true` marks a request
 * that the service worker may answer from its copy: its answer says nothing about
 * the server.  `signal` (an AbortSignal) withdraws the request: once it is aborted,
 * nothing more is sent (a request waiting for the server is never sent later, when
 * the person has moved on) and the call throws ApiError code "cancelled".
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON
 * @param {{ wait?: boolean, cached?: boolean, signal?: AbortSignal | null }} [options]
 */
async function request(method, path, body, { wait = true, cached = false, signal = null } = {}) {
  const options = { method, headers: { Accept: "application/json" } };
  const cancelled = () => signal !== null && signal.aborted;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let attempt = 0;
  let engineRetries = 0;
  for (;;) {
    if (cancelled()) throw new ApiError(0, "cancelled");
    // each attempt has its own time: a wait the engine asked for (Retry-After) is
    // not counted against a request that must not wait
    const signals = signal ? [signal] : [];
    if (!wait) signals.push(AbortSignal.timeout(QUICK_TIMEOUT_MS));
    if (signals.length) options.signal = signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    let response;
    try {
      response = await fetch(path, options);
    } catch {
      response = null; // network error: the server is down or unreachable
    }
    if (cancelled()) throw new ApiError(0, "cancelled");
    if (response !== null && response.status === 429 && engineRetries < ENGINE_RETRIES) {
      const data = await response.clone().json().catch(() => null);
      if (data?.error?.code === "engine_busy") {
        engineRetries += 1;
        const seconds = Math.max(Number(response.headers.get("Retry-After")) || 0,
          2 ** (engineRetries - 1));
        await pause(1000 * Math.min(seconds, ENGINE_WAIT_MAX_S));
        continue;
      }
    }
    const unreachable = response === null || [502, 503, 504].includes(response.status);
    if (!unreachable) {
      if (!cached) tell(true);
      try {
        return await readAnswer(response);
      } catch (error) {
        if (error.code !== "unknown_player" || !unknownPlayerListener || path === "/api/players") {
          throw error;
        }
      }
      await startOver();
      continue;
    }
    if (!wait) {
      if (!cached && !cancelled()) tell(false);
      throw new ApiError(0, "unreachable");
    }
    tell(false);
    await pause(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]);
    attempt += 1;
  }
}

/** @param {Response} response */
async function readAnswer(response) {
  /** @type {any} */
  let data = null; // the JSON answer, as the server's contract shapes it
  try {
    data = await response.json();
  } catch {
    // an answer without JSON; handled below
  }
  if (response.ok) return data;
  const error = data && data.error;
  if (error && error.code) {
    throw new ApiError(response.status, error.code, error.message, error.reason || null, error.params || {});
  }
  // A route the server does not know answers 404 without our error object.
  throw new ApiError(response.status, response.status === 404 ? "no_route" : "unknown");
}

export const fetchMessages = (lang) => request("GET", `/api/messages/${lang}`, undefined, { cached: true });

/** The address of game `id`. */
const gamePath = (id) => `/api/games/${encodeURIComponent(id)}`;

/** `options.wait: false`: throw ApiError "unreachable" rather than wait for the server. */
export const newGame = (settings, options) => request("POST", "/api/games", settings, options);

/** `path` with the query of `params` whose values are not empty. */
function withQuery(path, params) {
  const text = new URLSearchParams(Object.entries(params).filter(([, value]) => value)).toString();
  return text ? `${path}?${text}` : path;
}

/** A page of the caller's games; `cursor` is the `next` of the page before. */
export const listGames = (status, cursor, options) =>
  request("GET", withQuery("/api/games", { status, cursor }), undefined, options);

/** `options.wait: false`: throw ApiError "unreachable" rather than wait for the server. */
export const getGame = (id, options) => request("GET", gamePath(id), undefined, options);
/** Play one action: {action: "place", cell} | {action: "give", piece} | {action: "declare"|"claim"|"decline"}. */
export const act = (id, revision, action, options) =>
  request("POST", `${gamePath(id)}/actions`, { revision, ...action }, options);

export const computerTurn = (id, revision, options) =>
  request("POST", `${gamePath(id)}/computer`, { revision }, options);

export const undo = (id, revision, options) => request("POST", `${gamePath(id)}/undo`, { revision }, options);
export const redo = (id, revision, options) => request("POST", `${gamePath(id)}/redo`, { revision }, options);
/** Give up: the caller's side loses (on one device, the side to move). */
/** The online games being played now that anybody may watch. */
export const gamesToWatch = (options) => request("GET", "/api/watch", undefined, options);
/** Say the preset line `message` at the table of online game `id`. */
export const say = (id, message, options) => request("POST", `${gamePath(id)}/talk`, { message }, options);
export const resign = (id, revision, options) => request("POST", `${gamePath(id)}/resign`, { revision }, options);
/** "Play again": the next game with the sides swapped; answers its view. */
export const rematch = (id, options) => request("POST", `${gamePath(id)}/rematch`, undefined, options);
/** Delete one of the caller's unfinished games, as seen at `revision`. */
export const deleteGame = (id, revision, options) =>
  request("DELETE", `${gamePath(id)}?revision=${encodeURIComponent(revision)}`, undefined, options);

// ---- online games -------------------------------------------------------------

/** The online game an invitation token seats one in: {game, rules, calling, seat, joined}. */
export const getInvite = (token, options) =>
  request("GET", `/api/invites/${encodeURIComponent(token)}`, undefined, options);

/** Take the free seat of online game `id` with its invitation token. */
export const join = (id, invite, options) => request("POST", `${gamePath(id)}/join`, { invite }, options);
/** The bots that can be offered a seat now: {bots: [{bot, name}]}. */
export const listBots = (options) => request("GET", "/api/bots", undefined, options);
/** Offer the free seat of online game `id` to the bot of handle `bot`; answers the view. */
export const inviteBot = (id, bot, options) => request("POST", `${gamePath(id)}/invite-bot`, { bot }, options);
/** The address of the invitation's QR code (an SVG image). */
export const inviteQrUrl = (id) => `${gamePath(id)}/invite.svg`;
/** Offer the opponent a draw (or accept theirs, if one waits). */
export const offerDraw = (id, revision, options) => request("POST", `${gamePath(id)}/draw`, { revision }, options);
/** Accept or decline the opponent's draw offer. */
export const answerDraw = (id, revision, accept, options) =>
  request("POST", `${gamePath(id)}/draw/answer`, { revision, accept }, options);
/** Accept or refuse the opponent's undo request. */
export const answerUndo = (id, revision, accept, options) =>
  request("POST", `${gamePath(id)}/undo/answer`, { revision, accept }, options);

export const hint = (id, lang, options) =>
  request("GET", `${gamePath(id)}/hint?lang=${encodeURIComponent(lang)}`, undefined, options);

/** A finished game's turns judged (slow: solved on the server). */
export const review = (id, options) => request("GET", `${gamePath(id)}/review`, undefined, options);
/** Every legal turn of a position with its value (docs/web-api.md). */
export const analysis = (position, rules, options) =>
  request("GET", `/api/analysis?${new URLSearchParams({ position, rules })}`, undefined, options);

export const importRecord = (record, settings, options) =>
  request("POST", "/api/games/import", { record, ...settings }, options);

/** The address of a game's record, for a download link. */
export const recordUrl = (id) => `${gamePath(id)}/record`;

// ---- the daily puzzle ---------------------------------------------------------

/** The puzzle of `date` ("YYYY-MM-DD" or "today"), without its solution. */
export const getPuzzle = (date, options) =>
  request("GET", `/api/puzzles/${encodeURIComponent(date)}`, undefined, options);

/** The puzzles of today and the 14 days after it generated so far: {today, complete, puzzles}. */
export const puzzlesAhead = (options) => request("GET", "/api/puzzles/ahead", undefined, options);
/** Judge the player's `turn` ("A1F", or "A1" for a placement alone) after `played`. */
export const checkPuzzle = (date, played, turn, options) =>
  request("POST", `/api/puzzles/${encodeURIComponent(date)}/check`, { played, turn }, options);

/** Store one attempt {tries, seconds, solved} of the calling player (the cookie says who);
 *  answers what it changed: {today, streak, solved, day, result}.  `solved: true` counts only after a checked turn solved it. */
export const puzzleResult = (date, result, options) =>
  request("POST", `/api/puzzles/${encodeURIComponent(date)}/result`, result, options);

/** The calling player's puzzle history. */
export const puzzleHistory = (options) => request("GET", "/api/puzzles/history", undefined, options);
/** Take over the results an earlier version of the page stored under an id it made up. */
export const adoptPuzzleResults = (player, options) => request("POST", "/api/puzzles/adopt", { player }, options);

// ---- clocks and the lobby -------------------------------------------------------

/** Claim game `id`, whose opponent left during their turn: the win, or with `draw` a draw. */
export const claimAbandoned = (id, revision, draw, options) =>
  request("POST", `${gamePath(id)}/abandoned`, { revision, draw }, options);

/** The caller's name as others see it: {name}, null for a browser that is no player yet. */
export const getMe = (options) => request("GET", "/api/players/me", undefined, options);
/** Choose the name others see: {name}. */
export const rename = (name, options) => request("PUT", "/api/players/me", { name }, options);
/** Offer a game in the lobby: {rules, clock, side}; answers the SeekView. */
export const openSeek = (seek, options) => request("POST", "/api/seeks", seek, options);
/** Withdraw one's own seek. */
export const withdrawSeek = (id, options) =>
  request("DELETE", `/api/seeks/${encodeURIComponent(id)}`, undefined, options);

/** Accept a seek: answers the new game's GameView. */
export const acceptSeek = (id, options) =>
  request("POST", `/api/seeks/${encodeURIComponent(id)}/accept`, undefined, options);

/** "Play now": {rules, clock}; answers {game, seek}: the game met, or the seek that waits. */
export const pairing = (body, options) => request("POST", "/api/pairing", body, options);

// ---- profiles and leaderboards (docs/web-api.md) ----------------------------------------

const player = (name) => `/api/players/${encodeURIComponent(name)}`;
/** An account's profile: {name, created, bot, ratings, results, puzzles, games, next}. */
export const getProfile = (name, options) => request("GET", player(name), undefined, options);
/** A page of an account's finished games, `filter` {rules, result, cursor}: {games, next}. */
export const profileGames = (name, filter, options) =>
  request("GET", withQuery(`${player(name)}/games`, filter), undefined, options);
/** An account's rating after each rated game of `category`: {points: [{moment, rating, game}]}. */
export const ratingHistory = (name, category, options) =>
  request("GET", `${player(name)}/ratings/${encodeURIComponent(category)}`, undefined, options);
export const leaderboard = (category, options) =>
  request("GET", `/api/leaderboard/${encodeURIComponent(category)}`, undefined, options);

// ---- tournaments (docs/web-api.md, "Tournaments") ---------------------------------------

const event = (id) => `/api/tournaments/${encodeURIComponent(id)}`;
/** The events {created, started, finished}: to come, running, over. */
export const tournaments = (options) => request("GET", "/api/tournaments", undefined, options);
/** Make an arena {name, rules, clock, minutes, rated, starts}: answers its TournamentView. */
export const makeArena = (body, options) => request("POST", "/api/tournaments", body, options);
/** One event, its standings and games, as the caller sees it. */
export const getTournament = (id, options) => request("GET", event(id), undefined, options);
/** Join event `id` (or come back after a pause): its TournamentView. */
export const joinTournament = (id, options) => request("POST", `${event(id)}/join`, undefined, options);
/** Pause in event `id`: its TournamentView. */
export const withdrawTournament = (id, options) =>
  request("POST", `${event(id)}/withdraw`, undefined, options);

// ---- accounts (docs/web-api.md, "Accounts") -------------------------------------------

/** The caller's account {name, created, password, passkeys, recovery_codes_left, hide_ratings};
 * 401 not_signed_in for a player without one. */
export const getAccount = (options) => request("GET", "/api/account", undefined, options);
/** Make the caller's player an account, {name, password} or {name, passkey: {challenge, credential}}:
 * {name, merged, recovery_codes}. */
export const signUp = (body, options) => request("POST", "/api/account", body, options);
/** Sign this device in, `by` "" {name, password}, "recovery" {name, code}, "link" {code}
 * or "passkey" {challenge, credential}: {name, merged}. */
export const signIn = (by, body, options) => request("POST", by ? `/api/session/${by}` : "/api/session", body, options);
export const signOut = (options) => request("DELETE", "/api/session", undefined, options);
export const changeAccount = (settings, options) => request("PATCH", "/api/account", settings, options);
export const changePassword = (current, next, options) =>
  request("PUT", "/api/account/password", { current, new: next }, options);
/** Ten new recovery codes {recovery_codes}; the old ones stop working. */
export const newRecoveryCodes = (password, options) => request("POST", "/api/account/recovery-codes", { password }, options);
export const deleteAccount = (name, password, options) => request("DELETE", "/api/account", { name, password }, options);
/** The devices signed in: {sessions: [{id, device, created, seen, current}]}. */
export const listSessions = (options) => request("GET", "/api/account/sessions", undefined, options);
/** Sign out the device of session `id`; with `id` null, every device but this one. */
export const endSessions = (id, options) =>
  request("DELETE", id ? `/api/account/sessions/${encodeURIComponent(id)}` : "/api/account/sessions", undefined, options);
/** A code that lets one more device in: {code, expires, url, qr (an SVG image's text)}. */
export const newLinkCode = (options) => request("POST", "/api/account/link", undefined, options);
/** Begin a passkey ceremony, {purpose: "register"|"sign_in", name?}: {challenge, options}. */
export const passkeyOptions = (body, options) => request("POST", "/api/passkeys/options", body, options);
/** Keep a new passkey of the account, {challenge, credential}; answers the account. */
export const addPasskey = (proof, options) => request("POST", "/api/passkeys", proof, options);
export const removePasskey = (id, options) => request("DELETE", `/api/passkeys/${encodeURIComponent(id)}`, undefined, options);

// ---- one's mistakes, as exercises (docs/web-api.md, "Mistakes") ----------------------

/** The caller's exercises (the soonest due first) and their counts; `due`: those due now. */
export const getMistakes = (due, options) =>
  request("GET", due ? "/api/mistakes?due=true" : "/api/mistakes", undefined, options);
/** Answer exercise `id` with `turn` ("B46", "B4", or a piece "6" for a hand-over): {right, answers, exercise}. */
export const answerMistake = (id, turn, options) =>
  request("POST", `/api/mistakes/${encodeURIComponent(id)}/answer`, { turn }, options);

/** What people played on this site from `position` under `rules` (docs/web-api.md, "Explorer"),
 *  over the games `filters` lets through ({source, rated}, each left out for any). */
export const explorer = (rules, position, filters, options) =>
  request("GET", `/api/explorer?${new URLSearchParams({ rules, position, ...filters })}`, undefined, options);
