// The guided first game (#/learn/tutorial): four short steps on the real board
// and supply, played in real games between two people on this device, held in
// memory only (local/device-game.js: the page's rules decide every move, with or
// without a network, and nothing is stored or sent).
//
// Which pieces are safe comes from the game's view (`safe`), the winning cell of
// the last step from the rules.  The tutorial only scripts the opponent's side
// and the positions to start from:
//   1. hand over any piece (a new local game, the learner is the first player);
//   2. the opponent places it and hands a piece back; the learner places it;
//   3. a prepared position with three pieces in row 1: hand over a safe piece
//      (an unsafe one is explained and not sent);
//   4. a prepared position with a win on the board: find the winning cell.

import { Board } from "../board.js";
import { t } from "../i18n.js";
import { act, newDeviceGame, restoreGame, view as viewOf } from "../local/device-game.js";
import { describeError, messageWords } from "../names.js";
import { pieceLabel, pieceSvg } from "../pieces.js";
import { revealAll } from "../reveal.js";
import { cellName } from "../rules/cells.js";
import { readRecord } from "../rules/record.js";
import { Supply } from "../supply.js";
import { $ } from "../dom.js";

const TOTAL = 4;
// Where the opponent puts the learner's first piece: a centre cell, where the
// most shapes meet.
const OPPONENT_CELL = "B2";
// Row 1 holds three short light pieces; the learner is to hand over a piece.
const SAFE_RECORD = "1. 0 A11 2. B12 C1C 3. B3 *";
// Row 1 holds three dark pieces and the learner has a dark piece in hand.
const WIN_RECORD = "1. 7 A1C 2. B1D C1E *";
const ROW_ONE = ["A1", "B1", "C1"];

/** A game between two people on this device, replayed from `record`. */
function recordGame(record) {
  const game = readRecord(record);
  return { ...newDeviceGame({ mode: "local", rules: game.rules.name }), game: game.snapshot() };
}

export class TutorialView {
  /** The step shown, 1 to TOTAL. */
  step = 1;
  /** The learner has done what the step asks. */
  done = false;
  /** @type {ReturnType<typeof viewOf> | null} the view of the step's game */
  view = null;
  /** @type {import("../local/view.js").DeviceGameData | null} the device game of the step, in memory */
  game = null;
  busy = false;
  /** @type {string | null} a key: why the last press was not sent */
  feedback = null;
  /** @type {{ key: string, params: object } | null} an error of the rules */
  message = null;
  /** @type {string | null} step 4: the cell where the piece in hand wins */
  winCell = null;
  /** Counts the starts, so that a late answer of an old run is dropped. */
  token = 0;

  /** `onPlay(settings)` starts a game against the computer. */
  constructor({ onPlay }) {
    this.onPlay = onPlay;
    this.active = false;
    this.board = new Board($("tutorial-board"), (cell) => this.place(cell));
    this.supply = new Supply($("tutorial-supply"), (piece) => this.give(piece));
    // Why a press was not sent shows by what is pressed: between the board and
    // the pieces, where the learner looks (not above the screen on a phone).
    $("tutorial-supply").before($("tutorial-feedback"));
    $("tutorial-next").addEventListener("click", () => this.next());
    $("tutorial-again").addEventListener("click", () => this.open());
    // The learning pages suggest colour alone for a first game; the full rules are offered too.
    $("tutorial-play-color").addEventListener("click", () =>
      this.onPlay({ mode: "computer", rules: "lines+squares:color:auto", level: 1, human: "first" }));
    $("tutorial-play").addEventListener("click", () =>
      this.onPlay({ mode: "computer", rules: "quads", level: 1, human: "first" }),
    );
    this.reset();
  }

  /** Back to the start: each field as declared above. */
  reset() {
    this.step = 1;
    this.done = false;
    this.view = null;
    this.game = null;
    this.busy = false;
    this.feedback = null;
    this.message = null;
    this.winCell = null;
    this.token = 0;
  }

  /** The step's game: there from the start of a run on. */
  current() {
    if (this.game === null) throw new Error("the tutorial has no game yet");
    return this.game;
  }

  /** Start (again) at step 1. */
  async open() {
    this.reset();
    this.active = true;
    const token = ++this.token;
    this.render();
    this.load(token, () => newDeviceGame({ mode: "local", rules: "quads" }));
    if (token === this.token) this.focusStep();
  }

  close() {
    this.active = false;
    this.token += 1;
  }

  /** Make the step's game `change()` (a device game); false when the rules refused it. */
  load(token, change) {
    this.message = null;
    try {
      const game = change();
      if (token !== this.token) return false;
      this.game = game;
      this.view = viewOf(game);
      return true;
    } catch (error) {
      if (token !== this.token) return false;
      this.message = describeError(error);
      return false;
    } finally {
      if (token === this.token) this.render();
    }
  }

  /** Play one action of the learner; the step is done when the rules took it. */
  send(action) {
    const ok = this.load(this.token, () => act(this.current(), action));
    if (!ok) return;
    this.done = true;
    this.render();
    // What was done is said above the board: bring it into view with the way on.
    if (this.step === TOTAL) {
      $("tutorial-end-title").focus({ preventScroll: true });
      revealAll([$("tutorial-end-title"), $("tutorial-end")], { screen: $("tutorial-view") });
    } else {
      $("tutorial-next").focus({ preventScroll: true });
      revealAll([$("tutorial-instruction"), $("tutorial-next")], { screen: $("tutorial-view") });
    }
  }

  // ---- the learner's presses ----------------------------------------------------

  give(piece) {
    const view = this.view;
    if (!this.ready() || !view || view.step !== "give") return;
    if (this.step === 3 && !view.safe.includes(piece)) {
      this.explain("tutorial.step3.unsafe", "tutorial-supply", piece);
      return;
    }
    this.feedback = null;
    this.send({ action: "give", piece });
  }

  place(cell) {
    if (!this.ready() || !this.view || this.view.step !== "place") return;
    if (this.step === 4 && cell !== this.winCell) {
      this.explain("tutorial.step4.wrong", "tutorial-board", cell);
      return;
    }
    this.feedback = null;
    this.send({ action: "place", cell });
  }

  /** Say why the press on `name` in `container` was not sent (`key`), with both in view. */
  explain(key, container, name) {
    this.feedback = key;
    this.render();
    revealAll([$("tutorial-feedback"), $(container).querySelector(`[data-key="${name}"]`)]);
  }

  ready() {
    return this.active && this.view && !this.busy && !this.done;
  }

  /** On to the next step: play the opponent's side or set up its position. */
  next() {
    if (!this.done || this.busy || this.step >= TOTAL) return;
    const token = this.token;
    this.step += 1;
    this.done = false;
    this.feedback = null;
    if (this.step === 2) {
      // The opponent places the piece it was given, then hands one back.
      if (!this.load(token, () => act(this.current(), { action: "place", cell: OPPONENT_CELL }))) return;
      const placed = /** @type {ReturnType<typeof viewOf>} */ (this.view); // just loaded
      const piece = placed.safe[0] || placed.supply[0];
      if (!this.load(token, () => act(this.current(), { action: "give", piece }))) return;
    } else if (this.step === 3) {
      if (!this.load(token, () => recordGame(SAFE_RECORD))) return;
    } else if (this.step === 4) {
      if (!this.load(token, () => recordGame(WIN_RECORD))) return;
      const game = restoreGame(this.current());
      const hand = game.position.hand;
      const cells = hand === null ? 0 : game.position.winningCells(hand, game.rules);
      this.winCell = cells ? cellName(31 - Math.clz32(cells & -cells)) : null;
    }
    this.render();
    this.focusStep();
  }

  /** Put the focus on the step's heading, so the new instruction is read from the top. */
  focusStep() {
    $("tutorial-step-title").focus({ preventScroll: true });
  }

  // ---- drawing --------------------------------------------------------------------

  render() {
    if (!this.active) return;
    const view = this.view;
    const step = this.step;
    const over = Boolean(view && view.outcome);
    $("tutorial-view").setAttribute("aria-busy", String(this.busy || !view));
    $("tutorial-view").dataset.step = String(step);
    $("tutorial-view").classList.toggle("is-over", over);
    $("tutorial-progress").textContent = t("tutorial.progress", { step, total: TOTAL });
    $("tutorial-step-title").textContent = t(`tutorial.step${step}.title`);

    const instruction = $("tutorial-instruction");
    let text;
    if (!view || (this.busy && !this.done)) text = t("tutorial.loading");
    else if (this.done) text = t(`tutorial.step${step}.done`);
    else text = t(`tutorial.step${step}.text`, { cell: OPPONENT_CELL });
    instruction.textContent = text;
    instruction.dataset.key = this.done ? `tutorial.step${step}.done` : `tutorial.step${step}.text`;

    const feedback = $("tutorial-feedback");
    feedback.hidden = !this.feedback;
    feedback.textContent = this.feedback ? t(this.feedback) : "";
    const message = $("tutorial-message");
    message.hidden = !this.message;
    message.textContent = this.message ? messageWords(this.message) : "";

    $("tutorial-next").hidden = !this.done || step === TOTAL;
    $("tutorial-end").hidden = !(this.done && step === TOTAL);

    if (!view) {
      this.board.render(Array(16).fill(null));
      this.supply.render([]);
      this.renderHand(null);
      return;
    }
    $("tutorial-view").dataset.game = view.id;
    const acting = !this.busy && !this.done;
    const last = step === 2 && view.last && view.last.player === "second" ? view.last.place : null;
    this.board.render(view.board, {
      canPlace: acting && view.step === "place",
      last,
      winning: view.outcome ? view.outcome.cells : [],
      marked: step >= 3 ? ROW_ONE : [],
    });
    $("tutorial-board").classList.toggle("over", over);
    this.supply.render(view.supply, {
      canGive: acting && view.step === "give",
      safe: step === 3 ? view.safe : null,
    });
    this.renderHand(view.hand, view.to_move === "first");
  }

  /** The piece in hand; `mine` when the learner is the one to place it. */
  renderHand(piece, mine = false) {
    const hand = $("tutorial-hand");
    const caption = $("tutorial-hand-caption");
    hand.replaceChildren();
    hand.classList.toggle("empty", !piece);
    if (piece) {
      hand.append(pieceSvg(piece));
      hand.setAttribute("aria-label", pieceLabel(piece));
      caption.textContent = mine ? t("game.hand.yours") : "";
    } else {
      hand.setAttribute("aria-label", t("game.hand.empty"));
      caption.textContent = "";
    }
    caption.hidden = !caption.textContent;
  }
}
