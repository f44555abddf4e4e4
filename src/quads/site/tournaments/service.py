"""What players do with arenas, and what keeps them running.

A signed-in player makes an arena (:func:`create_arena`): its rules, a real-time
clock, its length, whether it is rated, when it starts and, optionally, how many
rated games of its category a player must have played to join.  Players with an
account join it, before it starts or while it runs (:func:`join`), and pause when they
like (:func:`withdraw`).  :func:`tick`, called every moment by one or more server
processes, starts the arenas that are due, pairs their free players
(:mod:`quads.site.tournaments.arena`; one process at a time per arena,
:mod:`quads.storage.tournaments`) and ends those whose time is up: the games running
then finish and count.  :func:`standings` ranks the players.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from quads.clock import RealTime, parse_time_control
from quads.errors import InvalidTimeControlError
from quads.ratings import category_of
from quads.site.accounts.rated import account_name, rated_category, rating_in, require_account
from quads.site.errors import SiteError
from quads.site.games import clocks, play
from quads.site.games.calls import online_rules
from quads.site.tournaments import arena, schedule, swiss, swiss_run
from quads.storage import GameStore, StorageError, StoredGame
from quads.storage.bots import Bots
from quads.storage.tournaments import (
    Entry,
    Kind,
    Paired,
    PairingTaken,
    Tournament,
    TournamentGame,
)

__all__ = ["LONGEST", "SHORTEST", "Standing", "checked_clock", "create_arena", "create_swiss",
           "event_headers", "join", "ranked", "standings", "swiss_ranked", "tick", "withdraw"]

SHORTEST = 5
"""The shortest arena, in minutes."""
LONGEST = 720
"""The longest arena, in minutes."""
AHEAD = timedelta(days=30)
"""How far ahead an arena may be set to start."""
MOST_RATED = 500
"""The most rated games an arena may ask of its players."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in an event's standings: their rank (1 for the leader), points,
    the points of each game (a Swiss event's: of each round) oldest first, whether
    they are on fire, their games, their performance (the rating their results are
    worth, ``None`` before a counted game), their rating when they joined, whether
    they are paused (withdrawn), and a Swiss event's tie-breaks."""

    rank: int
    player: str
    points: float
    sheet: tuple[float, ...]
    on_fire: bool
    games: int
    performance: int | None
    rating: int
    paused: bool
    buchholz: float | None = None
    """A Swiss event's tie-breaks (``None`` in an arena)."""
    sonneborn_berger: float | None = None


def _found(store: GameStore, tournament_id: str) -> Tournament:
    event = store.tournament(tournament_id)
    if event is None:
        raise SiteError("not_found", f"no tournament with id {tournament_id!r}")
    return event


def create_arena(store: GameStore, creator: str | None, *, rules: str, clock: str,
                 minutes: int, rated: bool, starts: datetime, at: datetime,
                 min_rated: int = 0, name: str = "", by_site: bool = False) -> Tournament:
    """Make an arena of ``creator`` (an account), or with ``by_site`` one of the site's
    own schedule (``creator`` is then ignored).

    :raises SiteError: ``account_needed``; ``invalid_clock`` (not a real-time clock),
        ``cannot_be_rated``, ``invalid_tournament`` (a length, start or minimum of rated
        games out of bounds).
    :raises InvalidRulesError: if ``rules`` cannot be read.
    """
    if not SHORTEST <= minutes <= LONGEST:
        raise SiteError("invalid_tournament",
                        f"an arena lasts {SHORTEST} to {LONGEST} minutes, not {minutes}")
    return _create(store, None if by_site else creator, by_site, kind="arena", rules=rules,
                   clock=clock, minutes=minutes, rounds=None, rated=rated, starts=starts,
                   at=at, min_rated=min_rated, name=name)


def create_swiss(store: GameStore, creator: str | None, *, rules: str, clock: str,
                 rounds: int, rated: bool, starts: datetime, at: datetime, grace: float,
                 min_rated: int = 0, name: str = "") -> Tournament:
    """Make a Swiss event of ``rounds`` rounds of ``creator`` (an account)
    (:mod:`quads.site.tournaments.swiss_run`); ``grace``: the seconds of each side's
    first turn, which bound a round's length.

    :raises SiteError: as :func:`create_arena`; ``invalid_tournament`` for a number of
        rounds out of bounds.
    :raises InvalidRulesError: if ``rules`` cannot be read.
    """
    if not swiss_run.FEWEST_ROUNDS <= rounds <= swiss_run.MOST_ROUNDS:
        raise SiteError("invalid_tournament", f"a Swiss event has {swiss_run.FEWEST_ROUNDS} "
                                              f"to {swiss_run.MOST_ROUNDS} rounds, not {rounds}")
    checked_clock(clock)
    return _create(store, creator, False, kind="swiss", rules=rules, clock=clock,
                   minutes=swiss_run.swiss_minutes(clock, rounds, grace), rounds=rounds,
                   rated=rated, starts=starts, at=at, min_rated=min_rated, name=name)


def checked_clock(clock: str) -> RealTime:
    """``clock`` read as the real-time clock of an event.

    :raises SiteError: ``invalid_clock``.
    """
    try:
        control = parse_time_control(clock)
    except InvalidTimeControlError as error:
        raise SiteError("invalid_clock", str(error)) from error
    if not isinstance(control, RealTime):
        raise SiteError("invalid_clock", "a tournament is played on a real-time clock, "
                                         "not in days a move")
    return control


def _create(store: GameStore, creator: str | None, by_site: bool, *, kind: Kind, rules: str,
            clock: str, minutes: int, rounds: int | None, rated: bool, starts: datetime,
            at: datetime, min_rated: int, name: str) -> Tournament:
    if not by_site:
        require_account(store, creator)
    parsed = online_rules(rules)
    control = checked_clock(clock)
    if rated:
        rated_category(parsed, control)
    if not at - timedelta(minutes=1) <= starts <= at + AHEAD:
        raise SiteError("invalid_tournament", "a tournament starts now or within 30 days")
    if not 0 <= min_rated <= MOST_RATED or (min_rated and not rated):
        raise SiteError("invalid_tournament", f"a rated tournament may ask 0 to {MOST_RATED} "
                                              "rated games of its players")
    event = Tournament(id=secrets.token_urlsafe(8), kind=kind, name=name.strip()[:60],
                       rules=rules, clock=clock, rated=rated, min_rated=min_rated,
                       creator=creator, created=at, starts=max(starts, at),
                       minutes=minutes, status="created", rounds=rounds)
    store.create_tournament(event)
    return event


def join(store: GameStore, tournament_id: str, player: str | None, at: datetime) -> Entry:
    """Have ``player`` (an account, or a bot in a casual event) join the arena, or come
    back to it.

    :raises SiteError: ``not_found``, ``account_needed``,
        ``tournament_over``, ``not_enough_rated_games``.
    """
    event = _found(store, tournament_id)
    if player is None or (account_name(store, player) is None and (
            event.rated or Bots(store).handle(player) is None)):
        raise SiteError("account_needed", "tournaments are for accounts, and bots "
                                          "in the casual ones")
    if event.status == "finished":
        raise SiteError("tournament_over", "this tournament is over")
    rules, control = online_rules(event.rules), parse_time_control(event.clock)
    found = category_of(rules, control)
    category = None if found is None else str(found)
    rating = rating_in(store, player, category) if category else None
    if event.min_rated:
        games = next((r.games for r in store.ratings(player) if r.category == category), 0)
        if games < event.min_rated:
            raise SiteError("not_enough_rated_games", f"this tournament asks for "
                            f"{event.min_rated} rated games of its kind; you have {games}")
    late = event.round + 1 if event.kind == "swiss" and event.status == "started" else 1
    return store.enter(tournament_id, player,
                       round(rating.rating) if rating is not None else 1500, at, late)


def withdraw(store: GameStore, tournament_id: str, player: str | None) -> None:
    """Pause ``player`` in the arena: they are paired no more until they join again.

    :raises SiteError: ``not_found``, ``not_in_tournament``.
    """
    _found(store, tournament_id)
    if player is None or not store.pause(tournament_id, player):
        raise SiteError("not_in_tournament", "you are not in this tournament")


def _results(player: str, games: Sequence[TournamentGame]) -> list[arena.Result]:
    """``player``'s counted results in ``games``, in the order the games ended."""
    ended = sorted((g for g in games if g.result is not None and player in (g.first, g.second)),
                   key=lambda g: (g.ended or g.started, g.game))
    found = []
    for game in ended:
        if game.no_show == player:
            found.append(arena.Result.NO_SHOW)
        elif game.result == "draw":
            found.append(arena.Result.DRAW)
        elif game.result == ("first" if game.first == player else "second"):
            found.append(arena.Result.WIN)
        elif game.result != "aborted":
            found.append(arena.Result.LOSS)
    return found


def _free(entry: Entry, games: Sequence[TournamentGame]) -> arena.Free:
    mine = [g for g in games if entry.player in (g.first, g.second)]
    last = mine[-1] if mine else None
    firsts = sum(1 for g in mine if g.first == entry.player)
    score = arena.arena_score(_results(entry.player, games)).total
    return arena.Free(
        player=entry.player, score=score, rating=entry.rating, since=entry.free_since,
        last_opponent=None if last is None else (
            last.second if last.first == entry.player else last.first),
        firsts=firsts, seconds=len(mine) - firsts,
        last_side=None if last is None else (
            arena.Side.FIRST if last.first == entry.player else arena.Side.SECOND))


def event_headers(event: Tournament) -> dict[str, str]:
    """The record headers of a game ``event`` paired: ``Event``, its name (a scheduled
    arena's slot, such as ``hourly-quads``; empty when its maker gave none) and
    ``Tournament``, its id."""
    return {"Event": event.name, "Tournament": event.id}


def _game(event: Tournament, first: str, second: str, at: datetime, grace: float) -> StoredGame:
    stored = play.new_game(event.rules, "online", None, None, first, "first",
                           parse_time_control(event.clock))
    stored.second_player = second
    stored.invite = None
    stored.rated = event.rated
    stored.game.headers.update(event_headers(event))
    clocks.start(stored, at, grace)
    return stored


def _pair(store: GameStore, event: Tournament, at: datetime, grace: float) -> list[Paired]:
    def choose(free: list[Entry], games: list[TournamentGame]) -> list[Paired]:
        chosen = arena.pair_free([_free(entry, games) for entry in free])
        return [Paired(p.first, p.second, _game(event, p.first, p.second, at, grace))
                for p in chosen.pairings]

    try:
        return store.pair(event.id, choose, at)
    except PairingTaken:
        return []


def tick(store: GameStore, at: datetime, grace: float, *, scheduled: bool = False,
         failed: Callable[[Tournament, Exception], None] | None = None) -> list[Paired]:
    """Start the events due at ``at``, end the arenas whose time is up, pair the free
    players of those running and the next rounds of the Swiss events
    (:func:`quads.site.tournaments.swiss_run.keep`; ``grace``: seconds for each side's
    first turn); with ``failed``, an event whose turn fails on a fault of its own (not
    the database's) is handed to it and the others go on; with
    ``scheduled``, first make the site's own arenas due to be announced
    (:mod:`quads.site.tournaments.schedule`).  The games started."""
    if scheduled:
        schedule.keep_scheduled(store, at)
    started: list[Paired] = []
    for event in store.tournaments("created", limit=100):
        if event.starts <= at:
            store.set_status(event.id, "created", "started")
    for event in store.tournaments("started", limit=100):
        try:
            if event.kind == "swiss":
                started.extend(swiss_run.keep(store, event, at, grace, _game))
            elif event.starts + timedelta(minutes=event.minutes) <= at:
                store.set_status(event.id, "started", "finished")
            else:
                started.extend(_pair(store, event, at, grace))
        except StorageError:
            raise  # the database away: every event waits for the next tick
        except Exception as error:
            # A fault of one event's own stops neither the others nor the next tick.
            if failed is None:
                raise
            failed(event, error)
    return started


def standings(store: GameStore, tournament_id: str) -> list[Standing]:
    """The event's players, the leader first (:func:`ranked`, :func:`swiss_ranked`).

    :raises SiteError: ``not_found``.
    """
    event = _found(store, tournament_id)
    entries, games = store.entries(tournament_id), store.event_games(tournament_id)
    if event.kind == "swiss":
        return swiss_ranked(event, entries, games, store.byes(tournament_id))
    return ranked(entries, games)


def swiss_ranked(event: Tournament, entries: Sequence[Entry], games: Sequence[TournamentGame],
                 byes: dict[int, str]) -> list[Standing]:
    """The standings of a Swiss event after the games over and byes of its rounds so
    far, the leader first: by points, Buchholz, Sonneborn-Berger, then rating
    (:func:`quads.site.tournaments.swiss.standings`)."""
    played = swiss_run.history(games, byes, event.round)
    ratings = {entry.player: entry.rating for entry in entries}
    table = swiss.standings(swiss_run.entrants(entries), played)
    sheets = swiss.sheets(swiss_run.entrants(entries), played)
    counted = [g for g in games if g.result is not None and g.result != "aborted"]
    playing = {p for g in games if g.result is None and g.round == event.round
               for p in (g.first, g.second)}
    # A game of the round still being played is not yet a 0 on its players' sheets.
    sheets = {player: sheet[:-1] if player in playing else sheet
              for player, sheet in sheets.items()}
    return [Standing(rank, line.player, line.points, sheets[line.player], False,
                     sum(line.player in (g.first, g.second) for g in counted),
                     _performance(line.player, games, ratings), line.rating, line.withdrawn,
                     line.buchholz, line.sonneborn_berger)
            for rank, line in enumerate(table, 1)]


def ranked(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[Standing]:
    """The standings of an arena's ``entries`` after its ``games``, the leader first: by
    points, then performance, then rating."""
    ratings = {entry.player: entry.rating for entry in entries}
    lines = []
    for entry in entries:
        score = arena.arena_score(_results(entry.player, games))
        lines.append((entry, score, _performance(entry.player, games, ratings)))
    lines.sort(key=lambda line: (-line[1].total, -(line[2] or 0), -line[0].rating,
                                 line[0].player))
    return [Standing(rank, entry.player, score.total, score.sheet, score.on_fire, score.games,
                     performance, entry.rating, not entry.active)
            for rank, (entry, score, performance) in enumerate(lines, 1)]


def _performance(player: str, games: Sequence[TournamentGame],
                 ratings: dict[str, int]) -> int | None:
    """The rating ``player``'s counted results are worth: the mean rating of the
    opponents, plus 400 a game for each win more than losses, over the games."""
    total, count = 0, 0
    for game in games:
        if player not in (game.first, game.second) or game.result in (None, "aborted"):
            continue
        opponent = game.second if game.first == player else game.first
        mine = "first" if game.first == player else "second"
        won = 1 if game.result == mine else 0 if game.result == "draw" else -1
        total += ratings.get(opponent, 1500) + 400 * won
        count += 1
    return round(total / count) if count else None
