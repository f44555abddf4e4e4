// One tournament, live: a WebSocket on /api/tournaments/{id}/live (docs/web-api.md,
// "Tournaments", "Live").
//
// The server sends the event as everybody sees it ({"type": "tournament"}) on
// connecting and after each change, each followed by the socket's own part
// ({"type": "me"}: the player's name in the standings, whether they are in, and
// their game of the event being played now).  `EventLive` keeps the socket open as
// every live socket of the page does (live.js): a lost connection is opened again,
// later when the server is busy; a ping keeps it from being dropped as idle.

import { LiveSocket } from "../live.js";

export function eventUrl(id) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/tournaments/${encodeURIComponent(id)}/live`;
}

export class EventLive extends LiveSocket {
  /**
   * Follow event `id`: `onEvent(event, me, receivedMs)` gets the event and the
   * player's own part after each change (`receivedMs` the device's time it came);
   * `onGone()` an event that does not exist.
   * @param {string} id
   * @param {{ onEvent: (event: any, me: any, receivedMs: number) => void,
   *   onGone?: () => void, onState?: (connected: boolean) => void }} handlers
   */
  constructor(id, { onEvent, onGone = () => {}, onState = () => {} }) {
    super(onState);
    this.id = id;
    this.onEvent = onEvent;
    this.onGone = onGone;
    /** The event of the last "tournament" message, until its "me" comes. */
    this.pending = null;
    this.start();
  }

  url() {
    return eventUrl(this.id);
  }

  final(code) {
    super.final(code);
    if (code === 4404) this.onGone();
  }

  receive(message) {
    if (message.type === "tournament") {
      this.backAgain();
      this.pending = message.tournament;
    } else if (message.type === "me" && this.pending) {
      const event = this.pending;
      this.pending = null;
      this.onEvent(event, message.me, Date.now());
    }
  }
}
