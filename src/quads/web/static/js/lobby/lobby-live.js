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

import { LiveSocket } from "../live.js";

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

export class LobbyLive extends LiveSocket {
  /**
   * Follow the lobby: `onSeeks(seeks)` gets the open seeks after each change,
   * `onPaired(message)` a seek of this player that started a game, `onState(connected)`
   * the connection lost or back.
   * @param {{ onSeeks: (seeks: object[]) => void, onPaired: (message: any) => void,
   *   onState?: (connected: boolean) => void }} handlers
   */
  constructor({ onSeeks, onPaired, onState = () => {} }) {
    super(onState);
    this.onSeeks = onSeeks;
    this.onPaired = onPaired;
    this.seeks = [];
    this.start();
  }

  url() {
    return lobbyUrl();
  }

  receive(message) {
    if (message.type === "paired") {
      this.onPaired(message);
      return;
    }
    if (message.type === "seeks") this.backAgain(); // the whole list: the connection is back
    const next = nextSeeks(this.seeks, message);
    if (next !== this.seeks) {
      this.seeks = next;
      this.onSeeks(next);
    }
  }
}
