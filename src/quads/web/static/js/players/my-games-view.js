// One's own finished games (#/my-games), for every player, with an account or not:
// a page of GET /api/games?status=over at a time ("More"), each opening into the
// game's end and its review.

import * as api from "../api.js";
import { $, $button, keepingFocus } from "../dom.js";
import { currentLanguage, t } from "../i18n.js";
import { describeError, messageWords } from "../names.js";
import { ownFinishedItem } from "./finished.js";

export class MyGamesView {
  constructor() {
    this.games = [];
    this.next = null;
    this.loaded = false;
    this.loading = false;
    this.error = null;
    this.asked = 0;
    $button("my-games-more").addEventListener("click", () => this.load(true));
  }

  async open() {
    this.games = [];
    this.next = null;
    this.loaded = false;
    this.error = null;
    await this.load(false);
  }

  close() {
    this.asked += 1;
  }

  async load(more) {
    if (this.loading && more) return;
    const asked = ++this.asked;
    this.loading = true;
    this.render();
    try {
      const page = await api.listGames("over", more ? this.next : null, { wait: false });
      if (asked !== this.asked) return;
      this.games = more ? [...this.games, ...page.games] : page.games;
      this.next = page.next;
      this.loaded = true;
      this.error = null;
    } catch (error) {
      if (asked === this.asked) this.error = describeError(error);
    } finally {
      if (asked === this.asked) this.loading = false;
    }
    this.render();
  }

  render() {
    const status = $("my-games-status");
    if (this.error) status.textContent = messageWords(this.error);
    else if (!this.loaded) status.textContent = t("my_games.loading");
    else status.textContent = this.games.length ? "" : t("my_games.none");
    status.hidden = !status.textContent;
    $("my-games-view").setAttribute("aria-busy", String(this.loading));
    const when = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
    const list = $("my-games-list");
    keepingFocus(list, () => list.replaceChildren(...this.games.map((game) => ownFinishedItem(game, when))));
    const more = $button("my-games-more");
    more.hidden = !this.next;
    more.disabled = this.loading;
  }
}
