// One's mistakes as exercises (#/mistakes; docs/web-api.md, "Mistakes"): the
// positions where the player threw away a win or a draw in their games, found by the
// server after each game, come back by spaced repetition.  The screen shows those
// due now one after the other on the board: the player makes the turn (or, for a
// hand-over exercise, picks the piece to give), the server judges it and says when
// the exercise comes back; then the next.  Beside them the counts (learnt, due, new)
// and the coming week's exercises due, as a small chart.  While the server cannot be
// reached, the exercises kept on the device and those the page's engine finds in the
// games played there are asked, judged by the engine, and the answers wait on the
// device until they are sent (mistakes/offline.js).  The words are mistakes/words.js's.

import * as api from "../api.js";
import { deviceStore, sendWaiting } from "../device.js";
import { engineClient as engine } from "../engine/client.js";
import { Board, CELLS as CELL_NAMES } from "../board.js";
import { $, $button } from "../dom.js";
import { t } from "../i18n.js";
import { describeError, joinList, messageWords, rulesName } from "../names.js";
import { pieceLabel, pieceSvg } from "../pieces.js";
import { PromptEcho } from "../prompt-echo.js";
import { revealAll } from "../reveal.js";
import { Supply } from "../supply.js";
import { findOnDevice, judge, keepListed, newAnswer, offlineQueue } from "./offline.js";
import { answerText, dueByDay, dueWords, placementEnds, promptKey, shownPosition } from "./words.js";

/** The parts of the screen that belong to one exercise. */
const PARTS = ".mistakes-part, :scope > .board-area, :scope > .hand-area, :scope > .supply-area";

export class MistakesView {
  constructor() {
    /** @type {any[] | null} every exercise, the soonest due first */
    this.exercises = null;
    this.counts = null;
    /** @type {any} the exercise shown */
    this.current = null;
    this.number = 0;
    this.due = 0;
    this.pending = null; // the cell of a placement that waits for its hand-over
    this.verdict = null;
    this.message = null;
    this.busy = false;
    this.offline = false; // the server could not be reached: the device's exercises
    this.looking = null; // [done, count]: the device's games being looked at
    this.asked = 0;
    this.board = new Board($("mistakes-board"), (cell) => this.place(cell));
    this.supplyTitle = new PromptEcho($("mistakes-supply-title"), $("mistakes-prompt"));
    this.supply = new Supply($("mistakes-supply"), (piece) => this.give(piece));
    $button("mistakes-next").addEventListener("click", () => this.next());
  }

  async open() {
    const asked = ++this.asked;
    this.exercises = null;
    this.current = null;
    this.verdict = null;
    this.message = null;
    this.render();
    let listed;
    try {
      listed = await api.getMistakes(false, { wait: false });
    } catch (error) {
      if (asked !== this.asked) return;
      if (error.code === "unreachable") {
        await this.openOffline(asked);
      } else {
        this.message = describeError(error);
        this.render();
      }
      return;
    }
    if (asked !== this.asked) return;
    this.offline = false;
    /** @type {any[]} */
    const exercises = listed.exercises;
    this.exercises = exercises;
    this.counts = listed.counts;
    const now = Date.now();
    const due = exercises.filter((exercise) => Date.parse(exercise.due) <= now);
    this.due = due.length;
    this.number = 1;
    this.show(due[0] || null);
    deviceStore().then((store) => keepListed(store, exercises, now)).catch(() => {}); // offline use
  }

  /** The exercises on the device: those kept and those of the device's games. */
  async openOffline(asked) {
    this.offline = true;
    this.counts = null;
    try {
      const store = await deviceStore();
      await findOnDevice({
        store,
        engine,
        onProgress: (done, count) => {
          if (asked !== this.asked) return;
          this.looking = done < count ? [done, count] : null;
          this.render();
        },
      });
      const queue = offlineQueue(await store.listExercises(), await store.listAnswers(), Date.now());
      if (asked !== this.asked) return;
      this.exercises = queue;
      this.due = queue.length;
      this.number = 1;
      this.show(queue[0] || null);
    } catch (error) {
      if (asked !== this.asked) return;
      this.looking = null;
      this.message = describeError(error);
      this.render();
    }
  }

  close() {
    this.asked += 1;
  }

  show(exercise) {
    this.current = exercise;
    this.pending = null;
    this.verdict = null;
    this.render();
    if (!exercise) return;
    // What the player acts on in view (the board, or the pieces for a hand-over), the
    // question with it when both fit.
    const giving = exercise.kind === "give";
    revealAll([$(giving ? "mistakes-supply-area" : "mistakes-board"), $("mistakes-prompt")],
      { screen: $("mistakes-view"), instant: true });
    (giving ? this.supply : this.board).focus({ preventScroll: true });
  }

  /** The next exercise due: the list read again (the answer moved the one shown). */
  async next() {
    const number = this.number + 1;
    await this.open();
    this.number = Math.min(number, this.due);
    this.render();
  }

  // ---- answering --------------------------------------------------------------

  place(cell) {
    const exercise = this.current;
    if (!exercise || this.busy || this.verdict || exercise.kind !== "turn" || this.pending) return;
    if (placementEnds(exercise.position, exercise.rules, cell)) {
      this.send(answerText(cell, null));
      return;
    }
    this.pending = cell;
    this.render();
    revealAll([$("mistakes-supply-area")]);
    this.supply.focus({ preventScroll: true });
  }

  give(piece) {
    const exercise = this.current;
    if (!exercise || this.busy || this.verdict) return;
    if (exercise.kind === "turn" && !this.pending) return;
    this.send(answerText(exercise.kind === "turn" ? this.pending : null, piece));
  }

  async send(turn) {
    const exercise = this.current;
    this.busy = true;
    this.message = null;
    this.render();
    try {
      const verdict = this.offline ? await this.judgeOffline(exercise, turn)
        : await api.answerMistake(exercise.id, turn);
      if (this.current !== exercise) return;
      this.verdict = { ...verdict, turn };
      if (!this.offline) this.refreshProgress();
    } catch (error) {
      this.message = describeError(error);
      this.pending = null;
    } finally {
      this.busy = false;
      this.render();
    }
    if (!this.verdict) return;
    // The verdict stands above the board, the answer was given below it: the verdict
    // and its way on are brought into view, with the question when they fit.
    revealAll([$("mistakes-verdict")], { screen: $("mistakes-view") });
    $("mistakes-verdict-title").focus({ preventScroll: true });
  }

  /** Judge `turn` with the page's engine and keep the answer until it is sent. */
  async judgeOffline(exercise, turn) {
    const verdict = await judge(exercise, turn, (position, rules) => engine.analysis(position, rules));
    await (await deviceStore()).putAnswer(newAnswer(exercise, turn));
    sendWaiting();
    return { ...verdict, exercise: null };
  }

  /** The counts and the chart read again after an answer (the exercise shown stays). */
  async refreshProgress() {
    const asked = this.asked;
    try {
      const listed = await api.getMistakes(false, { wait: false });
      if (asked !== this.asked) return;
      this.exercises = listed.exercises;
      this.counts = listed.counts;
      this.renderProgress();
    } catch {
      // the counts shown stay until the list is read again
    }
  }

  // ---- drawing ----------------------------------------------------------------

  render() {
    const exercise = this.current;
    const view = $("mistakes-view");
    view.setAttribute("aria-busy", String(this.busy || this.exercises === null));
    const box = $("mistakes-message");
    box.hidden = !this.message;
    box.textContent = this.message ? messageWords(this.message) : "";
    for (const part of /** @type {NodeListOf<HTMLElement>} */ (view.querySelectorAll(PARTS))) {
      part.hidden = !exercise;
    }
    $("mistakes-offline").hidden = !this.offline;
    $("mistakes-progress").hidden = this.offline;
    this.renderProgress();
    this.renderEmpty();
    if (!exercise) {
      $("mistakes-prompt").textContent = this.exercises !== null || this.message ? ""
        : this.looking ? t("mistakes.looking", { done: this.looking[0], count: this.looking[1] })
          : t("mistakes.loading");
      $("mistakes-verdict").hidden = true;
      return;
    }
    $("mistakes-info").textContent = t("mistakes.info", { number: this.number, count: this.due });
    $("mistakes-rules").textContent = t("game.rules", { rules: rulesName(exercise.rules) });
    const played = exercise.kind === "give"
      ? t("mistakes.played.give", { piece: pieceLabel(exercise.played) })
      : t("mistakes.played.turn", { turn: exercise.played });
    $("mistakes-played").textContent = exercise.seen > 1
      ? `${played} ${t("mistakes.seen", { count: exercise.seen })}` : played;
    const giving = exercise.kind === "give" || Boolean(this.pending);
    // The question stays in view above its verdict.
    $("mistakes-prompt").textContent = this.busy ? t("mistakes.checking")
      : t(promptKey(exercise, Boolean(this.pending) && !this.verdict));
    this.supplyTitle.set(giving && !this.verdict, t("game.supply.title"));

    const shown = shownPosition(exercise.position);
    let hand = shown.hand;
    if (this.pending && hand) {
      shown.board[CELL_NAMES.indexOf(this.pending)] = hand; // placed, waiting for its hand-over
      hand = null;
    }
    const idle = !this.busy && !this.verdict;
    this.board.render(shown.board, {
      canPlace: idle && exercise.kind === "turn" && !this.pending,
      last: this.pending,
    });
    this.supply.render(shown.supply, { canGive: idle && giving });
    const handBox = $("mistakes-hand");
    handBox.replaceChildren();
    handBox.classList.toggle("empty", !hand);
    const caption = $("mistakes-hand-caption");
    if (hand) {
      handBox.append(pieceSvg(hand));
      handBox.setAttribute("aria-label", pieceLabel(hand));
      caption.textContent = t("game.hand.yours");
    } else {
      handBox.setAttribute("aria-label", t("game.hand.empty"));
      caption.textContent = giving && idle ? t("game.hand.empty") : "";
    }
    caption.hidden = !caption.textContent;
    this.renderVerdict();
  }

  renderVerdict() {
    const panel = $("mistakes-verdict");
    const verdict = this.verdict;
    panel.hidden = !verdict;
    if (!verdict) return;
    panel.classList.toggle("is-right", verdict.right === true);
    $("mistakes-verdict-title").textContent = t(verdict.right === null ? "mistakes.kept"
      : verdict.right ? "mistakes.right" : "mistakes.wrong");
    $("mistakes-answers").textContent = t("mistakes.answers", { turns: joinList(verdict.answers) });
    if (!verdict.exercise) {
      $("mistakes-next-due").textContent = t("mistakes.back_offline");
      return;
    }
    const when = dueWords(verdict.exercise.due, Date.now());
    $("mistakes-next-due").textContent = t("mistakes.back", { when: t(when.key, { count: when.count }) });
  }

  renderEmpty() {
    const empty = $("mistakes-empty");
    const none = this.exercises !== null && !this.current;
    empty.hidden = !none;
    if (!none) return;
    const exercises = /** @type {any[]} */ (this.exercises);
    if (!exercises.length) {
      empty.textContent = t(this.offline ? "mistakes.empty.offline" : "mistakes.empty.none");
      return;
    }
    const when = dueWords(exercises[0].due, Date.now());
    empty.textContent = t("mistakes.empty.later", { when: t(when.key, { count: when.count }) });
  }

  renderProgress() {
    const counts = this.counts;
    $("mistakes-counts").textContent = counts ? t("mistakes.counts", counts) : "";
    const chart = $("mistakes-chart");
    chart.replaceChildren();
    if (!this.exercises) return;
    const days = dueByDay(this.exercises, Date.now());
    const highest = Math.max(1, ...days);
    const formatter = new Intl.DateTimeFormat(document.documentElement.lang || "en", { weekday: "short" });
    days.forEach((count, index) => {
      const column = document.createElement("div");
      column.className = "due-day";
      const bar = document.createElement("span");
      bar.className = "due-bar";
      bar.style.height = `${Math.round((count / highest) * 60)}%`; // room for the words
      const number = document.createElement("span");
      number.className = "due-count";
      number.textContent = String(count);
      const label = document.createElement("span");
      label.className = "due-label";
      label.textContent = index === 0 ? t("mistakes.today") : formatter.format(new Date(Date.now() + index * 86_400_000));
      column.append(number, bar, label);
      chart.append(column);
    });
    chart.setAttribute("aria-label", t("mistakes.chart", { counts: days.join(", ") }));
  }
}
