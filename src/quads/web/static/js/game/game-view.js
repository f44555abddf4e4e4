// The game screen: board, piece in hand, supply, buttons, move list, end.
//
// The screen keeps no rules of its own.  It draws the GameView (docs/web-api.md)
// that the game's *source* answers and offers what the view allows: cells when a
// piece is to be placed, pieces when one is to be handed over, undo and redo when
// can_undo / can_redo.  What the person presses goes to the controller
// (game/controller.js), which sends it to the source and holds what comes back
// (game/model.js); render() then draws it, and only draws.  A source is a game kept
// by the server (game/server-game.js) or one that lives on this device
// (game/device-source.js); both answer the same views, refusals and advice.
//
// Every game shown is followed (the server's games live, live.js): a move made in
// another tab or, in an online game, on the other player's device appears at once.
// Online, the page shows the invitation while a seat is free, who sits where and
// whether the opponent is connected, undo requests to accept or refuse, and
// "Play again" for both players; a spectator sees everything read-only.  A game
// with a clock shows both sides' time (game/clock-panel.js) and offers no undo;
// an opponent who left during their turn can be claimed against
// (game/abandon-panel.js).

import { Board } from "../board.js";
import { $, $button, $input } from "../dom.js";
import { t } from "../i18n.js";
import { levelName, messageWords, rulesName, waitingForOpponent } from "../names.js";
import { prefersReducedMotion, revealAll } from "../reveal.js";
import { PromptEcho } from "../prompt-echo.js";
import { setSound, soundOn } from "../sound.js";
import { Supply } from "../supply.js";
import { GameController } from "./controller.js";
import { renderEnd } from "./end-panel.js";
import { GameModel } from "./model.js";
import {
  copyInvite, renderDrawOffer, renderInvite, renderInviteBots, renderSeats, renderUndoRequest, shareInvite,
} from "./online-panels.js";
import { renderHand, renderLastMove, renderMoves, renderPrompt, renderTools } from "./panels.js";
import { placeRefusal } from "./refusal.js";
import { hintReason, hintTurn } from "./words.js";

export class GameView {
  /**
   * The game screen; `options` are the model's (see game/model.js): onRestart,
   * onMissing, onOpen, onDeleted, notify, sourceOf and keyOf.
   */
  constructor(options) {
    /** The game shown, drawn by render(). */
    this.game = new GameModel({ ...options, screen: this });
    const game = this.game;
    /** What the person presses goes to the controller. */
    this.controller = new GameController(game);
    const act = this.controller;
    this.board = new Board($("board"), (cell) => act.act({ action: "place", cell }));
    this.supply = new Supply($("supply"), (piece) => act.act({ action: "give", piece }));
    this.supplyTitle = new PromptEcho($("supply-title"), $("prompt"));

    /** @type {[string, () => unknown][]} */
    const buttons = [
      ["declare-button", () => act.call("declare")],
      ["claim-button", () => act.call("claim")],
      ["decline-button", () => act.act({ action: "decline" })],
      ["undo-button", () => act.history("undo")],
      ["redo-button", () => act.history("redo")],
      ["hint-button", () => act.askHint()],
      ["restart-button", () => act.restart()],
      ["play-again", () => act.playAgain()],
      ["rematch-open", () => act.openRematch()],
      ["review-open", () => act.openReview()],
      ["resign-button", () => act.ask("resign")],
      ["delete-button", () => act.ask("delete")],
      ["confirm-no", () => act.ask(null)],
      ["confirm-yes", () => act.confirm()],
      ["draw-button", () => act.offerDraw()],
      ["draw-accept", () => act.answerDraw(true)],
      ["draw-decline", () => act.answerDraw(false)],
      ["undo-accept", () => act.answerUndo(true)],
      ["undo-refuse", () => act.answerUndo(false)],
      ["abandon-win", () => act.claimAbandoned(false)],
      ["abandon-draw", () => act.claimAbandoned(true)],
      ["invite-copy", () => copyInvite(game.view, game.notify)],
      ["moves-back", () => game.moves.step(-1)],
      ["moves-forward", () => game.moves.step(1)],
      ["moves-live", () => game.moves.show(null)],
      ["history-live", () => game.moves.show(null)],
      ["history-back", () => game.moves.step(-1)],
      ["history-forward", () => game.moves.step(1)],
      ["invite-share", () => shareInvite(game.view)],
    ];
    for (const [id, press] of buttons) $(id).addEventListener("click", press);
    // In the moves list: a move shows the board after it; ← and → step through them.
    $("moves").addEventListener("click", (event) => {
      const target = /** @type {HTMLElement} */ (event.target);
      const button = target.closest("button[data-move]");
      if (!(button instanceof HTMLElement)) return;
      game.moves.show(Number(button.dataset.move));
      // The board the move shows, and its steps, come into view (on a phone they are
      // above the list: the steps at the top, the board under them; on a wide screen
      // the board beside them); stepping by the keys stays in the list.
      const banner = $("history-banner");
      const board = $("board");
      if (banner.getBoundingClientRect().bottom <= board.getBoundingClientRect().top + 1) {
        banner.scrollIntoView({ block: "start" });
      } else {
        board.scrollIntoView({ block: "nearest" });
      }
    });
    $("moves-box").addEventListener("keydown", (event) => {
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      event.preventDefault();
      game.moves.step(event.key === "ArrowLeft" ? -1 : 1);
    });
    const invite = $input("invite-url");
    invite.addEventListener("focus", () => invite.select());
    const sound = $input("sound-toggle");
    sound.checked = soundOn();
    sound.addEventListener("change", () => setSound(sound.checked));
    /** @type {[string, "analysing" | "showSafe"][]} */
    const toggles = [["analyse-toggle", "analysing"], ["safe-toggle", "showSafe"]];
    for (const [id, field] of toggles) {
      const toggle = $input(id);
      toggle.checked = game[field];
      toggle.addEventListener("change", () => game.setPreference(field, toggle.checked));
    }
  }

  /** The key of the game shown (null: none). */
  get key() {
    return this.game.key;
  }

  /** Show game `key` (with its `view` when it is at hand). */
  open(key, view) {
    return this.game.open(key, view);
  }

  /** Open the review of the game shown, if it is over. */
  openReview() {
    const view = this.game.view;
    if (view && view.outcome) this.controller.openReview();
  }

  /** The screen was left: forget the game. */
  close() {
    this.game.close();
  }

  // ---- drawing ----------------------------------------------------------------

  /** Draw the game as the model holds it (after a change, and in another language). */
  render() {
    const game = this.game;
    game.away.render();
    const view = game.view;
    if (!view) return;
    const person = game.personToAct();
    const idle = game.idle;
    const outcome = view.outcome;
    const online = view.mode === "online";

    const screen = $("game-view");
    screen.setAttribute("aria-busy", String(!idle));
    // Whether actions go on the live socket now (else as requests).
    screen.dataset.live = game.liveOpen ? "open" : "closed";
    screen.classList.toggle("is-online", online);
    screen.classList.toggle("is-spectator", Boolean(view.spectator));
    screen.classList.toggle("is-waiting", waitingForOpponent(view));
    $("game-rules").textContent = t("game.rules", { rules: rulesName(view.rules) });
    let opponent;
    if (view.mode === "computer") opponent = t("game.opponent.computer", { level: levelName(view.level) });
    else if (online) opponent = t("game.opponent.online");
    else opponent = t("game.opponent.local");
    // Between two accounts, whether the result changes their ratings.
    if (online && view.names && view.names.first_account && view.names.second_account) {
      opponent += ` · ${t(view.rated ? "game.rated" : "game.casual")}`;
    }
    $("game-opponent").textContent = opponent;
    const watchers = $("game-watchers");
    const watched = online && game.watchers > 0;
    watchers.hidden = !watched;
    watchers.textContent = watched ? ` · ${t(game.watchers === 1 ? "game.watchers.one" : "game.watchers.many", { count: game.watchers })}` : "";

    game.event.render();
    renderSeats(view, game.liveLost, game.talk.said(view));
    game.talk.render(view);
    // No four can be complete with fewer than four pieces down: no reminder before.
    renderPrompt(view, person, view.board.filter(Boolean).length >= 4);
    renderLastMove(view);
    this.renderMessage();
    renderInvite(view);
    renderInviteBots(view, game.bots.bots, (bot) => this.controller.offerSeat(bot), game.busy);
    renderUndoRequest(view, game.busy);
    renderDrawOffer(view, game.busy);
    game.abandon.draw();

    // The board: free cells can be pressed when the person must place.
    const canPlace = Boolean(person) && view.step === "place" && idle;
    const last = view.last && view.last.place;
    const values = game.analysis.render(view, { on: game.analysing, person, idle });
    const hint = game.hint;
    const arrived = game.arrived;
    game.moves.follow(view);
    const past = game.moves.at === null ? null : game.moves.boards[game.moves.at];
    if (past) {
      // An earlier move chosen in the list: the board as it was then, nothing to press.
      this.board.render(past.board, { last: past.placed });
    } else {
      this.board.render(view.board, {
        canPlace,
        last: outcome ? null : last,
        winning: outcome ? outcome.cells || [] : [],
        arrived: arrived && !prefersReducedMotion() ? arrived.cell : null,
        hint: hint && hint.place,
        values: values && view.step === "place" ? values.cells : null,
      });
    }
    $("board").classList.toggle("over", Boolean(outcome) && !past);
    $("board").classList.toggle("history", Boolean(past));

    renderHand(view, person, { thinking: game.thinking, arrived });

    // The supply: pieces can be pressed when the person must hand one over.
    const canGive = Boolean(person) && view.step === "give" && idle;
    const markSafe = game.showSafe && canGive && view.safe_help !== false;
    this.supply.render(view.supply, {
      canGive,
      safe: markSafe ? view.safe : null,
      hint: hint && hint.give,
      values: values && view.step === "give" ? values.pieces : null,
    });
    $("supply-empty").hidden = view.supply.length > 0;
    // The supply's heading says what to do when a piece is to be handed over and
    // the prompt is out of view (on a phone, above the board).
    const giving = Boolean(person) && view.step === "give" && view.supply.length > 0 && !outcome;
    this.supplyTitle.set(giving, t("game.supply.title"));
    const safeCount = $("safe-count");
    safeCount.hidden = !markSafe || view.supply.length === 0;
    if (markSafe) {
      const count = view.safe.length;
      const total = view.supply.length;
      safeCount.textContent = t(count === 0 ? "safe.none" : count === 1 ? "safe.one" : "safe.many", { count, total });
    }

    // Calling wins (declare rule sets).  The server says where a call may be made:
    // after every placement, whether or not there is something to call (noticing a
    // win is part of the game; a false call is refused, or costs what the rules say).
    $("declare-button").hidden = !(person && view.declare_offered);
    $("claim-button").hidden = !(person && view.claim_offered);
    $("decline-button").hidden = !(person && view.can_decline);
    for (const id of ["declare-button", "claim-button", "decline-button"]) $button(id).disabled = !idle;

    renderTools(view, {
      person, idle, hintPending: game.hintPending, confirming: game.confirming, source: game.source,
    });
    renderMoves(view, game.moves);
    renderEnd(view, { review: game.review, busy: game.busy });
    game.clocks.draw();
  }

  /** A refusal or an error by what was pressed, and the hint by its button. */
  renderMessage() {
    const game = this.game;
    const message = game.message;
    const box = $("game-message");
    box.hidden = !message;
    if (message) placeRefusal(box, message.action);
    box.textContent = message ? messageWords(message) : "";
    // The hint shows by its button, where the player who asked for it looks.
    const hint = $("hint-box");
    let text = "";
    if (game.hintPending) text = t("hint.thinking");
    else if (!message && game.hint) text = `${hintTurn(game.hint)} ${hintReason(game.hint)}`.trim();
    hint.hidden = !text;
    hint.textContent = text;
    hint.classList.toggle("is-pending", game.hintPending);
  }

  // ---- the focus, and what is in view ----------------------------------------------

  /**
   * A game opens at its top, with the focus where the person acts: the keyboard
   * starts there, and the instruction and the piece in hand stay in view.  To
   * hand a piece over, a small screen shows the supply, whose heading then says
   * what to do.
   */
  focusOpened() {
    window.scrollTo(0, 0);
    const view = this.game.view;
    if (!view || view.outcome || !this.game.personToAct()) return;
    if (view.step === "give" && view.supply.length) this.supply.focus({ preventScroll: true });
    else if (view.step === "place") this.board.focus({ preventScroll: true });
  }

  /** After the person acted: put the focus where the next step happens. */
  moveFocus() {
    const view = this.game.view;
    if (view.outcome) {
      this.focusEnd();
      this.revealActing();
      return;
    }
    if (!this.game.personToAct()) {
      // The other player moves next (the computer's turn shows itself): what they
      // do shows above, by the prompt and the piece handed over.
      if (!view.computer_to_move) this.revealActing();
      return;
    }
    if (view.step === "give" && view.supply.length) {
      this.supply.focus({ preventScroll: true });
    } else if (view.step === "place") {
      this.board.focus({ preventScroll: true });
    }
    this.revealActing();
  }

  focusEnd() {
    $("end-title").focus({ preventScroll: true });
  }

  focusBoard() {
    this.board.focus({ preventScroll: true });
  }

  /** The question "are you sure?" before `what` was just asked (its "no" takes the
   * focus), or none (the focus goes back to the button of the one asked `before`). */
  focusQuestion(what, before) {
    if (what) $("confirm-no").focus();
    else if (before) $(`${before}-button`).focus();
  }

  /**
   * On a small screen, scroll what the player must act on now into view
   * (`actingElements`); nothing moves when it is in view already.
   * @param {{ instant?: boolean }} [options]
   */
  revealActing({ instant = false } = {}) {
    if (this.game.view) revealAll(this.actingElements(), { screen: $("game-view"), instant });
  }

  /**
   * What the player must see now, the most important first: a call to confirm; a
   * refusal or an error shown (by what was pressed: game/refusal.js); an undo request to
   * answer; an opponent who left, to claim against; at the end, the result; when a
   * piece is to be handed over, the calls offered ("Quarto!" with its reminder), the
   * supply's heading (which then says what the prompt says) and its pieces; when a
   * piece is to be placed, the piece in hand, the board and the prompt; else the
   * prompt and the piece in hand, with the claim when one is offered (or the computer
   * thinking); and the clocks above them if they fit too.  (The player's own time shows
   * by the supply's heading or by the piece in hand.)
   */
  actingElements() {
    const view = this.game.view;
    // A refusal above the tools shows with their buttons, the one pressed among them.
    const message = $("game-message");
    const byTools = !message.hidden && message.parentElement?.classList.contains("tools");
    const tools = byTools ? message.parentElement?.querySelector(".button-row") : null;
    /** @type {HTMLElement[]} */
    const asked = [message, tools, $("undo-panel"), $("draw-panel"), $("abandon-panel")]
      .filter(/** @returns {element is HTMLElement} */ (element) => element instanceof HTMLElement && !element.hidden);
    // A call to confirm (a false one costs the next call or the game): its question first.
    const calling = this.game.confirming === "declare" || this.game.confirming === "claim";
    if (calling && !$("confirm-panel").hidden) asked.unshift($("confirm-panel"));
    if (view.outcome) return [...asked, $("end-title"), $("end-reason"), $("end-panel")];
    if (this.game.personToAct() && view.step === "give" && view.supply.length) {
      const piece = $("supply").querySelector("button.playable");
      return [...asked, $("call-buttons"), $("supply-title"), piece, $("supply")];
    }
    // A piece to place: the piece in hand (with the player's own time and the calls),
    // the board, and the prompt above them when it fits too (a refusal shown by the
    // calls may take its room).  The clocks stand above the prompt: in view with them
    // whenever they fit.
    if (this.game.personToAct() && view.step === "place") {
      return [...asked, $("hand-area"), $("board"), $("prompt"), $("clocks")];
    }
    return [...asked, $("prompt"), $("hand-area"), $("clocks")];
  }
}
