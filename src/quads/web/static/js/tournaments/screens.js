// The tournaments' screens and the way to them (tournaments/links.js): the list
// with the form that makes an arena, and one event.

import { $ } from "../dom.js";
import { EventView } from "./event-view.js";
import { eventAddress, matchAddress } from "./links.js";
import { TournamentsView } from "./list-view.js";

/** Each screen's element. */
const ELEMENTS = { tournaments: "tournaments-view", event: "event-view" };

export class TournamentScreens {
  /** `onGame(id)` opens game `id` (the player's game of an event, begun now). */
  constructor(onGame) {
    this.views = {
      tournaments: new TournamentsView((id) => (location.hash = eventAddress(id))),
      event: new EventView(onGame),
    };
    /** @type {"tournaments" | "event" | null} */
    this.shown = null;
  }

  /** The screen that `hash` names, {screen, id}, or null for none of these. */
  static match(hash) {
    return matchAddress(hash);
  }

  /** The page shows `screen` (any of the page's). */
  show(screen) {
    for (const [name, id] of Object.entries(ELEMENTS)) {
      $(id).hidden = name !== screen;
      if (name !== screen) this.views[name].close();
    }
    this.shown = screen === "tournaments" || screen === "event" ? screen : null;
  }

  async open({ screen, id }) {
    if (screen === "event") await this.views.event.open(id);
    else await this.views.tournaments.open();
  }

  render() {
    if (this.shown) this.views[this.shown].render();
  }
}
