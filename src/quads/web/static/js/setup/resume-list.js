// The unfinished games of the new-game screen, those the server keeps and those that
// live on this device alike: where each stands (its clock and, for a correspondence
// game, whose move it is and how long is left), and its buttons to resume it or
// delete it.

import * as api from "../api.js";
import { controlWords, isCorrespondence, leftWords } from "../clocks.js";
import { changed, deviceStore } from "../device.js";
import { t } from "../i18n.js";
import { summary } from "../local/device-game.js";
import { describeError, levelName, messageWords, placedWords, rulesName } from "../names.js";

/** The unfinished games on this device, as list entries (none where the browser keeps none). */
export async function deviceGames() {
  let games;
  try {
    games = await (await deviceStore()).listGames();
  } catch {
    return [];
  }
  return games
    .map((device) => ({ ...summary(device), key: `device:${device.id}` }))
    .filter((game) => game.status === "ongoing");
}

/** Delete a game on this device, and the copy the server keeps of it when it can be reached. */
export async function deleteDeviceGame(game) {
  const store = await deviceStore();
  const device = await store.getGame(game.id);
  await store.deleteGame(game.id);
  changed(game.id, null);
  const copy = device && device.uploaded && device.uploaded.game;
  if (!copy) return;
  try {
    const view = await api.getGame(copy, { wait: false });
    await api.deleteGame(copy, view.revision, { wait: false });
  } catch {
    // the server's copy stays (it shows in the list once more, and can be deleted there)
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

/**
 * The line of `game` in the list: what it is and where it stands, and its buttons
 * (resume, delete with its question "are you sure?").  `when` words its last change;
 * `list` is the list's state and actions: { current (the key of this tab's game),
 * confirming (the id of the game whose deletion waits for a yes), deleting (the id of
 * the game being deleted), error (the message of a refused deletion), resume(key),
 * confirm(id, focusKey), remove(game) }.
 * @param {Intl.DateTimeFormat} when
 */
export function resumeItem(game, when, list) {
  const item = document.createElement("li");
  item.className = "resume-item";
  item.dataset.game = game.id;
  const text = document.createElement("span");
  text.className = "resume-text";
  const strong = document.createElement("strong");
  strong.textContent = `${rulesName(game.rules)} · ${opponentText(game)}`;
  const small = document.createElement("small");
  const updated = game.updated ? when.format(new Date(game.updated)) : "";
  const parts = [placedWords(game.ply), updated];
  if (game.clock) parts.push(controlWords(game.clock, t));
  const deadline = game.deadline && isCorrespondence(game.clock) && game.status === "ongoing"
    ? Date.parse(game.deadline) : NaN;
  if (Number.isFinite(deadline) && game.you && game.to_move) {
    const time = leftWords(deadline - Date.now(), t);
    parts.push(t(game.to_move === game.you ? "resume.clock.you" : "resume.clock.they", { time }));
  }
  if (game.key === list.current) parts.push(t("resume.current"));
  if (game.on_device && !game.uploaded) parts.push(t("resume.on_device"));
  small.textContent = parts.filter(Boolean).join(" · ");
  text.append(strong, small);
  if (game.on_device && game.upload_error) {
    // The server refused what this device played: say why (the game stays here).
    const refused = document.createElement("small");
    refused.className = "resume-refused";
    refused.textContent = t("resume.refused", { why: messageWords(describeError(game.upload_error.error)) });
    text.append(refused);
  }
  const name = `${strong.textContent}, ${small.textContent}`;

  const actions = document.createElement("span");
  actions.className = "resume-actions";
  if (list.confirming === game.id) {
    const question = document.createElement("span");
    question.className = "resume-question";
    question.textContent = t("resume.delete.confirm");
    const yes = button(t("resume.delete.yes"), "button button-danger", `yes-${game.id}`, () => list.remove(game));
    yes.setAttribute("aria-label", `${t("resume.delete.yes")}: ${name}`);
    yes.disabled = list.deleting === game.id;
    const keep = () => list.confirm(null, `delete-${game.id}`);
    const no = button(t("resume.delete.no"), "button", `no-${game.id}`, keep);
    actions.append(question, yes, no);
    item.classList.add("is-confirming");
  } else {
    const open = button(t("resume.open"), "button", `open-${game.id}`, () => list.resume(game.key));
    open.setAttribute("aria-label", `${t("resume.open")}: ${name}`);
    actions.append(open);
    if (deletable(game)) {
      const remove = button(t("resume.delete"), "button button-quiet", `delete-${game.id}`, () =>
        list.confirm(game.id, `no-${game.id}`),
      );
      remove.setAttribute("aria-label", `${t("resume.delete")}: ${name}`);
      actions.append(remove);
    }
  }
  item.append(text, actions);
  if (list.error && list.confirming === game.id) {
    const error = document.createElement("p");
    error.className = "error resume-error";
    error.setAttribute("role", "alert");
    error.textContent = messageWords(list.error);
    item.append(error);
  }
  return item;
}
