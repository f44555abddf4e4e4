// The panels of an online game on the game screen: who sits where and whether
// they are connected, the invitation to send while a seat is free (copy,
// share, QR code), and an undo request to answer or waiting for its answer.
// Each function draws from the view alone; game-view.js calls them.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { botBadge, otherSide, sideName } from "../names.js";
import { profileAddress } from "../players/links.js";
import { ratingLabel } from "../players/ratings.js";
import { $, $button, $input } from "../dom.js";

/** The full address of the invitation of `view`, or "". */
export function inviteUrl(view) {
  return view && view.invite ? location.origin + view.invite : "";
}

/** Copy the invitation to the clipboard; `notify(text)` says whether it worked. */
export async function copyInvite(view, notify) {
  const input = $input("invite-url");
  let copied;
  try {
    await navigator.clipboard.writeText(inviteUrl(view));
    copied = true;
  } catch {
    input.select();
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  notify(t(copied ? "invite.copied" : "invite.copy_failed"));
}

/** Share the invitation where the browser can (Web Share API). */
export async function shareInvite(view) {
  try {
    await navigator.share({ title: t("app.title"), text: t("invite.share_text"), url: inviteUrl(view) });
  } catch {
    // cancelled by the person, or not possible: the link can still be copied
  }
}

/** Online: who sits where, whether they have the game open, and this page's own
 * connection; `said`: the line each side said a moment ago, by side ("" for none). */
export function renderSeats(view, liveLost, said = { first: "", second: "" }) {
  const list = $("seats");
  list.hidden = view.mode !== "online";
  if (list.hidden) return;
  const items = [];
  if (view.spectator) items.push(seatItem(t("seats.spectating"), liveLost ? "lost" : null));
  const order = view.you ? [view.you, otherSide(view.you)] : ["first", "second"];
  for (const side of order) {
    const state = view.seats[side];
    // A seat's player by the name others see (lobby games), else by the seat.
    const label = (view.names && view.names[side]) || sideName(side);
    // The name stands in its words ("You (…)"), in which an account's name is a link.
    const key = state === "you" ? "seats.you" : view.you ? "seats.opponent" : null;
    const name = key ? t(key, { side: MARK }).split(MARK) : ["", ""];
    name.splice(1, 0, label);
    let presence;
    if (state === "free") presence = "free";
    else if (state === "you") presence = liveLost ? "lost" : "on";
    else presence = view.connected && view.connected[side] ? "on" : "off";
    // An account's name leads to its profile; its rating in the game's category follows.
    const account = view.names && view.names[`${side}_account`] ? view.names[side] : null;
    const rating = view.ratings ? ratingLabel(view.ratings[side]) : "";
    const item = seatItem(name, presence, Boolean(view.names && view.names[`${side}_bot`]), account, rating);
    if (said[side]) item.append(saidBubble(said[side]));
    items.push(item);
  }
  // Redrawn only when something changed, so that a screen reader hears news only.
  const signature = items.map((item) => `${item.dataset.presence}:${item.textContent}`).join("|");
  if (list.dataset.signature !== signature) {
    list.dataset.signature = signature;
    list.replaceChildren(...items);
  }
}

/** Online, while a seat is free: the link to send, to copy or share, and its QR code. */
export function renderInvite(view) {
  const panel = $("invite-panel");
  panel.hidden = !view.invite;
  if (panel.hidden) return;
  const url = inviteUrl(view);
  const input = $input("invite-url");
  if (input.value !== url) input.value = url;
  $("invite-share").hidden = typeof navigator.share !== "function";
  const qr = /** @type {HTMLImageElement} */ ($("invite-qr"));
  const src = api.inviteQrUrl(view.id);
  if (qr.getAttribute("src") !== src) qr.setAttribute("src", src);
  qr.alt = t("invite.qr.alt");
}

/**
 * Online, while a seat is free: the bots that may be offered it (`bots`, from
 * GET /api/bots), each with a button that calls `invite(bot)`, and to whom it is
 * offered now, or who declined.  Hidden while there is neither a bot nor an offer.
 */
export function renderInviteBots(view, bots, invite, busy) {
  const box = $("invite-bots");
  const offer = view.bot_invitation;
  box.hidden = !view.invite || (!bots.length && !offer);
  if (box.hidden) return;
  const status = $("invite-bots-status");
  const said = offer
    ? t(offer.declined ? "invite.bots.declined" : "invite.bots.offered", { name: offer.name })
    : "";
  if (status.textContent !== said) status.textContent = said;
  const items = bots.map((bot) => {
    const item = document.createElement("li");
    item.className = "invite-bot";
    const name = document.createElement("span");
    name.className = "invite-bot-name";
    name.append(bot.name, " ", botBadge());
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = t("invite.bots.invite");
    button.setAttribute("aria-label", `${t("invite.bots.invite")}: ${bot.name}`);
    button.dataset.bot = bot.bot;
    button.dataset.focusKey = `invite-bot-${bot.bot}`;
    button.disabled = busy || Boolean(offer && !offer.declined && offer.bot === bot.bot);
    button.addEventListener("click", () => invite(bot));
    item.append(name, button);
    return item;
  });
  const signature = bots.map((bot) => `${bot.bot}:${bot.name}`).join("|") +
    `#${offer ? offer.bot + offer.declined : ""}#${busy}`;
  const list = $("invite-bots-list");
  if (list.dataset.signature !== signature) {
    list.dataset.signature = signature;
    list.replaceChildren(...items);
  }
}

/** Online: the opponent's undo request to answer, or one's own waiting for its answer. */
export function renderUndoRequest(view, busy) {
  const panel = $("undo-panel");
  const requester = view.mode === "online" && !view.outcome ? view.undo_request : null;
  panel.hidden = !requester || view.spectator;
  if (panel.hidden) return;
  const mine = requester === view.you;
  panel.classList.toggle("is-waiting", mine);
  $("undo-text").textContent = t(mine ? "undo.waiting" : "undo.asked");
  $("undo-answer").hidden = mine;
  for (const id of ["undo-accept", "undo-refuse"]) $button(id).disabled = busy;
}

/**
 * Online: the opponent's draw offer to answer, or one's own waiting for its answer;
 * and the button to offer one, with the offers left when few are.
 */
export function renderDrawOffer(view, busy) {
  const online = view.mode === "online" && !view.outcome && !view.spectator;
  const full = online && view.seats.first !== "free" && view.seats.second !== "free";
  const offer = full ? view.draw_offer : null;
  const panel = $("draw-panel");
  panel.hidden = !offer;
  if (offer) {
    const mine = offer === view.you;
    panel.classList.toggle("is-waiting", mine);
    $("draw-text").textContent = t(mine ? "draw.waiting" : "draw.offered");
    $("draw-answer").hidden = mine;
    for (const id of ["draw-accept", "draw-decline"]) $button(id).disabled = busy;
  }
  const button = $button("draw-button");
  const left = typeof view.draws_left === "number" ? view.draws_left : 0;
  button.hidden = !full;
  button.disabled = busy || offer === view.you || left <= 0;
  button.textContent = left < 3 ? t("action.draw.left", { count: left }) : t("action.draw");
}

/** A line said at the table a moment ago, beside its side's name. */
function saidBubble(words) {
  const bubble = document.createElement("span");
  bubble.className = "seat-said";
  const comma = document.createElement("span");
  comma.className = "visually-hidden";
  comma.textContent = `, ${t("talk.said")} `;
  bubble.append(comma, `“${words}”`);
  return bubble;
}

/** What stands for the name in the words of a seat, to be split there. */
const MARK = "\u0000";

/** One line of the seats list: a name (a link to the profile of `account`), its
 * `rating` unless "", and (`name` a string, or the words before the name, the name and
 * the words after it), unless null, a dot and a word for `presence`. */
function seatItem(name, presence, bot = false, account = null, rating = "") {
  const item = document.createElement("li");
  item.className = "seat";
  const label = document.createElement("span");
  label.className = "seat-name";
  const [before, own, after] = Array.isArray(name) ? name : ["", name, ""];
  if (account) {
    const link = document.createElement("a");
    link.href = profileAddress(account);
    link.textContent = own;
    link.classList.toggle("seat-link-alone", !before && !after);
    label.append(before, link, after);
  } else {
    label.textContent = before + own + after;
  }
  if (rating) {
    const words = document.createElement("span");
    words.className = "visually-hidden";
    words.textContent = `, ${t("rating.word")} `;
    const shown = document.createElement("span");
    shown.className = "seat-rating";
    shown.textContent = rating;
    label.append(words, shown);
  }
  if (bot) label.append(" ", botBadge());
  item.append(label);
  if (presence) {
    item.dataset.presence = presence;
    const state = document.createElement("span");
    state.className = "presence";
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.setAttribute("aria-hidden", "true");
    state.append(dot, t(`seats.${presence}`));
    const comma = document.createElement("span");
    comma.className = "visually-hidden";
    comma.textContent = ", ";
    item.append(comma, state);
  } else {
    item.classList.add("seat-note");
  }
  return item;
}
