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
//   undo(revision), redo(revision), resign(revision), answerUndo(revision, accept),
//   offerDraw(revision), answerDraw(revision, accept) -> GameView
//   claimAbandoned(revision, draw) -> GameView   online: the opponent left during their turn
//   remove(revision)           -> nothing          delete the unfinished game
//   rematch()                  -> GameView        "Play again" (another game, another source)
//   hint(lang)                 -> HintView
//   review()                   -> ReviewView
//   analysis(view)             -> AnalysisView    every turn of the view's position
//   recordLink(view)           -> {href, filename} the record, as a download
//   follow({shown, onView, onGone, onState, onTalk, onWatchers}) / unfollow()   changes made
//                                                 elsewhere (onTalk: lines said at an online game's
//                                                 table; onWatchers: how many watch it)
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
    /** The seats' ratings of the last view asked for, and its revision (see rated()). */
    this.ratings = { revision: -1, seats: null };
    /** @type {((view: any) => void) | null} */
    this.onView = null;
  }

  get onDevice() {
    return false;
  }

  /** `options.wait: false`: throw code "unreachable" at once rather than wait for the server. */
  async load(options = {}) {
    return this.keep(await api.getGame(this.id, { ...options, ...this.options }));
  }

  /** Note the ratings of a view the server answered. */
  keep(view) {
    if (view && view.ratings && view.revision >= this.ratings.revision) {
      this.ratings = { revision: view.revision, seats: view.ratings };
    }
    return view;
  }

  /** A view of the live socket with the seats' ratings as far as they are known.  The
   * socket's views may lack them (null for a seat of an account): they are taken from
   * the last view asked for, and once a rated game is over without its changes, the
   * game is asked for once more, for what it did to the ratings. */
  rated(view, onView) {
    if (!view.ratings || view.mode !== "online") return view;
    const known = this.ratings.seats;
    const seats = { ...view.ratings };
    for (const side of ["first", "second"]) {
      const usable = known && known[side] && (!view.outcome || this.ratings.revision >= view.revision);
      if (!seats[side] && usable) seats[side] = known[side];
    }
    const lacking = view.rated && view.outcome && view.outcome.reason !== "aborted" &&
      ["first", "second"].some((side) => view.names && view.names[`${side}_account`] &&
        !(seats[side] && typeof seats[side].change === "number"));
    if (lacking && this.ratings.revision < view.revision) {
      this.ratings.revision = view.revision; // asked once for this revision
      api.getGame(this.id, this.options).then((full) => onView(this.keep(full)), () => {});
    }
    return { ...view, ratings: seats };
  }

  /** On the live socket while it is open (it costs the server less), else as a request. */
  async act(revision, action) {
    const view = this.live ? await this.live.act(revision, action) : null;
    if (view && this.onView) return this.rated(view, this.onView);
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

  offerDraw(revision) {
    return api.offerDraw(this.id, revision, this.options);
  }

  answerDraw(revision, accept) {
    return api.answerDraw(this.id, revision, accept, this.options);
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

  follow({ shown, onView, onGone, onState, onTalk, onWatchers }) {
    this.unfollow();
    this.onView = onView;
    const seen = (view) => onView(this.rated(view, onView));
    this.live = new LiveGame(this.id, { shown, onView: seen, onGone, onState, onTalk, onWatchers });
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
