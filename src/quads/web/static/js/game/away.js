// What the game screen shows in place of a game that is not there: one the server
// keeps while it cannot be reached (it opens by itself once the server answers),
// or one that could not be opened (why, in the page's language).

import { t } from "../i18n.js";
import { messageWords } from "../names.js";
import { $ } from "../dom.js";

export class AwayNotice {
  constructor() {
    this.shown = null; // {key, params, failed}, or null while the game shows
    this.hidGame = false; // the notice hid the game screen, which it shows again
  }

  /** Say that the game waits for the server (`waiting`), or show the game again. */
  waiting(waiting) {
    this.shown = waiting ? { key: "away.waiting.text", params: {} } : null;
    this.render();
    if (waiting) $("game-away-title").focus({ preventScroll: true });
  }

  /** Say why the game could not be opened: `message` {key, params}. */
  failed(message) {
    this.shown = { ...message, failed: true };
    this.render();
  }

  clear() {
    this.shown = null;
    this.render();
  }

  /** Draw the notice, or the game in its place (after a change of language too). */
  render() {
    const shown = this.shown;
    $("game-away").hidden = !shown;
    if (!shown) {
      if (this.hidGame) $("game-view").hidden = false;
      this.hidGame = false;
      return;
    }
    this.hidGame = this.hidGame || !$("game-view").hidden;
    $("game-view").hidden = true;
    $("game-away-title").textContent = t(shown.failed ? "away.failed.title" : "away.waiting.title");
    $("game-away-text").textContent = messageWords(shown);
  }
}
