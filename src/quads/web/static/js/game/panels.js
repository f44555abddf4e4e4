// The panels of the game screen drawn from a GameView alone: the prompt with the
// reminder of a call, the last turn, the piece in hand, the move text and the tools.

import { t } from "../i18n.js";
import { isPerson, otherSide, playerName, waitingForOpponent } from "../names.js";
import { pieceLabel, pieceSvg } from "../pieces.js";
import { prefersReducedMotion } from "../reveal.js";
import { turnText } from "./words.js";
import { moveWords } from "./move-history.js";
import { $, $button } from "../dom.js";

/** The prompt, and where the server offers a call (`claim_offered`,
 * `declare_offered`) the reminder of it beside the call's button. */
export function renderPrompt(view, person, fourDown) {
  const boardHasPieces = view.board.some(Boolean);
  const prompt = $("prompt");
  const extra = $("prompt-extra");
  let text;
  let more = null;
  if (view.outcome) {
    text = t("prompt.over");
  } else if (waitingForOpponent(view)) {
    text = t(view.spectator ? "prompt.waiting.watch" : "prompt.waiting");
  } else if (!person) {
    if (view.mode !== "online") {
      text = t("prompt.computer_turn"); // the hand shows that it is thinking
    } else {
      const mover = view.to_move;
      const who = { player: playerName(view, mover), other: playerName(view, otherSide(mover)) };
      const form = view.spectator ? "watch" : "wait";
      text = t(view.step === "place" ? `prompt.${form}.place` : `prompt.${form}.give`, who);
    }
  } else {
    const who = { player: playerName(view, person), other: playerName(view, otherSide(person)) };
    const form = { local: "player", online: "online" }[view.mode] || "you";
    if (view.calls_forfeited) more = t("prompt.calls_forfeited");
    if (view.step === "place") {
      text = t(form === "player" ? "prompt.place.player" : "prompt.place.you", who);
      if (view.claim_offered && fourDown) more = t("prompt.place.claim");
    } else if (view.supply.length === 0) {
      text = t("prompt.decline");
    } else {
      text = t(boardHasPieces ? `prompt.give.${form}` : `prompt.give.first.${form}`, who);
      if (view.declare_offered && fourDown) more = t("prompt.give.declare");
    }
  }
  prompt.textContent = text;
  extra.hidden = !more;
  extra.textContent = more || "";
}

/** The last turn, when the person did not see it made on this screen. */
export function renderLastMove(view) {
  const text = turnText(view, false);
  const box = $("last-move");
  box.hidden = !text;
  box.textContent = text || "";
}

/** The piece in hand, who holds it, and the computer thinking (`thinking`); `arrived`:
 * what was just played, to animate. */
export function renderHand(view, person, { thinking, arrived }) {
  const hand = $("hand");
  const caption = $("hand-caption");
  hand.replaceChildren();
  hand.classList.remove("arrived", "empty");
  $("thinking").hidden = !thinking;
  if (view.hand) {
    hand.append(pieceSvg(view.hand));
    hand.setAttribute("aria-label", pieceLabel(view.hand));
    const holder = view.to_move;
    if (isPerson(view, holder) && view.mode !== "local") caption.textContent = t("game.hand.yours");
    else if (view.mode === "computer") caption.textContent = t("game.hand.computer");
    else if (view.mode === "online" && view.you) caption.textContent = t("game.hand.opponent");
    else caption.textContent = t("game.hand.player", { player: playerName(view, holder) });
    if (arrived && arrived.hand && !prefersReducedMotion()) hand.classList.add("arrived");
  } else {
    hand.classList.add("empty");
    hand.setAttribute("aria-label", t("game.hand.empty"));
    caption.textContent = person && view.supply.length ? t("game.hand.empty") : "";
  }
  caption.hidden = !caption.textContent;
}

/** The moves, each in words and its token, a button that shows the board after it;
 * `history` says which one the board shows (see game/move-history.js). */
export function renderMoves(view, history) {
  const moves = view.moves;
  const list = $("moves");
  const signature = `${moves.join(" ")}|${history.at}|${currentWords()}`;
  if (list.dataset.signature !== signature) {
    list.dataset.signature = signature;
    const focused = document.activeElement instanceof HTMLElement && list.contains(document.activeElement)
      ? document.activeElement.dataset.move : null;
    list.replaceChildren(...moves.map((token, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.move = String(index);
      button.dataset.token = token;
      button.textContent = t("moves.item", { number: index + 1, words: moveWords(token), token });
      if (history.at === index) button.setAttribute("aria-current", "step");
      item.append(button);
      return item;
    }));
    if (focused !== null && focused !== undefined) {
      const again = list.querySelector(`button[data-move="${history.at ?? focused}"]`);
      if (again instanceof HTMLElement) again.focus({ preventScroll: true });
    }
  }
  $("moves-empty").hidden = moves.length > 0;
  const steps = $("moves-steps");
  steps.hidden = moves.length === 0;
  const shown = history.at;
  for (const side of ["moves", "history"]) {
    $button(`${side}-back`).disabled = shown === 0 || history.boards.length === 0;
    $button(`${side}-forward`).disabled = shown === null;
  }
  $button("moves-live").disabled = shown === null;
  const banner = $("history-banner");
  banner.hidden = shown === null;
  if (shown !== null) {
    $("history-text").textContent = t("moves.showing", { number: shown + 1, total: moves.length });
  }
}

/** The language of the words drawn (a list drawn in another is drawn anew). */
function currentWords() {
  return t("moves.title");
}

/**
 * The question "are you sure?" still to ask of `confirming` ("resign", "delete",
 * "declare", "claim" or null): one that `view` no longer allows is dropped.
 * @param {string | null} confirming
 * @returns {string | null}
 */
export function allowedQuestion(view, confirming) {
  if (confirming === "resign" && !view.can_resign) return null;
  if (confirming === "declare" && !view.declare_offered) return null;
  if (confirming === "claim" && !view.claim_offered) return null;
  if (confirming === "delete" && !view.invite) return null; // an online game nobody joined
  return confirming;
}

/**
 * The tools under the supply: undo and redo, the hint, restarting, the record,
 * resigning and deleting with their "are you sure?", as `view` allows them.  `state`:
 * {person, idle, hintPending, confirming (the question asked, as allowedQuestion()
 * leaves it), source}.
 */
export function renderTools(view, { person, idle, hintPending, confirming, source }) {
  const online = view.mode === "online";
  const seated = !view.spectator;
  // No undo in a game with a clock (the server refuses it: clock_no_undo).
  $("undo-button").hidden = !seated || Boolean(view.clock);
  $("undo-label").textContent = t(online ? "action.undo.ask" : "action.undo");
  $button("undo-button").disabled = !idle || !view.can_undo;
  $("redo-button").hidden = online;
  $button("redo-button").disabled = !idle || !view.can_redo;
  // No hints online: the engine would help one side without the other knowing.
  $("hint-button").hidden = !seated || online;
  // The safe pieces online only if both agreed when the game was made; said plainly.
  const toggle = $("safe-toggle").closest("label");
  if (toggle) toggle.hidden = view.safe_help === false;
  const fair = $("fair-play");
  fair.hidden = !online;
  fair.textContent = online ? t(view.safe_help ? "fair.safe" : "fair.none") : "";
  $button("hint-button").disabled = !idle || !person || Boolean(hintPending);
  $("hint-button").setAttribute("aria-busy", String(Boolean(hintPending)));
  $("restart-button").hidden = online;
  // Resigning, and deleting an online game nobody joined, ask "are you sure?" first.
  const deletable = Boolean(view.invite);
  const resign = $button("resign-button");
  resign.hidden = !view.can_resign;
  resign.disabled = !idle || confirming !== null;
  const remove = $button("delete-button");
  remove.hidden = !deletable;
  remove.disabled = !idle || confirming !== null;
  const confirm = $("confirm-panel");
  confirm.hidden = !confirming;
  if (confirming === "resign") {
    const loser = view.mode === "local" ? view.to_move : view.you;
    const winner = playerName(view, otherSide(loser));
    $("confirm-question").textContent =
      view.mode === "local"
        ? t("resign.confirm.player", { player: playerName(view, loser), winner })
        : t("resign.confirm", { winner });
    $("confirm-yes").textContent = t("resign.yes");
    $("confirm-no").textContent = t("resign.no");
  } else if (confirming === "delete") {
    $("confirm-question").textContent = t("delete.confirm");
    $("confirm-yes").textContent = t("delete.yes");
    $("confirm-no").textContent = t("delete.no");
  } else if (confirming === "declare" || confirming === "claim") {
    $("confirm-question").textContent = t(`call.confirm.${confirming}.${view.false_calls}`);
    $("confirm-yes").textContent = t(`call.yes.${confirming}`);
    $("confirm-no").textContent = t("call.no");
  }
  $button("confirm-yes").disabled = !idle;
  const link = /** @type {HTMLAnchorElement} */ ($("export-link"));
  const record = source.recordLink(view);
  link.href = record.href;
  link.setAttribute("download", record.filename);
}
