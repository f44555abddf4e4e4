// Where the game screen shows a refusal or an error (#game-message): by what the
// player pressed, so that it shows where they look.  A false "Quarto!" or claim
// is explained under the call's buttons, a refused hand-over above the supply,
// a refused undo, redo, hint, resignation or deletion above the tools; anything
// else (a placement, the computer's turn, an undo request's answer, "Play
// again") under the prompt, above the board.  The screen then scrolls the
// message into view with what the player acts on (GameView.actingElements).

import { $ } from "../dom.js";

const PLACES = {
  declare: "calls", claim: "calls", decline: "calls",
  give: "supply",
  undo: "tools", redo: "tools", hint: "tools", resign: "tools", delete: "tools",
};

/** Move the message `box` to where a refusal of `action` shows (see above);
 * nothing moves when it is there already (a screen reader hears it once). */
export function placeRefusal(box, action) {
  const place = Object.hasOwn(PLACES, action) ? PLACES[action] : "prompt";
  if (place === "calls") {
    const calls = $("call-buttons");
    if (calls.lastElementChild !== box) calls.append(box);
  } else if (place === "supply" || place === "tools") {
    const next = $(place === "supply" ? "supply" : "hint-box");
    if (next.previousElementSibling !== box) next.before(box);
  } else {
    const above = $("announce");
    if (above.nextElementSibling !== box) above.after(box);
  }
}
