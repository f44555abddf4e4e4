// What people played here, beside the analysis board: the turns played on this site
// from the position shown (GET /api/explorer, up to symmetry), the most played
// first, each with its games, how they ended (a bar of the first player's wins,
// the draws and the second player's wins) and the turn's exact value from the
// analysis of the same position; over all games, or those between people or against
// one level, rated or casual, or rated in a range of the players' mean rating.  The rows are analyse/explorer.js's.

import * as api from "../api.js";
import { $, $select } from "../dom.js";
import { t } from "../i18n.js";
import { valueWords } from "../turn-values.js";
import { explorerRows } from "./explorer.js";

/** Rows shown at most. */
const SHOWN = 12;

export class ExplorerPanel {
  constructor() {
    this.asked = "";
    this.explored = null;
    this.moves = null;
    this.failed = false;
    this.rules = "";
    this.position = "";
    for (const id of ["analyse-explorer-source", "analyse-explorer-rated", "analyse-explorer-band"]) {
      $select(id).addEventListener("change", () => this.open(this.rules, this.position));
    }
  }

  /** The filters chosen: {source, rated, min_band, max_band}, each only when one is
   * chosen (a band means rated games: the lowest band's start and the highest's). */
  filters() {
    /** @type {Record<string, string>} */
    const chosen = {};
    const source = $select("analyse-explorer-source").value;
    const rated = $select("analyse-explorer-rated").value;
    if (source) chosen.source = source;
    if (rated) chosen.rated = rated;
    const band = $select("analyse-explorer-band").value;
    if (band) {
      const [low, high] = band.split("-").map(Number);
      chosen.min_band = String(low);
      chosen.max_band = String(Math.floor(high / 200) * 200);
    }
    return chosen;
  }

  /** Ask what people played in `position` under `rules`. */
  async open(rules, position) {
    if (rules !== this.rules || position !== this.position) this.moves = null; // another position's
    this.rules = rules;
    this.position = position;
    const filters = this.filters();
    const asked = `${rules} ${position} ${JSON.stringify(filters)}`;
    this.asked = asked;
    this.explored = null;
    this.failed = false;
    this.render();
    try {
      const explored = await api.explorer(rules, position, filters, { wait: false });
      if (this.asked !== asked) return;
      this.explored = explored;
    } catch {
      if (this.asked !== asked) return;
      this.failed = true; // offline, or a position the analysis refuses too
    }
    this.render();
  }

  /** The analysis of the same position came: its values beside the turns. */
  setMoves(moves) {
    this.moves = moves;
    this.render();
  }

  render() {
    const status = $("analyse-explorer-status");
    const list = $("analyse-explorer-list");
    const explored = this.explored;
    if (!explored) {
      status.textContent = t(this.failed ? "explorer.failed" : "explorer.loading");
      list.replaceChildren();
      return;
    }
    status.textContent = explored.games
      ? t(explored.games === 1 ? "explorer.games.one" : "explorer.games.many", { count: explored.games })
      : t("explorer.none");
    list.replaceChildren(...explorerRows(explored, this.moves).slice(0, SHOWN).map((row) => {
      const item = document.createElement("li");
      item.className = "explorer-row";
      const turn = document.createElement("strong");
      turn.className = "explorer-turn";
      turn.textContent = row.turn;
      const games = document.createElement("span");
      games.className = "explorer-games";
      games.textContent = t("explorer.row_games", { count: row.games });
      const bar = document.createElement("span");
      bar.className = "explorer-bar";
      bar.setAttribute("role", "img");
      bar.setAttribute("aria-label", t("explorer.results", row.shares));
      for (const [part, share] of Object.entries(row.shares)) {
        if (!share) continue;
        const piece = document.createElement("span");
        piece.className = `explorer-share explorer-${part}`;
        piece.style.width = `${share}%`;
        piece.textContent = share >= 15 ? `${share}%` : "";
        bar.append(piece);
      }
      const value = document.createElement("span");
      value.className = "explorer-value";
      value.textContent = row.move ? valueWords(row.move) : "";
      item.append(turn, games, bar, value);
      return item;
    }));
  }
}
