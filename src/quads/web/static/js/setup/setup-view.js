// The new-game screen: the opponent (the computer, a second person on this
// device, or a friend online), its level, the rules and who begins (online,
// also a clock: none, a preset, correspondence days or a custom one); the
// unfinished games to continue or delete, those the server keeps and those that
// live on this device (played without a network) alike, with a game's clock and,
// for a correspondence game, whose move it is and how long is left; opening a
// saved record.

import * as api from "../api.js";
import { ClockChoice } from "../clock-choice.js";
import { $, $button, $input, $select, focusKey, keepingFocus } from "../dom.js";
import { currentLanguage, has, t } from "../i18n.js";
import { LEVELS, RULE_SETS, describeError, messageWords } from "../names.js";
import { Rules } from "../rules/rules.js";
import { deleteDeviceGame, deviceGames, resumeItem } from "./resume-list.js";
import { renderSummary } from "./setup-summary.js";
import { isTutorialGame } from "./tutorial-games.js";

const SETTINGS_KEY = "quads.settings";

/**
 * Whether a game of `rules` (a rule set's name) has its false calls chosen: only
 * wins that must be called can be called falsely.
 * @param {FormDataEntryValue | null} rules
 */
function callsChosen(rules) {
  return typeof rules === "string" && rulesOf(rules)?.declare === true;
}

/** @param {string} name */
function rulesOf(name) {
  try {
    return Rules.parse(name);
  } catch {
    return null;
  }
}
const CLOCK_KEY = "quads.clock";
// The start button at the top, by the summary, and the same at the foot of the choices.
const START_BUTTONS = ["start-button", "start-button-end"];

export class SetupView {
  /**
   * `onStart(settings)` starts a game (a NewGame object), `onImport(record,
   * settings)` opens a record, `onResume(key)` continues a stored game,
   * `onDeleted(key)` is told that a game was deleted; `currentGame()` is the
   * key of this tab's game, if any.  A game's key is the server's id, or
   * "device:<uuid>" for a game on this device.
   */
  constructor({ onStart, onImport, onResume, onDeleted, currentGame }) {
    this.onResume = onResume;
    this.onDeleted = onDeleted;
    this.currentGame = currentGame;
    this.games = [];
    this.next = null; // the cursor of the list's next page, if any
    this.loaded = false; // whether the list came once: until then it may not be empty at all
    this.confirming = null; // the id of the game whose deletion waits for a yes
    this.deleting = null; // the id of the game being deleted
    this.listError = null; // a message {key, params}
    this.errors = new Map(); // an error box of the form -> the message {key, params} it shows
    this.form = /** @type {HTMLFormElement} */ ($("setup-form"));
    this.language = null; // the language the clock's choices were built in
    this.clock = new ClockChoice($select("setup-clock"), $("setup-custom"), {
      none: true,
      prefix: "setup",
      initial: localStorage.getItem(CLOCK_KEY),
      onChange: () => {
        localStorage.setItem(CLOCK_KEY, this.clock.choice);
        this.updateSummary();
      },
    });
    $("resume-more").addEventListener("click", () => this.more());
    this.buildChoices();
    this.restoreSettings();

    window.addEventListener("online", () => this.updateVisibility());
    window.addEventListener("offline", () => this.updateVisibility());
    this.form.addEventListener("change", () => {
      this.updateVisibility();
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(this.settings()));
    });
    this.form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const clock = this.clock.value();
      if (this.settings().mode === "online" && clock.error) {
        this.errors.set($("setup-error"), { key: clock.error, params: {} });
        this.renderErrors();
      } else {
        await this.whileBusy($("setup-error"), () => onStart(this.settings()));
      }
      // Started from the foot of the choices: what went wrong is said by the top button.
      if (!$("setup-error").hidden && event.submitter && event.submitter.id === "start-button-end") {
        $("setup-error").scrollIntoView({ block: "nearest" });
      }
    });
    const importFile = $input("import-file");
    importFile.addEventListener("change", async () => {
      const file = importFile.files && importFile.files[0];
      importFile.value = "";
      if (!file) return;
      const record = await file.text();
      // A record saved here says who played (its Mode header), and the server restores
      // that; for any other record, the choices of this form count.
      const settings = /^\[Mode "/m.test(record) ? {} : this.settings();
      await this.whileBusy($("import-error"), () => onImport(record, settings));
    });
  }

  buildChoices() {
    const levels = $("level-field");
    for (const level of LEVELS) {
      levels.append(choice("level", level, `level.${level}.name`, `level.${level}.text`, level === 1));
    }
    const rules = $("rules-field");
    for (const { rules: name, key } of RULE_SETS) {
      rules.append(choice("rules", name, `rules.${key}.name`, `rules.${key}.text`, name === "quads"));
    }
  }

  /** The NewGame body for the current choices. */
  settings() {
    const data = new FormData(this.form);
    const mode = data.get("mode");
    const settings = { rules: data.get("rules"), mode };
    if (mode === "computer") {
      settings.level = Number(data.get("level"));
      settings.human = data.get("human");
    } else if (mode === "online") {
      settings.host = data.get("host");
      // Under declare calling, what a false call costs (losing the game unless chosen).
      if (callsChosen(settings.rules)) settings.false_calls = data.get("false_calls");
      // The same help for both: the safe pieces only if chosen here (the guest agrees by joining).
      if (data.get("safe_pieces")) settings.safe_pieces = true;
      const { clock } = this.clock.value();
      if (clock) settings.clock = clock;
    }
    return settings;
  }

  restoreSettings() {
    let saved;
    try {
      saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
    } catch {
      saved = {};
    }
    for (const [name, value] of Object.entries(saved)) {
      const input = /** @type {HTMLInputElement | null} */ (
        this.form.querySelector(`input[name="${name}"][value="${CSS.escape(String(value))}"]`));
      if (input) input.checked = true;
    }
    this.updateVisibility();
  }

  updateVisibility() {
    const mode = this.settings().mode;
    $("level-field").hidden = mode !== "computer";
    $("first-field").hidden = mode !== "computer";
    $("host-field").hidden = mode !== "online";
    $("clock-field").hidden = mode !== "online";
    $("help-field").hidden = mode !== "online";
    $("calls-field").hidden = mode !== "online" || !callsChosen(this.settings().rules);
    $("first-local").hidden = mode !== "local";
    // Online play needs the server: said at once while the browser is offline.
    $("online-offline").hidden = mode !== "online" || navigator.onLine;
    // Before the catalogue has loaded, translatePage() fills the text in later.
    const start = mode === "online" ? "setup.start.online" : "setup.start";
    for (const id of START_BUTTONS) {
      $(id).dataset.i18n = start;
      if (has(start)) $(id).textContent = t(start);
    }
    this.updateSummary();
  }

  /** What the start buttons start, said by the top one (once the catalogue has loaded). */
  updateSummary() {
    if (!has("setup.summary.change")) return;
    const settings = this.settings();
    const select = $select("setup-clock");
    const chosen = select.selectedOptions[0];
    const clock = settings.mode !== "online" || !chosen ? ""
      : this.clock.choice === "none" ? t("clock.none")
        : t("setup.summary.clock", { clock: chosen.textContent || "" });
    renderSummary($("setup-summary"), settings, clock);
  }

  /** Run `task` with the start button disabled; show its error in `errorBox`. */
  async whileBusy(errorBox, task) {
    const buttons = START_BUTTONS.map((id) => $button(id));
    errorBox.hidden = true;
    this.errors.delete(errorBox);
    for (const button of buttons) {
      button.disabled = true;
      button.textContent = t("setup.starting");
    }
    try {
      await task();
    } catch (error) {
      // A record's fault says exactly what is wrong (the token, the header) by its reason.
      this.errors.set(errorBox, describeError(error));
      this.renderErrors();
    } finally {
      for (const button of buttons) {
        button.disabled = false;
        button.textContent = t(String(button.dataset.i18n));
      }
    }
  }

  /** Show the screen: fetch the unfinished games, the server's and this device's. */
  async show() {
    this.confirming = null;
    this.listError = null;
    this.updateVisibility();
    this.render();
    const [server, device] = await Promise.all([this.serverGames(), deviceGames()]);
    // A game uploaded from this device shows once, as the device has it.
    const here = new Set(device.map((game) => game.id));
    this.games = [...device, ...server.filter((game) => !here.has(game.device))];
    const time = (game) => Date.parse(game.updated) || 0;
    this.games.sort((a, b) => time(b) - time(a));
    this.loaded = true;
    this.render();
  }

  /** The first page of the server's unfinished games (none while it cannot be reached). */
  async serverGames() {
    this.next = null;
    this.serverMissing = false;
    try {
      const answer = await api.listGames("ongoing", null, { wait: false });
      this.next = answer.next || null;
      return (answer.games || []).filter((game) => !isTutorialGame(game.id)).map((game) => ({ ...game, key: game.id }));
    } catch {
      this.serverMissing = true; // its games show once it answers (main.js shows the list again)
      return [];
    }
  }

  /** Add the list's next page. */
  async more() {
    const cursor = this.next;
    if (!cursor) return;
    const button = $button("resume-more");
    button.disabled = true;
    try {
      const answer = await api.listGames("ongoing", cursor);
      const known = new Set(this.games.map((game) => game.id));
      const here = new Set(this.games.filter((game) => game.on_device).map((game) => game.id));
      const added = (answer.games || [])
        .filter((game) => !isTutorialGame(game.id) && !known.has(game.id) && !here.has(game.device))
        .map((game) => ({ ...game, key: game.id }));
      this.games = this.games.concat(added);
      this.next = answer.next || null;
    } catch {
      // Keep the cursor: the button tries again.
    } finally {
      button.disabled = false;
    }
    this.render();
  }

  /** The errors of the forms, in the page's language now. */
  renderErrors() {
    for (const [box, message] of this.errors) {
      box.textContent = messageWords(message);
      box.hidden = false;
    }
  }

  /** Draw the texts that are not in the HTML (after a change of language too). */
  render() {
    if (this.language !== currentLanguage()) {
      this.language = currentLanguage();
      this.clock.render();
    }
    this.updateSummary();
    this.renderErrors();
    const list = $("resume-list");
    $("resume-more").hidden = !this.next;
    // The server's games show once it answers; until then, those of this device.
    const waiting = document.createElement("li");
    waiting.className = "note";
    waiting.textContent = t("resume.waiting");
    if (!this.games.length) {
      const empty = document.createElement("li");
      empty.className = "note";
      empty.textContent = t("resume.empty");
      list.replaceChildren(this.loaded && !this.serverMissing ? empty : waiting);
      return;
    }
    const when = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
    keepingFocus(list, () => {
      const state = {
        current: this.currentGame(),
        confirming: this.confirming,
        deleting: this.deleting,
        error: this.listError,
        resume: (key) => this.onResume(key),
        confirm: (id, key) => this.confirm(id, key),
        remove: (game) => this.remove(game),
      };
      const items = this.games.map((game) => resumeItem(game, when, state));
      list.replaceChildren(...items, ...(this.serverMissing ? [waiting] : []));
    });
  }

  /** Ask "delete this game?" for game `id` (null: ask nothing), then focus the button of `key`. */
  confirm(id, key) {
    this.confirming = id;
    this.listError = null;
    this.render();
    focusKey($("resume-list"), key);
  }

  async remove(game) {
    const id = game.id;
    if (this.deleting) return;
    this.deleting = id;
    this.render();
    try {
      if (game.on_device) await deleteDeviceGame(game);
      else await api.deleteGame(id, game.revision);
    } catch (error) {
      // Deleted already (a repeated request after a lost connection): fine.
      if (!(error instanceof api.ApiError && error.code === "not_found")) {
        this.deleting = null;
        this.listError = describeError(error);
        this.render();
        return;
      }
    }
    this.deleting = null;
    this.confirming = null;
    this.games = this.games.filter((game) => game.id !== id);
    this.render();
    this.onDeleted(game.key);
    $("resume-title").focus({ preventScroll: true });
  }
}

/** A radio choice card: input, name and one sentence. */
function choice(name, value, nameKey, textKey, checked) {
  const label = document.createElement("label");
  label.className = "choice";
  const input = document.createElement("input");
  input.type = "radio";
  input.name = name;
  input.value = String(value);
  input.checked = checked;
  const title = document.createElement("span");
  title.className = "choice-name";
  title.dataset.i18n = nameKey;
  const text = document.createElement("span");
  text.className = "choice-text";
  text.dataset.i18n = textKey;
  label.append(input, title, text);
  return label;
}
