// The choice of a clock, on the new-game screen (an online game) and in the lobby
// (a seek): a <select> of the presets (real time, written minutes+seconds;
// correspondence days), "custom" with its three fields (minutes, seconds,
// seconds added per move), and on the new-game screen "no clock" first.

import { t } from "./i18n.js";
import { DAY_PRESETS, REALTIME_PRESETS, clockChoice, controlLong, controlWords, presetClock } from "./clocks.js";

export class ClockChoice {
  /**
   * Fill `select` and `custom` (a container for the custom fields, shown for
   * "custom"); `none`: offer "no clock" (first, chosen by default); `prefix`
   * names the custom fields' ids; `initial` is the choice to start with (by default
   * "no clock", or else 3+2); `onChange()` is called after each change.
   * @param {HTMLSelectElement} select
   * @param {HTMLElement} custom
   * @param {{ none?: boolean, prefix: string, initial?: string | null, onChange?: () => void }} options
   */
  constructor(select, custom, { none = false, prefix, initial = null, onChange = () => {} }) {
    this.select = select;
    this.custom = custom;
    this.none = none;
    this.fields = {};
    for (const name of ["minutes", "seconds", "increment"]) {
      const label = document.createElement("label");
      label.className = "field field-small";
      const text = document.createElement("span");
      text.dataset.i18n = `clock.custom.${name}`;
      const input = document.createElement("input");
      input.type = "number";
      input.inputMode = "numeric";
      input.min = "0";
      input.id = `${prefix}-${name}`;
      input.name = name;
      input.value = { minutes: "2", seconds: "0", increment: "1" }[name];
      label.append(text, input);
      custom.append(label);
      this.fields[name] = input;
    }
    // The options are built by render(), once the catalogue has loaded.
    this.chosen = initial || (none ? "none" : "3+2");
    this.showCustom();
    select.addEventListener("change", () => {
      this.chosen = select.value;
      this.showCustom();
      onChange();
    });
    custom.addEventListener("input", () => onChange());
  }

  /** (Re)build the options in the page's language, keeping `chosen`. */
  build(chosen = this.chosen) {
    const options = [];
    if (this.none) options.push(option("none", t("clock.none")));
    const realTime = document.createElement("optgroup");
    realTime.label = t("clock.group.realtime");
    for (const name of REALTIME_PRESETS) {
      const control = presetClock(name);
      realTime.append(option(name, `${controlWords(control, t)} (${controlLong(control, t)})`));
    }
    realTime.append(option("custom", t("clock.custom")));
    const days = document.createElement("optgroup");
    days.label = t("clock.group.days");
    for (const name of DAY_PRESETS) days.append(option(name, controlWords(presetClock(name), t)));
    this.select.replaceChildren(...options, realTime, days);
    const known = [...this.select.options].some((item) => item.value === chosen);
    this.select.value = known ? chosen : this.select.options[0].value;
    this.chosen = this.select.value;
    this.showCustom();
  }

  showCustom() {
    this.custom.hidden = this.chosen !== "custom";
  }

  /** The chosen preset's name ("none", "3+2", "3d", "custom"). */
  get choice() {
    return this.chosen;
  }

  set choice(value) {
    this.chosen = value;
    if (this.select.options.length) this.build(value);
  }

  /** {clock} (null for no clock) or {error: catalogue key}. */
  value() {
    const custom = Object.fromEntries(Object.entries(this.fields).map(([name, input]) => [name, input.value]));
    return clockChoice(this.chosen, custom);
  }

  /** The texts, in the page's language now. */
  render() {
    this.build();
  }
}

function option(value, text) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = text;
  return element;
}
