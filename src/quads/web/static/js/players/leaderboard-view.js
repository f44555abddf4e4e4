// The leaderboards (#/leaderboard/CATEGORY): the best established ratings of one
// category, with a picker of the twelve categories.  An empty board says that players
// appear after enough rated games.

import * as api from "../api.js";
import { $, $select } from "../dom.js";
import { t } from "../i18n.js";
import { describeError, messageWords } from "../names.js";
import { leaderboardAddress, profileLink } from "./links.js";
import { CATEGORIES, ratingLabel } from "./ratings.js";
import { categoryName } from "./profile-view.js";

export class LeaderboardView {
  constructor() {
    this.category = CATEGORIES[0];
    this.players = null;
    this.error = null;
    this.asked = 0;
    const picker = $select("leaderboard-category");
    picker.addEventListener("change", () => (location.hash = leaderboardAddress(picker.value)));
  }

  async open(category) {
    this.category = CATEGORIES.includes(category) ? category : CATEGORIES[0];
    this.players = null;
    this.error = null;
    const asked = ++this.asked;
    this.render();
    try {
      const board = await api.leaderboard(this.category, { wait: false });
      if (asked === this.asked) this.players = board.players;
    } catch (error) {
      if (asked === this.asked) this.error = describeError(error);
    }
    this.render();
  }

  close() {
    this.asked += 1;
  }

  render() {
    const picker = $select("leaderboard-category");
    picker.replaceChildren(...CATEGORIES.map((category) => {
      const option = document.createElement("option");
      option.value = category;
      option.textContent = categoryName(category);
      return option;
    }));
    picker.value = this.category;
    const status = $("leaderboard-status");
    if (this.error) status.textContent = messageWords(this.error);
    else if (!this.players) status.textContent = t("leaderboard.loading");
    else status.textContent = this.players.length ? "" : t("leaderboard.empty");
    status.hidden = !status.textContent;
    $("leaderboard-view").setAttribute("aria-busy", String(!this.players && !this.error));
    const rows = (this.players || []).map((player, index) => {
      const item = document.createElement("li");
      item.className = "leaderboard-item";
      const rank = document.createElement("span");
      rank.className = "leaderboard-rank";
      rank.textContent = String(index + 1);
      rank.setAttribute("aria-hidden", "true");
      const name = document.createElement("span");
      name.className = "leaderboard-name";
      name.append(profileLink(player.name));
      const rating = document.createElement("strong");
      rating.className = "leaderboard-rating";
      rating.textContent = ratingLabel({ rating: player.rating, provisional: false });
      const games = document.createElement("small");
      games.textContent = t(player.games === 1 ? "profile.games.one" : "profile.games.many", { count: player.games });
      item.append(rank, name, rating, games);
      return item;
    });
    $("leaderboard-list").replaceChildren(...rows);
  }
}
