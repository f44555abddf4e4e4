// The new-game screen: the opponent (the computer, a second person on this
// device, or a friend online), its level, the rules and who begins; the
// unfinished games to continue or delete; opening a saved record.

import * as api from "./api.js";
import { currentLanguage, has, t } from "./i18n.js";
import { LEVELS, RULE_SETS, levelName, rulesName } from "./names.js";
import { isTutorialGame } from "./tutorial-games.js";

const SETTINGS_KEY = "quads.settings";
const $ = (id) => document.getElementById(id);

export class SetupView {
  /**
   * `onStart(settings)` starts a game (a NewGame object), `onImport(record,
   * settings)` opens a record, `onResume(id)` continues a stored game,
   * `onDeleted(id)` is told that a game was deleted; `currentGame()` is the
   * id of this tab's game, if any.
   */
  constructor({ onStart, onImport, onResume, onDeleted, currentGame }) {
    this.onResume = onResume;
    this.onDeleted = onDeleted;
    this.currentGame = currentGame;
    this.games = [];
    this.loaded = false; // whether the list came once: until then it may not be empty at all
    this.confirming = null; // the id of the game whose deletion waits for a yes
    this.deleting = null; // the id of the game being deleted
    this.listError = null; // a catalogue key
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
    const mode = this.settings().mode;
    $("level-field").hidden = mode !== "computer";
    $("first-field").hidden = mode !== "computer";
    $("host-field").hidden = mode !== "online";
    $("first-local").hidden = mode !== "local";
    $("start-button").dataset.i18n = mode === "online" ? "setup.start.online" : "setup.start";
    $("start-button").textContent = t($("start-button").dataset.i18n);
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
      // A record's fault is the server's to tell exactly (the token, and what is wrong).
      errorBox.textContent = key === "error.invalid_record" && error.message
        ? t("error.invalid_record.reason", { reason: error.message })
        : t(key);
      errorBox.hidden = false;
    } finally {
      button.disabled = false;
      button.textContent = t(button.dataset.i18n);
    }
  }

  /** Show the screen: fetch the unfinished games. */
  async show() {
    this.confirming = null;
    this.listError = null;
    this.render();
    try {
      const answer = await api.listGames("ongoing");
      this.games = (answer.games || []).filter((game) => !isTutorialGame(game.id));
    } catch {
      this.games = [];
    }
    this.loaded = true;
    this.render();
  }

  /** Draw the texts that are not in the HTML (after a change of language too). */
  render() {
    const list = $("resume-list");
    if (!this.games.length) {
      const empty = document.createElement("li");
      empty.className = "note";
      empty.textContent = t(this.loaded ? "resume.empty" : "resume.waiting");
      list.replaceChildren(empty);
      return;
    }
    const when = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
    const focused = list.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
    list.replaceChildren(...this.games.map((game) => this.renderItem(game, when)));
    if (focused) {
      const again = list.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  renderItem(game, when) {
    const item = document.createElement("li");
    item.className = "resume-item";
    item.dataset.game = game.id;
    const text = document.createElement("span");
    text.className = "resume-text";
    const strong = document.createElement("strong");
    strong.textContent = `${rulesName(game.rules)} · ${opponentText(game)}`;
    const small = document.createElement("small");
    const updated = game.updated ? when.format(new Date(game.updated)) : "";
    const parts = [t(game.ply === 1 ? "resume.turns.one" : "resume.turns.many", { count: game.ply }), updated];
    if (game.id === this.currentGame()) parts.push(t("resume.current"));
    small.textContent = parts.filter(Boolean).join(" · ");
    text.append(strong, small);
    const name = `${strong.textContent}, ${small.textContent}`;

    const actions = document.createElement("span");
    actions.className = "resume-actions";
    if (this.confirming === game.id) {
      const question = document.createElement("span");
      question.className = "resume-question";
      question.textContent = t("resume.delete.confirm");
      const yes = button(t("resume.delete.yes"), "button button-danger", `yes-${game.id}`, () => this.remove(game.id));
      yes.setAttribute("aria-label", `${t("resume.delete.yes")}: ${name}`);
      yes.disabled = this.deleting === game.id;
      const keep = () => this.confirm(null, `delete-${game.id}`);
      const no = button(t("resume.delete.no"), "button", `no-${game.id}`, keep);
      actions.append(question, yes, no);
      item.classList.add("is-confirming");
    } else {
      const open = button(t("resume.open"), "button", `open-${game.id}`, () => this.onResume(game.id));
      open.setAttribute("aria-label", `${t("resume.open")}: ${name}`);
      actions.append(open);
      if (deletable(game)) {
        const remove = button(t("resume.delete"), "button button-quiet", `delete-${game.id}`, () =>
          this.confirm(game.id, `no-${game.id}`),
        );
        remove.setAttribute("aria-label", `${t("resume.delete")}: ${name}`);
        actions.append(remove);
      }
    }
    item.append(text, actions);
    if (this.listError && this.confirming === game.id) {
      const error = document.createElement("p");
      error.className = "error resume-error";
      error.setAttribute("role", "alert");
      error.textContent = t(this.listError);
      item.append(error);
    }
    return item;
  }

  /** Ask "delete this game?" for game `id` (null: ask nothing), then focus `focusKey`. */
  confirm(id, focusKey) {
    this.confirming = id;
    this.listError = null;
    this.render();
    const target = $("resume-list").querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (target) target.focus();
  }

  async remove(id) {
    if (this.deleting) return;
    this.deleting = id;
    this.render();
    try {
      await api.deleteGame(id);
    } catch (error) {
      // Deleted already (a repeated request after a lost connection): fine.
      if (!(error instanceof api.ApiError && error.code === "not_found")) {
        this.deleting = null;
        const key = error instanceof api.ApiError ? `error.${error.code}` : "error.unknown";
        this.listError = has(key) ? key : "error.unknown";
        this.render();
        return;
      }
    }
    this.deleting = null;
    this.confirming = null;
    this.games = this.games.filter((game) => game.id !== id);
    this.render();
    this.onDeleted(id);
    $("resume-title").focus({ preventScroll: true });
  }
}

/** Who the game is against, as the list says it. */
function opponentText(game) {
  if (game.mode === "computer") return t("resume.vs_computer", { level: levelName(game.level) });
  if (game.mode === "online") return t(game.opponent === "free" ? "resume.vs_online.waiting" : "resume.vs_online");
  return t("resume.vs_local");
}

/**
 * Whether the player may delete `game`: their own games on this device, and
 * an online game nobody has joined yet (once both play, one resigns instead).
 */
function deletable(game) {
  if (game.status !== "ongoing") return false;
  return game.mode !== "online" || game.opponent === "free";
}

function button(text, className, focusKey, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = text;
  element.dataset.focusKey = focusKey;
  element.addEventListener("click", onClick);
  return element;
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
