// "Play now" in the lobby: a tile for each preset clock, its name and what it means
// in the page's language; a tile pressed pairs the player with a seek of the same
// rules and clock, or opens one that waits.

import { PRESETS, controlLong, controlWords, isCorrespondence, presetClock } from "../clocks.js";
import { $ } from "../dom.js";
import { t } from "../i18n.js";

/** A tile for each preset clock in #quick-clocks; `play(name)` plays now with its clock. */
export function buildTiles(play) {
  const grid = $("quick-clocks");
  for (const name of PRESETS) {
    const tile = document.createElement("button");
    tile.type = "button";
    tile.className = "button clock-tile";
    tile.dataset.clock = name;
    const big = document.createElement("span");
    big.className = "clock-tile-name";
    const small = document.createElement("span");
    small.className = "clock-tile-text";
    tile.append(big, small);
    tile.addEventListener("click", () => play(name));
    grid.append(tile);
  }
}

/** Write each tile's texts (in the page's language); `disabled`: none may be pressed now. */
export function renderTiles(disabled) {
  for (const tile of $("quick-clocks").querySelectorAll("button")) {
    // Each tile is a preset.
    const control = /** @type {import("../clocks.js").TimeControl} */ (presetClock(String(tile.dataset.clock)));
    /** @param {string} selector */
    const part = (selector) => /** @type {HTMLElement} */ (tile.querySelector(selector));
    part(".clock-tile-name").textContent = isCorrespondence(control)
      ? t(control.days === 1 ? "clock.days.short.one" : "clock.days.short.many", { days: control.days })
      : controlWords(control, t);
    part(".clock-tile-text").textContent = isCorrespondence(control)
      ? t("clock.per_move")
      : controlLong(control, t);
    tile.disabled = disabled;
  }
}
