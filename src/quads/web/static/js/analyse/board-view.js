// The analysis board (#/analyse/RULES/POSITION): set up any position, with a
// piece in hand or not, and see the value of every turn (GET /api/analysis, or the
// page's own engine while the server cannot be reached).
// The address holds the rule set and the position string, so a position is
// shared by sharing the address (analyse/address.js); an address that cannot be
// read shows why, in place of the board.  The rule sets offered are the page's
// (RULE_SETS of js/names.js).  Shapes already complete are marked on the board:
// won (the position cannot come about) or, under declared calling, dead.
//
// Setting up: choose a piece of the palette, then press a cell to put it there,
// or "In hand" to give it to the side to move; pressing a cell with a piece
// takes it back.  Beside the board, what people played here on this site
// (analyse/explorer-panel.js).

import * as api from "../api.js";
import { Board, CELLS } from "../board.js";
import { engineClient as engine } from "../engine/client.js";
import { t } from "../i18n.js";
import { RULE_SETS, describeError, joinList, messageWords, rulesName, shapeName } from "../names.js";
import { pieceLabel, pieceSvg } from "../pieces.js";
import { positionString } from "../position.js";
import { revealAll } from "../reveal.js";
import { Supply } from "../supply.js";
import { valueWords, valuesByTarget } from "../turn-values.js";
import { $, $button, $select } from "../dom.js";
import { DEFAULT_RULES, analyseAddress } from "./address.js";
import { completedShapes } from "./completed.js";
import { ExplorerPanel } from "./explorer-panel.js";

/** @typedef {import("./address.js").Message} Message */

const PIECES = "0123456789ABCDEF".split("");

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
    this.rules = DEFAULT_RULES;
    /** @type {Message[] | null} why the address cannot be read, shown in place of the board */
    this.broken = null;
    this.chosen = null; // the palette piece to put down next
    this.answer = null; // the analysis of the position shown, or {failed: {key, params}}
    this.asked = null; // the address whose analysis is on its way
    this.revealing = false; // bring the board into view once the values are in
    this.cells = new Board($("analyse-board"), (cell) => this.pressCell(cell));
    this.explorer = new ExplorerPanel();
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

  /**
   * Open the board at what the address holds (analyse/address.js: readAddress): the
   * position to set up, or why the address cannot be read.  A broken address stays
   * as it is, for whoever shared it to see.  A position with pieces comes with the
   * values of its turns on the board: once they are in, the board is brought wholly
   * into view, with the status above it when both fit (on a small phone the board
   * stands below the screen's top).  The empty board stays at the top, by its help.
   * @param {{ setup: import("./address.js").Setup } | { broken: Message[] }} read
   */
  open(read) {
    this.chosen = null;
    this.answer = null;
    if ("broken" in read) {
      this.broken = read.broken;
      this.asked = location.hash;
      this.render();
      return;
    }
    this.broken = null;
    ({ rules: this.rules, board: this.board, hand: this.hand } = read.setup);
    this.show({ replace: true });
    this.revealing = Boolean(this.hand) || this.board.some(Boolean);
  }

  setUp(board, hand) {
    this.revealing = false;
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
    return analyseAddress(this.rules, this.position);
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
    this.explorer.open(this.rules, this.position);
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
    this.explorer.setMoves(answer.moves || null);
    this.render();
    // Why a position is refused shows above the board: in view, with the board.
    if (answer.failed) revealAll([$("analyse-summary"), $("analyse-board")]);
    else if (this.revealing) {
      revealAll([$("analyse-board"), $("analyse-status")],
        { screen: $("analyse-view"), instant: true });
    }
    this.revealing = false;
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

  /** Show why the address cannot be read in place of the board, or the board. */
  renderBroken() {
    const broken = this.broken;
    $("analyse-view").classList.toggle("is-broken", Boolean(broken));
    $("analyse-broken").hidden = !broken;
    $("analyse-broken-reason").textContent = broken ? broken.map(messageWords).join(" ") : "";
    const board = [$("analyse-help"), $("analyse-rules-label"), $("analyse-summary"), $("analyse-tools"),
      $("analyse-board").closest(".board-area"), $("analyse-hand").closest(".hand-area"),
      $("analyse-supply-area"), $("analyse-explorer")];
    for (const element of board) if (element instanceof HTMLElement) element.hidden = Boolean(broken);
  }

  /** The rule sets offered (the page's), and the one of the address if it is another. */
  renderRules() {
    const select = $select("analyse-rules");
    const names = RULE_SETS.map((set) => set.rules);
    if (!names.includes(this.rules)) names.push(this.rules);
    if ([...select.options].map((option) => option.value).join(" ") !== names.join(" ")) {
      select.replaceChildren(...names.map((name) => new Option(name, name)));
    }
    for (const option of select.options) option.textContent = rulesName(option.value);
    select.value = this.rules;
  }

  render() {
    if ($("analyse-view").hidden && !this.asked) return;
    this.renderBroken();
    if (this.broken) {
      $("analyse-view").setAttribute("aria-busy", "false");
      return;
    }
    this.renderRules();
    const answer = this.answer;
    const values = answer && answer.moves ? valuesByTarget(answer.moves) : null;
    const completed = completedShapes(this.board, this.hand, this.rules);
    this.cells.render(this.board, {
      everyCell: true,
      values: values && this.hand ? values.cells : null,
      winning: completed.won ? completed.cells : [],
      marked: completed.won ? [] : completed.cells,
    });
    const dead = !completed.won && completed.shapes.length > 0;
    $("analyse-completed").hidden = !dead;
    $("analyse-completed").textContent = dead
      ? t(completed.shapes.length === 1 ? "analyse.dead.one" : "analyse.dead.many",
        { shapes: joinList(completed.shapes.map(shapeName)) })
      : "";
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
    this.explorer.render();
    $("analyse-note").textContent = answer && answer.moves
      ? `${t("analysis.legend")}${answer.complete ? "" : ` ${t("analysis.partial")}`}`
      : "";
  }
}
