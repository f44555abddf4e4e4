// The news of a new turn: screen readers hear it in the live region #announce (the
// board itself changes silently), the person's own turns included, and it sounds
// when sounds are on.  Opening a game does neither: its prompt says where it stands.

import { $ } from "../dom.js";
import { playEnd, playPlaced } from "../sound.js";
import { endResult, turnText } from "./words.js";

export class TurnNews {
  constructor() {
    /** @type {{ id: string, ply: number, pieces: number } | null} the game and turn last seen */
    this.seen = null;
  }

  /** Tell of the turns `view` shows since the one seen last (of the same game). */
  notice(view) {
    const seen = this.seen;
    const pieces = view.board.filter(Boolean).length;
    this.seen = { id: view.id, ply: view.ply, pieces };
    // Another game: what was heard of the one before is no news of this one.
    if (!seen || seen.id !== view.id) $("announce").textContent = "";
    if (!seen || seen.id !== view.id || view.ply <= seen.ply) return;
    const text = turnText(view, true);
    if (text) $("announce").textContent = text;
    if (view.outcome) playEnd(endResult(view));
    else if (pieces > seen.pieces) playPlaced();
  }
}
