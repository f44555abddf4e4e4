// A game in words: the last turn, the end, "Play again" and a hint, in the page's
// language now.  Pure functions of a GameView (or a HintView) and the catalogue.

import { t } from "../i18n.js";
import { isPerson, joinList, playerName, shapeName } from "../names.js";
import { pieceLabel } from "../pieces.js";

/** How the end sounds to the person: "win", "loss" or "draw". */
export function endResult(view) {
  const winner = view.outcome.winner;
  if (!winner) return "draw";
  const person = view.mode === "online" ? view.you : view.mode === "computer" ? view.human : null;
  return person && winner !== person ? "loss" : "win";
}

/**
 * The last turn of `view` in words, or null.  Shown on the screen (`announce`
 * false): the turns the person did not make themselves and did not see made
 * on their own screen.  Announced (`announce` true): every turn.
 */
export function turnText(view, announce) {
  const last = view.last;
  if (!last || view.outcome) return null;
  const piece = last.piece && pieceLabel(last.piece);
  const give = last.give && pieceLabel(last.give);
  const cell = last.place;
  if (view.mode === "computer" && !isPerson(view, last.player)) {
    if (last.claimed) return t("last.computer.claimed");
    if (last.declared) return t("last.computer.declared", { piece, cell });
    if (cell && give) return t("last.computer.place_give", { piece, cell, give });
    if (give) return t("last.computer.give", { give });
    if (cell) return t("last.computer.place", { piece, cell });
    return null;
  }
  const own = view.mode === "computer" || (view.mode === "online" && last.player === view.you);
  if (own) {
    if (!announce) return null; // the person knows what they just did
    if (last.declared) return t("last.you.declared", { piece, cell });
    if (cell && give) return t("last.you.place_give", { piece, cell, give });
    if (give) return t("last.you.give", { give });
    if (cell) return t("last.you.place", { piece, cell });
    return null;
  }
  const player = playerName(view, last.player);
  if (cell && give) return t("last.player.place_give", { player, piece, cell, give });
  if (give) return t("last.player.give", { player, give });
  if (cell && announce) return t("last.player.place", { player, piece, cell });
  return null;
}

/** Who started the next game ("Play again"), as the server says (`rematch_by`). */
export function rematchText(view) {
  const by = view.rematch_by;
  if (view.spectator) return by ? t("rematch.watch.by", { player: playerName(view, by) }) : t("rematch.watch.text");
  if (!by) return t("rematch.started");
  return t(by === view.you ? "rematch.text.you" : "rematch.text");
}

/** Why a hint suggests its turn, in the page's language now (from its key and params,
 * so that it is worded anew after a change of language). */
export function hintReason(hint) {
  if (!hint.reason_key) return hint.reason || "";
  const shapes = joinList((hint.shapes || []).map(({ shape, traits }) =>
    `${shapeName(shape)} (${t("hint.all", { traits: traits.map(({ trait, value }) => t(`trait.${trait}.${value ? 1 : 0}`)).join(" ") })})`));
  const params = { ...hint.reason_params, shapes };
  if ("shape" in params) params.shape = shapeName(String(params.shape));
  return t(hint.reason_key, params);
}

/** The suggested turn of a hint, in words ("" when the advice is to call or claim). */
export function hintTurn(hint) {
  // a call, a claim, or a winning placement: the reason itself says what to do
  if (hint.action || (hint.place && !hint.give && hint.value === "win" && hint.plies === 1)) return "";
  const piece = hint.give && pieceLabel(hint.give);
  if (hint.place && piece) return t("hint.turn", { cell: hint.place, piece });
  if (hint.place) return t("hint.place", { cell: hint.place });
  return t("hint.give", { piece });
}
