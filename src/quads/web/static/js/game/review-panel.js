// The review of a finished game (a ReviewView, docs/web-api.md): every turn with
// the value before and after it, the turns that threw away a win or a draw
// marked and explained, and the board before the turn chosen, with the cell
// played and the piece handed over ringed and, where the turn threw something
// away, a better one.  The buttons under the board and the arrow keys in the
// list step from turn to turn; a link opens the position on the analysis board,
// with what people played there.

import { analyseAddress } from "../analyse/address.js";
import { exampleBoard } from "../example-board.js";
import { t } from "../i18n.js";
import { playerName } from "../names.js";
import { pieceLabel, pieceSvg } from "../pieces.js";
import { revealAll } from "../reveal.js";
import { $ } from "../dom.js";
import { boardCaption, turnMarks, turnValueWords } from "./review-words.js";

/** The keys that step through the list, and by how much. */
const STEPS = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 };

/** A piece of the turn beside its board: `piece` under the words of `key`, ringed as `ring`. */
function pieceTile(key, piece, ring) {
  const tile = document.createElement("figure");
  tile.className = `review-piece ${ring}`;
  tile.dataset.piece = piece;
  const picture = document.createElement("div");
  picture.className = "review-piece-picture";
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", pieceLabel(piece));
  picture.append(pieceSvg(piece));
  const words = document.createElement("figcaption");
  words.textContent = t(key);
  tile.append(picture, words);
  return tile;
}

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
    /** @type {any} the view of the game reviewed */
    this.view = null;
    $("review-back").addEventListener("click", () => this.step(-1, $("review-back")));
    $("review-forward").addEventListener("click", () => this.step(1, $("review-forward")));
    $("review-list").addEventListener("keydown", (event) => {
      const turns = this.turns;
      if (!turns || !(event.target instanceof HTMLButtonElement)) return;
      const key = /** @type {keyof typeof STEPS | "Home" | "End"} */ (event.key);
      const to = key === "Home" ? 0 : key === "End" ? turns.length - 1
        : key in STEPS ? this.chosen + STEPS[/** @type {keyof typeof STEPS} */ (key)] : null;
      if (to === null) return;
      event.preventDefault();
      this.choose(to);
    });
  }

  /** Choose turn `index` (kept within the game) and bring its button into view, focused. */
  choose(index) {
    if (!this.turns || !this.view) return;
    this.chosen = Math.max(0, Math.min(this.turns.length - 1, index));
    this.render(this.view);
    const pressed = /** @type {HTMLButtonElement} */ ($("review-list").querySelectorAll("button.review-turn")[this.chosen]);
    pressed.focus({ preventScroll: true });
    revealAll([pressed, this.boardBox]);
  }

  /** One turn back (-1) or forward (+1), by the button `from`, which keeps the focus. */
  step(delta, from) {
    if (!this.turns || !this.view) return;
    this.chosen = Math.max(0, Math.min(this.turns.length - 1, this.chosen + delta));
    this.render(this.view);
    if (!(/** @type {HTMLButtonElement} */ (from)).disabled) from.focus({ preventScroll: true });
    else (/** @type {HTMLElement} */ ($("review-list").querySelectorAll("button.review-turn")[this.chosen])).focus({ preventScroll: true });
    revealAll([this.boardBox]);
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
    this.view = view;
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
    if (chosen) this.renderBoard(chosen);
  }

  /** The board before `chosen`, its pieces beside it, its caption and the steps. */
  renderBoard(chosen) {
    const marks = turnMarks(chosen);
    const board = exampleBoard(chosen.position);
    const mark = (cell, name) => {
      const node = cell && board.querySelector(`[data-key="${cell}"]`);
      if (node) node.classList.add(name);
    };
    mark(marks.cell, "last");
    mark(marks.betterCell, "marked");
    const pieces = [];
    if (marks.placed) pieces.push(pieceTile("review.piece.placed", marks.placed, "plain"));
    if (marks.piece) pieces.push(pieceTile("review.piece.handed", marks.piece, "last"));
    if (marks.betterPiece) pieces.push(pieceTile("review.piece.better", marks.betterPiece, "marked"));
    $("review-board").replaceChildren(board);
    $("review-pieces").replaceChildren(...pieces);
    $("review-board-caption").textContent = boardCaption(this.chosen + 1, marks);
    // The position before the turn on the analysis board, with what people played there.
    $("review-explore").setAttribute("href", analyseAddress(this.view.rules, chosen.position));
    /** @type {HTMLButtonElement} */ ($("review-back")).disabled = this.chosen === 0;
    /** @type {HTMLButtonElement} */ ($("review-forward")).disabled = this.chosen === (this.turns?.length ?? 0) - 1;
  }

  item(view, turn, index) {
    const item = document.createElement("li");
    item.className = turn.threw_away ? "review-item mistake" : "review-item";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "review-turn";
    button.setAttribute("aria-pressed", String(index === this.chosen));
    button.tabIndex = index === this.chosen ? 0 : -1; // one stop for Tab; the arrows move in the list
    const mark = turn.threw_away ? "✗ " : "";
    button.textContent = `${mark}${turnSentence(view, index + 1, turn.player, turn.turn)} (${turnValueWords(turn)})`;
    button.addEventListener("click", () => this.choose(index));
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
