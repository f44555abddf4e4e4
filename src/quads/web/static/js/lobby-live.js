// The lobby, live: a WebSocket on /api/lobby/live (docs/web-api.md, "The lobby").
//
// The server sends every open seek on connecting ({"type": "seeks"}), then each
// seek opened or renamed ({"type": "seek"}) and gone ({"type": "unseek"}), and
// {"type": "paired", "game", "seek"} when a seek of this player started a game.
// `nextSeeks` keeps the list from these messages; `LobbyLive` keeps the socket
// open: a lost connection is opened again after 0.5 s doubling to 8 s (60 s
// when the server said it is busy), with jitter, like the game's socket
// (live.js); a ping every 25 s keeps it from being dropped as idle.  A socket
// opened before the browser was a player is nobody's: `renew()` opens it again
// once the page has acted (and so has its cookie).

import { BUSY_CODES, backoff } from "./live.js";

const PING_MS = 25_000;
const PONG_MS = 10_000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const BUSY_FIRST_MS = 4_000;
const BUSY_MAX_MS = 60_000;

/** The open seeks after `message` (oldest first); the same list for other messages. */
export function nextSeeks(seeks, message) {
  if (!message || typeof message !== "object") return seeks;
  if (message.type === "seeks" && Array.isArray(message.seeks)) return [...message.seeks];
  if (message.type === "seek" && message.seek && message.seek.id) {
    const seek = message.seek;
    const at = seeks.findIndex((known) => known.id === seek.id);
    if (at < 0) return [...seeks, seek];
    const changed = [...seeks];
    changed[at] = seek;
    return changed;
  }
  if (message.type === "unseek") return seeks.filter((known) => known.id !== message.id);
  return seeks;
}

export function lobbyUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/lobby/live`;
}

export class LobbyLive {
  /**
   * Follow the lobby: `onSeeks(seeks)` gets the open seeks after each change,
   * `onPaired(message)` a seek of this player that started a game, `onState(connected)`
   * the connection lost or back.
   */
  constructor({ onSeeks, onPaired, onState = () => {} }) {
    this.onSeeks = onSeeks;
    this.onPaired = onPaired;
    this.onState = onState;
    this.seeks = [];
    this.socket = null;
    this.closed = false;
    this.connected = false;
    this.attempt = 0;
    this.busy = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.wakeUp = () => this.reconnectNow();
    window.addEventListener("online", this.wakeUp);
    document.addEventListener("visibilitychange", this.wakeUp);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    let socket;
    try {
      socket = new WebSocket(lobbyUrl());
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
      this.receive(event.data);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.drop();
      if (this.closed) return;
      if (BUSY_CODES.has(event.code)) this.retryLater();
      else this.retry();
    });
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === "paired") {
      this.onPaired(message);
      return;
    }
    if (message.type === "seeks") {
      // The whole list: the connection counts as back.
      this.attempt = 0;
      this.busy = 0;
      this.setConnected(true);
    }
    const next = nextSeeks(this.seeks, message);
    if (next !== this.seeks) {
      this.seeks = next;
      this.onSeeks(next);
    }
  }

  ping() {
    this.send({ type: "ping" });
    clearTimeout(this.pongTimer);
    this.pongTimer = setTimeout(() => {
      const socket = this.socket;
      if (!socket) return;
      this.drop();
      socket.close();
      this.retry();
    }, PONG_MS);
  }

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

  retry() {
    if (this.closed || this.retryTimer !== null) return;
    const delay = backoff(this.attempt, FIRST_DELAY_MS, MAX_DELAY_MS);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  retryLater() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const delay = backoff(this.busy, BUSY_FIRST_MS, BUSY_MAX_MS);
    this.busy += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  reconnectNow() {
    if (this.closed || this.socket || this.busy > 0 || document.visibilityState === "hidden") return;
    this.attempt = 0;
    this.connect();
  }

  /** Open the socket again at once: the browser became a player (it has its cookie now). */
  renew() {
    if (this.closed) return;
    const socket = this.socket;
    this.drop();
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
    this.attempt = 0;
    this.connect();
  }

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
