// The review of a finished game (a ReviewView, docs/web-api.md): every turn with
// the value before and after it, the turns that threw away a win or a draw
// marked and explained, and the board before the turn chosen, with the cell
// played and a best cell pointed at.

import { exampleBoard } from "../example-board.js";
import { t } from "../i18n.js";
import { playerName } from "../names.js";
import { pieceLabel } from "../pieces.js";
import { revealAll } from "../reveal.js";
import { valueWords } from "../turn-values.js";
import { $ } from "../dom.js";

/** The form of a turn's keys: "place_give", "give" or "place". */
function turnForm(turn) {
  if (turn.place && turn.give) return "place_give";
  return turn.give ? "give" : "place";
}

/** Turn `number` of the game, made by `side`, as a sentence. */
function turnSentence(view, number, side, turn) {
  const person = view.mode === "online" ? view.you : view.mode === "computer" ? view.human : null;
  const who = side === person ? "you" : "player";
  return t(`review.turn.${who}.${turnForm(turn)}`, {
    number, player: playerName(view, side), cell: turn.place, piece: turn.give && pieceLabel(turn.give),
  });
}

/** A better turn, as the part of a sentence that names it ("putting it on C1 and …"). */
function bestWords(turn) {
  return t(`review.best.${turnForm(turn)}`, { cell: turn.place, piece: turn.give && pieceLabel(turn.give) });
}

export class ReviewPanel {
  constructor() {
    this.game = null; // the id of the game reviewed
    this.turns = null;
    this.chosen = 0;
    this.failed = false;
    // The board of the turn chosen shows under that turn, by the press that chose it.
    this.boardBox = $("review-board-box");
  }

  /** Show the review of the finished game `view`, asked of its `source` once per game. */
  async open(view, source) {
    $("review-panel").hidden = false;
    if (this.game === view.id && (this.turns || !this.failed)) {
      this.render(view);
      return;
    }
    this.game = view.id;
    this.turns = null;
    this.failed = false;
    this.render(view);
    $("review-title").focus({ preventScroll: false });
    try {
      const answer = await source.review();
      if (this.game !== view.id) return;
      this.turns = answer.turns;
      const mistake = this.turns.findIndex((turn) => turn.threw_away);
      this.chosen = Math.max(0, mistake);
    } catch {
      if (this.game !== view.id) return;
      this.failed = true;
    }
    this.render(view);
  }

  /** Hide the panel (another game is shown, or the game goes on). */
  close() {
    $("review-panel").hidden = true;
    this.game = null;
    this.turns = null;
  }

  render(view) {
    const status = $("review-status");
    const list = $("review-list");
    $("review-panel").setAttribute("aria-busy", String(!this.turns && !this.failed));
    if (!this.turns) {
      status.textContent = t(this.failed ? "review.failed" : "review.thinking");
      list.replaceChildren();
      this.boardBox.hidden = true;
      return;
    }
    const mistakes = this.turns.filter((turn) => turn.threw_away).length;
    status.textContent = mistakes ? t("review.count", { count: mistakes }) : t("review.clean");
    list.replaceChildren(...this.turns.map((turn, index) => this.item(view, turn, index)));
    const chosen = this.turns[this.chosen];
    this.boardBox.hidden = !chosen;
    if (chosen) list.children[this.chosen].append(this.boardBox);
    if (chosen) {
      const board = exampleBoard(chosen.position);
      const mark = (cell, name) => {
        const node = cell && board.querySelector(`[data-key="${cell}"]`);
        if (node) node.classList.add(name);
      };
      mark(chosen.turn.place, "last");
      if (chosen.best && chosen.best.place !== chosen.turn.place) mark(chosen.best.place, "marked");
      /** @param {string} selector */
      const part = (selector) => /** @type {HTMLElement} */ (this.boardBox.querySelector(selector));
      part("#review-board").replaceChildren(board);
      part("#review-board-caption").textContent = t("review.board", { number: this.chosen + 1 });
    }
  }

  item(view, turn, index) {
    const item = document.createElement("li");
    item.className = turn.threw_away ? "review-item mistake" : "review-item";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "review-turn";
    button.setAttribute("aria-pressed", String(index === this.chosen));
    const mark = turn.threw_away ? "✗ " : "";
    const before = valueWords({ value: turn.before, plies: turn.before_plies });
    const after = valueWords({ value: turn.after, plies: turn.after_plies });
    button.textContent = `${mark}${turnSentence(view, index + 1, turn.player, turn.turn)} (${before} → ${after})`;
    button.addEventListener("click", () => {
      this.chosen = index;
      this.render(view);
      const pressed = /** @type {NodeListOf<HTMLButtonElement>} */ ($("review-list").querySelectorAll("button.review-turn"))[index];
      pressed.focus({ preventScroll: true });
      revealAll([pressed, this.boardBox]);
    });
    item.append(button);
    if (turn.threw_away) {
      const why = document.createElement("p");
      why.className = "review-why";
      const best = turn.best ? bestWords(turn.best) : t("review.best_unknown");
      why.textContent = t(turn.threw_away === "win" ? "review.lost_win" : "review.lost_draw", { best });
      item.append(why);
    }
    return item;
  }
}
