// A line of a list of finished games: against whom, the result, what it did to the
// rating, when it ended, and the link that opens the game with its review.

import { controlWords } from "../clocks.js";
import { t } from "../i18n.js";
import { botBadge, rulesName } from "../names.js";
import { profileLink } from "./links.js";
import { changeLabel, readClock } from "./ratings.js";

/** A link to the finished game `id`: its end and its review. */
function reviewLink(id, label) {
  const link = document.createElement("a");
  link.className = "button";
  link.href = `#/game/${encodeURIComponent(id)}`;
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

/** The item of `game` (a GameSummaryView of the caller's own games). */
export function ownFinishedItem(game, when) {
  const item = document.createElement("li");
  item.className = "finished-item";
  item.dataset.game = game.id;
  const text = document.createElement("span");
  text.className = "finished-text";
  const strong = document.createElement("strong");
  strong.textContent = `${rulesName(game.rules)} · ${t(`finished.mode.${game.mode}`)}`;
  const small = document.createElement("small");
  const parts = [t(game.ply === 1 ? "resume.turns.one" : "resume.turns.many", { count: game.ply })];
  const clock = readClock(game.clock);
  if (clock) parts.push(controlWords(clock, t));
  parts.push(when.format(new Date(game.updated)));
  small.textContent = parts.join(" · ");
  text.append(strong, small);
  item.append(text, reviewLink(game.id, `${strong.textContent}, ${small.textContent}`));
  return item;
}
