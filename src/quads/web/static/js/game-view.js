// The game screen: board, piece in hand, supply, buttons, move list, end.
//
// The page keeps no rules of its own.  It draws the GameView the server sent
// (docs/web-api.md) and offers what the view allows: cells when a piece is to
// be placed, pieces when one is to be handed over, undo and redo when
// can_undo / can_redo.  Every action goes to the server, and whatever comes
// back is drawn again.  When the computer is to move, the page asks the server
// to play its turn and shows that it is thinking meanwhile.

import * as api from "./api.js";
import { Board } from "./board.js";
import { currentLanguage, has, t } from "./i18n.js";
import {
  isPerson,
  joinList,
  levelName,
  otherSide,
  playerName,
  rulesName,
  shapeName,
  traitWords,
} from "./names.js";
import { pieceLabel, pieceSvg } from "./pieces.js";
import { Supply } from "./supply.js";

const SAFE_KEY = "quads.showSafe";
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
  if ($("prompt").getBoundingClientRect().top < 0) {
    $("game-view").scrollIntoView({ block: "start", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }
}

function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class GameView {
  /**
   * `onRestart(settings)` starts a new game with the same settings;
   * `onMissing()` is called when the game does not exist (any more).
   */
  constructor({ onRestart, onMissing, notify }) {
    this.onRestart = onRestart;
    this.onMissing = onMissing;
    this.notify = notify;
    this.view = null;
    this.busy = false; // a request of the person is on its way
    this.thinking = false; // the computer's turn is on its way
    this.message = null; // {key, params}: a refusal or an error to show
    this.arrived = null; // {cell, hand}: what the computer just played, to animate
    this.hint = null; // the server's advice: {action, place, give, value, plies, safe, reason}
    this.showSafe = localStorage.getItem(SAFE_KEY) === "1";

    this.board = new Board($("board"), (cell) => this.act({ action: "place", cell }));
    this.supply = new Supply($("supply"), (piece) => this.act({ action: "give", piece }));

    $("declare-button").addEventListener("click", () => this.act({ action: "declare" }));
    $("claim-button").addEventListener("click", () => this.act({ action: "claim" }));
    $("decline-button").addEventListener("click", () => this.act({ action: "decline" }));
    $("undo-button").addEventListener("click", () => this.history("undo"));
    $("redo-button").addEventListener("click", () => this.history("redo"));
    $("hint-button").addEventListener("click", () => this.askHint());
    $("restart-button").addEventListener("click", () => this.restart());
    $("play-again").addEventListener("click", () => this.restart());
    const toggle = $("safe-toggle");
    toggle.checked = this.showSafe;
    toggle.addEventListener("change", () => {
      this.showSafe = toggle.checked;
      localStorage.setItem(SAFE_KEY, this.showSafe ? "1" : "0");
      this.render();
    });
  }

  get id() {
    return this.view ? this.view.id : null;
  }

  /** Show game `id`: load it from the server (or use `view` when it is at hand). */
  async open(id, view = null) {
    this.message = null;
    this.hint = null;
    if (!view) {
      try {
        view = await api.getGame(id);
      } catch (error) {
        if (error.code === "not_found") this.onMissing();
        else this.showError(error);
        return;
      }
    }
    this.view = view;
    this.render();
    this.continueComputer();
  }

  /** Forget the game (the screen was left). */
  close() {
    this.view = null;
  }

  // ---- actions ------------------------------------------------------------

  /** Send one action of the person to move; draw the answer. */
  act(action) {
    return this.send((id, revision) => api.act(id, revision, action), action.action, true);
  }

  /** Undo or redo (`which`), then draw the answer. */
  history(which) {
    return this.send((id, revision) => (which === "undo" ? api.undo : api.redo)(id, revision), which, false);
  }

  /**
   * Make one changing request of the person, `request(id, revision)`, and draw
   * its answer; `what` names it for error messages, `focus` moves the focus to
   * the next step afterwards.  An answer for a game left meanwhile is dropped.
   */
  async send(request, what, focus) {
    if (this.busy || this.thinking || !this.view) return;
    const id = this.id;
    this.busy = true;
    this.message = null;
    this.hint = null;
    this.render();
    try {
      const view = await request(id, this.view.revision);
      if (id !== this.id) return;
      this.view = view;
    } catch (error) {
      await this.handleError(error, what);
    } finally {
      this.busy = false;
    }
    if (id !== this.id) return;
    this.render();
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
      this.view = answer;
      const last = answer.last;
      this.arrived = last ? { cell: last.place, hand: Boolean(last.give) } : null;
    } catch (error) {
      if (id !== this.id) return;
      await this.handleError(error, "computer");
    } finally {
      this.thinking = false;
    }
    if (id !== this.id) return;
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
      this.view = await api.getGame(this.id);
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

  // ---- hints ----------------------------------------------------------------

  async askHint() {
    if (this.busy || this.thinking || !this.view) return;
    try {
      this.hint = await api.hint(this.id, currentLanguage());
      this.message = null;
    } catch (error) {
      this.showError(error);
      return;
    }
    this.render();
  }

  // ---- drawing ----------------------------------------------------------------

  /** The side to act now if it is a person at this screen, else null. */
  personToAct() {
    const view = this.view;
    if (!view || view.outcome || view.computer_to_move || !view.to_move) return null;
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

    $("game-view").setAttribute("aria-busy", String(!idle));
    $("game-rules").textContent = t("game.rules", { rules: rulesName(view.rules) });
    $("game-opponent").textContent =
      view.mode === "computer"
        ? t("game.opponent.computer", { level: levelName(view.level) })
        : t("game.opponent.local");

    this.renderPrompt(person, calling, boardHasPieces);
    this.renderLastMove();
    this.renderMessage();

    // The board: free cells can be pressed when the person must place.
    const canPlace = Boolean(person) && view.step === "place" && idle;
    const last = view.last && view.last.place;
    this.board.render(view.board, {
      canPlace,
      last: outcome ? null : last,
      winning: outcome ? outcome.cells || [] : [],
      arrived: this.arrived && !prefersReducedMotion() ? this.arrived.cell : null,
      hint: this.hint && this.hint.place,
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
    });
    $("supply-empty").hidden = view.supply.length > 0;
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

    // Tools.
    $("undo-button").disabled = !idle || !view.can_undo;
    $("redo-button").disabled = !idle || !view.can_redo;
    $("hint-button").disabled = !idle || !person;
    const link = $("export-link");
    link.href = api.recordUrl(view.id);
    link.setAttribute("download", `quads-${view.id}.qds`);
    this.renderMoves();
    this.renderEnd();
  }

  renderPrompt(person, calling, boardHasPieces) {
    const view = this.view;
    const prompt = $("prompt");
    const extra = $("prompt-extra");
    let text;
    let more = null;
    if (view.outcome) {
      text = t("prompt.over");
    } else if (!person) {
      text = t("prompt.computer_turn"); // the hand shows that it is thinking
    } else {
      const who = { player: playerName(view, person), other: playerName(view, otherSide(person)) };
      const form = view.mode === "local" ? "player" : "you";
      if (view.step === "place") {
        text = t(`prompt.place.${form}`, who);
        if (calling && boardHasPieces) more = t("prompt.place.claim");
      } else if (view.supply.length === 0) {
        text = t("prompt.decline");
      } else {
        text = t(boardHasPieces ? `prompt.give.${form}` : `prompt.give.first.${form}`, who);
        if (calling && boardHasPieces) more = t("prompt.give.declare");
      }
    }
    prompt.textContent = text;
    extra.hidden = !more;
    extra.textContent = more || "";
  }

  renderLastMove() {
    const view = this.view;
    const box = $("last-move");
    const last = view.last;
    let text = null;
    if (last && !view.outcome) {
      const piece = last.piece && pieceLabel(last.piece);
      const give = last.give && pieceLabel(last.give);
      const cell = last.place;
      if (view.mode === "computer" && !isPerson(view, last.player)) {
        if (last.claimed) text = t("last.computer.claimed");
        else if (last.declared) text = t("last.computer.declared", { piece, cell });
        else if (cell && give) text = t("last.computer.place_give", { piece, cell, give });
        else if (give) text = t("last.computer.give", { give });
        else if (cell) text = t("last.computer.place", { piece, cell });
      } else if (view.mode === "local") {
        const player = playerName(view, last.player);
        if (cell && give) text = t("last.player.place_give", { player, piece, cell, give });
        else if (give) text = t("last.player.give", { player, give });
      }
    }
    box.hidden = !text;
    box.textContent = text || "";
  }

  renderMessage() {
    const box = $("game-message");
    box.hidden = !this.message;
    box.textContent = this.message ? t(this.message.key, this.message.params) : "";
    if (!this.message && this.hint) {
      box.hidden = false;
      box.textContent = `${hintTurn(this.hint)} ${this.hint.reason}`.trim();
    }
    box.classList.toggle("is-hint", !this.message && Boolean(this.hint));
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
      caption.textContent =
        view.mode === "local"
          ? t("game.hand.player", { player: playerName(view, holder) })
          : t(isPerson(view, holder) ? "game.hand.yours" : "game.hand.computer");
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
    if (!outcome) return;
    const winner = outcome.winner;
    let title;
    if (!winner) title = t("end.draw");
    else if (view.mode === "local") title = t("end.player_wins", { player: playerName(view, winner) });
    else title = t(winner === view.human ? "end.you_win" : "end.computer_wins");
    $("end-title").textContent = title;

    let reason;
    if (!winner || outcome.reason === "full-board") {
      reason = t("end.full_board");
    } else {
      const you = view.mode === "computer" && winner === view.human;
      const shapes = joinList((outcome.shapes || []).map(shapeName));
      reason = t(`end.${outcome.reason}.${you ? "you" : "they"}`, {
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
      this.supply.focus();
    } else if (this.view.step === "place") {
      revealTop();
      this.board.focus({ preventScroll: true });
    }
  }
}

/** The suggested turn of a hint, in words ("" when the advice is to call or claim). */
function hintTurn(hint) {
  if (hint.action) return "";
  const piece = hint.give && pieceLabel(hint.give);
  if (hint.place && piece) return t("hint.turn", { cell: hint.place, piece });
  if (hint.place) return t("hint.place", { cell: hint.place });
  return t("hint.give", { piece });
}
