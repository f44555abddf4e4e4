// The analysis switch of the game screen: offered in games on this device and
// against the computer (not online, where it would help one side).  While it is on
// and a person is to act, every legal turn is marked with its value; the analysis
// of each position is asked of the game's source once.

import { t } from "../i18n.js";
import { playerName } from "../names.js";
import { valueWords, valuesByTarget } from "../turn-values.js";
import { $ } from "../dom.js";

/**
 * Whether the marks show for `view`: the switch is offered (not online) and `on`, a
 * person is to act (`person`, their side, or null) and no request is on its way (`idle`).
 * @param {{ mode: string }} view
 * @param {{ on: boolean, person: string | null, idle: boolean }} state
 */
function active(view, { on, person, idle }) {
  return view.mode !== "online" && on && Boolean(person) && idle;
}

export class AnalysisSwitch {
  /** `changed()` is called when an analysis asked for arrives. */
  constructor(changed) {
    this.changed = changed;
    this.shown = null; // {key, body, values} of the position shown, {key} while asked, {key, failed}
  }

  /**
   * While the marks show for `view` (`state`: on, person, idle), ask the game's
   * `source` for its position's analysis, once.
   * @param {{ on: boolean, person: string | null, idle: boolean, source: object }} state
   */
  update(view, state) {
    if (!active(view, state)) return;
    const key = `${view.id}:${view.revision}`;
    if (this.shown && this.shown.key === key) return;
    this.shown = { key };
    this.ask(key, view, state.source);
  }

  /**
   * Draw the switch's box for `view` and return the marks by target ({cells,
   * pieces}), or null.  `state`: as for update().
   * @param {{ on: boolean, person: string | null, idle: boolean }} state
   */
  render(view, state) {
    $("analyse-switch").hidden = view.mode === "online";
    const box = $("analysis-box");
    const shows = active(view, state);
    box.hidden = !shows;
    if (!shows) return null;
    const key = `${view.id}:${view.revision}`;
    const shown = this.shown && this.shown.key === key ? this.shown : { key };
    const { body, values, failed } = shown;
    const person = state.person;
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
    this.changed();
  }
}
