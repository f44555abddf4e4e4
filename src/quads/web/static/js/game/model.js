// The game screen's model: the game shown, what is on its way, and every change of
// them.  It opens a game through its *source* (a game kept by the server,
// game/server-game.js, or one on this device, game/device-source.js: both answer the
// same views, refusals and advice), follows it live and asks the source to play the
// computer's turn; the person's actions are the controller's (game/controller.js).
// The screen (game/game-view.js) draws what the model holds.  After each change,
// `changed()` brings about what follows from it (the news of a new turn, the bots
// asked for while a seat is free, the analysis asked for, the clocks ticking, a
// question or a review no longer wanted) and has the screen drawn anew.

import { t } from "../i18n.js";
import { describeError, isPerson } from "../names.js";
import { AbandonPanel } from "./abandon-panel.js";
import { TalkPanel } from "./talk-panel.js";
import { MoveHistory } from "./move-history.js";
import { AnalysisSwitch } from "./analysis-switch.js";
import { AwayNotice } from "./away.js";
import { BotsOffer } from "./bots-offer.js";
import { ClockPanel } from "./clock-panel.js";
import { allowedQuestion } from "./panels.js";
import { ReviewPanel } from "./review-panel.js";
import { TurnNews } from "./turn-news.js";
import { EventBanner } from "../tournaments/banner.js";

const SAFE_KEY = "quads.showSafe";
const ANALYSE_KEY = "quads.analyse";
// The computer answers at once at low levels; a short pause lets a person see
// that it is the computer's turn before its move appears.
const MIN_THINKING_MS = 450;

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * What the model and the controller ask of the screen that shows the game.
 * @typedef {object} Screen
 * @property {() => void} render draw the game as the model holds it
 * @property {() => void} focusOpened the focus where the person acts in a game just opened
 * @property {() => void} moveFocus after the person acted: the focus where the next step happens
 * @property {() => void} focusEnd the focus on the end of the game
 * @property {() => void} focusBoard the focus on the board
 * @property {(what: string | null, before: string | null) => void} focusQuestion the focus
 *   on the question "are you sure?" just asked, or back on its button
 * @property {(options?: { instant?: boolean }) => void} revealActing bring what the
 *   person must act on now into view
 */

export class GameModel {
  /**
   * `onRestart(settings)` starts a new game with the same settings;
   * `onMissing()` is called when the game does not exist (any more);
   * `onOpen(key, view)` shows another game (the next one after "Play again");
   * `onDeleted(key)` is called after the player deleted the game shown;
   * `notify(text)` shows a short notice;
   * `sourceOf(key)` is (a promise of) the source of the game that `key` names (see
   * game/server-game.js), and `keyOf(source, id)` the key of game `id` of the same kind;
   * `screen` draws (Screen).
   */
  constructor({ onRestart, onMissing, onOpen, onDeleted, notify, sourceOf, keyOf, screen }) {
    this.sourceOf = sourceOf;
    this.keyOf = keyOf;
    this.onRestart = onRestart;
    this.onMissing = onMissing;
    this.onOpen = onOpen;
    this.onDeleted = onDeleted;
    this.notify = notify;
    /** @type {Screen} */
    this.screen = screen;
    this.view = null;
    this.key = null; // the key of the game shown
    this.source = null; // the source of the game shown (or being loaded)
    this.opening = null; // the key of the game being loaded
    this.deferred = null; // a live view that came while the computer was thinking
    this.liveLost = false; // the live connection is lost and being made again
    this.liveOpen = false; // the live connection is open and has shown the game
    /** @type {string | null} "resign" or "delete": the question "are you sure?" is shown */
    this.confirming = null;
    this.busy = false; // a request of the person is on its way
    this.thinking = false; // the computer's turn is on its way
    this.hintPending = false; // the advice asked for is on its way
    /** @type {{ key: string, params: object, action?: string } | null} a refusal or an error to show */
    this.message = null;
    /** @type {{ cell: string, hand: boolean } | null} what was just played, to animate */
    this.arrived = null;
    this.hint = null; // the advice: {action, place, give, value, plies, safe, reason_key, reason_params, shapes}
    this.showSafe = localStorage.getItem(SAFE_KEY) === "1";
    this.analysing = localStorage.getItem(ANALYSE_KEY) === "1";
    this.away = new AwayNotice(); // in place of a game that cannot be opened now
    this.clocks = new ClockPanel();
    this.abandon = new AbandonPanel();
    this.talk = new TalkPanel(() => this.screen.render());
    this.moves = new MoveHistory(() => this.screen.render()); // the move the board shows
    this.watchers = 0; // how many watch the online game shown (its live socket says)
    this.analysis = new AnalysisSwitch(() => this.changed());
    this.review = new ReviewPanel();
    this.bots = new BotsOffer(() => this.changed());
    this.news = new TurnNews();
    // A game a tournament paired: its banner, and the player's next game of it.
    this.event = new EventBanner((id) => this.onOpen(id, null));
  }

  get id() {
    return this.view ? this.view.id : null;
  }

  /** The side to act now if it is a person at this screen, else null. */
  personToAct() {
    const view = this.view;
    if (!view || view.outcome || view.computer_to_move || !view.to_move || !view.can_act) return null;
    return isPerson(view, view.to_move) ? view.to_move : null;
  }

  /** No request of the person and no computer's turn is on its way. */
  get idle() {
    return !this.busy && !this.thinking;
  }

  /**
   * Show the safe pieces (`showSafe`) or the analysis (`analysing`), or not; remembered.
   * @param {"showSafe" | "analysing"} field
   * @param {boolean} on
   */
  setPreference(field, on) {
    if (field === "showSafe") this.showSafe = on;
    else this.analysing = on;
    localStorage.setItem(field === "showSafe" ? SAFE_KEY : ANALYSE_KEY, on ? "1" : "0");
    this.changed();
  }

  /**
   * Bring about what follows from the state (the news of a new turn, the bots of a free
   * seat, the analysis, the clocks and the wait to claim, a question or a review no longer
   * wanted), then have the screen drawn.
   */
  changed() {
    const view = this.view;
    if (view) {
      this.news.notice(view);
      this.bots.ask(view);
      this.confirming = allowedQuestion(view, this.confirming);
      const person = this.personToAct();
      this.analysis.update(view, { on: this.analysing, person, idle: this.idle, source: this.source });
      this.clocks.update(view, person);
      this.abandon.update(view, this.busy);
      this.event.update(view);
      if (!view.outcome || (this.review.game && this.review.game !== view.id)) this.review.close();
    }
    this.screen.render();
  }

  // ---- opening and following a game ---------------------------------------------

  /**
   * Show game `key`: load it from its source (or use `view` when it is at hand).  A
   * game kept by the server that cannot be reached now shows a notice that says so
   * (and what works meanwhile) until the server answers; then the game opens by
   * itself, unless the person went elsewhere meanwhile.
   */
  async open(key, view) {
    this.close();
    this.opening = key;
    this.deferred = null;
    this.message = null;
    this.hint = null;
    this.confirming = null;
    let source;
    try {
      source = await this.sourceOf(key);
    } catch (error) {
      if (this.opening !== key) return;
      this.opening = null;
      if (error.code === "not_found") this.onMissing();
      else this.away.failed(describeError(error));
      return;
    }
    if (this.opening !== key) {
      source.close();
      return;
    }
    this.source = source;
    if (!view) {
      try {
        view = await this.load(source);
      } catch (error) {
        if (this.opening !== key) return;
        this.opening = null;
        this.away.clear();
        if (error.code === "not_found") this.onMissing();
        else this.away.failed(describeError(error));
        return;
      }
    }
    if (this.opening !== key) return; // another game was opened meanwhile
    this.opening = null;
    this.key = key;
    this.away.clear();
    this.view = view;
    this.follow(source);
    this.changed();
    this.screen.focusOpened();
    this.screen.revealActing({ instant: true });
    this.continueComputer();
  }

  /** The game's view from `source`: at once, or, when the server cannot be reached,
   * once it can (the screen says meanwhile that the game waits for it). */
  async load(source) {
    try {
      return await source.load({ wait: false });
    } catch (error) {
      if (error.code !== "unreachable") throw error;
    }
    if (this.source === source) this.away.waiting(true);
    return source.load();
  }

  /** Forget the game (the screen was left) and stop following it. */
  close() {
    if (this.source) this.source.close();
    this.source = null;
    this.key = null;
    this.view = null;
    this.opening = null;
    // Whatever was on its way for the game left is dropped (its source is closed).
    this.busy = false;
    this.thinking = false;
    this.hintPending = false;
    this.liveLost = false;
    this.liveOpen = false;
    this.away.clear();
    this.clocks.close();
    this.abandon.close();
    this.event.close();
    this.talk.close();
    this.moves.close();
    this.watchers = 0;
    this.bots.clear();
  }

  follow(source) {
    const id = source.id;
    source.follow({
      shown: () => (this.view && this.view.id === id ? this.view.revision : null),
      onView: (view) => this.receive(view),
      onGone: () => {
        if (this.id !== id) return;
        this.close();
        this.onMissing();
      },
      onState: (connected) => {
        if (this.id !== id) return;
        this.liveLost = !connected;
        this.liveOpen = connected;
        this.changed();
      },
      onTalk: (lines) => {
        if (this.id === id) this.talk.heard(id, lines);
      },
      onWatchers: (count) => {
        if (this.id !== id || this.watchers === count) return;
        this.watchers = count;
        this.screen.render();
      },
    });
  }

  /** A view pushed by the server: a change made elsewhere, or a player came or left. */
  receive(view) {
    const before = this.view;
    if (!before || view.id !== before.id || view.revision < before.revision) return;
    if (this.thinking) {
      // The computer's turn is on its way: its answer comes with this view's
      // news, after the pause that shows the computer thinking.
      this.deferred = view;
      return;
    }
    const changed = view.revision > before.revision;
    this.view = view;
    if (changed) {
      this.hint = null;
      if (!this.busy) this.message = null;
      const last = view.last;
      const theirs = last && view.mode === "online" && last.player !== view.you;
      if (theirs && view.ply > before.ply) this.arrived = { cell: last.place, hand: Boolean(last.give) };
      this.noticeUndoAnswer(before, view);
    }
    this.changed();
    this.arrived = null;
    if (!changed) return;
    const myTurnNow = view.can_act && !before.can_act;
    const asked = (view.undo_request && view.undo_request !== view.you && !before.undo_request)
      || (view.draw_offer && view.draw_offer !== view.you && !before.draw_offer);
    if ((view.outcome && !before.outcome) || myTurnNow || asked) this.screen.revealActing();
    if (view.outcome && !before.outcome) this.screen.focusEnd();
  }

  /** The requester learns whether the opponent accepted the undo. */
  noticeUndoAnswer(before, view) {
    if (view.mode !== "online" || !view.you || this.busy) return; // busy: cleared by our own action
    if (before.undo_request !== view.you || view.undo_request !== null) return;
    this.notify(t(view.ply < before.ply ? "undo.accepted" : "undo.refused"));
  }

  /** Take an answer of the server, unless a newer view came meanwhile. */
  apply(view) {
    if (this.view && this.view.id === view.id && view.revision < this.view.revision) return;
    this.view = view;
  }

  // ---- the computer's turn, and refusals -------------------------------------------

  /** When the computer is to move, ask the source to play its turn. */
  async continueComputer() {
    const view = this.view;
    if (!view || view.outcome || !view.computer_to_move || this.thinking) return;
    const id = view.id;
    const source = this.source;
    this.thinking = true;
    this.changed();
    this.screen.revealActing();
    try {
      const [answer] = await Promise.all([source.computer(view.revision), sleep(MIN_THINKING_MS)]);
      if (id !== this.id) return;
      this.apply(answer);
      const last = answer.last;
      this.arrived = last ? { cell: last.place, hand: Boolean(last.give) } : null;
    } catch (error) {
      if (id !== this.id) return;
      await this.handleError(error, "computer");
    } finally {
      if (source === this.source) this.thinking = false; // else close() cleared it
    }
    if (id !== this.id) return;
    const deferred = this.deferred;
    this.deferred = null;
    if (deferred && deferred.id === id) this.apply(deferred);
    this.changed();
    this.arrived = null;
    if (this.view.outcome) this.screen.focusEnd();
    else this.screen.focusBoard();
    this.screen.revealActing();
    // After a reload the computer may still be to move (another tab, a restart).
    if (this.view.computer_to_move && !this.view.outcome) this.continueComputer();
  }

  /** A refusal: reload the view when it was stale, else explain it. */
  async handleError(error, action) {
    if (error && error.code === "cancelled") return; // the screen left the game meanwhile
    if (!error || typeof error.code !== "string") {
      console.error(error);
      this.message = describeError(error);
      return;
    }
    if (error.code === "stale" || error.code === "not_your_turn") {
      this.apply(await this.source.load());
      this.notify(t("net.stale"));
      return;
    }
    if (error.code === "not_found") {
      this.onMissing();
      return;
    }
    // A claim made too early: the panel shows how much longer to wait.
    if (error.code === "not_abandoned" && error.params && error.params.retry_after !== undefined) {
      this.abandon.wait(error.params.retry_after);
    }
    this.message = { ...describeError(error, { action }), action };
  }
}
