// One tournament (#/tournaments/ID): its name, rules and clock, the countdown to
// its start or end, joining and pausing, the standings with the player's own line in
// view, the games (to watch) and how an arena works.  The event is followed live
// (tournaments/event-live.js): a game of the player's that begins while they look
// opens by itself.

import * as api from "../api.js";
import * as account from "../account/state.js";
import { $, $button } from "../dom.js";
import { t } from "../i18n.js";
import { botBadge, describeError, messageWords, rulesName } from "../names.js";
import { profileLink } from "../players/links.js";
import { EventLive } from "./event-live.js";
import { countdown, eventClock, eventName, pointsText, readBefore, serverNow, sheetText } from "./words.js";

/** The player's own part of a view the API answered to them (as the socket's "me"). */
function meOf(view) {
  const line = view.standings.find((standing) => standing.you);
  return { name: line ? line.name : null, joined: view.joined, playing: view.playing };
}

const RESULT_KEYS = { first: "tournaments.result.first", second: "tournaments.result.second", draw: "tournaments.result.draw", aborted: "tournaments.result.aborted" };

export class EventView {
  /** `onOpen(id)` shows game `id` (the player's game of the event, begun now). */
  constructor(onOpen) {
    this.onOpen = onOpen;
    this.id = null;
    this.event = null;
    this.me = null;
    this.error = null;
    /** Why joining or pausing was refused ({key, params}), until the next try. */
    this.failure = null;
    this.busy = false;
    /** The server's time of the last view and the device's when it came. */
    this.at = null;
    this.received = 0;
    /** The player's game when the screen opened: only one begun since opens by itself. */
    this.known = undefined;
    /** @type {EventLive | null} */
    this.live = null;
    /** @type {number | undefined} */
    this.ticker = undefined;
    this.asked = 0;
    /** The own line last brought into view (its rank): moved, it is brought again. */
    this.shownRank = null;
    /** The standings and the games as last drawn (with the language), to skip a redraw. */
    this.shownStandings = "";
    this.shownGames = "";
    $button("event-join").addEventListener("click", () => this.joinOrPause());
    account.onChange(() => this.render());
  }

  async open(id) {
    this.close();
    this.id = id;
    this.event = null;
    this.me = null;
    this.error = null;
    this.failure = null;
    this.known = undefined;
    this.shownRank = null;
    this.shownStandings = "";
    this.shownGames = "";
    const asked = ++this.asked;
    this.render();
    this.live = new EventLive(id, {
      onEvent: (event, me, received) => this.show(event, me, received),
      onGone: () => {
        this.error = describeError({ code: "not_found" }, { overrides: { not_found: "tournaments.not_found" } });
        this.render();
      },
    });
    this.ticker = window.setInterval(() => this.renderCountdown(), 1000);
    try {
      const view = await api.getTournament(id, { wait: false });
      if (asked === this.asked && !this.event) this.show(view, meOf(view), Date.now());
    } catch (error) {
      if (asked === this.asked && !this.event) {
        this.error = describeError(error, { overrides: { not_found: "tournaments.not_found" } });
        this.render();
      }
    }
  }

  close() {
    this.asked += 1;
    if (this.live) this.live.close();
    this.live = null;
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  show(event, me, received) {
    // A view read before the one shown (the socket's, overtaken by the answer to a
    // join) is stale: it would take back, for a moment, what the player just saw done.
    const shown = this.event;
    if (shown && shown.id === event.id && readBefore(event.read, shown.read)) return;
    this.event = event;
    this.me = me;
    this.error = null;
    this.at = event.at;
    this.received = received;
    if (this.known === undefined) this.known = me.playing;
    this.render();
    if (me.playing && me.playing !== this.known) {
      this.known = me.playing;
      this.onOpen(me.playing);
    }
  }

  async joinOrPause() {
    if (!this.event || this.busy) return;
    this.busy = true;
    this.render();
    try {
      this.failure = null;
      const view = this.me && this.me.joined
        ? await api.withdrawTournament(this.event.id)
        : await api.joinTournament(this.event.id);
      this.show(view, meOf(view), Date.now());
    } catch (error) {
      this.failure = describeError(error);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  renderCountdown() {
    const event = this.event;
    const line = $("event-countdown");
    if (!event) {
      line.textContent = "";
      return;
    }
    const now = serverNow(this.at, this.received, Date.now());
    const said = countdown(event, now, t);
    line.textContent = t(said.key, said);
    line.dataset.status = event.status;
  }

  render() {
    const event = this.event;
    const view = $("event-view");
    view.setAttribute("aria-busy", String(!event && !this.error));
    const status = $("event-status");
    status.textContent = this.error ? messageWords(this.error) : event ? "" : t("tournaments.loading_one");
    status.hidden = !status.textContent;
    $("event-body").hidden = !event;
    if (!event) {
      $("event-title").textContent = this.error ? "" : t("tournaments.arena");
      return;
    }
    $("event-title").textContent = eventName(event, t);
    const kind = event.kind === "swiss" ? t("tournaments.kind.swiss_rounds", { rounds: event.rounds }) : t("tournaments.kind.arena");
    const info = [kind, rulesName(event.rules), eventClock(event), t(event.rated ? "tournaments.rated" : "tournaments.casual"),
      t(event.players === 1 ? "tournaments.players.one" : "tournaments.players.many", { count: event.players })];
    $("event-info").textContent = info.join(" · ");
    this.renderCountdown();
    this.renderActions(event);
    this.renderStandings(event);
    this.renderGames(event);
    $("event-rules-title").textContent = t(event.kind === "swiss" ? "tournaments.swiss.title" : "tournaments.rules.title");
    $("event-rules-arena").hidden = event.kind === "swiss";
    $("event-rules-swiss").hidden = event.kind !== "swiss";
  }

  renderActions(event) {
    const me = this.me;
    const signedIn = Boolean(account.current());
    const over = event.status === "finished";
    const join = $button("event-join");
    join.hidden = over || !signedIn;
    join.disabled = this.busy;
    join.textContent = t(me && me.joined ? "tournaments.pause" : me && me.name ? "tournaments.rejoin" : "tournaments.join");
    join.classList.toggle("button-primary", !(me && me.joined));
    $("event-signin").hidden = over || signedIn || account.current() === undefined;
    const play = $("event-play");
    play.hidden = !(me && me.playing);
    if (me && me.playing) play.setAttribute("href", `#/game/${encodeURIComponent(me.playing)}`);
    let note = "";
    if (me && me.joined && !over) note = t(me.playing ? "tournaments.playing" : event.kind === "swiss" ? "tournaments.joined_swiss" : "tournaments.joined");
    else if (me && me.name && !over) note = t("tournaments.paused");
    $("event-me").textContent = note;
    $("event-me").hidden = !note;
    const failed = $("event-error");
    failed.textContent = this.failure ? messageWords(this.failure) : "";
    failed.hidden = !this.failure;
  }

  renderStandings(event) {
    const list = $("event-standings");
    $("event-standings-none").hidden = event.standings.length > 0;
    const mine = this.me && this.me.name;
    // Lines unchanged are left as they are (a link in them keeps the focus).
    // A line as drawn: `you` left out, which only the views answered to the player
    // carry (the live ones are everybody's); the line is the player's by its name.
    const lines = event.standings.map(({ you: _you, ...line }) => line);
    const shown = JSON.stringify([document.documentElement.lang, mine, lines]);
    if (shown === this.shownStandings) return;
    this.shownStandings = shown;
    // Each line is drawn anew only when what it shows changed: the others stay the
    // same elements (a screen reader's place and a focused link in them are kept).
    /** @type {Map<string, HTMLElement>} */
    const kept = new Map();
    for (const line of Array.from(list.children)) {
      if (line instanceof HTMLElement && line.dataset.line) kept.set(line.dataset.line, line);
    }
    const rows = event.standings.map((standing, index) => {
      const key = JSON.stringify([document.documentElement.lang, Boolean(mine && standing.name === mine), lines[index]]);
      const same = kept.get(key);
      if (same) {
        kept.delete(key);
        return same;
      }
      const item = document.createElement("li");
      item.dataset.line = key;
      item.className = "standing";
      const rank = document.createElement("span");
      rank.className = "standing-rank";
      rank.textContent = String(standing.rank);
      const name = document.createElement("span");
      name.className = "standing-name";
      // A bot has no profile: its name alone, with its badge.
      if (standing.bot) name.append(standing.name, " ", botBadge());
      else name.append(profileLink(standing.name));
      if (standing.on_fire) {
        const fire = document.createElement("span");
        fire.className = "standing-fire";
        fire.textContent = "🔥";
        fire.setAttribute("role", "img");
        fire.setAttribute("aria-label", t("tournaments.fire"));
        fire.title = t("tournaments.fire");
        name.append(" ", fire);
      }
      if (standing.paused) {
        const paused = document.createElement("small");
        paused.textContent = ` ${t("tournaments.paused_mark")}`;
        name.append(paused);
      }
      const sheet = document.createElement("span");
      sheet.className = "standing-sheet";
      sheet.textContent = sheetText(standing.sheet);
      if (standing.buchholz !== null && standing.buchholz !== undefined) {
        // A Swiss event's tie-breaks after the points of each round.
        const ties = t("tournaments.tiebreaks", { buchholz: pointsText(standing.buchholz), berger: pointsText(standing.sonneborn_berger || 0) });
        sheet.textContent = `${sheet.textContent} · ${ties}`;
      }
      const points = document.createElement("strong");
      points.className = "standing-points";
      points.textContent = pointsText(standing.points);
      points.setAttribute("aria-label", t("tournaments.points", { points: pointsText(standing.points) }));
      item.append(rank, name, sheet, points);
      if (mine && standing.name === mine) {
        item.classList.add("is-you");
        item.setAttribute("aria-current", "true");
      }
      return item;
    });
    rows.forEach((row, index) => {
      if (list.children[index] !== row) list.insertBefore(row, list.children[index] || null);
    });
    for (const gone of kept.values()) gone.remove();
    // The player's own line stays in view within the list (it scrolls, not the page).
    const at = event.standings.findIndex((standing) => mine && standing.name === mine);
    if (at >= 0 && event.standings[at].rank !== this.shownRank) {
      this.shownRank = event.standings[at].rank;
      list.scrollTop = Math.max(0, rows[at].offsetTop - list.clientHeight / 2);
    }
  }

  renderGames(event) {
    $("event-games-none").hidden = event.games.length > 0;
    const shown = JSON.stringify([document.documentElement.lang, event.games]);
    if (shown === this.shownGames) return;
    this.shownGames = shown;
    $("event-games").replaceChildren(...event.games.map((game) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.className = "watch-link";
      link.href = `#/game/${encodeURIComponent(game.id)}`;
      const players = document.createElement("span");
      players.className = "watch-players";
      players.textContent = `${game.first} – ${game.second}`;
      const result = document.createElement("span");
      result.className = "watch-details";
      result.textContent = game.result ? t(RESULT_KEYS[game.result], { first: game.first, second: game.second }) : t("tournaments.game.playing");
      if (game.round) result.textContent = `${t("tournaments.round_short", { round: game.round })} · ${result.textContent}`;
      link.append(players, result);
      item.append(link);
      return item;
    }));
  }
}
