// Names shown for the things the server speaks of by identifier: rule sets,
// levels, players, winning shapes and shared traits.

import { errorMessage, messageText } from "./errors.js";
import { has, t } from "./i18n.js";

/** The rule sets offered on the new-game screen, with their catalogue keys. */
export const RULE_SETS = [
  { rules: "quads", key: "quads" },
  { rules: "classic", key: "classic" },
  { rules: "advanced", key: "advanced" },
  { rules: "lines+squares:color:auto", key: "color" },
  { rules: "lines+squares:height,color:auto", key: "height_color" },
];

export const LEVELS = [1, 2, 3, 4, 5];

/** What a false call may cost, as a rule set's name ends when it is not free. */
const FALSE_CALLS = ["free-calls", "forfeit-calls", "losing-calls"];

/** The name of a rule set shown to people, with what a false call costs if not free. */
export function rulesName(rules) {
  const parts = rules.split(":");
  const calls = parts[parts.length - 1];
  if (parts.length > 1 && FALSE_CALLS.includes(calls)) {
    return t("rules.with_calls", { rules: rulesName(parts.slice(0, -1).join(":")), calls: t(`rules.calls.${calls}`) });
  }
  const known = RULE_SETS.find((set) => set.rules === rules);
  return known ? t(`rules.${known.key}.name`) : t("rules.other", { name: rules });
}

/** How far a game of `ply` actions is, in pieces placed (a turn places one and hands
 * one over; the first turn only hands one over). */
export function placedWords(ply) {
  const placed = Math.floor(ply / 2);
  if (placed === 0) return t("resume.placed.none");
  return t(placed === 1 ? "resume.placed.one" : "resume.placed.many", { count: placed });
}

export function levelName(level) {
  return t(`level.${level}.name`);
}

/** Whether `side` ("first" or "second") is played by a person at this screen. */
export function isPerson(view, side) {
  if (view.mode === "online") return side === view.you;
  return view.mode === "local" || side === view.human;
}

/** Whether `view` is an online game with a seat still free. */
export function waitingForOpponent(view) {
  return view.mode === "online" && (view.seats.first === "free" || view.seats.second === "free");
}

/**
 * The name of `side`: "You" / "The computer", "You" / "Your opponent" online; for a
 * spectator of an online game the name its player goes by; "Player 1" / "Player 2" on
 * one device (or for a seat without a player's name).
 */
export function playerName(view, side) {
  if (view.mode === "online" && view.you) return t(side === view.you ? "player.you" : "player.opponent");
  if (view.mode === "online" && view.names && view.names[side]) return view.names[side];
  if (view.mode !== "computer") return sideName(side);
  return t(side === view.human ? "player.you" : "player.computer");
}

/** "Player 1" (hands over the first piece) or "Player 2". */
export function sideName(side) {
  return t(side === "first" ? "player.first" : "player.second");
}

export function otherSide(side) {
  return side === "first" ? "second" : "first";
}

const COLUMNS = "ABCD";

/** The name of a winning shape from its identifier: row1, colA, diagA1, diagD1, sqB2. */
export function shapeName(id) {
  let match = /^row(\d)$/.exec(id);
  if (match) return t("shape.row", { name: match[1] });
  match = /^col([A-D])$/.exec(id);
  if (match) return t("shape.column", { name: match[1] });
  if (id === "diagA1") return t("shape.diagonal", { from: "A1", to: "D4" });
  if (id === "diagD1") return t("shape.diagonal", { from: "D1", to: "A4" });
  match = /^sq([A-C])(\d)$/.exec(id);
  if (match) {
    const to = COLUMNS[COLUMNS.indexOf(match[1]) + 1] + (Number(match[2]) + 1);
    return t("shape.square", { from: match[1] + match[2], to });
  }
  return id;
}

/** "a, b and c" in the page's language. */
export function joinList(items) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(t("end.list")) + t("end.and") + items[items.length - 1];
}

/** The words for the shared traits of a win, e.g. "tall and dark". */
export function traitWords(traits) {
  return joinList(traits.map(({ trait, value }) => t(`trait.${trait}.${value ? 1 : 0}`)));
}

/** A param of a message in words: a shape's id becomes its name. */
export function wordParam(name, value) {
  return name === "shape" ? shapeName(String(value)) : value;
}

/** The message {key, params} that words `error` (js/errors.js), with this page's catalogue. */
export function describeError(error, options = {}) {
  return errorMessage(error, { has, ...options });
}

/** The text of a message {key, params} that a view keeps, in the page's language now. */
export function messageWords(message) {
  return messageText(message, { t, word: wordParam });
}

/** The mark of a player that is a program (a bot): a small badge after its name. */
export function botBadge() {
  const badge = document.createElement("span");
  badge.className = "badge-bot";
  badge.textContent = t("player.bot");
  badge.title = t("player.bot.title");
  return badge;
}
