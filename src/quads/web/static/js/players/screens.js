// The players' screens and the way to them: #/players/NAME an account's profile,
// #/my-games one's own finished games, #/leaderboard/CATEGORY (or #/leaderboard) the
// best ratings of a category.

import { decodePart } from "../hash.js";
import { $ } from "../dom.js";
import { LeaderboardView } from "./leaderboard-view.js";
import { MyGamesView } from "./my-games-view.js";
import { ProfileView } from "./profile-view.js";

/** Each screen's element. */
const ELEMENTS = { profile: "profile-view", mygames: "my-games-view", leaderboard: "leaderboard-view" };

export class PlayerScreens {
  constructor() {
    this.views = { profile: new ProfileView(), mygames: new MyGamesView(), leaderboard: new LeaderboardView() };
    /** @type {string | null} */
    this.shown = null;
  }

  /** The screen that `hash` names, {screen, argument}, or null for none of these. */
  static match(hash) {
    const profile = /^#\/players\/([^/]+)$/.exec(hash);
    if (profile) return { screen: "profile", argument: decodePart(profile[1]) };
    if (hash === "#/my-games") return { screen: "mygames", argument: "" };
    const board = /^#\/leaderboard(?:\/([\w-]+))?$/.exec(hash);
    if (board) return { screen: "leaderboard", argument: board[1] || "" };
    return null;
  }

  /** The page shows `screen` (any of the page's). */
  show(screen) {
    for (const [name, id] of Object.entries(ELEMENTS)) {
      $(id).hidden = name !== screen;
      if (name !== screen) this.views[name].close();
    }
    this.shown = screen in ELEMENTS ? screen : null;
  }

  async open({ screen, argument }) {
    await this.views[screen].open(argument);
  }

  render() {
    if (this.shown) this.views[this.shown].render();
  }
}
