// Live updates of one game: a WebSocket on /api/games/{id}/live.  LiveSocket is
// what every live socket of the page shares (the lobby's too, lobby/lobby-live.js):
// opening again after a loss, waiting longer when the server is busy, pings.
//
// The server sends the whole view ({"type": "view", "view": GameView}) on
// connecting and after every change, a move of the other player as much as a
// player connecting or leaving; {"type": "gone"} when the game was deleted.
// A view is handed on only when its revision is not older than the one shown,
// so that a late message never takes the board back.  A lost connection is
// opened again by itself, after 0.5 s, then 1, 2, 4 and at most 8 s (each
// with some jitter, so that many pages do not all come back at once); the
// server's first message then brings the page up to date.  A socket that the
// server closed as busy (4429: over a limit of sockets; 1013: the database
// cannot be reached) is opened again later: from 4 s doubling to 60 s, with
// jitter, whatever else happens meanwhile.  A ping every 25 s
// keeps the connection from being dropped as idle, and a connection that
// leaves a ping unanswered for 10 s counts as lost.  The page never polls.
//
// While the socket is open, the page's actions go on it too ({"type": "act"}),
// which costs the server less than a request: the server answers {"type":
// "acted"} with the view a request would have had, or {"type": "refused"} with
// its error.  An action the socket cannot carry (not open, dropped
// before the answer, no answer within 5 s, the server busy or failing) is handed
// back, for the page to send as a request.

import { ApiError } from "./api.js";

const PING_MS = 25_000;
const ACT_WAIT_MS = 5_000;
/** Statuses of a refused action that a request may still get through: busy, failing. */
const HAND_BACK = new Set([429, 500, 502, 503, 504]);
const PONG_MS = 10_000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/** Close codes after which trying again is useless: no such game, foreign page. */
const FINAL_CODES = new Set([4403, 4404]);
/** Close codes that ask to try again later: over a limit, database unreachable. */
export const BUSY_CODES = new Set([4429, 1013]);
const BUSY_FIRST_MS = 4_000;
const BUSY_MAX_MS = 60_000;

/** The pause before try `attempt` (from 0): doubling from `first` to `max`, each
 *  between 50 % and 100 % of it. */
export function backoff(attempt, first, max, random = Math.random) {
  return Math.min(max, first * 2 ** attempt) * (0.5 + random() * 0.5);
}

export function liveUrl(id) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  // The page shows how many watch: it asks for the count.
  return `${scheme}//${location.host}/api/games/${encodeURIComponent(id)}/live?watchers=1`;
}

/**
 * A WebSocket that stays open: the shared part of the page's live sockets.  A
 * subclass gives its address (`url()`) and reads each message (`receive(message)`,
 * parsed JSON), calls `start()` once its own fields are set, and `backAgain()` when
 * a message shows the server is there; `final(code)` is what a close that no retry
 * mends does (by default: stop).  `onState(connected)` hears the connection lost
 * or back.
 */
export class LiveSocket {
  /** @param {(connected: boolean) => void} [onState] */
  constructor(onState = () => {}) {
    this.onState = onState;
    this.socket = null;
    this.closed = false;
    this.connected = false;
    this.attempt = 0;
    this.busy = 0;
    /** @type {number | undefined} the pending try to open the socket again */
    this.retryTimer = undefined;
    /** @type {number | undefined} the pings while the socket is open */
    this.pingTimer = undefined;
    /** @type {number | undefined} the wait for the answer of a ping */
    this.pongTimer = undefined;
    this.wakeUp = () => this.reconnectNow();
  }

  /** Begin: open the socket, and open it again when the network or the tab comes back. */
  start() {
    window.addEventListener("online", this.wakeUp);
    document.addEventListener("visibilitychange", this.wakeUp);
    this.connect();
  }

  /** @returns {string} the socket's address */
  url() {
    throw new Error("a LiveSocket names its address");
  }

  /** Read one message of the server (parsed). */
  receive(_message) {}

  /** The server closed the socket for good (a foreign page, no such game). */
  final(_code) {
    this.close();
  }

  /** A message showed the server is there: the connection counts as back. */
  backAgain() {
    this.attempt = 0;
    this.busy = 0;
    this.setConnected(true);
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      clearTimeout(this.pongTimer);
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message === "object") this.receive(message);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.drop();
      if (this.closed) return;
      if (FINAL_CODES.has(event.code)) this.final(event.code);
      else if (BUSY_CODES.has(event.code)) this.retryLater();
      else this.retry();
    });
  }

  ping() {
    this.send({ type: "ping" });
    clearTimeout(this.pongTimer);
    this.pongTimer = setTimeout(() => {
      // No answer: the connection is dead without having been closed.
      const socket = this.socket;
      if (!socket) return;
      this.drop();
      socket.close();
      this.retry();
    }, PONG_MS);
  }

  /** Forget the current connection (closed or dead). */
  drop() {
    this.socket = null;
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.setConnected(false);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  setConnected(connected) {
    if (connected === this.connected) return;
    this.connected = connected;
    this.onState(connected);
  }

  /** Try again after a growing pause: 0.5 s doubling to 8 s, each between 50 % and 100 % of it. */
  retry() {
    if (this.closed || this.retryTimer !== undefined) return;
    const delay = backoff(this.attempt, FIRST_DELAY_MS, MAX_DELAY_MS);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** The server is busy: try again after a longer pause, 4 s doubling to 60 s. */
  retryLater() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const delay = backoff(this.busy, BUSY_FIRST_MS, BUSY_MAX_MS);
    this.busy += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }

  /** The network came back or the tab became visible: do not wait for the next try
   *  (unless the server asked to wait). */
  reconnectNow() {
    if (this.closed || this.socket || this.busy > 0 || document.visibilityState === "hidden") return;
    this.attempt = 0;
    this.connect();
  }

  /** Open the socket again at once (e.g. the browser has just become a player). */
  renew() {
    if (this.closed) return;
    const socket = this.socket;
    this.drop();
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
    this.attempt = 0;
    this.connect();
  }

  /** Stop, for good. */
  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    window.removeEventListener("online", this.wakeUp);
    document.removeEventListener("visibilitychange", this.wakeUp);
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
  }
}

export class LiveGame extends LiveSocket {
  /**
   * Follow game `id`.  `shown()` is the revision the page shows (or null);
   * `onView(view)` gets each newer view, `onGone()` is called when the game
   * was deleted or may not be seen, `onState(connected)` when the connection
   * is lost or back, `onTalk(lines)` with the lines said at the table,
   * `onWatchers(count)` with how many watch the game.
   */
  constructor(id, { shown, onView, onGone, onState = () => {}, onTalk = () => {}, onWatchers = () => {} }) {
    super(onState);
    this.id = id;
    this.shown = shown;
    this.onView = onView;
    this.onGone = onGone;
    /** @type {(lines: object[]) => void} */
    this.onTalk = onTalk;
    /** @type {(count: number) => void} */
    this.onWatchers = onWatchers;
    this.nextAct = 1;
    this.pending = new Map(); // the actions sent and not answered: id -> {resolve, reject, timer}
    this.start();
  }

  url() {
    return liveUrl(this.id);
  }

  /** Whether an action can go on the socket now: it is open and has shown the game. */
  get ready() {
    return this.connected && this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /**
   * Play `action` ({action: "place", cell} ...) on the game as seen at `revision`.
   * Resolves to the view after it, or to null when the socket cannot carry it (the
   * caller then sends it as a request); a refusal rejects with its ApiError.
   */
  act(revision, action) {
    if (!this.ready) return Promise.resolve(null);
    const id = this.nextAct;
    this.nextAct += 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id, null), ACT_WAIT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.send({ type: "act", id, action: { revision, ...action } });
    });
  }

  /**
   * Answer action `id`: with a view (or null: handed back), or with an error.
   * @param {number} id
   * @param {object | null} view
   * @param {Error | null} [error]
   */
  settle(id, view, error = null) {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    if (error) waiting.reject(error);
    else waiting.resolve(view);
  }

  /** Hand back every action under way (the connection is gone). */
  handBack() {
    for (const id of [...this.pending.keys()]) this.settle(id, null);
  }

  drop() {
    super.drop();
    this.handBack();
  }

  close() {
    super.close();
    this.handBack();
  }

  receive(message) {
    if (message.type === "view" && message.view && message.view.id === this.id) {
      // A connection counts as back once the server's view arrived.
      this.backAgain();
      const shown = this.shown();
      if (shown === null || shown === undefined || message.view.revision >= shown) this.onView(message.view);
    } else if (message.type === "acted") {
      const view = message.view && message.view.id === this.id ? message.view : null;
      this.settle(message.id, view);
    } else if (message.type === "refused" && this.pending.has(message.id)) {
      const error = message.error || {};
      if (HAND_BACK.has(message.status)) this.settle(message.id, null);
      else {
        this.settle(message.id, null, new ApiError(message.status, error.code || "unknown", error.message,
          error.reason || null, error.params || {}));
      }
    } else if (message.type === "watchers" && typeof message.count === "number") {
      this.onWatchers(message.count);
    } else if (message.type === "talk" && Array.isArray(message.messages)) {
      this.onTalk(message.messages);
    } else if (message.type === "gone") {
      this.close();
      this.onGone();
    }
  }

  final() {
    this.close();
    this.onGone();
  }
}
