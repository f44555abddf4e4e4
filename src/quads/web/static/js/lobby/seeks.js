// The open seeks of the lobby, each a line: the rules and the clock, who offers it
// (a bot marked as one) and which side they take, how long it has waited (counted
// on by the lobby every second), and the button to accept it or withdraw one's own.

import { controlWords, formatWaited } from "../clocks.js";
import { t } from "../i18n.js";
import { botBadge, rulesName } from "../names.js";
import { ratingLabel } from "../players/ratings.js";

/** What `seek`'s side means for the one who reads it. */
function sideKey(seek) {
  if (seek.side === "random") return "lobby.offer.random";
  const seekerFirst = seek.side === "first";
  return seekerFirst === seek.mine ? "lobby.offer.you_first" : "lobby.offer.they_first";
}

/**
 * The line of an open `seek`: its rules and clock, who offers it and which side they
 * take, how long it has waited, and the button to accept it (or to withdraw one's own).
 * `list`: { busy (a request is on its way), online (the server answers), waited(seek)
 * (ms), withdraw(seek), accept(seek), admits(seek) ("ok", or why one may not take it:
 * "low", "high", "account") }.  A rated seek says so, with the seeker's rating and the
 * range of ratings it takes.
 */
export function seekItem(seek, list) {
  const item = document.createElement("li");
  item.className = "seek-item";
  item.dataset.seek = seek.id;
  item.classList.toggle("is-mine", seek.mine);
  const text = document.createElement("span");
  text.className = "seek-text";
  const what = document.createElement("strong");
  what.textContent = `${rulesName(seek.rules)} · ${controlWords(seek.clock, t)}`;
  const who = document.createElement("small");
  const name = document.createElement("span");
  name.className = "seek-name";
  name.textContent = seek.mine ? t("lobby.seek.mine") : seek.name;
  if (seek.bot) name.append(" ", botBadge());
  if (typeof seek.rating === "number") name.append(` (${ratingLabel({ rating: seek.rating, provisional: seek.provisional })})`);
  const side = document.createElement("span");
  side.textContent = t(sideKey(seek));
  const waited = document.createElement("span");
  waited.className = "seek-waited";
  waited.dataset.created = seek.created;
  waited.textContent = formatWaited(list.waited(seek));
  who.append(name, " · ", side, " · ", waited);
  text.append(what, who);
  if (seek.rated) {
    what.append(` · ${t("game.rated")}`);
    if (typeof seek.rating_min === "number" || typeof seek.rating_max === "number") {
      const range = document.createElement("small");
      range.className = "seek-range";
      range.textContent = t("lobby.seek.range", { min: seek.rating_min ?? "", max: seek.rating_max ?? "" });
      text.append(range);
    }
  }
  const why = seek.mine ? "ok" : list.admits(seek);
  if (why !== "ok") {
    // Shown, but not to be taken: say why.
    const refused = document.createElement("small");
    refused.className = "seek-refused";
    refused.textContent = t(`lobby.seek.refused.${why}`);
    text.append(refused);
  }
  const label = `${what.textContent}, ${seek.mine ? t("lobby.seek.mine") : seek.name}` +
    (seek.bot ? ` (${t("player.bot")})` : "");
  const action = document.createElement("button");
  action.type = "button";
  action.className = seek.mine ? "button" : "button button-primary";
  action.textContent = t(seek.mine ? "lobby.withdraw" : "lobby.accept");
  action.setAttribute("aria-label", `${action.textContent}: ${label}`);
  action.dataset.focusKey = `${seek.mine ? "withdraw" : "accept"}-${seek.id}`;
  action.disabled = list.busy || !list.online || why !== "ok";
  action.addEventListener("click", () => (seek.mine ? list.withdraw(seek) : list.accept(seek)));
  item.append(text, action);
  return item;
}
