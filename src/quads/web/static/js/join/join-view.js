// The join screen (#/join/TOKEN), where an invitation to an online game leads:
// who invites, the game's rules, its clock and the side one will play, and a button
// to take the free seat.  A player who holds a seat already goes straight to the game; a full
// game can still be watched; an unknown invitation says so.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { RULE_SETS, describeError, messageWords, rulesName } from "../names.js";
import { $, $button } from "../dom.js";
import { controlLong } from "../clocks.js";

export class JoinView {
  /** `onOpen(id, view)` shows the game (`view` when at hand). */
  constructor({ onOpen }) {
    this.onOpen = onOpen;
    this.token = null;
    this.invite = null; // {game, rules, calling, seat, joined}
    this.error = null; // a message {key, params}
    this.busy = false;
    /** @type {AbortController | null} withdraws the requests of the invitation shown */
    this.requests = null;
    $("join-button").addEventListener("click", () => this.join());
    $("join-watch").addEventListener("click", () => {
      if (this.invite) this.onOpen(this.invite.game, null);
    });
  }

  /** Show the invitation `token`. */
  async open(token) {
    this.close();
    this.token = token;
    this.invite = null;
    this.error = null;
    this.requests = new AbortController();
    const options = { signal: this.requests.signal };
    this.render();
    let invite;
    try {
      try {
        invite = await api.getInvite(token, { wait: false, ...options });
      } catch (error) {
        if (error.code !== "unreachable") throw error;
        // Joining needs the server: say so at once, and go on by itself once it answers.
        if (this.token !== token) return;
        this.error = { key: "join.offline", params: {} };
        this.render();
        invite = await api.getInvite(token, options);
        this.error = null;
      }
    } catch (error) {
      if (this.token !== token || error.code === "cancelled") return;
      this.error = describeError(error, { overrides: { not_found: "join.unknown" } });
      this.render();
      return;
    }
    if (this.token !== token) return;
    if (invite.joined) {
      this.close();
      this.onOpen(invite.game, null);
      return;
    }
    this.invite = invite;
    if (!invite.seat) this.error = { key: "join.full", params: {} };
    this.render();
    if (invite.seat) $("join-button").focus({ preventScroll: true });
  }

  /** The screen was left: nothing more is sent for it. */
  close() {
    if (this.requests) this.requests.abort();
    this.requests = null;
    this.token = null;
    this.invite = null;
  }

  async join() {
    const invite = this.invite;
    const token = this.token;
    const requests = this.requests; // there while an invitation shows
    if (!invite || !invite.seat || this.busy || !requests) return;
    this.busy = true;
    this.error = null;
    this.render();
    let view;
    try {
      view = await api.join(invite.game, token, { signal: requests.signal });
    } catch (error) {
      this.busy = false;
      if (this.token !== token || error.code === "cancelled") return;
      if (error.code === "seat_taken") this.invite = { ...invite, seat: null };
      else if (error.code === "bad_invite" || error.code === "not_found") this.invite = null;
      this.error = describeError(error, {
        overrides: { seat_taken: "join.full", bad_invite: "join.unknown", not_found: "join.unknown" },
      });
      this.render();
      return;
    }
    this.busy = false;
    if (this.token !== token) return;
    this.close();
    this.onOpen(view.id, view);
  }

  render() {
    if (this.token === null) return;
    const invite = this.invite;
    $("join-view").setAttribute("aria-busy", String(this.busy || (!invite && !this.error)));
    const status = $("join-status");
    status.textContent = !invite && !this.error ? t("join.loading") : "";
    status.hidden = !status.textContent;
    $("join-details").hidden = !invite;
    if (invite) {
      const host = $("join-host");
      host.textContent = invite.host ? t("join.host", { name: invite.host }) : "";
      host.hidden = !invite.host;
      $("join-rules").textContent = t("game.rules", { rules: rulesName(invite.rules) });
      const clock = invite.clock ? t("join.clock", { clock: controlLong(invite.clock, t) }) : t("join.no_clock");
      $("join-clock").textContent = invite.rated ? `${clock} ${t("join.rated")}` : clock;
      $("join-help").textContent = t(invite.safe_help ? "join.help.safe" : "join.help.none");
      const known = RULE_SETS.find((set) => set.rules === invite.rules);
      const text = $("join-rules-text");
      text.textContent = known ? t(`rules.${known.key}.text`) : "";
      text.hidden = !known;
      const side = $("join-side");
      side.textContent = invite.seat ? t(`join.side.${invite.seat}`) : "";
      side.hidden = !invite.seat;
    }
    const error = $("join-error");
    error.hidden = !this.error;
    error.textContent = this.error ? messageWords(this.error) : "";
    const button = $button("join-button");
    button.hidden = !invite || !invite.seat;
    button.disabled = this.busy;
    button.textContent = t(this.busy ? "join.joining" : "join.button");
    $("join-watch").hidden = !invite || Boolean(invite.seat);
  }
}
