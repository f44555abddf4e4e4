// The game screen: board, piece in hand, supply, buttons, move list, end.
//
// The page keeps no rules of its own.  It draws the GameView the server sent
// (docs/web-api.md) and offers what the view allows: cells when a piece is to
// be placed, pieces when one is to be handed over, undo and redo when
// can_undo / can_redo.  Every action goes to the server, and whatever comes
// back is drawn again.  When the computer is to move, the page asks the server
// to play its turn and shows that it is thinking meanwhile.
//
// Every game shown is followed live (live.js): a move made in another tab or,
// in an online game, on the other player's device appears at once.  Online,
// the page shows the invitation while a seat is free, who sits where and
// whether the opponent is connected, undo requests to accept or refuse, and
// "Play again" for both players; a spectator sees everything read-only.

import * as api from "./api.js";
import { Board, CELLS } from "./board.js";
import { currentLanguage, has, t } from "./i18n.js";
import { LiveGame } from "./live.js";
import { copyInvite, renderInvite, renderSeats, renderUndoRequest, shareInvite } from "./online-panels.js";
import {
  isPerson,
  joinList,
  levelName,
  otherSide,
  playerName,
  rulesName,
  shapeName,
  traitWords,
  waitingForOpponent,
} from "./names.js";
import { pieceLabel, pieceSvg } from "./pieces.js";
import { prefersReducedMotion, revealTop as revealPrompt, revealWhole } from "./reveal.js";
import { playEnd, playPlaced, setSound, soundOn } from "./sound.js";
import { ReviewPanel } from "./review-panel.js";
import { Supply } from "./supply.js";
import { valueWords, valuesByTarget } from "./turn-values.js";

const SAFE_KEY = "quads.showSafe";
const ANALYSE_KEY = "quads.analyse";
// The computer answers at once at low levels; a short pause lets a person see
// that it is the computer's turn before its move appears.
const MIN_THINKING_MS = 450;

const $ = (id) => document.getElementById(id);

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * On a small screen, scroll back up to the prompt when it is out of view, so
 * that the player sees what happens next (the computer thinking, the piece
 * handed to them).
 */
function revealTop() {
  revealPrompt($("prompt"), $("game-view"));
}

export class GameView {
  /**
   * `onRestart(settings)` starts a new game with the same settings;
   * `onMissing()` is called when the game does not exist (any more);
   * `onOpen(id, view)` shows another game (the next one after "Play again");
   * `onDeleted(id)` is called after the player deleted the game shown.
   */
  constructor({ onRestart, onMissing, onOpen, onDeleted, notify }) {
    this.onRestart = onRestart;
    this.onMissing = onMissing;
    this.onOpen = onOpen;
    this.onDeleted = onDeleted;
    this.notify = notify;
    this.view = null;
    this.opening = null; // the id of the game being loaded
    this.live = null; // the live connection of the game shown
    this.deferred = null; // a live view that came while the computer was thinking
    this.liveLost = false; // the live connection is lost and being made again
    this.confirming = null; // "resign" or "delete": the question "are you sure?" is shown
    this.announced = null; // the game and ply last announced to screen readers
    this.busy = false; // a request of the person is on its way
    this.thinking = false; // the computer's turn is on its way
    this.message = null; // {key, params}: a refusal or an error to show
    this.arrived = null; // {cell, hand}: what was just played, to animate
    this.hint = null; // the server's advice: {action, place, give, value, plies, safe, reason}
    this.showSafe = localStorage.getItem(SAFE_KEY) === "1";
    this.analysing = localStorage.getItem(ANALYSE_KEY) === "1";
    this.analysis = null; // {key, values, body} of the position shown, or {key} while asked

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
    $("review-open").addEventListener("click", () => this.review.open(this.view));
    $("resign-button").addEventListener("click", () => this.ask("resign"));
    $("delete-button").addEventListener("click", () => this.ask("delete"));
    $("confirm-no").addEventListener("click", () => this.ask(null));
    $("confirm-yes").addEventListener("click", () => (this.confirming === "delete" ? this.remove() : this.resign()));
    $("undo-accept").addEventListener("click", () => this.answerUndo(true));
    $("undo-refuse").addEventListener("click", () => this.answerUndo(false));
    $("invite-copy").addEventListener("click", () => copyInvite(this.view, this.notify));
    $("invite-share").addEventListener("click", () => shareInvite(this.view));
    $("invite-url").addEventListener("focus", (event) => event.target.select());
    const sound = $("sound-toggle");
    sound.checked = soundOn();
    sound.addEventListener("change", () => setSound(sound.checked));
    this.rememberToggle("analyse-toggle", ANALYSE_KEY, "analysing");
    this.rememberToggle("safe-toggle", SAFE_KEY, "showSafe");
  }

  /** Tie checkbox `id` to this view's boolean `field`, remembered under `key`. */
  rememberToggle(id, key, field) {
    const toggle = $(id);
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

  /** Show game `id`: load it from the server (or use `view` when it is at hand). */
  async open(id, view = null) {
    this.close();
    this.opening = id;
    this.deferred = null;
    this.message = null;
    this.hint = null;
    this.confirming = null;
    if (!view) {
      try {
        view = await api.getGame(id);
      } catch (error) {
        if (this.opening !== id) return;
        this.opening = null;
        if (error.code === "not_found") this.onMissing();
        else this.showError(error);
        return;
      }
    }
    if (this.opening !== id) return; // another game was opened meanwhile
    this.opening = null;
    this.view = view;
    this.follow(id);
    this.render();
    // A game opens at its top, with the focus where the person acts: the keyboard
    // starts there, and the instruction and the piece in hand stay in view.  To
    // hand a piece over, a small screen shows the supply, whose heading then
    // says what to do.
    window.scrollTo(0, 0);
    if (!view.outcome && this.personToAct()) {
      if (view.step === "give" && view.supply.length) {
        this.supply.focus({ preventScroll: true });
        revealWhole($("supply-area"), { instant: true });
      } else if (view.step === "place") {
        this.board.focus({ preventScroll: true });
      }
    }
    this.continueComputer();
  }

  /** Forget the game (the screen was left) and stop following it. */
  close() {
    this.view = null;
    this.opening = null;
    this.liveLost = false;
    if (this.live) this.live.close();
    this.live = null;
  }

  // ---- live updates ---------------------------------------------------------

  follow(id) {
    this.live = new LiveGame(id, {
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
    if ((view.outcome && !before.outcome) || myTurnNow || asked) revealTop();
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
    return this.send((id, revision) => api.act(id, revision, action), action.action, true, placed);
  }

  /** Undo or redo (`which`), then draw the answer. */
  history(which) {
    return this.send((id, revision) => (which === "undo" ? api.undo : api.redo)(id, revision), which, false);
  }

  /**
   * Make one changing request of the person, `request(id, revision)`, and draw
   * its answer; `what` names it for error messages, `focus` moves the focus to
   * the next step afterwards, `placed` is the cell where the person puts a
   * piece (it lands with a short animation).  An answer for a game left
   * meanwhile is dropped.
   */
  async send(request, what, focus, placed = null) {
    if (this.busy || this.thinking || !this.view) return;
    const id = this.id;
    this.busy = true;
    this.message = null;
    this.hint = null;
    this.render();
    try {
      const view = await request(id, this.view.revision);
      if (id !== this.id) return;
      this.apply(view);
    } catch (error) {
      await this.handleError(error, what);
    } finally {
      this.busy = false;
    }
    if (id !== this.id) return;
    const landed = placed && this.view.board[CELLS.indexOf(placed)];
    if (landed) this.arrived = { cell: placed, hand: false };
    this.render();
    this.arrived = null;
    if (focus) this.moveFocus();
    this.continueComputer();
  }

  /** When the computer is to move, ask the server to play its turn. */
  async continueComputer() {
    const view = this.view;
    if (!view || view.outcome || !view.computer_to_move || this.thinking) return;
    const id = view.id;
    this.thinking = true;
    this.render();
    revealTop();
    try {
      const [answer] = await Promise.all([api.computerTurn(id, view.revision), sleep(MIN_THINKING_MS)]);
      if (id !== this.id) return;
      this.apply(answer);
      const last = answer.last;
      this.arrived = last ? { cell: last.place, hand: Boolean(last.give) } : null;
    } catch (error) {
      if (id !== this.id) return;
      await this.handleError(error, "computer");
    } finally {
      this.thinking = false;
    }
    if (id !== this.id) return;
    const deferred = this.deferred;
    this.deferred = null;
    if (deferred && deferred.id === id) this.apply(deferred);
    this.render();
    this.arrived = null;
    if (this.view.outcome) $("end-title").focus({ preventScroll: true });
    else this.board.focus({ preventScroll: true });
    // After a reload the computer may still be to move (another tab, a restart).
    if (this.view.computer_to_move && !this.view.outcome) this.continueComputer();
  }

  /** A refusal: reload the view when it was stale, else explain it. */
  async handleError(error, action) {
    if (!(error instanceof api.ApiError)) {
      console.error(error);
      this.message = { key: "error.unknown" };
      return;
    }
    if (error.code === "stale" || error.code === "not_your_turn") {
      this.apply(await api.getGame(this.id));
      this.notify(t("net.stale"));
      return;
    }
    if (error.code === "not_found") {
      this.onMissing();
      return;
    }
    const specific = `error.${error.code}.${action}`;
    this.message = { key: has(specific) ? specific : `error.${error.code}` };
    if (!has(this.message.key)) this.message = { key: "error.unknown" };
  }

  showError(error) {
    this.message = { key: has(`error.${error.code}`) ? `error.${error.code}` : "error.unknown" };
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
      const next = await api.rematch(view.id);
      this.busy = false;
      if (this.id === view.id) this.onOpen(next.id, next);
    } catch (error) {
      this.busy = false;
      if (this.id !== view.id) return;
      await this.handleError(error, "rematch");
      this.render();
    }
  }

  /** Open the game the other player started with "Play again". */
  openRematch() {
    if (this.view && this.view.rematch) this.onOpen(this.view.rematch, null);
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
    await this.send((id, revision) => api.resign(id, revision), "resign", true);
  }

  /** Delete the game (an online game nobody has joined yet, from its screen). */
  async remove() {
    const id = this.id;
    if (!id || this.busy) return;
    this.busy = true;
    this.render();
    // Stop following first: the server tells the game's sockets that it is gone.
    if (this.live) this.live.close();
    this.live = null;
    try {
      await api.deleteGame(id);
    } catch (error) {
      this.busy = false;
      if (this.id !== id) return;
      // A repeated request after a lost connection finds the game gone: deleted all the same.
      if (!(error instanceof api.ApiError && error.code === "not_found")) {
        this.follow(id);
        this.confirming = null;
        await this.handleError(error, "delete");
        this.render();
        return;
      }
    }
    this.busy = false;
    if (this.id !== id) return;
    this.close();
    this.onDeleted(id);
  }

  answerUndo(accept) {
    return this.send((id, revision) => api.answerUndo(id, revision, accept), "undo_answer", false);
  }

  // ---- hints ----------------------------------------------------------------

  async askHint() {
    if (this.busy || this.thinking || !this.view || this.hintPending) return;
    // The advice takes up to a second: say at once that it is coming, by the button.
    this.hintPending = true;
    this.hint = null;
    this.render();
    const id = this.id;
    const revision = this.view.revision;
    try {
      const hint = await api.hint(id, currentLanguage());
      // advice for a position that is gone (the game moved on meanwhile) is dropped
      if (this.id !== id || !this.view || this.view.revision !== revision) return;
      this.hint = hint;
      this.message = null;
    } catch (error) {
      this.hintPending = false;
      this.showError(error);
      return;
    } finally {
      this.hintPending = false;
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
    const view = this.view;
    if (!view) return;
    const person = this.personToAct();
    const idle = !this.busy && !this.thinking;
    const boardHasPieces = view.board.some(Boolean);
    const calling = view.calling === "declare";
    const outcome = view.outcome;
    const online = view.mode === "online";

    $("game-view").setAttribute("aria-busy", String(!idle));
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
    this.renderPrompt(person, calling, view.board.filter(Boolean).length >= 4);
    this.renderLastMove();
    this.noticeNewTurn();
    this.renderMessage();
    renderInvite(this.view);
    renderUndoRequest(this.view, this.busy);

    // The board: free cells can be pressed when the person must place.
    const canPlace = Boolean(person) && view.step === "place" && idle;
    const last = view.last && view.last.place;
    const values = this.renderAnalysis(person);
    this.board.render(view.board, {
      canPlace,
      last: outcome ? null : last,
      winning: outcome ? outcome.cells || [] : [],
      arrived: this.arrived && !prefersReducedMotion() ? this.arrived.cell : null,
      hint: this.hint && this.hint.place,
      values: values && view.step === "place" ? values.cells : null,
    });
    $("board").classList.toggle("over", Boolean(outcome));

    this.renderHand(person);

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

    // Calling wins (declare rule sets).  The buttons are offered to the person
    // after every placement, whether or not there is something to call:
    // noticing a win is part of the game, and the server refuses a false call.
    const mayDeclare = calling && person && view.step === "give" && boardHasPieces;
    const mayClaim = calling && person && view.step === "place" && boardHasPieces;
    $("declare-button").hidden = !mayDeclare;
    $("claim-button").hidden = !mayClaim;
    $("decline-button").hidden = !(person && view.can_decline);
    for (const id of ["declare-button", "claim-button", "decline-button"]) $(id).disabled = !idle;

    this.renderTools(person, idle);
    this.renderMoves();
    this.renderEnd();
  }

  renderTools(person, idle) {
    const view = this.view;
    const online = view.mode === "online";
    const seated = !view.spectator;
    $("undo-button").hidden = !seated;
    $("undo-label").textContent = t(online ? "action.undo.ask" : "action.undo");
    $("undo-button").disabled = !idle || !view.can_undo;
    $("redo-button").hidden = online;
    $("redo-button").disabled = !idle || !view.can_redo;
    $("hint-button").hidden = !seated;
    $("hint-button").disabled = !idle || !person || Boolean(this.hintPending);
    $("hint-button").setAttribute("aria-busy", String(Boolean(this.hintPending)));
    $("restart-button").hidden = online;
    // Resigning, and deleting an online game nobody joined, ask "are you sure?" first.
    const deletable = Boolean(view.invite);
    if ((this.confirming === "resign" && !view.can_resign) || (this.confirming === "delete" && !deletable)) {
      this.confirming = null;
    }
    const resign = $("resign-button");
    resign.hidden = !view.can_resign;
    resign.disabled = !idle || this.confirming !== null;
    const remove = $("delete-button");
    remove.hidden = !deletable;
    remove.disabled = !idle || this.confirming !== null;
    const confirm = $("confirm-panel");
    confirm.hidden = !this.confirming;
    if (this.confirming === "resign") {
      const loser = view.mode === "local" ? view.to_move : view.you;
      const winner = playerName(view, otherSide(loser));
      $("confirm-question").textContent =
        view.mode === "local"
          ? t("resign.confirm.player", { player: playerName(view, loser), winner })
          : t("resign.confirm", { winner });
      $("confirm-yes").textContent = t("resign.yes");
      $("confirm-no").textContent = t("resign.no");
    } else if (this.confirming === "delete") {
      $("confirm-question").textContent = t("delete.confirm");
      $("confirm-yes").textContent = t("delete.yes");
      $("confirm-no").textContent = t("delete.no");
    }
    $("confirm-yes").disabled = !idle;
    const link = $("export-link");
    link.href = api.recordUrl(view.id);
    link.setAttribute("download", `quads-${view.id}.qds`);
  }

  renderPrompt(person, calling, fourDown) {
    const boardHasPieces = this.view.board.some(Boolean);
    const view = this.view;
    const prompt = $("prompt");
    const extra = $("prompt-extra");
    let text;
    let more = null;
    if (view.outcome) {
      text = t("prompt.over");
    } else if (waitingForOpponent(view)) {
      text = t(view.spectator ? "prompt.waiting.watch" : "prompt.waiting");
    } else if (!person) {
      if (view.mode !== "online") {
        text = t("prompt.computer_turn"); // the hand shows that it is thinking
      } else {
        const mover = view.to_move;
        const who = { player: playerName(view, mover), other: playerName(view, otherSide(mover)) };
        const form = view.spectator ? "watch" : "wait";
        text = t(view.step === "place" ? `prompt.${form}.place` : `prompt.${form}.give`, who);
      }
    } else {
      const who = { player: playerName(view, person), other: playerName(view, otherSide(person)) };
      const form = { local: "player", online: "online" }[view.mode] || "you";
      if (view.step === "place") {
        text = t(form === "player" ? "prompt.place.player" : "prompt.place.you", who);
        if (calling && fourDown) more = t("prompt.place.claim");
      } else if (view.supply.length === 0) {
        text = t("prompt.decline");
      } else {
        text = t(boardHasPieces ? `prompt.give.${form}` : `prompt.give.first.${form}`, who);
        if (calling && fourDown) more = t("prompt.give.declare");
      }
    }
    prompt.textContent = text;
    extra.hidden = !more;
    extra.textContent = more || "";
  }

  renderLastMove() {
    const text = turnText(this.view, false);
    const box = $("last-move");
    box.hidden = !text;
    box.textContent = text || "";
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
    box.textContent = this.message ? t(this.message.key, this.message.params) : "";
    // The hint shows by its button, where the player who asked for it looks.
    const hint = $("hint-box");
    let text = "";
    if (this.hintPending) text = t("hint.thinking");
    else if (!this.message && this.hint) text = `${hintTurn(this.hint)} ${this.hint.reason}`.trim();
    hint.hidden = !text;
    hint.textContent = text;
    hint.classList.toggle("is-pending", Boolean(this.hintPending));
  }

  renderHand(person) {
    const view = this.view;
    const hand = $("hand");
    const caption = $("hand-caption");
    hand.replaceChildren();
    hand.classList.remove("arrived", "empty");
    $("thinking").hidden = !this.thinking;
    if (view.hand) {
      hand.append(pieceSvg(view.hand));
      hand.setAttribute("aria-label", pieceLabel(view.hand));
      const holder = view.to_move;
      if (isPerson(view, holder) && view.mode !== "local") caption.textContent = t("game.hand.yours");
      else if (view.mode === "computer") caption.textContent = t("game.hand.computer");
      else if (view.mode === "online" && view.you) caption.textContent = t("game.hand.opponent");
      else caption.textContent = t("game.hand.player", { player: playerName(view, holder) });
      if (this.arrived && this.arrived.hand && !prefersReducedMotion()) hand.classList.add("arrived");
    } else {
      hand.classList.add("empty");
      hand.setAttribute("aria-label", t("game.hand.empty"));
      caption.textContent = person && view.supply.length ? t("game.hand.empty") : "";
    }
    caption.hidden = !caption.textContent;
  }

  renderMoves() {
    const moves = this.view.moves;
    const list = $("moves");
    const rows = [];
    for (let i = 0; i < moves.length; i += 2) {
      const item = document.createElement("li");
      item.textContent = moves.slice(i, i + 2).join("  ");
      rows.push(item);
    }
    list.replaceChildren(...rows);
    $("moves-empty").hidden = moves.length > 0;
  }

  renderEnd() {
    const view = this.view;
    const outcome = view.outcome;
    const panel = $("end-panel");
    panel.hidden = !outcome;
    $("game-view").classList.toggle("is-over", Boolean(outcome));
    // The review: offered once the game is over, dropped when another game shows.
    $("review-open").hidden = !view.outcome;
    if (!view.outcome || (this.review.game && this.review.game !== view.id)) this.review.close();
    else if (!$("review-panel").hidden) this.review.render(view);
    if (!outcome) return;
    const winner = outcome.winner;
    const online = view.mode === "online";
    let title;
    if (!winner) title = t("end.draw");
    else if (online && view.you) title = t(winner === view.you ? "end.you_won" : "end.you_lost");
    else if (view.mode !== "computer") title = t("end.player_wins", { player: playerName(view, winner) });
    else title = t(winner === view.human ? "end.you_win" : "end.computer_wins");
    $("end-title").textContent = title;

    const me = online ? view.you : view.mode === "computer" ? view.human : null;
    let reason;
    if (!winner || outcome.reason === "full-board") {
      reason = t("end.full_board");
    } else if (outcome.reason === "resignation") {
      const loser = otherSide(winner);
      reason = loser === me ? t("end.resignation.you") : t("end.resignation.they", { who: playerName(view, loser) });
    } else {
      const shapes = joinList((outcome.shapes || []).map(shapeName));
      reason = t(`end.${outcome.reason}.${winner === me ? "you" : "they"}`, {
        who: playerName(view, winner),
        shapes,
      });
    }
    $("end-reason").textContent = reason;
    const shared = $("end-shared");
    const traits = outcome.traits || [];
    shared.hidden = !winner || traits.length === 0;
    // With one shape, all four pieces share every trait named; with several,
    // each shape shares at least one of them.
    const several = (outcome.shapes || []).length > 1;
    shared.textContent = traits.length
      ? t(several ? "end.shared_several" : "end.shared", { traits: traitWords(traits) })
      : "";

    // Online, "Play again" starts the next game for both; once one of them
    // did, the other is offered to join it (a spectator, to watch it).
    const rematch = online ? view.rematch : null;
    const offer = $("rematch-offer");
    offer.hidden = !rematch;
    if (rematch) offer.textContent = t(view.spectator ? "rematch.watch.text" : "rematch.text");
    const open = $("rematch-open");
    open.hidden = !rematch;
    open.textContent = t(view.spectator ? "rematch.watch" : "rematch.join");
    const again = $("play-again");
    again.hidden = Boolean(rematch) || (online && view.spectator);
    again.disabled = this.busy;
  }

  /**
   * The analysis switch: offered in games on this device and against the
   * computer (not online, where it would help one side).  While it is on and a
   * person is to act, every legal turn is marked with its value; the analysis
   * of each position is asked once.  The marks by target, or null.
   */
  renderAnalysis(person) {
    const view = this.view;
    const offered = view.mode !== "online";
    $("analyse-switch").hidden = !offered;
    const box = $("analysis-box");
    const active = offered && this.analysing && Boolean(person) && !this.busy && !this.thinking;
    box.hidden = !active;
    if (!active) return null;
    const key = `${view.id}:${view.revision}`;
    if (!this.analysis || this.analysis.key !== key) {
      this.analysis = { key };
      this.fetchAnalysis(key, view);
    }
    const { body, values, failed } = this.analysis;
    box.setAttribute("aria-busy", String(!body && !failed));
    if (failed) {
      $("analysis-value").textContent = t("analysis.failed");
      $("analysis-note").textContent = "";
      return null;
    }
    if (!body) {
      $("analysis-value").textContent = t("analysis.thinking");
      $("analysis-note").textContent = "";
      return null;
    }
    const words = valueWords(body);
    $("analysis-value").textContent = view.mode === "computer"
      ? t("analysis.position.you", { value: words })
      : t("analysis.position.player", { player: playerName(view, person), value: words });
    $("analysis-note").textContent = body.complete ? t("analysis.legend") : `${t("analysis.legend")} ${t("analysis.partial")}`;
    return values;
  }

  async fetchAnalysis(key, view) {
    let body = null;
    try {
      body = await api.analysis(view.position, view.rules);
    } catch {
      body = null;
    }
    if (!this.analysis || this.analysis.key !== key) return; // the game moved on meanwhile
    this.analysis = body ? { key, body, values: valuesByTarget(body.moves) } : { key, failed: true };
    this.render();
  }

  /** After the person acted: put the focus where the next step happens. */
  moveFocus() {
    if (this.view.outcome) {
      revealTop();
      $("end-title").focus({ preventScroll: true });
      return;
    }
    const person = this.personToAct();
    if (!person) return;
    if (this.view.step === "give" && this.view.supply.length) {
      this.supply.focus({ preventScroll: true });
      revealWhole($("supply-area"));
    } else if (this.view.step === "place") {
      revealTop();
      this.board.focus({ preventScroll: true });
    }
  }
}

/** How the end sounds to the person: "win", "loss" or "draw". */
function endResult(view) {
  const winner = view.outcome.winner;
  if (!winner) return "draw";
  const person = view.mode === "online" ? view.you : view.mode === "computer" ? view.human : null;
  return person && winner !== person ? "loss" : "win";
}

/**
 * The last turn of `view` in words, or null.  Shown on the screen (`announce`
 * false): the turns the person did not make themselves and did not see made
 * on their own screen.  Announced (`announce` true): every turn.
 */
function turnText(view, announce) {
  const last = view.last;
  if (!last || view.outcome) return null;
  const piece = last.piece && pieceLabel(last.piece);
  const give = last.give && pieceLabel(last.give);
  const cell = last.place;
  if (view.mode === "computer" && !isPerson(view, last.player)) {
    if (last.claimed) return t("last.computer.claimed");
    if (last.declared) return t("last.computer.declared", { piece, cell });
    if (cell && give) return t("last.computer.place_give", { piece, cell, give });
    if (give) return t("last.computer.give", { give });
    if (cell) return t("last.computer.place", { piece, cell });
    return null;
  }
  const own = view.mode === "computer" || (view.mode === "online" && last.player === view.you);
  if (own) {
    if (!announce) return null; // the person knows what they just did
    if (last.declared) return t("last.you.declared", { piece, cell });
    if (cell && give) return t("last.you.place_give", { piece, cell, give });
    if (give) return t("last.you.give", { give });
    if (cell) return t("last.you.place", { piece, cell });
    return null;
  }
  const player = playerName(view, last.player);
  if (cell && give) return t("last.player.place_give", { player, piece, cell, give });
  if (give) return t("last.player.give", { player, give });
  if (cell && announce) return t("last.player.place", { player, piece, cell });
  return null;
}

/** The suggested turn of a hint, in words ("" when the advice is to call or claim). */
function hintTurn(hint) {
  // a call, a claim, or a winning placement: the reason itself says what to do
  if (hint.action || (hint.place && !hint.give && hint.value === "win" && hint.plies === 1)) return "";
  const piece = hint.give && pieceLabel(hint.give);
  if (hint.place && piece) return t("hint.turn", { cell: hint.place, piece });
  if (hint.place) return t("hint.place", { cell: hint.place });
  return t("hint.give", { piece });
}
