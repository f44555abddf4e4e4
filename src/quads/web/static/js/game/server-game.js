// A game kept by the server: the game screen's source for every game made while
// the server could be reached (docs/web-api.md).
//
// The game screen talks to a game only through a *source*, which this module and
// game/device-source.js implement alike:
//
//   source.id, source.onDevice (false here)
//   load({wait})               -> GameView        the game as it stands (wait: false: throw
//                                                 code "unreachable" rather than wait for the server)
//   act(revision, action)      -> GameView        {action: "place", cell} | {action: "give", piece} | declare, claim, decline
//   computer(revision)         -> GameView        the computer's whole turn
//   undo(revision), redo(revision), resign(revision), answerUndo(revision, accept) -> GameView
//   claimAbandoned(revision, draw) -> GameView   online: the opponent left during their turn
//   remove(revision)           -> nothing          delete the unfinished game
//   rematch()                  -> GameView        "Play again" (another game, another source)
//   hint(lang)                 -> HintView
//   review()                   -> ReviewView
//   analysis(view)             -> AnalysisView    every turn of the view's position
//   recordLink(view)           -> {href, filename} the record, as a download
//   follow({shown, onView, onGone, onState}) / unfollow()   changes made elsewhere
//   close()                                      the screen left the game: nothing more is sent
//
// Every refusal is thrown as an error with `code` (and `reason`, `params`), as the
// server words it, so the screen handles both kinds of game alike.  A person's
// actions go on the game's live socket while it is open, else as requests.

import * as api from "../api.js";
import { LiveGame } from "../live.js";

export class ServerGame {
  constructor(id) {
    this.id = id;
    this.live = null;
    // Withdrawn when the screen leaves the game: a request waiting for the server is
    // then never sent later.
    this.requests = new AbortController();
    this.options = { signal: this.requests.signal };
  }

  get onDevice() {
    return false;
  }

  /** `options.wait: false`: throw code "unreachable" at once rather than wait for the server. */
  load(options = {}) {
    return api.getGame(this.id, { ...options, ...this.options });
  }

  /** On the live socket while it is open (it costs the server less), else as a request. */
  async act(revision, action) {
    const view = this.live ? await this.live.act(revision, action) : null;
    return view || api.act(this.id, revision, action, this.options);
  }

  computer(revision) {
    return api.computerTurn(this.id, revision, this.options);
  }

  undo(revision) {
    return api.undo(this.id, revision, this.options);
  }

  redo(revision) {
    return api.redo(this.id, revision, this.options);
  }

  resign(revision) {
    return api.resign(this.id, revision, this.options);
  }

  claimAbandoned(revision, draw) {
    return api.claimAbandoned(this.id, revision, draw, this.options);
  }

  answerUndo(revision, accept) {
    return api.answerUndo(this.id, revision, accept, this.options);
  }

  async remove(revision) {
    // Stop following first: the server tells the game's sockets that it is gone.
    this.unfollow();
    try {
      await api.deleteGame(this.id, revision, this.options);
    } catch (error) {
      // A repeated request after a lost connection finds the game gone: deleted all the same.
      if (error.code !== "not_found") throw error;
    }
  }

  rematch() {
    return api.rematch(this.id, this.options);
  }

  hint(lang) {
    return api.hint(this.id, lang, this.options);
  }

  review() {
    return api.review(this.id, this.options);
  }

  analysis(view) {
    return api.analysis(view.position, view.rules, this.options);
  }

  recordLink() {
    return { href: api.recordUrl(this.id), filename: `quads-${this.id}.qds` };
  }

  follow({ shown, onView, onGone, onState }) {
    this.unfollow();
    this.live = new LiveGame(this.id, { shown, onView, onGone, onState });
  }

  unfollow() {
    if (this.live) this.live.close();
    this.live = null;
  }

  /** The screen left the game: stop following it and withdraw every request waiting. */
  close() {
    this.unfollow();
    this.requests.abort();
  }
}
