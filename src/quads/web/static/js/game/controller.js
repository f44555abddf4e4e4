// The game screen's controller: what the person does in the game shown, which the
// model (game/model.js) holds.  Each action goes to the game's source, and its answer
// to the model, which has it drawn: a turn, undo and redo, a hint, resigning and
// deleting with their question "are you sure?", "Play again", an undo request
// answered, an opponent who left claimed against, a bot offered the free seat.

import { CELLS } from "../board.js";
import { currentLanguage } from "../i18n.js";

/** @typedef {import("./model.js").GameModel} GameModel */

export class GameController {
  /** @param {GameModel} game the game shown */
  constructor(game) {
    this.game = game;
  }

  // ---- the person's actions -------------------------------------------------------

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
    const game = this.game;
    if (game.busy || game.thinking || !game.view) return;
    const id = game.id;
    const source = game.source;
    game.busy = true;
    game.message = null;
    game.hint = null;
    game.changed();
    try {
      const view = await request(source, game.view.revision);
      if (source !== game.source) return;
      game.apply(view);
    } catch (error) {
      if (source === game.source) await game.handleError(error, what);
    } finally {
      if (source === game.source) game.busy = false; // else close() cleared it
    }
    if (id !== game.id) return;
    const landed = placed && game.view.board[CELLS.indexOf(placed)];
    if (landed) game.arrived = { cell: placed, hand: false };
    game.changed();
    game.arrived = null;
    if (focus) game.screen.moveFocus();
    else if (game.message) game.screen.revealActing();
    game.continueComputer();
  }

  restart() {
    const game = this.game;
    const { rules, mode, level, human } = game.view;
    game.onRestart(mode === "computer" ? { rules, mode, level, human } : { rules, mode });
  }

  /** "Play again": online, the next game with the same two players, sides swapped. */
  async playAgain() {
    const game = this.game;
    const view = game.view;
    if (!view) return;
    if (view.mode !== "online") {
      this.restart();
      return;
    }
    if (game.busy) return;
    game.busy = true;
    game.changed();
    try {
      const next = await game.source.rematch();
      game.busy = false;
      if (game.id === view.id) game.onOpen(game.keyOf(game.source, next.id), next);
    } catch (error) {
      game.busy = false;
      if (game.id !== view.id) return;
      await game.handleError(error, "rematch");
      game.changed();
      game.screen.revealActing();
    }
  }

  /** Open the game the other player started with "Play again". */
  openRematch() {
    const game = this.game;
    if (game.view && game.view.rematch) game.onOpen(game.keyOf(game.source, game.view.rematch), null);
  }

  /** Show the review of the finished game, asked of its source once. */
  openReview() {
    const game = this.game;
    if (game.view) game.review.open(game.view, game.source);
  }

  /** Offer the free seat to `bot`; its answer comes with the live view. */
  offerSeat(bot) {
    const game = this.game;
    const id = game.view.id;
    this.send(() => game.bots.offer(id, bot), "invite_bot", false);
  }

  // ---- resigning, deleting and undo requests ------------------------------------------

  /**
   * Call a win (`what`: "declare" or "claim"): at once when a false call is free,
   * else after "are you sure?", since a false one then costs the next call or the game.
   * @param {"declare" | "claim"} what
   */
  call(what) {
    if (this.game.view?.false_calls && this.game.view.false_calls !== "free-calls") this.ask(what);
    else this.act({ action: what });
  }

  /** Ask "are you sure?" before `what` ("resign", "delete", "declare" or "claim");
   * null: ask nothing. */
  ask(what) {
    const game = this.game;
    const before = game.confirming;
    game.confirming = what;
    game.changed();
    game.screen.focusQuestion(what, before);
    if (what === "declare" || what === "claim") game.screen.revealActing();
  }

  /** Resign, delete or call, as the question asked ("are you sure?") was answered yes. */
  confirm() {
    const game = this.game;
    const asked = game.confirming;
    if (asked === "declare" || asked === "claim") {
      game.confirming = null;
      return this.act({ action: asked });
    }
    return asked === "delete" ? this.remove() : this.resign();
  }

  async resign() {
    const game = this.game;
    game.confirming = null;
    await this.send((source, revision) => source.resign(revision), "resign", true);
  }

  /** Delete the game (an online game nobody has joined yet, from its screen). */
  async remove() {
    const game = this.game;
    const id = game.id;
    if (!id || game.busy) return;
    game.busy = true;
    game.changed();
    const source = game.source;
    try {
      await source.remove(game.view.revision);
    } catch (error) {
      game.busy = false;
      if (game.id !== id) return;
      game.follow(source);
      game.confirming = null;
      await game.handleError(error, "delete");
      game.changed();
      game.screen.revealActing();
      return;
    }
    game.busy = false;
    if (game.id !== id) return;
    const key = game.key;
    game.close();
    game.onDeleted(key);
  }

  /** Claim the game whose opponent left during their turn: the win, or with `draw` a draw. */
  claimAbandoned(draw) {
    return this.send((source, revision) => source.claimAbandoned(revision, draw), "abandon", true);
  }

  /** Offer a draw; the offer, waiting for its answer, then shows above the prompt. */
  async offerDraw() {
    await this.send((source, revision) => source.offerDraw(revision), "draw", false);
    if (this.game.view && !this.game.message) this.game.screen.revealActing();
  }

  answerDraw(accept) {
    return this.send((source, revision) => source.answerDraw(revision, accept), "draw_answer", false);
  }

  answerUndo(accept) {
    return this.send((source, revision) => source.answerUndo(revision, accept), "undo_answer", false);
  }

  // ---- hints ----------------------------------------------------------------

  async askHint() {
    const game = this.game;
    if (game.busy || game.thinking || !game.view || game.hintPending || game.view.mode === "online") return;
    // The advice takes up to a second: say at once that it is coming, by the button.
    game.hintPending = true;
    game.hint = null;
    game.changed();
    const id = game.id;
    const source = game.source;
    const revision = game.view.revision;
    try {
      const hint = await source.hint(currentLanguage());
      // advice for a position that is gone (the game moved on meanwhile) is dropped
      if (game.id !== id || !game.view || game.view.revision !== revision) return;
      game.hint = hint;
      game.message = null;
    } catch (error) {
      if (source !== game.source) return;
      game.hintPending = false;
      await game.handleError(error, "hint");
      game.changed();
      game.screen.revealActing();
      return;
    } finally {
      if (source === game.source) game.hintPending = false; // else close() cleared it
    }
    game.changed();
  }
}
