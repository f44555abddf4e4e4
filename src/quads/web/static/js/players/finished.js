// A line of a list of finished games: against whom, the result, what it did to the
// rating, when it ended, and the link that opens the game with its review.

import { controlWords } from "../clocks.js";
import { t } from "../i18n.js";
import { botBadge, placedWords, rulesName } from "../names.js";
import { profileLink } from "./links.js";
import { changeLabel, readClock } from "./ratings.js";

/** A link to the finished game `id`, opened into its review. */
function reviewLink(id, label) {
  const link = document.createElement("a");
  link.className = "button";
  link.href = `#/game/${encodeURIComponent(id)}/review`;
  link.textContent = t("finished.open");
  link.setAttribute("aria-label", `${t("finished.open")}: ${label}`);
  link.dataset.focusKey = `open-${id}`;
  return link;
}

/** The item of `game` (a FinishedGameView of a profile); `when` words the date. */
export function finishedItem(game, when) {
  const item = document.createElement("li");
  item.className = "finished-item";
  item.dataset.game = game.id;
  const text = document.createElement("span");
  text.className = "finished-text";
  const strong = document.createElement("strong");
  const opponent = game.opponent || { name: "", account: false, bot: false };
  strong.append(t("finished.against"), " ");
  strong.append(opponent.account ? profileLink(opponent.name) : opponent.name);
  if (opponent.bot) strong.append(" ", botBadge());
  const result = document.createElement("span");
  result.className = "finished-result";
  result.dataset.result = game.result || "none";
  result.textContent = t(`finished.result.${game.result || "none"}`);
  const small = document.createElement("small");
  const parts = [rulesName(game.rules)];
  const clock = readClock(game.clock);
  if (clock) parts.push(controlWords(clock, t));
  parts.push(t(game.rated ? "game.rated" : "game.casual"), when.format(new Date(game.ended)));
  small.textContent = parts.join(" · ");
  const head = document.createElement("span");
  head.className = "finished-head";
  head.append(result);
  if (game.rating) {
    const change = document.createElement("span");
    change.className = "finished-change";
    change.textContent = changeLabel(game.rating.change);
    head.append(" ", change);
  }
  text.append(strong, head, small);
  item.append(text, reviewLink(game.id, `${strong.textContent}, ${head.textContent}, ${small.textContent}`));
  return item;
}

/** Against whom `game` (a GameSummaryView) was played, in words. */
function ownOpponent(game) {
  if (game.mode === "online" && game.opponent_name) return `${t("finished.against")} ${game.opponent_name}`;
  if (game.mode === "computer" && game.level !== null) {
    return `${t("finished.mode.computer")} (${t(`level.${game.level}.name`)})`;
  }
  return t(`finished.mode.${game.mode}`);
}

/** How `game` (a GameSummaryView) ended, in words: from the caller's side if they had
 * one, else (two people on one device) who won. */
function ownResult(game) {
  const result = document.createElement("span");
  result.className = "finished-result";
  if (game.result) {
    result.dataset.result = game.result;
    result.textContent = t(`finished.result.${game.result}`);
  } else if (game.ending === "1-0" || game.ending === "0-1") {
    result.dataset.result = game.ending === "1-0" ? "first" : "second";
    result.textContent = t(`finished.winner.${result.dataset.result}`);
  } else if (game.ending) {
    result.dataset.result = game.ending === "*" ? "none" : "draw";
    result.textContent = t(`finished.result.${result.dataset.result}`);
  }
  return result;
}

/** The item of `game` (a GameSummaryView of the caller's own games). */
export function ownFinishedItem(game, when) {
  const item = document.createElement("li");
  item.className = "finished-item";
  item.dataset.game = game.id;
  const text = document.createElement("span");
  text.className = "finished-text";
  const strong = document.createElement("strong");
  strong.textContent = ownOpponent(game);
  const head = document.createElement("span");
  head.className = "finished-head";
  const result = ownResult(game);
  if (result.textContent) head.append(result);
  const small = document.createElement("small");
  const parts = [rulesName(game.rules)];
  if (game.mode === "online") parts.push(t("finished.mode.online"));
  parts.push(placedWords(game.ply));
  const clock = readClock(game.clock);
  if (clock) parts.push(controlWords(clock, t));
  parts.push(when.format(new Date(game.updated)));
  small.textContent = parts.join(" · ");
  text.append(strong, head, small);
  const label = [strong.textContent, head.textContent, small.textContent].filter(Boolean).join(", ");
  item.append(text, reviewLink(game.id, label));
  return item;
}
