// The clocks of an online game on the game screen (docs/web-api.md, "Clocks"):
// both sides' time, the running side's counting down from the moment the page
// received the view (the server's clock is the truth: its figures are read as of
// their receipt, never against the device's time of day), a real-time first move's
// grace as a countdown, a correspondence move as days and hours left, and low
// time marked.  At 0 the clock shows 0 and waits: the server ends the game on
// time by itself, and the live socket brings the end.  When a piece is to be
// handed over, the player's own time shows by the supply too (on a phone the
// clocks above are scrolled away then).

import { clockTimes, faceText, isCorrespondence, isLow, leftWords } from "../clocks.js";
import { t } from "../i18n.js";
import { otherSide, playerName } from "../names.js";
import { $ } from "../dom.js";

const REAL_TIME_TICK_MS = 100;
const DAYS_TICK_MS = 1000;

export class ClockPanel {
  constructor() {
    this.received = new WeakMap(); // a ClockView -> performance.now() when it came
    this.view = null;
    this.person = null;
    /** @type {number | undefined} the ticking of a running clock */
    this.timer = undefined;
    /** @type {number | null} its pace, ms */
    this.tick = null;
  }

  /** Take the clocks of `view` (none for a game without one), `person` the side to act
   * at this screen (or null), and keep them ticking (drawn anew) while one runs. */
  update(view, person) {
    this.view = view;
    this.person = person;
    const clock = view && view.mode === "online" ? view.clock : null;
    if (clock && !this.received.has(clock)) this.received.set(clock, performance.now());
    const running = Boolean(clock && clock.running && !view.outcome);
    const tick = clock && isCorrespondence(clock.control) ? DAYS_TICK_MS : REAL_TIME_TICK_MS;
    if (running && this.tick !== tick) this.stop();
    if (running && !this.timer) {
      this.tick = tick;
      this.timer = setInterval(() => this.draw(), tick);
    }
    if (!running) this.stop();
  }

  /** Stop ticking (the game was left, or its clock stopped). */
  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    this.tick = null;
  }

  /** Forget the game: nothing shows, nothing ticks. */
  close() {
    this.stop();
    this.view = null;
    this.draw();
  }

  /** Draw the clocks as they stand now. */
  draw() {
    const view = this.view;
    const clock = view && view.mode === "online" ? view.clock : null;
    $("clocks").hidden = !clock;
    const note = $("clock-note");
    const byPiece = { give: $("supply-clock"), place: $("hand-clock") };
    if (!clock) {
      note.hidden = true;
      byPiece.give.hidden = byPiece.place.hidden = true;
      return;
    }
    const over = Boolean(view.outcome);
    const elapsed = over ? 0 : performance.now() - this.received.get(clock);
    const times = clockTimes(clock, elapsed);
    const control = clock.control;
    const running = over ? null : times.running;
    const order = view.you ? [view.you, otherSide(view.you)] : ["first", "second"];
    order.forEach((side, index) => {
      const box = $(`clock-${index}`);
      const left = times[side];
      box.dataset.side = side;
      box.classList.toggle("is-running", running === side);
      const graceLeft = running === side && times.grace !== null ? times.grace : null;
      box.classList.toggle("is-low", running === side && isLow(control, graceLeft ?? left));
      setText(box.querySelector(".clock-who"), playerName(view, side));
      setText(box.querySelector(".clock-time"), faceText(control, left, t));
    });

    // The line under the clocks: a first move's grace, or a clock at 0 waiting for the server.
    let text = "";
    let low = false;
    if (running) {
      const left = times.grace ?? times[running];
      const time = leftWords(left, t);
      low = isLow(control, left);
      if (left <= 0) text = t("clock.zero");
      else if (times.firstMove) {
        text = running === view.you
          ? t("clock.grace.you", { time })
          : t("clock.grace.they", { player: playerName(view, running), time });
      }
    }
    note.hidden = !text;
    note.classList.toggle("is-low", low);
    setText(note, text);

    // The player's own time by what they act on: the supply while they hand a piece
    // over, the piece in hand while they place it (the clocks may be above the screen).
    const acting = Boolean(this.person) && this.person === view.you && running === view.you;
    for (const [step, mine] of Object.entries(byPiece)) {
      mine.hidden = !(acting && view.step === step);
      if (mine.hidden) continue;
      const left = times.grace ?? times[view.you];
      const time = times.grace !== null ? leftWords(left, t) : faceText(control, left, t);
      mine.classList.toggle("is-low", isLow(control, left));
      setText(mine, t("clock.yours", { time }));
    }
  }
}

/** Change a text only when it changed (a screen reader hears no churn, the layout holds). */
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}
