// An opponent who left an online game during their turn (docs/web-api.md, "Clocks",
// Abandonment): once the view allows a claim (`abandon_after`, seconds), it is the
// opponent's turn and they have the game open nowhere, the page counts from the
// moment it saw them leave; after `abandon_after` seconds it offers "Claim the
// win" and "Claim a draw".  A claim refused as too early (409 not_abandoned with
// `retry_after`) shows the wait instead.  The panel goes as soon as they are back.

import { t } from "../i18n.js";
import { otherSide } from "../names.js";
import { $, $button } from "../dom.js";

export class AbandonPanel {
  constructor() {
    this.game = null;
    /** @type {number | null} performance.now() from which a claim may be made */
    this.readyAt = null;
    /** @type {number | undefined} the redrawing while the wait counts down */
    this.timer = undefined;
    this.busy = false;
  }

  /** Whether `view` is one whose opponent is away during their turn (and could be claimed). */
  static away(view) {
    if (!view || view.mode !== "online" || view.outcome || view.spectator || !view.you) return false;
    if (typeof view.abandon_after !== "number" || view.opponent_connected !== false) return false;
    const opponent = otherSide(view.you);
    if (view.to_move !== opponent) return false;
    // A first move not made in time aborts the game by itself: nothing to claim.
    return !(view.clock && view.clock.grace && view.clock.running === opponent);
  }

  /** Count from the moment `view` shows the opponent away during their turn; `busy`:
   * a request of the person is on its way.  The wait is drawn anew while it counts. */
  update(view, busy) {
    this.busy = busy;
    if (!view || view.id !== this.game) {
      this.game = view ? view.id : null;
      this.readyAt = null;
    }
    const away = AbandonPanel.away(view);
    if (!away) {
      this.readyAt = null;
      this.stop();
    } else if (this.readyAt === null) {
      this.readyAt = performance.now() + view.abandon_after * 1000;
    }
    if (away && !this.timer) this.timer = setInterval(() => this.draw(), 250);
  }

  /** The server says to wait `seconds` more. */
  wait(seconds) {
    if (this.readyAt === null) return;
    this.readyAt = performance.now() + Math.max(0, Number(seconds) || 0) * 1000;
    this.draw();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  close() {
    this.stop();
    this.game = null;
    this.readyAt = null;
    this.draw();
  }

  /** Draw the panel: the wait, or the claims once it is over. */
  draw() {
    const panel = $("abandon-panel");
    const readyAt = this.readyAt;
    panel.hidden = readyAt === null;
    if (readyAt === null) return;
    const seconds = Math.ceil((readyAt - performance.now()) / 1000);
    const ready = seconds <= 0;
    const text = `${t("abandon.away")} ${ready ? t("abandon.ready") : t("abandon.wait", { seconds })}`;
    if ($("abandon-text").textContent !== text) $("abandon-text").textContent = text;
    $("abandon-buttons").hidden = !ready;
    for (const id of ["abandon-win", "abandon-draw"]) $button(id).disabled = this.busy;
    if (ready) this.stop();
  }
}
