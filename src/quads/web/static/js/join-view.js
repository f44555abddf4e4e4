// The join screen (#/join/TOKEN), where an invitation to an online game leads:
// the game's rules and the side one will play, and a button to take the free
// seat.  A player who holds a seat already goes straight to the game; a full
// game can still be watched; an unknown invitation says so.

import * as api from "./api.js";
import { has, t } from "./i18n.js";
import { RULE_SETS, rulesName } from "./names.js";

const $ = (id) => document.getElementById(id);

export class JoinView {
  /** `onOpen(id, view)` shows the game (`view` when at hand). */
  constructor({ onOpen }) {
    this.onOpen = onOpen;
    this.token = null;
    this.invite = null; // {game, rules, calling, seat, joined}
    this.error = null; // a catalogue key
    this.busy = false;
    $("join-button").addEventListener("click", () => this.join());
    $("join-watch").addEventListener("click", () => {
      if (this.invite) this.onOpen(this.invite.game, null);
    });
  }

  /** Show the invitation `token`. */
  async open(token) {
    this.token = token;
    this.invite = null;
    this.error = null;
    this.render();
    let invite;
    try {
      invite = await api.getInvite(token);
    } catch (error) {
      if (this.token !== token) return;
      this.error = error.code === "not_found" ? "join.unknown" : errorKey(error);
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
    if (!invite.seat) this.error = "join.full";
    this.render();
    if (invite.seat) $("join-button").focus({ preventScroll: true });
  }

  close() {
    this.token = null;
    this.invite = null;
  }

  async join() {
    const invite = this.invite;
    const token = this.token;
    if (!invite || !invite.seat || this.busy) return;
    this.busy = true;
    this.error = null;
    this.render();
    let view;
    try {
      view = await api.join(invite.game, token);
    } catch (error) {
      this.busy = false;
      if (this.token !== token) return;
      if (error.code === "seat_taken") {
        this.invite = { ...invite, seat: null };
        this.error = "join.full";
      } else if (error.code === "bad_invite" || error.code === "not_found") {
        this.invite = null;
        this.error = "join.unknown";
      } else {
        this.error = errorKey(error);
      }
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
      $("join-rules").textContent = t("game.rules", { rules: rulesName(invite.rules) });
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
    error.textContent = this.error ? t(this.error) : "";
    const button = $("join-button");
    button.hidden = !invite || !invite.seat;
    button.disabled = this.busy;
    button.textContent = t(this.busy ? "join.joining" : "join.button");
    $("join-watch").hidden = !invite || Boolean(invite.seat);
  }
}

function errorKey(error) {
  const key = error instanceof api.ApiError ? `error.${error.code}` : "error.unknown";
  return has(key) ? key : "error.unknown";
}
