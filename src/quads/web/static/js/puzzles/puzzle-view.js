// The daily puzzle screen: the player makes the turns, the server judges each
// one and answers with the computer's defence (docs/web-api.md, "Puzzles").
// Without the server, the puzzles kept on the device (today's and the coming
// fortnight's, fetched whenever the server answers, and the archive already seen:
// puzzles/kept.js) are judged by the page's engine alike; an attempt is kept on
// the device with the line played and sent once the server answers (device.js),
// which replays the line before it counts the puzzle as solved.
//
// The page keeps no rules: it sends a placement alone first, and asks for the
// piece to hand over only when the server says the placement does not end the
// game.  A wrong turn shows the computer's answer and offers a new try from the
// start; a solved puzzle shows the time, the tries and a text to share.  Each
// attempt is stored for the calling player, whom the server knows by its
// cookie; it counts a puzzle as solved only after a checked turn solved it.  The
// player's history and the puzzles kept for later are puzzles/history.js's, the
// screen's words puzzles/words.js's, the archive of days puzzles/archive.js's.

import * as api from "../api.js";
import { Board } from "../board.js";
import { deviceStore, sendWaiting } from "../device.js";
import { $ } from "../dom.js";
import { engineClient as engine } from "../engine/client.js";
import { has, t } from "../i18n.js";
import { newPuzzleResult } from "../local/sync.js";
import { describeError, messageWords, rulesName } from "../names.js";
import { pieceLabel, pieceSvg } from "../pieces.js";
import { revealTop, revealWhole } from "../reveal.js";
import { Supply } from "../supply.js";
import { renderArchive } from "./archive.js";
import { adoptOldResults, currentHistory, withResult } from "./history.js";
import { keepHistory, keepPuzzles, keptPuzzle, localDate, withSolves } from "./kept.js";
import { PromptEcho } from "../prompt-echo.js";
import { dateText, formatTime, readTurn, replyText, streakText, triesText, turnText } from "./words.js";

/** The parts of the puzzle screen that belong to one puzzle. */
const PUZZLE_PARTS = ".game-info, #puzzle-goal, .puzzle-goal-note, :scope > .board-area, :scope > .hand-area, :scope > .supply-area";

/** The verdict on `turn` after `played`: the server's, or the page's engine's alike
 * while the server cannot be reached. */
async function judge(puzzle, played, turn) {
  try {
    return await api.checkPuzzle(puzzle.date, played, turn, { wait: false });
  } catch (error) {
    if (error.code !== "unreachable") throw error;
  }
  return engine.checkPuzzle(puzzle, played, turn);
}

export class PuzzleView {
  /** `notify(text)` shows a short notice. */
  constructor({ notify }) {
    this.notify = notify;
    this.date = null; // the address asked for: "today" or YYYY-MM-DD
    this.puzzle = null;
    this.history = null;
    this.message = null;
    this.busy = false;
    this.tries = 1; // the tries at the puzzle shown, the current one included
    this.started = 0; // when the first of them began (Date.now())
    this.seconds = 0; // how long solving it took, s
    this.board = new Board($("puzzle-board"), (cell) => this.place(cell));
    this.supplyTitle = new PromptEcho($("puzzle-supply-title"), $("puzzle-prompt"));
    this.supply = new Supply($("puzzle-supply"), (piece) => this.give(piece));
    $("puzzle-retry").addEventListener("click", () => this.retry());
    $("share-copy").addEventListener("click", () => this.copyShare());
  }

  /** Show the puzzle of `date` ("today" or YYYY-MM-DD). */
  async open(date) {
    this.date = date;
    this.puzzle = null;
    this.message = null;
    this.render();
    this.loadHistory();
    let puzzle = null;
    try {
      puzzle = await api.getPuzzle(date, { wait: false });
      keepPuzzles([puzzle]);
    } catch (error) {
      if (this.date !== date) return;
      // Without the server, the puzzle kept on this device (today: by the device's date).
      if (error.code === "unreachable") puzzle = keptPuzzle(date === "today" ? localDate() : date);
      if (!puzzle) {
        const overrides = { not_found: "error.puzzle_missing", unreachable: "error.puzzle_offline" };
        this.message = describeError(error, { overrides });
        this.render();
        return;
      }
    }
    if (this.date !== date) return;
    this.puzzle = puzzle;
    this.tries = 1;
    this.started = Date.now();
    this.reset();
    this.board.focus({ preventScroll: true });
  }

  close() {
    this.date = null;
    this.puzzle = null;
  }

  /** Back to the puzzle's start position. */
  reset() {
    const puzzle = this.puzzle;
    this.played = [];
    this.shown = { board: puzzle.board, hand: puzzle.hand, supply: puzzle.supply, cells: [] };
    this.pending = null; // the cell of a placement that waits for its hand-over
    this.state = "play"; // "play", "wrong" or "solved"
    this.verdict = null;
    this.lastReply = null;
    this.message = null;
    this.render();
  }

  async loadHistory() {
    await adoptOldResults();
    this.history = await currentHistory();
    this.render();
  }

  // ---- playing ----------------------------------------------------------------

  place(cell) {
    if (this.busy || this.state !== "play" || this.pending || !this.shown.hand) return;
    this.pending = cell;
    this.send(turnText({ place: cell }));
  }

  give(piece) {
    if (this.busy || this.state !== "play" || !this.pending) return;
    this.send(turnText({ place: this.pending, give: piece }));
  }

  async send(turn) {
    const puzzle = this.puzzle;
    const placed = this.shown.hand;
    this.busy = true;
    this.message = null;
    this.render();
    let verdict;
    try {
      verdict = await judge(puzzle, this.played, turn);
    } catch (error) {
      this.busy = false;
      if (puzzle !== this.puzzle) return;
      this.pending = null;
      this.message = describeError(error, { action: "puzzle" });
      this.render();
      return;
    }
    this.busy = false;
    if (puzzle !== this.puzzle) return;
    this.shown = verdict;
    if (verdict.needs_give) {
      this.render();
      this.supply.focus({ preventScroll: true });
      revealWhole($("puzzle-supply-area"));
      return;
    }
    this.pending = null;
    this.verdict = { ...verdict, placed: readTurn(turn).give, before: placed };
    this.line = verdict.played && verdict.played.length ? [...verdict.played] : [...this.played, turn];
    if (verdict.solved) {
      this.state = "solved";
      this.seconds = Math.round((Date.now() - this.started) / 1000);
      this.record(true);
    } else if (verdict.accepted) {
      this.played = verdict.played;
      this.lastReply = this.verdict;
    } else {
      this.state = "wrong";
      this.record(false);
    }
    this.render();
    if (this.state === "solved") $("solved-title").focus({ preventScroll: true });
    else if (this.state === "wrong") $("wrong-title").focus({ preventScroll: true });
    else this.board.focus({ preventScroll: true });
    revealTop($("puzzle-prompt"), $("puzzle-view"));
  }

  retry() {
    if (!this.puzzle || this.state !== "wrong") return;
    this.tries += 1;
    this.reset();
    this.board.focus({ preventScroll: true });
  }

  /**
   * Store the attempt: at once when the server answers, else kept on the device and
   * sent later.  A solved attempt carries the line played, so that the server can
   * count it even when its turns were judged on the device.
   */
  async record(solved) {
    const puzzle = this.puzzle;
    const seconds = solved ? this.seconds : Math.round((Date.now() - this.started) / 1000);
    const line = solved ? this.line : null;
    const attempt = newPuzzleResult({ date: puzzle.date, tries: this.tries, seconds, solved, line });
    const body = { tries: attempt.tries, seconds, solved, attempt: attempt.id, ...(line ? { line } : {}) };
    let answer = null;
    try {
      answer = await api.puzzleResult(puzzle.date, body, { wait: false });
    } catch (error) {
      if (error.code !== "unreachable") return; // refused: nothing is stored, the puzzle stays
    }
    if (answer === null) {
      try {
        await (await deviceStore()).putResult(attempt);
      } catch {
        return; // no storage on this browser: the attempt is lost, the puzzle is not
      }
      sendWaiting();
      if (this.history && solved) {
        this.history = withSolves(this.history, [{ date: puzzle.date, tries: this.tries, seconds }], localDate());
      }
    } else if (this.history) {
      this.history = withResult(this.history, answer);
      keepHistory(this.history);
    } else {
      this.history = await currentHistory();
    }
    if (puzzle === this.puzzle) this.render();
  }

  shareText() {
    const puzzle = this.puzzle;
    return t("puzzle.share", {
      date: puzzle.date,
      moves: puzzle.goal.moves,
      tries: triesText(this.tries),
      time: formatTime(this.seconds),
    });
  }

  async copyShare() {
    const text = /** @type {HTMLTextAreaElement} */ ($("share-text"));
    let copied;
    try {
      await navigator.clipboard.writeText(text.value);
      copied = true;
    } catch {
      text.select();
      try {
        copied = document.execCommand("copy");
      } catch {
        copied = false;
      }
    }
    this.notify(t(copied ? "puzzle.share.copied" : "puzzle.share.copy_failed"));
  }

  // ---- drawing ----------------------------------------------------------------

  render() {
    this.renderEntry();
    if (this.date === null) return;
    const puzzle = this.puzzle;
    $("puzzle-view").setAttribute("aria-busy", String(this.busy || !puzzle));
    renderArchive(this.history, puzzle ? puzzle.date : null);
    const box = $("puzzle-message");
    box.hidden = !this.message;
    box.textContent = this.message ? messageWords(this.message) : "";
    // Without a puzzle (loading, or none for that date) nothing of another one shows.
    for (const part of /** @type {NodeListOf<HTMLElement>} */ ($("puzzle-view").querySelectorAll(PUZZLE_PARTS))) {
      part.hidden = !puzzle;
    }
    if (!puzzle) {
      $("puzzle-prompt").textContent = this.message ? "" : t("puzzle.loading");
      for (const id of ["puzzle-last", "puzzle-wrong", "puzzle-solved", "puzzle-before", "puzzle-calling"]) {
        $(id).hidden = true;
      }
      return;
    }
    $("puzzle-info").textContent = t("puzzle.info", { date: dateText(puzzle.date) });
    $("puzzle-rules").textContent = t("game.rules", { rules: rulesName(puzzle.rules) });
    $("puzzle-try").textContent = t("puzzle.try", { count: this.tries });
    $("puzzle-goal").textContent = t("puzzle.goal", { moves: puzzle.goal.moves });
    $("puzzle-calling").hidden = puzzle.calling !== "declare";

    const playing = this.state === "play";
    const giving = playing && Boolean(this.pending) && !this.shown.hand;
    let prompt;
    if (this.busy) prompt = t("puzzle.prompt.checking");
    else if (this.state === "solved") prompt = t("puzzle.prompt.solved");
    else if (this.state === "wrong") prompt = t("puzzle.prompt.wrong");
    else prompt = t(giving ? "puzzle.prompt.give" : "puzzle.prompt.place");
    $("puzzle-prompt").textContent = prompt;
    // When a piece is to be handed over, the supply's heading says so too while the
    // prompt is out of view.
    this.supplyTitle.set(giving, t("game.supply.title"));

    const last = $("puzzle-last");
    const reply = playing && this.lastReply;
    last.hidden = !reply;
    if (reply) {
      const left = reply.moves_left;
      last.textContent = `${replyText(reply.reply, reply.placed, false)} ${
        left === 1 ? t("puzzle.left.one") : t("puzzle.left.many", { moves: left })
      }`;
    }
    const before = this.history && this.history.days.find((day) => day.date === puzzle.date && day.solved);
    $("puzzle-before").hidden = !before || this.state === "solved";
    if (before) $("puzzle-before").textContent = t("puzzle.solved_before", { tries: triesText(before.tries) });

    this.renderWrong();
    this.renderSolved();

    const idle = !this.busy;
    const over = this.state !== "play";
    const view = $("puzzle-view");
    view.classList.toggle("is-over", over);
    const lastCell = this.verdict && this.verdict.reply ? readTurn(this.verdict.reply).place : null;
    this.board.render(this.shown.board, {
      canPlace: playing && idle && !giving && Boolean(this.shown.hand),
      last: this.state === "solved" ? null : lastCell,
      winning: this.shown.cells || [],
    });
    $("puzzle-board").classList.toggle("over", over);
    this.supply.render(this.shown.supply, { canGive: giving && idle });

    const hand = $("puzzle-hand");
    const caption = $("puzzle-hand-caption");
    hand.replaceChildren();
    hand.classList.toggle("empty", !this.shown.hand);
    if (this.shown.hand) {
      hand.append(pieceSvg(this.shown.hand));
      hand.setAttribute("aria-label", pieceLabel(this.shown.hand));
      caption.textContent = t("game.hand.yours");
    } else {
      hand.setAttribute("aria-label", t("game.hand.empty"));
      caption.textContent = giving ? t("game.hand.empty") : "";
    }
    caption.hidden = !caption.textContent;
  }

  renderWrong() {
    const panel = $("puzzle-wrong");
    const verdict = this.verdict;
    panel.hidden = this.state !== "wrong";
    if (panel.hidden) return;
    const reply = $("wrong-reply");
    reply.hidden = !verdict.reply;
    const placed = verdict.placed;
    reply.textContent = verdict.reply ? replyText(verdict.reply, placed, verdict.winner === "opponent") : "";
    // When the computer's answer has won, the answer says it all: no second line that it can win.
    const outlook = $("wrong-outlook");
    outlook.hidden = verdict.winner === "opponent";
    const key = `puzzle.wrong.${verdict.value}`;
    outlook.textContent = outlook.hidden ? "" : t(has(key) ? key : "puzzle.wrong.unknown", { moves: this.puzzle.goal.moves });
  }

  renderSolved() {
    const panel = $("puzzle-solved");
    panel.hidden = this.state !== "solved";
    if (panel.hidden) return;
    $("solved-stats").textContent = t("puzzle.solved.stats", {
      time: formatTime(this.seconds),
      tries: triesText(this.tries),
    });
    const streak = $("solved-streak");
    streak.hidden = !this.history;
    streak.textContent = this.history ? streakText(this.history.streak) : "";
    const share = /** @type {HTMLTextAreaElement} */ ($("share-text"));
    share.value = this.shareText();
    // Browsers without `field-sizing` get the box made as tall as the text.
    if (!CSS.supports("field-sizing", "content")) {
      share.style.height = "auto";
      share.style.height = `${share.scrollHeight + share.offsetHeight - share.clientHeight}px`;
    }
  }

  /** The daily-puzzle card of the new-game screen: the player's streak. */
  async showEntry() {
    await adoptOldResults();
    const history = await currentHistory();
    this.entryStreak = history ? history.streak : null;
    this.renderEntry();
  }

  renderEntry() {
    const line = $("daily-streak");
    line.textContent = this.entryStreak === null || this.entryStreak === undefined ? "" : streakText(this.entryStreak);
    line.hidden = !line.textContent;
  }
}
