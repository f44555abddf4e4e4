// The new-game screen's summary of its choices, shown by the start button at the
// top of the screen: a player who takes the choices as they are starts at once,
// without scrolling past them; the choices themselves follow below.

import { t } from "../i18n.js";
import { levelName, rulesName } from "../names.js";

/**
 * The lines of the summary for `settings` (SetupView.settings()): the opponent,
 * the rules, who hands over the first piece and, online, the clock.
 * @param {{ mode?: unknown, level?: unknown, rules?: unknown, human?: unknown, host?: unknown }} settings
 * @param {string} clock the clock chosen, as its menu says it ("" when none is chosen)
 * @returns {string[]}
 */
export function summaryLines(settings, clock) {
  const rules = t("game.rules", { rules: rulesName(String(settings.rules || "quads")) });
  if (settings.mode === "local") {
    return [t("game.opponent.local"), rules, t("setup.summary.first.local")];
  }
  if (settings.mode === "online") {
    const first = settings.host === "second" ? "setup.summary.first.friend" : "setup.summary.first.you";
    const lines = [t("setup.summary.online"), rules, t(first)];
    if (clock) lines.push(clock);
    return lines;
  }
  const first = settings.human === "second" ? "setup.summary.first.computer" : "setup.summary.first.you";
  return [t("game.opponent.computer", { level: levelName(Number(settings.level) || 1) }), rules, t(first)];
}

/**
 * Show the summary of `settings` in the list `list`.
 * @param {HTMLElement} list
 * @param {Parameters<typeof summaryLines>[0]} settings
 * @param {string} clock
 */
export function renderSummary(list, settings, clock) {
  list.replaceChildren(...summaryLines(settings, clock).map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
}
