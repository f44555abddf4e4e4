// The game screen: board, piece in hand, supply, buttons, move list, end.
//
// The screen keeps no rules of its own.  It draws the GameView (docs/web-api.md)
// that the game's *source* answers and offers what the view allows: cells when a
// piece is to be placed, pieces when one is to be handed over, undo and redo when
// can_undo / can_redo.  Every action goes to the source, and whatever comes back
// is drawn again.  When the computer is to move, the screen asks the source to
// play its turn and shows that it is thinking meanwhile.  A source is a game kept
// by the server (game/server-game.js) or one that lives on this device
// (game/device-source.js); both answer the same views, refusals and advice.
//
// Every game shown is followed (the server's games live, live.js): a move made in
// another tab or, in an online game, on the other player's device appears at once.  Online,
// the page shows the invitation while a seat is free, who sits where and
// whether the opponent is connected, undo requests to accept or refuse, and
// "Play again" for both players; a spectator sees everything read-only.  A game
// with a clock shows both sides' time (game/clock-panel.js) and offers no undo;
// an opponent who left during their turn can be claimed against
// (game/abandon-panel.js).

import { Board, CELLS } from "../board.js";
import { AbandonPanel } from "./abandon-panel.js";
import { AnalysisSwitch } from "./analysis-switch.js";
import { AwayNotice } from "./away.js";
import { ClockPanel } from "./clock-panel.js";
import { renderEnd } from "./end-panel.js";
import { renderHand, renderLastMove, renderMoves, renderPrompt, renderTools } from "./panels.js";
import { placeRefusal } from "./refusal.js";
import { endResult, hintReason, hintTurn, turnText } from "./words.js";
import { currentLanguage, t } from "../i18n.js";
import { inviteBot, listBots } from "../api.js";
import {
  copyInvite, renderInvite, renderInviteBots, renderSeats, renderUndoRequest, shareInvite,
} from "./online-panels.js";
import { describeError, isPerson, levelName, messageWords, rulesName, waitingForOpponent } from "../names.js";
import { prefersReducedMotion, revealAll } from "../reveal.js";
import { playEnd, playPlaced, setSound, soundOn } from "../sound.js";
import { ReviewPanel } from "./review-panel.js";
import { Supply } from "../supply.js";
import { $, $button, $input } from "../dom.js";

const SAFE_KEY = "quads.showSafe";
const ANALYSE_KEY = "quads.analyse";
// The computer answers at once at low levels; a short pause lets a person see
// that it is the computer's turn before its move appears.
const MIN_THINKING_MS = 450;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const BOTS_EVERY = 10_000; // ms between two looks for the bots that may take a free seat

export class GameView {
  /**
   * `onRestart(settings)` starts a new game with the same settings;
   * `onMissing()` is called when the game does not exist (any more);
   * `onOpen(key, view)` shows another game (the next one after "Play again");
   * `onDeleted(id)` is called after the player deleted the game shown;
   * `sourceOf(key)` is (a promise of) the source of the game that `key` names (see
   * game/server-game.js), and `keyOf(source, id)` the key of game `id` of the same kind.
   */
  constructor({ onRestart, onMissing, onOpen, onDeleted, notify, sourceOf, keyOf }) {
    this.sourceOf = sourceOf;
    this.keyOf = keyOf;
    this.onRestart = onRestart;
    this.onMissing = onMissing;
    this.onOpen = onOpen;
    this.onDeleted = onDeleted;
    this.notify = notify;
    this.view = null;
    this.source = null; // the source of the game shown (or being loaded)
    this.opening = null; // the id of the game being loaded
    this.deferred = null; // a live view that came while the computer was thinking
    this.liveLost = false; // the live connection is lost and being made again
    this.liveOpen = false; // the live connection is open and has shown the game
    this.away = new AwayNotice(); // in place of a game that cannot be opened now
    this.confirming = null; // "resign" or "delete": the question "are you sure?" is shown
    this.announced = null; // the game and ply last announced to screen readers
    this.busy = false; // a request of the person is on its way
    this.bots = []; // the bots that may be offered the free seat (GET /api/bots)
    this.botsAsked = 0; // when they were last asked for (ms)
    this.thinking = false; // the computer's turn is on its way
    /** @type {{ key: string, params: object, action?: string } | null} a refusal or an error to show */
    this.message = null;
    this.arrived = null; // {cell, hand}: what was just played, to animate
    this.hint = null; // the server's advice: {action, place, give, value, plies, safe, reason_key, reason_params, shapes}
    this.showSafe = localStorage.getItem(SAFE_KEY) === "1";
    this.analysing = localStorage.getItem(ANALYSE_KEY) === "1";
    this.analysis = new AnalysisSwitch(() => this.render());
    this.clocks = new ClockPanel();
    this.abandon = new AbandonPanel({ claim: (draw) => this.claimAbandoned(draw) });

    this.board = new Board($("board"), (cell) => this.act({ action: "place", cell }));
    this.supply = new Supply($("supply"), (piece) => this.act({ action: "give", piece }));

    $("declare-button").addEventListener("click", () => this.act({ action: "declare" }));
    $("claim-button").addEventListener("click", () => this.act({ action: "claim" }));
    $("decline-button").addEventListener("click", () => this.act({ action: "decline" }));
    $("undo-button").addEventListener("click", () => this.history("undo"));
    $("redo-button").addEventListener("click", () => this.history("redo"));
    $("hint-button").addEventListener("click", () => this.askHint());
    $("restart-button").addEventListener("click", () => this.restart());
    $("play-again").addEventListener("click", () => this.playAgain());
    $("rematch-open").addEventListener("click", () => this.openRematch());
    this.review = new ReviewPanel();
    $("review-open").addEventListener("click", () => this.review.open(this.view, this.source));
    $("resign-button").addEventListener("click", () => this.ask("resign"));
    $("delete-button").addEventListener("click", () => this.ask("delete"));
    $("confirm-no").addEventListener("click", () => this.ask(null));
    $("confirm-yes").addEventListener("click", () => (this.confirming === "delete" ? this.remove() : this.resign()));
    $("undo-accept").addEventListener("click", () => this.answerUndo(true));
    $("undo-refuse").addEventListener("click", () => this.answerUndo(false));
    $("invite-copy").addEventListener("click", () => copyInvite(this.view, this.notify));
    $("invite-share").addEventListener("click", () => shareInvite(this.view));
    const invite = $input("invite-url");
    invite.addEventListener("focus", () => invite.select());
    const sound = $input("sound-toggle");
    sound.checked = soundOn();
    sound.addEventListener("change", () => setSound(sound.checked));
    this.rememberToggle("analyse-toggle", ANALYSE_KEY, "analysing");
    this.rememberToggle("safe-toggle", SAFE_KEY, "showSafe");
  }

  /** Tie checkbox `id` to this view's boolean `field`, remembered under `key`. */
  rememberToggle(id, key, field) {
    const toggle = $input(id);
    toggle.checked = this[field];
    toggle.addEventListener("change", () => {
      this[field] = toggle.checked;
      localStorage.setItem(key, toggle.checked ? "1" : "0");
      this.render();
    });
  }

  get id() {
    return this.view ? this.view.id : null;
  }

  /**
   * Show game `id`: load it from its source (or use `view` when it is at hand).  A
   * game kept by the server that cannot be reached now shows a notice that says so
   * (and what works meanwhile) until the server answers; then the game opens by
   * itself, unless the person went elsewhere meanwhile.
   */
  async open(id, view) {
    this.close();
    this.opening = id;
    this.deferred = null;
    this.message = null;
    this.hint = null;
    this.confirming = null;
    let source;
    try {
      source = await this.sourceOf(id);
    } catch (error) {
      if (this.opening !== id) return;
      this.opening = null;
      if (error.code === "not_found") this.onMissing();
      else this.away.failed(describeError(error));
      return;
    }
    if (this.opening !== id) {
      source.close();
      return;
    }
    this.source = source;
    if (!view) {
      try {
        view = await this.load(source);
      } catch (error) {
        if (this.opening !== id) return;
        this.opening = null;
        this.away.clear();
        if (error.code === "not_found") this.onMissing();
        else this.away.failed(describeError(error));
        return;
      }
    }
    if (this.opening !== id) return; // another game was opened meanwhile
    this.opening = null;
    this.key = id;
    this.away.clear();
    this.view = view;
    this.follow(source);
    this.render();
    // A game opens at its top, with the focus where the person acts: the keyboard
    // starts there, and the instruction and the piece in hand stay in view.  To
    // hand a piece over, a small screen shows the supply, whose heading then
    // says what to do.
    window.scrollTo(0, 0);
    if (!view.outcome && this.personToAct()) {
      if (view.step === "give" && view.supply.length) {
        this.supply.focus({ preventScroll: true });
      } else if (view.step === "place") {
        this.board.focus({ preventScroll: true });
      }
    }
    this.revealActing({ instant: true });
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
    this.bots = [];
    this.botsAsked = 0;
  }

  /** While a seat of the person's online game is free: ask which bots may take it,
   * at most every BOTS_EVERY ms; drawn when the answer comes. */
  askBots() {
    const view = this.view;
    if (!view || !view.invite || view.spectator || Date.now() - this.botsAsked < BOTS_EVERY) return;
    this.botsAsked = Date.now();
    const id = view.id;
    listBots({ wait: false }).then((answer) => {
      if (!this.view || this.view.id !== id) return;
      this.bots = answer.bots;
      this.render();
    }, () => {}); // unreachable: the link and the QR code still work
  }

  /** Offer the free seat to `bot`; its answer comes with the live view. */
  offerSeat(bot) {
    const id = this.view.id;
    this.send(() => inviteBot(id, bot.bot), "invite_bot", false);
  }

  // ---- following the game -----------------------------------------------------

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
        this.render();
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
    this.render();
    this.arrived = null;
    if (!changed) return;
    const myTurnNow = view.can_act && !before.can_act;
    const asked = view.undo_request && view.undo_request !== view.you && !before.undo_request;
    if ((view.outcome && !before.outcome) || myTurnNow || asked) this.revealActing();
    if (view.outcome && !before.outcome) $("end-title").focus({ preventScroll: true });
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

  // ---- actions ------------------------------------------------------------

  /** Send one action of the person to move; draw the answer. */
  act(action) {
    const placed = action.action === "place" ? action.cell : null;
    return this.send((source, revision) => source.act(revision, action), action.action, true, placed);
  }

  /** Undo or redo (`which`), then draw the answer. */
  history(which) {
    return this.send((source, revision) => source[which](revision), which, false);
  }

  /**
   * Make one changing request of the person, `request(source, revision)`, and draw
   * its answer; `what` names it for error messages, `focus` moves the focus to
   * the next step afterwards, `placed` is the cell where the person puts a
   * piece (it lands with a short animation).  An answer for a game left
   * meanwhile is dropped.
   */
  async send(request, what, focus, placed = null) {
    if (this.busy || this.thinking || !this.view) return;
    const id = this.id;
    const source = this.source;
    this.busy = true;
    this.message = null;
    this.hint = null;
    this.render();
    try {
      const view = await request(source, this.view.revision);
      if (source !== this.source) return;
      this.apply(view);
    } catch (error) {
      if (source === this.source) await this.handleError(error, what);
    } finally {
      if (source === this.source) this.busy = false; // else close() cleared it
    }
    if (id !== this.id) return;
    const landed = placed && this.view.board[CELLS.indexOf(placed)];
    if (landed) this.arrived = { cell: placed, hand: false };
    this.render();
    this.arrived = null;
    if (focus) this.moveFocus();
    else if (this.message) this.revealActing();
    this.continueComputer();
  }

  /** When the computer is to move, ask the source to play its turn. */
  async continueComputer() {
    const view = this.view;
    if (!view || view.outcome || !view.computer_to_move || this.thinking) return;
    const id = view.id;
    const source = this.source;
    this.thinking = true;
    this.render();
    this.revealActing();
    try {
      const [answer] = await Promise.all([this.source.computer(view.revision), sleep(MIN_THINKING_MS)]);
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
    this.render();
    this.arrived = null;
    if (this.view.outcome) $("end-title").focus({ preventScroll: true });
    else this.board.focus({ preventScroll: true });
    this.revealActing();
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

  showError(error) {
    if (error && error.code === "cancelled") return; // the screen left the game meanwhile
    this.message = describeError(error);
    this.render();
  }

  restart() {
    const { rules, mode, level, human } = this.view;
    this.onRestart(mode === "computer" ? { rules, mode, level, human } : { rules, mode });
  }

  /** "Play again": online, the next game with the same two players, sides swapped. */
  async playAgain() {
    const view = this.view;
    if (!view) return;
    if (view.mode !== "online") {
      this.restart();
      return;
    }
    if (this.busy) return;
    this.busy = true;
    this.render();
    try {
      const next = await this.source.rematch();
      this.busy = false;
      if (this.id === view.id) this.onOpen(this.keyOf(this.source, next.id), next);
    } catch (error) {
      this.busy = false;
      if (this.id !== view.id) return;
      await this.handleError(error, "rematch");
      this.render();
      this.revealActing();
    }
  }

  /** Open the game the other player started with "Play again". */
  openRematch() {
    if (this.view && this.view.rematch) this.onOpen(this.keyOf(this.source, this.view.rematch), null);
  }

  // ---- resigning, deleting and undo requests ------------------------------------------

  /** Ask "are you sure?" before `what` ("resign" or "delete"); null: ask nothing. */
  ask(what) {
    const before = this.confirming;
    this.confirming = what;
    this.render();
    if (what) $("confirm-no").focus();
    else if (before) $(`${before}-button`).focus();
  }

  async resign() {
    this.confirming = null;
    await this.send((source, revision) => source.resign(revision), "resign", true);
  }

  /** Delete the game (an online game nobody has joined yet, from its screen). */
  async remove() {
    const id = this.id;
    if (!id || this.busy) return;
    this.busy = true;
    this.render();
    const source = this.source;
    try {
      await source.remove(this.view.revision);
    } catch (error) {
      this.busy = false;
      if (this.id !== id) return;
      this.follow(source);
      this.confirming = null;
      await this.handleError(error, "delete");
      this.render();
      this.revealActing();
      return;
    }
    this.busy = false;
    if (this.id !== id) return;
    const key = this.key;
    this.close();
    this.onDeleted(key);
  }

  /** Claim the game whose opponent left during their turn: the win, or with `draw` a draw. */
  claimAbandoned(draw) {
    return this.send((source, revision) => source.claimAbandoned(revision, draw), "abandon", true);
  }

  answerUndo(accept) {
    return this.send((source, revision) => source.answerUndo(revision, accept), "undo_answer", false);
  }

  // ---- hints ----------------------------------------------------------------

  async askHint() {
    if (this.busy || this.thinking || !this.view || this.hintPending || this.view.mode === "online") return;
    // The advice takes up to a second: say at once that it is coming, by the button.
    this.hintPending = true;
    this.hint = null;
    this.render();
    const id = this.id;
    const source = this.source;
    const revision = this.view.revision;
    try {
      const hint = await source.hint(currentLanguage());
      // advice for a position that is gone (the game moved on meanwhile) is dropped
      if (this.id !== id || !this.view || this.view.revision !== revision) return;
      this.hint = hint;
      this.message = null;
    } catch (error) {
      if (source !== this.source) return;
      this.hintPending = false;
      await this.handleError(error, "hint");
      this.render();
      this.revealActing();
      return;
    } finally {
      if (source === this.source) this.hintPending = false; // else close() cleared it
    }
    this.render();
  }

  // ---- drawing ----------------------------------------------------------------

  /** The side to act now if it is a person at this screen, else null. */
  personToAct() {
    const view = this.view;
    if (!view || view.outcome || view.computer_to_move || !view.to_move || !view.can_act) return null;
    return isPerson(view, view.to_move) ? view.to_move : null;
  }

  render() {
    this.away.render();
    const view = this.view;
    if (!view) return;
    const person = this.personToAct();
    const idle = !this.busy && !this.thinking;
    const outcome = view.outcome;
    const online = view.mode === "online";

    $("game-view").setAttribute("aria-busy", String(!idle));
    // Whether actions go on the live socket now (else as requests).
    $("game-view").dataset.live = this.liveOpen ? "open" : "closed";
    $("game-view").classList.toggle("is-online", online);
    $("game-view").classList.toggle("is-spectator", Boolean(view.spectator));
    $("game-view").classList.toggle("is-waiting", waitingForOpponent(view));
    $("game-rules").textContent = t("game.rules", { rules: rulesName(view.rules) });
    let opponent;
    if (view.mode === "computer") opponent = t("game.opponent.computer", { level: levelName(view.level) });
    else if (online) opponent = t("game.opponent.online");
    else opponent = t("game.opponent.local");
    $("game-opponent").textContent = opponent;

    renderSeats(this.view, this.liveLost);
    // No four can be complete with fewer than four pieces down: no reminder before.
    renderPrompt(view, person, view.board.filter(Boolean).length >= 4);
    renderLastMove(view);
    this.noticeNewTurn();
    this.renderMessage();
    renderInvite(this.view);
    this.askBots();
    renderInviteBots(this.view, this.bots, (bot) => this.offerSeat(bot), this.busy);
    renderUndoRequest(this.view, this.busy);
    this.abandon.render(view, this.busy);

    // The board: free cells can be pressed when the person must place.
    const canPlace = Boolean(person) && view.step === "place" && idle;
    const last = view.last && view.last.place;
    const values = this.analysis.render(view, { on: this.analysing, person, idle, source: this.source });
    this.board.render(view.board, {
      canPlace,
      last: outcome ? null : last,
      winning: outcome ? outcome.cells || [] : [],
      arrived: this.arrived && !prefersReducedMotion() ? this.arrived.cell : null,
      hint: this.hint && this.hint.place,
      values: values && view.step === "place" ? values.cells : null,
    });
    $("board").classList.toggle("over", Boolean(outcome));

    renderHand(view, person, { thinking: this.thinking, arrived: this.arrived });

    // The supply: pieces can be pressed when the person must hand one over.
    const canGive = Boolean(person) && view.step === "give" && idle;
    const markSafe = this.showSafe && canGive;
    this.supply.render(view.supply, {
      canGive,
      safe: markSafe ? view.safe : null,
      hint: this.hint && this.hint.give,
      values: values && view.step === "give" ? values.pieces : null,
    });
    $("supply-empty").hidden = view.supply.length > 0;
    // The supply's heading says what to do when a piece is to be handed over:
    // on a phone the prompt is then scrolled away, above the board.
    const giving = Boolean(person) && view.step === "give" && view.supply.length > 0 && !outcome;
    $("supply-title").textContent = giving ? $("prompt").textContent : t("game.supply.title");
    const safeCount = $("safe-count");
    safeCount.hidden = !markSafe || view.supply.length === 0;
    if (markSafe) {
      const count = view.safe.length;
      const total = view.supply.length;
      safeCount.textContent = t(count === 0 ? "safe.none" : count === 1 ? "safe.one" : "safe.many", { count, total });
    }

    // Calling wins (declare rule sets).  The server says where a call may be made:
    // after every placement, whether or not there is something to call (noticing a
    // win is part of the game, and the server refuses a false call).
    const mayDeclare = Boolean(person) && view.declare_offered;
    const mayClaim = Boolean(person) && view.claim_offered;
    $("declare-button").hidden = !mayDeclare;
    $("claim-button").hidden = !mayClaim;
    $("decline-button").hidden = !(person && view.can_decline);
    for (const id of ["declare-button", "claim-button", "decline-button"]) $button(id).disabled = !idle;

    this.confirming = renderTools(view, {
      person, idle, hintPending: this.hintPending, confirming: this.confirming, source: this.source,
    });
    renderMoves(view);
    renderEnd(view, { review: this.review, busy: this.busy });
    this.clocks.render(view, person);
  }

  /**
   * React to a new turn: tell screen readers of it, the person's own included,
   * in the live region #announce (the board itself changes silently), and
   * sound it when sounds are on.  Opening a game does neither: its prompt
   * says where it stands.
   */
  noticeNewTurn() {
    const view = this.view;
    const seen = this.announced;
    const pieces = view.board.filter(Boolean).length;
    this.announced = { id: view.id, ply: view.ply, pieces };
    if (!seen || seen.id !== view.id || view.ply <= seen.ply) return;
    const text = turnText(view, true);
    if (text) $("announce").textContent = text;
    if (view.outcome) playEnd(endResult(view));
    else if (pieces > seen.pieces) playPlaced();
  }

  renderMessage() {
    const box = $("game-message");
    box.hidden = !this.message;
    if (this.message) placeRefusal(box, this.message.action);
    box.textContent = this.message ? messageWords(this.message) : "";
    // The hint shows by its button, where the player who asked for it looks.
    const hint = $("hint-box");
    let text = "";
    if (this.hintPending) text = t("hint.thinking");
    else if (!this.message && this.hint) text = `${hintTurn(this.hint)} ${hintReason(this.hint)}`.trim();
    hint.hidden = !text;
    hint.textContent = text;
    hint.classList.toggle("is-pending", Boolean(this.hintPending));
  }

  /** After the person acted: put the focus where the next step happens. */
  moveFocus() {
    if (this.view.outcome) {
      $("end-title").focus({ preventScroll: true });
      this.revealActing();
      return;
    }
    const person = this.personToAct();
    if (!person) {
      // The other player moves next (the computer's turn shows itself): what they
      // do shows above, by the prompt and the piece handed over.
      if (!this.view.computer_to_move) this.revealActing();
      return;
    }
    if (this.view.step === "give" && this.view.supply.length) {
      this.supply.focus({ preventScroll: true });
    } else if (this.view.step === "place") {
      this.board.focus({ preventScroll: true });
    }
    this.revealActing();
  }

  /**
   * On a small screen, scroll what the player must act on now into view
   * (`actingElements`); nothing moves when it is in view already.
   */
  revealActing({ instant = false } = {}) {
    if (this.view) revealAll(this.actingElements(), { screen: $("game-view"), instant });
  }

  /**
   * What the player must see now, the most important first: a refusal or an
   * error shown (by what was pressed: game/refusal.js); an undo request to
   * answer; an opponent who left, to claim against; at the end, the result; when a piece is to be handed over, the
   * calls offered ("Quarto!" with its reminder), the supply's heading (which
   * then says what the prompt says) and its pieces; else the prompt and the
   * piece in hand, with the claim when one is offered (or the computer
   * thinking), and the clocks above them.  (When a piece is to be handed over,
   * the player's own time shows by the supply's heading.)
   */
  actingElements() {
    const view = this.view;
    const asked = [$("game-message"), $("undo-panel"), $("abandon-panel")].filter((element) => !element.hidden);
    if (view.outcome) return [...asked, $("end-title"), $("end-reason"), $("end-panel")];
    if (this.personToAct() && view.step === "give" && view.supply.length) {
      const piece = $("supply").querySelector("button.playable");
      return [...asked, $("call-buttons"), $("supply-title"), piece, $("supply")];
    }
    // The clocks stand above the prompt: in view with it whenever they fit.
    return [...asked, $("prompt"), $("hand-area"), $("clocks")];
  }
}

