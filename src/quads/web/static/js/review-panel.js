// The review of a finished game (GET /api/games/{id}/review): every turn with
// the value before and after it, the turns that threw away a win or a draw
// marked and explained, and the board before the turn chosen, with the cell
// played and a best cell pointed at.

import * as api from "./api.js";
import { t } from "./i18n.js";
import { exampleBoard } from "./learn-view.js";
import { playerName } from "./names.js";
import { pieceLabel } from "./pieces.js";
import { valueWords } from "./turn-values.js";

const $ = (id) => document.getElementById(id);

function turnWords(turn) {
  if (turn.place && turn.give) return t("review.turn.place_give", { cell: turn.place, piece: pieceLabel(turn.give) });
  if (turn.give) return t("review.turn.give", { piece: pieceLabel(turn.give) });
  return turn.place;
}

export class ReviewPanel {
  constructor() {
    this.game = null; // the id of the game reviewed
    this.turns = null;
    this.chosen = 0;
    this.failed = false;
  }

  /** Show the review of the finished game `view` (asked once per game). */
  async open(view) {
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
      const answer = await api.review(view.id);
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
      $("review-board-box").hidden = true;
      return;
    }
    const mistakes = this.turns.filter((turn) => turn.threw_away).length;
    status.textContent = mistakes ? t("review.count", { count: mistakes }) : t("review.clean");
    list.replaceChildren(...this.turns.map((turn, index) => this.item(view, turn, index)));
    const chosen = this.turns[this.chosen];
    $("review-board-box").hidden = !chosen;
    if (chosen) {
      const board = exampleBoard(chosen.position);
      const mark = (cell, name) => {
        const node = cell && board.querySelector(`[data-key="${cell}"]`);
        if (node) node.classList.add(name);
      };
      mark(chosen.turn.place, "last");
      if (chosen.best && chosen.best.place !== chosen.turn.place) mark(chosen.best.place, "marked");
      $("review-board").replaceChildren(board);
      $("review-board-caption").textContent = t("review.board", { number: this.chosen + 1 });
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
    button.textContent = `${mark}${t("review.turn", {
      number: index + 1, player: playerName(view, turn.player), turn: turnWords(turn.turn),
    })} · ${before} → ${after}`;
    button.addEventListener("click", () => {
      this.chosen = index;
      this.render(view);
      $("review-list").querySelectorAll("button")[index].focus();
    });
    item.append(button);
    if (turn.threw_away) {
      const why = document.createElement("p");
      why.className = "review-why";
      const best = turn.best ? turnWords(turn.best) : t("review.best_unknown");
      why.textContent = t(turn.threw_away === "win" ? "review.lost_win" : "review.lost_draw", { best });
      item.append(why);
    }
    return item;
  }
}
