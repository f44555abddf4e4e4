// The end of a game: who won and why, the traits the winning pieces share, the
// review's button, "Play again" (online: the next game for both players), and the way
// to what people played in the game's opening (the analysis board with its explorer,
// after the first hand-over; the review leads there from every turn).

import { analyseAddress } from "../analyse/address.js";
import { t } from "../i18n.js";
import { joinList, otherSide, playerName, shapeName, traitWords } from "../names.js";
import { changeLabel, ratingLabel } from "../players/ratings.js";
import { rematchText } from "./words.js";
import { $, $button } from "../dom.js";

/** Draw the end panel of `view`; `review` is the game's ReviewPanel (closed while
 * the game goes on), `busy` whether a request of the person is on its way. */
export function renderEnd(view, { review, busy }) {
  const outcome = view.outcome;
  const panel = $("end-panel");
  panel.hidden = !outcome;
  $("game-view").classList.toggle("is-over", Boolean(outcome));
  // The review: offered once the game is over (the model closes it when another game shows).
  $("review-open").hidden = !outcome;
  if (outcome && !$("review-panel").hidden) review.render(view);
  const explore = $("end-explore");
  const first = outcome && /^[0-9A-F]$/.test(view.moves[0] ?? "") ? view.moves[0] : null;
  explore.hidden = !first; // a game from the empty board: its first turn, a hand-over
  if (first) explore.setAttribute("href", analyseAddress(view.rules, `..../..../..../.... ${first}`));
  if (!outcome) return;
  $("end-title").textContent = endTitle(view);
  $("end-reason").textContent = endReason(view);
  const winner = outcome.winner;
  const shared = $("end-shared");
  const traits = outcome.traits || [];
  shared.hidden = !winner || traits.length === 0;
  // With one shape, all four pieces share every trait named; with several,
  // each shape shares at least one of them.
  const several = (outcome.shapes || []).length > 1;
  shared.textContent = traits.length
    ? t(several ? "end.shared_several" : "end.shared", { traits: traitWords(traits) })
    : "";

  renderRatingChanges(view);

  // Online, "Play again" starts the next game for both; once one of them
  // did, the other is offered to join it (a spectator, to watch it).
  const online = view.mode === "online";
  const rematch = online ? view.rematch : null;
  const offer = $("rematch-offer");
  offer.hidden = !rematch;
  if (rematch) offer.textContent = rematchText(view);
  const open = $("rematch-open");
  open.hidden = !rematch;
  const own = !view.spectator && view.rematch_by !== null && view.rematch_by === view.you;
  open.textContent = t(view.spectator ? "rematch.watch" : own ? "rematch.open" : "rematch.join");
  const again = $button("play-again");
  again.hidden = Boolean(rematch) || (online && view.spectator);
  again.disabled = busy;
}

function endTitle(view) {
  const winner = view.outcome.winner;
  if (view.outcome.reason === "aborted") return t("end.aborted.title");
  if (!winner) return t("end.draw");
  if (view.mode === "online" && view.you) return t(winner === view.you ? "end.you_won" : "end.you_lost");
  if (view.mode !== "computer") return t("end.player_wins", { player: playerName(view, winner) });
  return t(winner === view.human ? "end.you_win" : "end.computer_wins");
}

function endReason(view) {
  const outcome = view.outcome;
  const winner = outcome.winner;
  const me = view.mode === "online" ? view.you : view.mode === "computer" ? view.human : null;
  if (outcome.reason === "aborted") return t("end.aborted.they");
  if (outcome.reason === "abandonment" && !winner) return t("end.abandonment.draw");
  if (outcome.reason === "agreement") return t(me ? "end.agreement.you" : "end.agreement.they");
  if (!winner || outcome.reason === "full-board") return t("end.full_board");
  // Worded from the side that lost: who gave up, ran out of time, left, or called falsely.
  if (["resignation", "time", "abandonment", "false-call"].includes(outcome.reason)) {
    const loser = otherSide(winner);
    const key = `end.${outcome.reason}`;
    return loser === me ? t(`${key}.you`) : t(`${key}.they`, { who: playerName(view, loser) });
  }
  const shapes = joinList((outcome.shapes || []).map(shapeName));
  return t(`end.${outcome.reason}.${winner === me ? "you" : "they"}`, { who: playerName(view, winner), shapes });
}

/** A rated game over: what it did to each side's rating ("Ada: 1512 (+12)"). */
function renderRatingChanges(view) {
  const box = $("end-ratings");
  const ratings = view.mode === "online" && view.rated ? view.ratings : null;
  const lines = [];
  for (const side of view.you ? [view.you, otherSide(view.you)] : ["first", "second"]) {
    const rating = ratings && ratings[side];
    if (!rating || typeof rating.change !== "number") continue;
    const who = side === view.you ? t("player.you") : (view.names && view.names[side]) || playerName(view, side);
    const line = document.createElement("span");
    line.className = "end-rating";
    line.dataset.side = side;
    line.textContent = t("end.rating", { who, rating: ratingLabel(rating), change: changeLabel(rating.change) });
    lines.push(line);
  }
  box.hidden = lines.length === 0;
  const signature = lines.map((line) => line.textContent).join("|");
  if (box.dataset.signature !== signature) {
    box.dataset.signature = signature;
    box.replaceChildren(...lines);
  }
}
