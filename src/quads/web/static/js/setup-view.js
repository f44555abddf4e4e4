// The new-game screen: the opponent, its level, the rules and who begins;
// the unfinished games to continue; opening a saved record.

import * as api from "./api.js";
import { currentLanguage, has, t } from "./i18n.js";
import { LEVELS, RULE_SETS, levelName, rulesName } from "./names.js";
import { isTutorialGame } from "./tutorial-games.js";

const SETTINGS_KEY = "quads.settings";
const $ = (id) => document.getElementById(id);

export class SetupView {
  /**
   * `onStart(settings)` starts a game (a NewGame object), `onImport(record,
   * settings)` opens a record, `onResume(id)` continues a stored game;
   * `currentGame()` is the id of this tab's game, if any.
   */
  constructor({ onStart, onImport, onResume, currentGame }) {
    this.onResume = onResume;
    this.currentGame = currentGame;
    this.games = [];
    this.form = $("setup-form");
    this.buildChoices();
    this.restoreSettings();

    this.form.addEventListener("change", () => {
      this.updateVisibility();
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(this.settings()));
    });
    this.form.addEventListener("submit", async (event) => {
      event.preventDefault();
      await this.whileBusy($("setup-error"), () => onStart(this.settings()));
    });
    $("import-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      event.target.value = "";
      if (!file) return;
      const record = await file.text();
      await this.whileBusy($("import-error"), () => onImport(record, this.settings()));
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
    }
    return settings;
  }

  restoreSettings() {
    let saved = {};
    try {
      saved = JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {};
    } catch {
      saved = {};
    }
    for (const [name, value] of Object.entries(saved)) {
      const input = this.form.querySelector(`input[name="${name}"][value="${CSS.escape(String(value))}"]`);
      if (input) input.checked = true;
    }
    this.updateVisibility();
  }

  updateVisibility() {
    const computer = this.settings().mode === "computer";
    $("level-field").hidden = !computer;
    $("first-field").hidden = !computer;
    $("first-local").hidden = computer;
  }

  /** Run `task` with the start button disabled; show its error in `errorBox`. */
  async whileBusy(errorBox, task) {
    const button = $("start-button");
    errorBox.hidden = true;
    button.disabled = true;
    button.textContent = t("setup.starting");
    try {
      await task();
    } catch (error) {
      const key = error instanceof api.ApiError && has(`error.${error.code}`) ? `error.${error.code}` : "error.unknown";
      errorBox.textContent = t(key);
      errorBox.hidden = false;
    } finally {
      button.disabled = false;
      button.textContent = t("setup.start");
    }
  }

  /** Show the screen: fetch the unfinished games. */
  async show() {
    this.render();
    try {
      const answer = await api.listGames("ongoing");
      this.games = (answer.games || []).filter((game) => !isTutorialGame(game.id));
    } catch {
      this.games = [];
    }
    this.render();
  }

  /** Draw the texts that are not in the HTML (after a change of language too). */
  render() {
    const list = $("resume-list");
    if (!this.games.length) {
      const empty = document.createElement("li");
      empty.className = "note";
      empty.textContent = t("resume.empty");
      list.replaceChildren(empty);
      return;
    }
    const when = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
    list.replaceChildren(
      ...this.games.map((game) => {
        const item = document.createElement("li");
        item.className = "resume-item";
        item.dataset.game = game.id;
        const text = document.createElement("span");
        text.className = "resume-text";
        const opponent =
          game.mode === "computer" ? t("resume.vs_computer", { level: levelName(game.level) }) : t("resume.vs_local");
        const strong = document.createElement("strong");
        strong.textContent = `${rulesName(game.rules)} · ${opponent}`;
        const small = document.createElement("small");
        const updated = game.updated ? when.format(new Date(game.updated)) : "";
        const parts = [t(game.ply === 1 ? "resume.turns.one" : "resume.turns.many", { count: game.ply }), updated];
        if (game.id === this.currentGame()) parts.push(t("resume.current"));
        small.textContent = parts.filter(Boolean).join(" · ");
        text.append(strong, small);
        const button = document.createElement("button");
        button.type = "button";
        button.className = "button";
        button.textContent = t("resume.open");
        button.setAttribute("aria-label", `${t("resume.open")}: ${strong.textContent}, ${small.textContent}`);
        button.addEventListener("click", () => this.onResume(game.id));
        item.append(text, button);
        return item;
      }),
    );
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
