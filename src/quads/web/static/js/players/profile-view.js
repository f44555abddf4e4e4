// An account's profile (#/players/NAME): its ratings per category, each with the
// chart of its history, its wins, draws and losses, its run of daily puzzles, and its
// finished games, filtered by rules and result and paged by "More".  Anyone may read
// it (docs/web-api.md, "Profiles and leaderboards").

import * as api from "../api.js";
import { $, $button, $select, keepingFocus } from "../dom.js";
import { currentLanguage, t } from "../i18n.js";
import { RULE_SETS, describeError, messageWords, rulesName } from "../names.js";
import { ratingChart } from "./chart-view.js";
import { finishedItem } from "./finished.js";
import { leaderboardAddress } from "./links.js";
import { fromStart } from "./chart.js";
import { CATEGORIES, START_RATING, ratingLabel, splitCategory } from "./ratings.js";

const RESULTS = ["win", "draw", "loss"];

/** "Quads · Blitz": a category's name. */
export function categoryName(category) {
  const parts = splitCategory(category);
  return parts ? `${rulesName(parts.rules)} · ${t(`speed.${parts.speed}`)}` : category;
}

export class ProfileView {
  constructor() {
    this.name = null;
    this.profile = null;
    this.error = null;
    /** @type {Record<string, Array<{moment: string, rating: number}>>} */
    this.histories = {};
    this.games = [];
    this.next = null;
    this.loading = false;
    this.asked = 0; // the latest request's number: older answers are dropped
    for (const id of ["profile-rules", "profile-result"]) {
      $select(id).addEventListener("change", () => this.loadGames(false));
    }
    $button("profile-more").addEventListener("click", () => this.loadGames(true));
  }

  async open(name) {
    this.name = name;
    this.profile = null;
    this.error = null;
    this.histories = {};
    this.games = [];
    this.next = null;
    $select("profile-rules").value = "";
    $select("profile-result").value = "";
    const asked = ++this.asked;
    this.render();
    try {
      const profile = await api.getProfile(name, { wait: false });
      if (asked !== this.asked) return;
      this.profile = profile;
      this.games = profile.games;
      this.next = profile.next;
    } catch (error) {
      if (asked === this.asked) this.error = describeError(error, { overrides: { not_found: "profile.not_found" } });
    }
    this.render();
    if (!this.profile) return;
    await Promise.all(Object.keys(this.profile.ratings).map(async (category) => {
      try {
        const history = await api.ratingHistory(name, category, { wait: false });
        if (asked !== this.asked) return;
        this.histories[category] = fromStart(history.points, this.profile.ratings[category].games, START_RATING);
        this.renderRatings();
      } catch {
        // the rating stands without its chart
      }
    }));
  }

  close() {
    this.asked += 1;
  }

  /** The finished games anew with the filters chosen, or (`more`) their next page. */
  async loadGames(more) {
    if (!this.profile || this.loading) return;
    const asked = ++this.asked;
    this.loading = true;
    this.renderGames();
    const filter = {
      rules: $select("profile-rules").value, result: $select("profile-result").value,
      cursor: more ? this.next : null,
    };
    try {
      const page = await api.profileGames(this.profile.name, filter, { wait: false });
      if (asked !== this.asked) return;
      this.games = more ? [...this.games, ...page.games] : page.games;
      this.next = page.next;
      this.error = null;
    } catch (error) {
      if (asked === this.asked) this.error = describeError(error);
    } finally {
      this.loading = false;
    }
    this.render();
  }

  render() {
    const profile = this.profile;
    $("profile-view").setAttribute("aria-busy", String(!profile && !this.error));
    $("profile-title").textContent = profile ? profile.name : this.name || "";
    const status = $("profile-status");
    status.textContent = this.error ? messageWords(this.error) : profile ? "" : t("profile.loading");
    status.hidden = !status.textContent;
    $("profile-body").hidden = !profile;
    fillFilters();
    if (!profile) return;
    const when = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium" });
    $("profile-since").textContent = t("profile.since", { date: when.format(new Date(profile.created)) });
    const results = profile.results;
    $("profile-results").textContent = t("profile.results.text", {
      wins: results.wins, draws: results.draws, losses: results.losses,
    });
    $("profile-streak").textContent = t("profile.streak", {
      streak: profile.puzzles.streak, solved: profile.puzzles.solved.length,
    });
    this.renderRatings();
    this.renderGames();
  }

  renderRatings() {
    const profile = this.profile;
    if (!profile) return;
    const categories = CATEGORIES.filter((category) => profile.ratings[category]);
    $("profile-ratings-none").hidden = categories.length > 0;
    const items = categories.map((category) => {
      const rating = profile.ratings[category];
      const item = document.createElement("li");
      item.className = "profile-rating";
      item.dataset.category = category;
      const head = document.createElement("p");
      head.className = "profile-rating-head";
      const name = document.createElement("a");
      name.href = leaderboardAddress(category);
      name.textContent = categoryName(category);
      const value = document.createElement("strong");
      value.className = "profile-rating-value";
      value.textContent = ratingLabel(rating);
      const games = document.createElement("small");
      games.textContent = t(rating.games === 1 ? "profile.games.one" : "profile.games.many", { count: rating.games });
      head.append(name, " ", value, " ", games);
      item.append(head);
      const chart = this.histories[category] ? ratingChart(this.histories[category], categoryName(category)) : null;
      if (chart) item.append(chart);
      return item;
    });
    $("profile-ratings").replaceChildren(...items);
  }

  renderGames() {
    const when = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium" });
    const list = $("profile-games");
    keepingFocus(list, () => list.replaceChildren(...this.games.map((game) => finishedItem(game, when))));
    $("profile-games-none").hidden = this.games.length > 0 || this.loading;
    const more = $button("profile-more");
    more.hidden = !this.next;
    more.disabled = this.loading;
  }
}

/** The filters' choices, in the page's language, keeping what is chosen. */
function fillFilters() {
  const fill = (id, values, word, all) => {
    const select = $select(id);
    const chosen = select.value;
    select.replaceChildren(...["", ...values].map((value) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = value ? word(value) : t(all);
      return option;
    }));
    select.value = chosen;
  };
  fill("profile-rules", RULE_SETS.map((set) => set.rules), rulesName, "profile.filter.all_rules");
  fill("profile-result", RESULTS, (value) => t(`finished.result.${value}`), "profile.filter.all_results");
}
