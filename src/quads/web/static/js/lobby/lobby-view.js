// The lobby (#/lobby): where strangers meet (docs/web-api.md, "The lobby").
//
// It shows the player's name (and changes it), "Play now" (quick pairing: a rule
// set and a clock; the game opens at once when a seek of the same rules and clock
// waits, else this player's seek waits, with a button to cancel it), a form to
// offer a game (rules, clock, side), and the open seeks, live (lobby-live.js):
// each with its rules, clock, seeker's name and how long it has waited, to
// accept, or to withdraw one's own.  When a seek of this player is taken, the
// lobby socket says "paired" and the game opens at once.  Names come from other
// players: they are only ever set as text.  The clock tiles of "Play now" are
// quick-play.js's, the lines of the open seeks seeks.js's.

import * as api from "../api.js";
import * as account from "../account/state.js";
import { ClockChoice } from "../clock-choice.js";
import { controlWords, formatWaited, presetClock } from "../clocks.js";
import { $, $button, $input, $select, keepingFocus } from "../dom.js";
import { currentLanguage, t } from "../i18n.js";
import { RULE_SETS, describeError, messageWords, rulesName } from "../names.js";
import { LobbyLive } from "./lobby-live.js";
import { OwnRatings, RatedChoice } from "./rated-choice.js";
import { buildTiles, renderTiles } from "./quick-play.js";
import { seekItem } from "./seeks.js";
import { WatchList } from "./watch-list.js";

const RULES_KEY = "quads.lobby.rules";
/** How long the page waits for "paired" after its waiting seek went, before it gives up waiting. */
const GONE_GRACE_MS = 2000;

export class LobbyView {
  /** `onOpen(id, view)` opens a game that started (view: its GameView, or null). */
  constructor({ onOpen }) {
    this.onOpen = onOpen;
    this.live = null;
    this.shown = false;
    this.me = undefined; // the player's name; null: no player yet; undefined: not known yet
    this.anonymous = true; // the lobby socket was opened before the browser was a player
    this.seeks = [];
    this.connected = false;
    this.waiting = null; // the seek of "Play now" that waits for an opponent
    /** @type {number | undefined} the waiting seek went, "paired" may still come */
    this.waitingGone = undefined;
    this.leaving = null; // the id of the game being opened
    this.busy = false;
    this.skew = 0; // ms the server's time is ahead of this device's, as far as seen
    this.errors = new Map(); // an error box -> the message {key, params} it shows
    this.editing = false;
    /** @type {number | undefined} the seeks' waiting times, counted every second */
    this.ticker = undefined;
    this.language = null; // the language the choices were built in

    this.quickRules = $select("quick-rules");
    this.offerRules = $select("offer-rules");
    this.offerClock = new ClockChoice($select("offer-clock"), $("offer-custom"), {
      prefix: "offer",
      onChange: () => this.clearError($("offer-error")),
    });
    const rules = localStorage.getItem(RULES_KEY) || "quads";
    for (const select of [this.quickRules, this.offerRules]) {
      select.addEventListener("change", () => localStorage.setItem(RULES_KEY, select.value));
      select.dataset.initial = rules;
    }
    buildTiles((name) => this.playNow(name));
    this.own = new OwnRatings();
    this.watching = new WatchList();
    this.quickRated = new RatedChoice("quick", this.own);
    this.offerRated = new RatedChoice("offer", this.own, () => this.clearError($("offer-error")));

    $("me-change").addEventListener("click", () => this.edit(true));
    $("me-cancel").addEventListener("click", () => this.edit(false));
    $("me-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.rename();
    });
    $("quick-cancel").addEventListener("click", () => this.cancelWaiting());
    $("offer-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.offer();
    });
    // Signed in or out meanwhile: one's ratings are another account's, or none.
    account.onChange(() => this.shown && this.own.load().then(() => this.shown && this.render()));
    window.addEventListener("online", () => this.shown && this.render());
    window.addEventListener("offline", () => this.shown && this.render());
  }

  // ---- opening and closing ------------------------------------------------------

  async open() {
    if (this.shown) return;
    this.shown = true;
    this.leaving = null;
    this.seeks = [];
    this.connected = false;
    this.render();
    this.live = new LobbyLive({
      onSeeks: (seeks) => this.receive(seeks),
      onPaired: (message) => this.paired(message.game),
      onState: (connected) => {
        this.connected = connected;
        this.render();
      },
    });
    clearInterval(this.ticker);
    this.ticker = setInterval(() => this.tick(), 1000);
    this.watching.open();
    await Promise.all([this.loadMe(), this.own.load()]);
    if (this.shown) this.render();
  }

  /** The screen was left: stop following the lobby (a seek left open goes after a few seconds). */
  close() {
    if (!this.shown) return;
    this.shown = false;
    this.watching.close();
    if (this.live) this.live.close();
    this.live = null;
    clearInterval(this.ticker);
    clearTimeout(this.waitingGone);
    this.waiting = null;
    this.busy = false;
    this.editing = false;
    this.errors.clear();
  }

  async loadMe() {
    try {
      const answer = await api.getMe({ wait: false });
      this.me = answer.name;
      this.anonymous = this.me === null;
    } catch {
      this.me = undefined;
    }
    this.render();
  }

  /** After a request that made this browser a player: its name, and a socket that is its own. */
  async becamePlayer() {
    if (!this.anonymous) return;
    this.anonymous = false;
    if (this.live) this.live.renew();
    await this.loadMe();
  }

  // ---- what the lobby socket says ---------------------------------------------------

  receive(seeks) {
    for (const seek of seeks) this.skew = Math.max(this.skew, Date.parse(seek.created) - Date.now() || 0);
    const before = this.seeks;
    this.seeks = seeks;
    if (this.waiting && before.some((seek) => seek.id === this.waiting.id)
        && !seeks.some((seek) => seek.id === this.waiting.id)) {
      // Taken ("paired" follows at once) or dropped: wait a moment for the game.
      clearTimeout(this.waitingGone);
      this.waitingGone = setTimeout(() => {
        this.waiting = null;
        if (this.shown) this.render();
      }, GONE_GRACE_MS);
    }
    this.renderList();
  }

  paired(game) {
    if (!this.shown || this.leaving) return;
    this.leaving = game;
    this.onOpen(game, null);
  }

  // ---- acting ---------------------------------------------------------------------

  /** Run `task` as the player's request, its refusal shown in `box`. */
  async act(box, task, overrides = {}) {
    if (this.busy) return;
    this.busy = true;
    this.clearError(box);
    this.render();
    try {
      await task();
    } catch (error) {
      if (error && error.code !== "cancelled") this.errors.set(box, describeError(error, { overrides }));
    } finally {
      this.busy = false;
    }
    if (this.shown) this.render();
  }

  async playNow(name) {
    if (this.waiting) return;
    await this.act($("quick-error"), async () => {
      const rules = this.quickRules.value;
      const clock = presetClock(name);
      const body = { rules, clock, ...this.quickRated.body(rules, clock) };
      const answer = await api.pairing(body, { wait: false });
      await this.becamePlayer();
      if (answer.game) this.started(answer.game);
      else this.waiting = answer.seek;
    });
    if (this.waiting) $("quick-cancel").focus();
  }

  async cancelWaiting() {
    const seek = this.waiting;
    if (!seek) return;
    await this.act($("quick-error"), async () => {
      try {
        await api.withdrawSeek(seek.id, { wait: false });
      } catch (error) {
        if (error.code !== "not_found") throw error; // gone already: nothing to cancel
      }
      this.waiting = null;
      this.seeks = this.seeks.filter((known) => known.id !== seek.id);
      this.renderList();
    });
  }

  async offer() {
    const { clock, error } = this.offerClock.value();
    if (error) {
      this.errors.set($("offer-error"), { key: error, params: {} });
      this.render();
      return;
    }
    const side = new FormData(/** @type {HTMLFormElement} */ ($("offer-form"))).get("side") || "random";
    $("offer-done").hidden = true;
    await this.act($("offer-error"), async () => {
      const rules = this.offerRules.value;
      await api.openSeek({ rules, clock, side, ...this.offerRated.body(rules, clock) }, { wait: false });
      await this.becamePlayer();
      $("offer-done").hidden = false;
    });
  }

  async accept(seek) {
    await this.act($("seeks-error"), async () => {
      try {
        const view = await api.acceptSeek(seek.id, { wait: false });
        await this.becamePlayer();
        this.started(view);
      } catch (error) {
        if (error.code === "seek_gone") {
          this.seeks = this.seeks.filter((known) => known.id !== seek.id);
          this.renderList();
        }
        throw error;
      }
    });
  }

  async withdraw(seek) {
    await this.act($("seeks-error"), async () => {
      try {
        await api.withdrawSeek(seek.id, { wait: false });
      } catch (error) {
        if (error.code !== "not_found") throw error;
      }
      this.seeks = this.seeks.filter((known) => known.id !== seek.id);
      this.renderList();
    });
  }

  /** A game started by this page's request: open it. */
  started(view) {
    if (this.leaving) return;
    this.leaving = view.id;
    this.onOpen(view.id, view);
  }

  edit(editing) {
    this.editing = editing;
    this.clearError($("me-error"));
    this.render();
    if (editing) {
      const input = $input("me-input");
      input.value = this.me || "";
      input.focus();
    } else {
      $("me-change").focus();
    }
  }

  async rename() {
    const name = $input("me-input").value.trim();
    await this.act($("me-error"), async () => {
      const answer = await api.rename(name, { wait: false });
      this.me = answer.name;
      this.editing = false;
      await this.becamePlayer();
    }, { bad_request: "lobby.name.invalid" });
    if (!this.editing && this.shown) $("me-change").focus();
  }

  clearError(box) {
    this.errors.delete(box);
    box.hidden = true;
  }

  // ---- drawing ----------------------------------------------------------------------

  /** Whether the lobby can work now (the server answers). */
  online() {
    return navigator.onLine && api.reachable();
  }

  render() {
    const online = this.online();
    $("lobby-offline").hidden = online;
    if (this.language !== currentLanguage()) {
      // The choices, in the page's language (rebuilt only when it changes).
      this.language = currentLanguage();
      for (const select of [this.quickRules, this.offerRules]) fillRules(select);
      this.offerClock.render();
    }

    // The player's name.
    const name = $("me-name");
    if (this.me) name.textContent = t("lobby.name.is", { name: this.me });
    else name.textContent = this.me === null ? t("lobby.name.none") : "";
    $("me-change").hidden = this.editing || !this.me;
    $("me-form").hidden = !this.editing;
    for (const element of /** @type {NodeListOf<HTMLButtonElement | HTMLInputElement>} */ (
      $("me-form").querySelectorAll("button, input"))) element.disabled = this.busy;

    // Play now, and its waiting seek.
    renderTiles(this.busy || !online || Boolean(this.waiting));
    this.quickRules.disabled = Boolean(this.waiting);
    $("quick-waiting").hidden = !this.waiting;
    $("quick-clocks").hidden = Boolean(this.waiting);
    $button("quick-cancel").disabled = this.busy;
    this.renderWaiting();

    this.quickRated.render(this.busy);
    $("quick-rated-box").hidden = Boolean(this.waiting);
    this.offerRated.render(this.busy);
    $button("offer-button").disabled = this.busy || !online;
    this.renderList();
    for (const [box, message] of this.errors) {
      box.textContent = messageWords(message);
      box.hidden = false;
    }
  }

  renderWaiting() {
    if (!this.waiting) return;
    const seek = this.waiting;
    $("quick-waiting-text").textContent = t("lobby.waiting.text", {
      rules: rulesName(seek.rules),
      clock: controlWords(seek.clock, t),
      time: formatWaited(this.waited(seek)),
    });
  }

  /** How long `seek` has waited, in ms (by the server's time, as far as it is known). */
  waited(seek) {
    return Date.now() + this.skew - Date.parse(seek.created);
  }

  /** The open seeks: rebuilt when they change, keeping the focus where it was. */
  renderList() {
    const list = $("seeks-list");
    const status = $("seeks-status");
    if (!this.connected) status.textContent = t(this.online() ? "lobby.list.connecting" : "lobby.list.offline");
    else status.textContent = this.seeks.length ? "" : t("lobby.list.empty");
    status.hidden = !status.textContent;
    const state = {
      busy: this.busy,
      online: this.online(),
      waited: (seek) => this.waited(seek),
      withdraw: (seek) => this.withdraw(seek),
      accept: (seek) => this.accept(seek),
      admits: (seek) => this.own.admits(seek),
    };
    keepingFocus(list, () => list.replaceChildren(...this.seeks.map((seek) => seekItem(seek, state))));
  }

  /** Every second: how long each seek has waited. */
  tick() {
    for (const span of /** @type {NodeListOf<HTMLElement>} */ ($("seeks-list").querySelectorAll(".seek-waited"))) {
      span.textContent = formatWaited(Date.now() + this.skew - Date.parse(String(span.dataset.created)));
    }
    this.renderWaiting();
  }
}

/** The rule sets as options of `select` (in the page's language), keeping its choice. */
function fillRules(select) {
  const chosen = select.value || select.dataset.initial || "quads";
  const options = RULE_SETS.map(({ rules }) => {
    const option = document.createElement("option");
    option.value = rules;
    option.textContent = rulesName(rules);
    return option;
  });
  select.replaceChildren(...options);
  select.value = RULE_SETS.some(({ rules }) => rules === chosen) ? chosen : "quads";
}
