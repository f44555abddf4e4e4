// The analysis board (#/analyse/RULES/POSITION): set up any position, with a
// piece in hand or not, and see the value of every turn (GET /api/analysis, or the
// page's own engine while the server cannot be reached).
// The address holds the rule set and the position string, so a position is
// shared by sharing the address.
//
// Setting up: choose a piece of the palette, then press a cell to put it there,
// or "In hand" to give it to the side to move; pressing a cell with a piece
// takes it back.

import * as api from "../api.js";
import { Board, CELLS } from "../board.js";
import { engineClient as engine } from "../engine/client.js";
import { t } from "../i18n.js";
import { describeError, messageWords, rulesName } from "../names.js";
import { pieceLabel, pieceSvg } from "../pieces.js";
import { positionString, readPosition } from "../position.js";
import { revealAll } from "../reveal.js";
import { Supply } from "../supply.js";
import { valueWords, valuesByTarget } from "../turn-values.js";
import { $, $button, $select } from "../dom.js";

const PIECES = "0123456789ABCDEF".split("");
const RULES = ["quads", "classic", "advanced"];

/** The analysis of a position: the server's, or the page's engine's alike while the
 * server cannot be reached. */
async function analysis(position, rules) {
  try {
    return await api.analysis(position, rules, { wait: false });
  } catch (error) {
    if (error.code !== "unreachable") throw error;
  }
  return engine.analysis(position, rules, { seconds: 3 });
}

export class BoardView {
  constructor({ notify }) {
    this.notify = notify;
    this.board = Array(16).fill(null);
    this.hand = null;
    this.rules = "quads";
    this.chosen = null; // the palette piece to put down next
    this.answer = null; // the analysis of the position shown, or {failed: {key, params}}
    this.asked = null; // the address whose analysis is on its way
    this.cells = new Board($("analyse-board"), (cell) => this.pressCell(cell));
    this.palette = new Supply($("analyse-supply"), (piece) => this.choose(piece));
    $("analyse-hand-button").addEventListener("click", () => this.pressHand());
    $("analyse-clear").addEventListener("click", () => this.setUp(Array(16).fill(null), null));
    const rules = $select("analyse-rules");
    rules.addEventListener("change", () => {
      this.rules = rules.value;
      this.show();
    });
    $("analyse-copy").addEventListener("click", () => this.copyLink());
  }

  /** Open the board at `rules` and `position` (a position string) from the address. */
  open(rules, position) {
    this.rules = RULES.includes(rules) ? rules : "quads";
    const read = position ? readPosition(position) : null;
    this.board = read ? read.board : Array(16).fill(null);
    this.hand = read ? read.hand : null;
    this.chosen = null;
    this.show({ replace: true });
  }

  setUp(board, hand) {
    this.board = board;
    this.hand = hand;
    this.show();
  }

  choose(piece) {
    this.chosen = this.chosen === piece ? null : piece;
    this.render();
  }

  pressCell(cell) {
    const index = CELLS.indexOf(cell);
    const board = [...this.board];
    if (board[index]) {
      board[index] = null; // back to the palette
    } else if (this.chosen) {
      board[index] = this.chosen;
      this.chosen = null;
    } else {
      return;
    }
    this.setUp(board, this.hand);
  }

  pressHand() {
    if (this.hand) this.setUp(this.board, null);
    else if (this.chosen) {
      const hand = this.chosen;
      this.chosen = null;
      this.setUp(this.board, hand);
    }
  }

  get position() {
    return positionString(this.board, this.hand);
  }

  get address() {
    return `#/analyse/${this.rules}/${encodeURIComponent(this.position)}`;
  }

  /** Put the position in the address and ask for its analysis. */
  show({ replace = false } = {}) {
    const address = this.address;
    if (location.hash !== address) {
      if (replace) history.replaceState(null, "", address);
      else history.pushState(null, "", address);
    }
    this.answer = null;
    this.asked = address;
    this.render();
    this.analyse(address);
  }

  async analyse(address) {
    let answer;
    try {
      answer = await analysis(this.position, this.rules);
    } catch (error) {
      answer = { failed: describeError(error, { fallback: "analysis.failed" }) };
    }
    if (this.asked !== address) return; // set up anew meanwhile
    this.answer = answer;
    this.render();
    // Why a position is refused shows above the board: in view, with the board.
    if (answer.failed) revealAll([$("analyse-summary"), $("analyse-board")]);
  }

  async copyLink() {
    const link = location.href;
    try {
      await navigator.clipboard.writeText(link);
      this.notify(t("analyse.copied"));
    } catch {
      this.notify(t("analyse.copy_failed", { link }));
    }
  }

  render() {
    if ($("analyse-view").hidden && !this.asked) return;
    $select("analyse-rules").value = this.rules;
    for (const option of $select("analyse-rules").options) option.textContent = rulesName(option.value);
    const answer = this.answer;
    const values = answer && answer.moves ? valuesByTarget(answer.moves) : null;
    this.cells.render(this.board, {
      everyCell: true,
      values: values && this.hand ? values.cells : null,
    });
    const used = new Set([...this.board.filter(Boolean), this.hand].filter(Boolean));
    this.palette.render(PIECES.filter((p) => !used.has(p)), {
      canGive: true,
      values: values && !this.hand ? values.pieces : null,
    });
    for (const button of this.palette.container.querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button.dataset.key === this.chosen));
    }
    const hand = $("analyse-hand");
    hand.replaceChildren(...(this.hand ? [pieceSvg(this.hand)] : []));
    hand.setAttribute("aria-label", this.hand ? pieceLabel(this.hand) : t("game.hand.empty"));
    $("analyse-hand-button").textContent = t(this.hand ? "analyse.hand.clear" : "analyse.hand.set");
    $button("analyse-hand-button").disabled = !this.hand && !this.chosen;
    $("analyse-position").textContent = this.position;
    const status = $("analyse-status");
    $("analyse-view").setAttribute("aria-busy", String(!answer));
    if (!answer) status.textContent = t("analysis.thinking");
    else if (answer.failed) status.textContent = messageWords(answer.failed);
    else {
      const side = t(this.hand ? "analyse.to_place" : "analyse.to_give");
      status.textContent = `${side} ${t("analyse.value", { value: valueWords(answer) })}`;
    }
    $("analyse-note").textContent = answer && answer.moves
      ? `${t("analysis.legend")}${answer.complete ? "" : ` ${t("analysis.partial")}`}`
      : "";
  }
}
