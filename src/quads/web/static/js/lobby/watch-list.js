// The games being played now (GET /api/watch), in the lobby: each line names the two
// players by the names they go by, the rules, the clock and how far the game is, and
// opens the game to watch it.  Games made by invitation are not listed (the server
// leaves them out).  The list is read again every WATCH_REFRESH_MS while it shows.

import * as api from "../api.js";
import { controlWords } from "../clocks.js";
import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { rulesName } from "../names.js";

/** How often the list is read again while the lobby shows, in ms. */
export const WATCH_REFRESH_MS = 20_000;

/** The words of one game to watch: "A – B", and "rules · clock · move N". */
export function watchedWords(game) {
  const players = t("watch.players", {
    first: game.first || t("player.first"), second: game.second || t("player.second"),
  });
  const details = [rulesName(game.rules), controlWords(game.clock, t),
    t("watch.move", { number: Math.floor(game.ply / 2) + 1 })].join(" · ");
  return { players, details };
}

export class WatchList {
  constructor() {
    /** @type {any[] | null} null until read */
    this.games = null;
    this.failed = false;
    this.timer = undefined;
    this.requests = null;
  }

  /** Read the list now and again every WATCH_REFRESH_MS, until close(). */
  open() {
    this.close();
    this.requests = new AbortController();
    const read = async () => {
      const requests = this.requests;
      if (!requests) return;
      try {
        const list = await api.gamesToWatch({ wait: false, signal: requests.signal });
        if (requests !== this.requests) return;
        this.games = list.games;
        this.failed = false;
      } catch (error) {
        if (error.code === "cancelled" || requests !== this.requests) return;
        this.failed = true;
      }
      this.render();
    };
    read();
    this.timer = setInterval(read, WATCH_REFRESH_MS);
  }

  close() {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.requests) this.requests.abort();
    this.requests = null;
  }

  render() {
    const list = $("watch-list");
    const status = $("watch-status");
    const games = this.games || [];
    status.textContent = this.games === null
      ? (this.failed ? t("watch.failed") : t("watch.loading"))
      : games.length ? "" : t("watch.none");
    status.hidden = !status.textContent;
    const items = games.map((game) => {
      const item = document.createElement("li");
      item.className = "watch-item";
      const link = document.createElement("a");
      link.className = "watch-link";
      link.href = `#/game/${encodeURIComponent(game.id)}`;
      const { players, details } = watchedWords(game);
      const name = document.createElement("span");
      name.className = "watch-players";
      name.textContent = players;
      const more = document.createElement("span");
      more.className = "watch-details";
      more.textContent = details;
      link.append(name, more);
      item.append(link);
      return item;
    });
    const signature = items.map((item) => `${item.querySelector("a")?.getAttribute("href")}${item.textContent}`).join("|");
    if (list.dataset.signature !== signature) {
      list.dataset.signature = signature;
      list.replaceChildren(...items);
    }
  }
}
