// Rated or casual, in the lobby: the choice of "Play now" and of an offer (rated only
// for an account: otherwise it says to sign in), the range of the opponent's rating
// around one's own (sent as absolute bounds), and whether one may take a seek.
// One's own ratings come from one's profile (GET /api/players/{name}); 1500 where
// one has none.

import * as api from "../api.js";
import * as account from "../account/state.js";
import { $, $select } from "../dom.js";
import { t } from "../i18n.js";
import { SPREADS, START_RATING, admits, rangeBounds, speedOf } from "../players/ratings.js";

/** The category of a game of `rules` with `clock`: "quads-blitz" ... */
function categoryOf(rules, clock) {
  return `${rules}-${speedOf(clock)}`;
}

/** One's ratings, by category, while one is signed in: shared by the lobby's choices. */
export class OwnRatings {
  constructor() {
    /** @type {Record<string, {rating: number}>} */
    this.ratings = {};
    this.name = null;
  }

  /** Ask for the ratings of the account signed in (none for a newcomer). */
  async load() {
    const who = account.current();
    this.name = who ? who.name : null;
    this.ratings = {};
    if (!this.name) return;
    try {
      this.ratings = (await api.getProfile(this.name, { wait: false })).ratings || {};
    } catch {
      // without them, a newcomer's 1500 stands in
    }
  }

  /** One's rating in a game of `rules` with `clock` (1500 without one). */
  of(rules, clock) {
    const rating = this.ratings[categoryOf(rules, clock)];
    return rating ? rating.rating : START_RATING;
  }

  /** Whether one may take `seek`: "ok", "low", "high" or "account". */
  admits(seek) {
    const rating = this.ratings[categoryOf(seek.rules, seek.clock)];
    return admits(seek, rating ? rating.rating : null, Boolean(account.current()));
  }
}

export class RatedChoice {
  /** The choice whose elements' ids start with `prefix` ("quick", "offer"). */
  constructor(prefix, own, onChange = () => {}) {
    this.prefix = prefix;
    this.own = own;
    this.range = $select(`${prefix}-range`);
    for (const input of this.inputs()) input.addEventListener("change", () => {
      this.render();
      onChange();
    });
    this.language = null;
  }

  inputs() {
    return /** @type {HTMLInputElement[]} */ ([...$(`${this.prefix}-rated`).querySelectorAll("input[type=radio]")]);
  }

  /** Whether a rated game is chosen (and may be: an account is signed in). */
  rated() {
    return Boolean(account.current()) && this.inputs().some((input) => input.checked && input.value === "rated");
  }

  /** What the request's body adds: {rated, rating_min, rating_max}, or {} for a casual game. */
  body(rules, clock) {
    if (!this.rated()) return {};
    const spread = this.range.value === "any" ? null : Number(this.range.value);
    return { rated: true, ...rangeBounds(this.own.of(rules, clock), spread) };
  }

  render(disabled = false) {
    const signedIn = Boolean(account.current());
    for (const input of this.inputs()) {
      input.disabled = disabled || (input.value === "rated" && !signedIn);
      if (!signedIn) input.checked = input.value === "casual";
    }
    // Without an account, a line that says to sign in stands for the whole choice.
    $(`${this.prefix}-rated`).hidden = !signedIn;
    $(`${this.prefix}-rated-note`).hidden = signedIn;
    $(`${this.prefix}-range-field`).hidden = !this.rated();
    this.range.disabled = disabled;
    const language = document.documentElement.lang;
    if (this.language !== language) {
      this.language = language;
      const chosen = this.range.value || "200";
      this.range.replaceChildren(...SPREADS.map((spread) => {
        const option = document.createElement("option");
        option.value = spread === null ? "any" : String(spread);
        option.textContent = spread === null ? t("lobby.range.any") : t("lobby.range.spread", { points: spread });
        return option;
      }));
      this.range.value = chosen;
    }
  }
}
