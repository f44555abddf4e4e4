// The banner of a game a tournament paired (game screen): the event's name after the
// rules and the opponent, a link to its standings, and, for a player of the game, the
// event followed live so that their next game of it opens by itself once this one is
// over (tournaments/words.js, gameToOpen), which a line says meanwhile.

import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { eventAddress } from "./links.js";
import { EventLive } from "./event-live.js";
import { eventName, gameToOpen } from "./words.js";

export class EventBanner {
  /** `onOpen(id)` shows the player's next game of the event. */
  constructor(onOpen) {
    this.onOpen = onOpen;
    /** @type {EventLive | null} */
    this.live = null;
    this.followed = null;
    this.me = null;
    this.view = null;
  }

  /** The game shown changed (`view`, or null when none is): follow its event while
   * its player looks at it, and open their next game once it is over. */
  update(view) {
    this.view = view;
    const event = view && view.mode === "online" && view.you ? view.tournament : null;
    const id = event ? event.id : null;
    if (id !== this.followed) {
      if (this.live) this.live.close();
      this.live = null;
      this.me = null;
      this.followed = id;
      if (id) {
        this.live = new EventLive(id, {
          onEvent: (_event, me) => {
            this.me = me;
            this.openNext();
            this.render();
          },
        });
      }
    }
    this.openNext();
  }

  openNext() {
    const view = this.view;
    if (!view || !this.me) return;
    const next = gameToOpen(this.me, view.id, Boolean(view.outcome));
    if (next) this.onOpen(next);
  }

  close() {
    this.update(null);
  }

  render() {
    const view = this.view;
    const event = view && view.mode === "online" ? view.tournament : null;
    $("game-event").hidden = !event;
    // Over, and still in the event: the next game comes here by itself.
    const waiting = Boolean(event && view.outcome && view.you && this.me && this.me.joined && !this.me.playing);
    const next = $("game-event-next");
    next.hidden = !waiting;
    next.textContent = waiting ? t("tournaments.banner.next") : "";
    if (!event) return;
    const link = $("game-event-link");
    link.setAttribute("href", eventAddress(event.id));
    link.textContent = t("tournaments.banner", { name: eventName(event, t) });
  }
}
