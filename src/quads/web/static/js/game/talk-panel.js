// Quick messages at the table (docs/web-api.md, "Quick messages"): the two players of
// an online game say preset lines to each other ("Hello", "Good luck", …), never free
// text.  Each line travels as its preset's name and is worded here, in the reader's
// own language, so a German and an English player understand each other.
//
// The lines arrive on the game's live socket (`heard`); the newest of each side shows
// for a few seconds beside that side's name in the seats list, and the box "Messages"
// keeps the last ones.  One switch mutes them: nothing said by the other is shown or
// read out then, and the choice is remembered on this device.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { otherSide } from "../names.js";
import { $, $input } from "../dom.js";

/** The lines that may be said, in the order they are offered (the server's presets). */
export const PRESETS = ["hello", "good_luck", "well_played", "thanks", "oops", "rematch"];

/** How long a line shows beside its side's name, in ms. */
export const BUBBLE_MS = 8000;

/** Lines kept in the box. */
export const KEPT = 12;

const MUTE_KEY = "quads.talk.muted";

/** Whether `view` is a game at whose table its reader talks: online, seated, both seats taken. */
export function atTable(view) {
  return Boolean(view && view.mode === "online" && view.you && !view.spectator &&
    view.seats && view.seats.first !== "free" && view.seats.second !== "free");
}

export class TalkPanel {
  /** `changed()` has the screen drawn again (a line arrived or its time passed). */
  constructor(changed) {
    this.changed = changed;
    this.game = null;
    /** @type {{ seq: number, side: string, message: string }[]} the lines of the game, oldest first */
    this.lines = [];
    /** @type {Record<string, { message: string, until: number }>} the line showing beside each side */
    this.bubbles = {};
    this.timer = undefined;
    this.muted = localStorage.getItem(MUTE_KEY) === "1";
    /** @type {string | null} a refusal to show in the box */
    this.note = null;
    this.sending = false;
    this.built = false;
  }

  /** Lines said at the table of game `id` (a `talk` message of its socket). */
  heard(id, messages) {
    if (id !== this.game) {
      this.game = id;
      this.lines = [];
      this.bubbles = {};
    }
    const last = this.lines.length ? this.lines[this.lines.length - 1].seq : 0;
    const fresh = messages.filter((line) => line.seq > last && PRESETS.includes(line.message));
    if (!fresh.length) return;
    this.lines = [...this.lines, ...fresh].slice(-KEPT);
    // The lines said while the page was away are kept in the box; only recent ones show.
    const now = Date.now();
    for (const line of fresh) {
      const age = now - Date.parse(line.at);
      if (!(age < BUBBLE_MS)) continue;
      this.bubbles[line.side] = { message: line.message, until: performance.now() + BUBBLE_MS - Math.max(0, age) };
    }
    this.schedule();
    this.changed();
  }

  /** Forget the game left. */
  close() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.game = null;
    this.lines = [];
    this.bubbles = {};
    this.note = null;
  }

  /** Redraw when the next bubble's time is over. */
  schedule() {
    clearTimeout(this.timer);
    const ends = Object.values(this.bubbles).map((bubble) => bubble.until);
    if (!ends.length) return;
    const wait = Math.max(0, Math.min(...ends) - performance.now());
    this.timer = setTimeout(() => {
      const now = performance.now();
      for (const [side, bubble] of Object.entries(this.bubbles)) if (bubble.until <= now) delete this.bubbles[side];
      this.schedule();
      this.changed();
    }, wait + 20);
  }

  /** The words showing beside the name of each side of `view`, by side ("" for none). */
  said(view) {
    const shown = { first: "", second: "" };
    if (!atTable(view) || view.id !== this.game) return shown;
    const now = performance.now();
    for (const side of ["first", "second"]) {
      const bubble = this.bubbles[side];
      const theirs = side === otherSide(view.you);
      if (bubble && bubble.until > now && !(theirs && this.muted)) shown[side] = t(`talk.${bubble.message}`);
    }
    return shown;
  }

  /** Mute (or hear again) what the other player says; remembered on this device. */
  setMuted(on) {
    this.muted = on;
    localStorage.setItem(MUTE_KEY, on ? "1" : "0");
    this.changed();
  }

  /** Say the preset `message` at the table of `view`. */
  async say(view, message) {
    if (!atTable(view) || this.sending) return;
    this.sending = true;
    this.note = null;
    this.changed();
    try {
      await api.say(view.id, message);
    } catch (error) {
      this.note = t(error.code === "rate_limited" ? "talk.slow" : "talk.failed");
    } finally {
      this.sending = false;
      this.changed();
    }
  }

  /** Draw the box "Messages" for `view`: the presets, the last lines and the switch. */
  render(view) {
    const box = $("talk-box");
    box.hidden = !atTable(view);
    if (box.hidden) return;
    if (!this.built) {
      this.built = true;
      const presets = $("talk-presets");
      for (const message of PRESETS) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "button talk-preset";
        button.dataset.message = message;
        button.addEventListener("click", () => this.say(this.view, message));
        presets.append(button);
      }
      const mute = $input("talk-mute");
      mute.addEventListener("change", () => this.setMuted(mute.checked));
    }
    this.view = view;
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ ($("talk-presets").querySelectorAll("button"))) {
      const words = t(`talk.${button.dataset.message}`);
      if (button.textContent !== words) button.textContent = words;
      button.disabled = this.sending;
    }
    $input("talk-mute").checked = this.muted;
    const lines = view.id === this.game ? this.lines : [];
    const items = this.muted ? [] : lines.map((line) => {
      const item = document.createElement("li");
      const who = line.side === view.you ? t("talk.you") : theirName(view, line.side);
      item.textContent = t("talk.line", { who, message: t(`talk.${line.message}`) });
      item.dataset.side = line.side === view.you ? "you" : "they";
      return item;
    });
    const log = $("talk-log");
    const signature = items.map((item) => item.textContent).join("|");
    if (log.dataset.signature !== signature) {
      log.dataset.signature = signature;
      log.replaceChildren(...items);
    }
    const empty = $("talk-empty");
    empty.hidden = items.length > 0;
    empty.textContent = this.muted ? t("talk.muted") : t("talk.empty");
    const note = $("talk-note");
    note.hidden = this.note === null;
    note.textContent = this.note || "";
  }
}

/** The name of the player of `side` of `view`, as the seats list words it. */
function theirName(view, side) {
  return (view.names && view.names[side]) || t("talk.they");
}
