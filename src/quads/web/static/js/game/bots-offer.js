// The bots that may be offered the free seat of the person's online game: asked of
// the server (GET /api/bots) while a seat is free, at most every BOTS_EVERY ms, and
// the seat offered to one of them (POST /api/games/{id}/invite-bot).  Whether a bot
// took it, or declined, comes with the game's view (`bot_invitation`).

import { inviteBot, listBots } from "../api.js";

/** ms between two looks for the bots that may take a free seat. */
const BOTS_EVERY = 10_000;

export class BotsOffer {
  /** `changed()` is called when the list of bots arrives. */
  constructor(changed) {
    this.changed = changed;
    this.bots = []; // the bots that may be offered the free seat
    this.asked = 0; // when they were last asked for (Date.now())
    /** @type {string | null} the game they were asked for */
    this.game = null;
  }

  /** While a seat of the person's online game `view` is free: ask which bots may take
   * it, unless they were asked within BOTS_EVERY ms. */
  ask(view) {
    if (!view || !view.invite || view.spectator || Date.now() - this.asked < BOTS_EVERY) return;
    this.asked = Date.now();
    const id = view.id;
    this.game = id;
    listBots({ wait: false }).then((answer) => {
      if (this.game !== id) return; // the game was left meanwhile
      this.bots = answer.bots;
      this.changed();
    }, () => {}); // unreachable: the link and the QR code still work
  }

  /** Offer the free seat of game `id` to `bot`; answers the game's view. */
  offer(id, bot) {
    return inviteBot(id, bot.bot);
  }

  /** Forget the game's bots (the game was left). */
  clear() {
    this.bots = [];
    this.asked = 0;
    this.game = null;
  }
}
