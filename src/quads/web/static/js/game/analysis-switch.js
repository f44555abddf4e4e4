// The analysis switch of the game screen: offered in games on this device and
// against the computer (not online, where it would help one side).  While it is on
// and a person is to act, every legal turn is marked with its value; the analysis
// of each position is asked of the game's source once.

import { t } from "../i18n.js";
import { playerName } from "../names.js";
import { valueWords, valuesByTarget } from "../turn-values.js";
import { $ } from "../dom.js";

export class AnalysisSwitch {
  /** `redraw()` is called when an analysis asked for arrives. */
  constructor(redraw) {
    this.redraw = redraw;
    this.shown = null; // {key, body, values} of the position shown, {key} while asked, {key, failed}
  }

  /**
   * Draw the switch's box for `view` and return the marks by target ({cells,
   * pieces}), or null.  `on`: the switch is on; `person`: the side of the person to
   * act now, or null; `idle`: no request is on its way; `source`: the game's source.
   */
  render(view, { on, person, idle, source }) {
    const offered = view.mode !== "online";
    $("analyse-switch").hidden = !offered;
    const box = $("analysis-box");
    const active = offered && on && Boolean(person) && idle;
    box.hidden = !active;
    if (!active) return null;
    const key = `${view.id}:${view.revision}`;
    if (!this.shown || this.shown.key !== key) {
      this.shown = { key };
      this.ask(key, view, source);
    }
    const { body, values, failed } = this.shown;
    box.setAttribute("aria-busy", String(!body && !failed));
    if (failed || !body) {
      $("analysis-value").textContent = t(failed ? "analysis.failed" : "analysis.thinking");
      $("analysis-note").textContent = "";
      return null;
    }
    const words = valueWords(body);
    $("analysis-value").textContent = view.mode === "computer"
      ? t("analysis.position.you", { value: words })
      : t("analysis.position.player", { player: playerName(view, person), value: words });
    $("analysis-note").textContent = body.complete ? t("analysis.legend") : `${t("analysis.legend")} ${t("analysis.partial")}`;
    return values;
  }

  async ask(key, view, source) {
    let body;
    try {
      body = await source.analysis(view);
    } catch {
      body = null;
    }
    if (!this.shown || this.shown.key !== key) return; // the game moved on meanwhile
    this.shown = body ? { key, body, values: valuesByTarget(body.moves) } : { key, failed: true };
    this.redraw();
  }
}
