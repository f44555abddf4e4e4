"""Swiss events at run time: the rounds the keeper starts, one after the other, and
the standings read from what was played (:mod:`quads.site.tournaments.swiss` pairs and
ranks).

Players join before the start, or late (from the next round on, the rounds missed
scoring a half-point bye each), and withdraw when they like (paired no more; their
games played still count).  At its start the event's first round is paired; each
next round begins when every game of the round before has ended, or at the round's
deadline, the longest a game of the event's clock can last (both clocks spent, every
increment earned, both first turns' grace) and a minute more.  An event that has
fewer than two players at its start waits for the second before its first round
(and is over, unplayed, if none came by its latest end).  A player whose game of
the round before still runs at the deadline sits the next round out (it scores
nothing); the game counts once it ends.  After the last round, or when no round can
be paired any more (everybody has met everybody), the event is over once its games are.

A game aborted because a player did not make their first turn is lost by that player
(a forfeit), who is also withdrawn, as an arena pauses them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from quads.clock import RealTime, parse_time_control
from quads.site.tournaments import swiss
from quads.storage import GameStore, StoredGame
from quads.storage.tournaments import Entry, Paired, PairingTaken, Tournament, TournamentGame

__all__ = ["FEWEST_ROUNDS", "MOST_ROUNDS", "entrants", "history", "keep", "round_limit",
           "swiss_minutes"]

FEWEST_ROUNDS = 2
"""The fewest rounds of a Swiss event."""
MOST_ROUNDS = 15
"""The most rounds of a Swiss event."""
TURNS = 16
"""Turns of a game at most, both sides together (one piece placed each)."""

GameMaker = Callable[[Tournament, str, str, datetime, float], StoredGame]
"""What makes a game of an event: of ``first`` and ``second``, its clock started at
a moment with a grace for the first turns."""
ChooseRound = Callable[[Tournament, list[Entry], list[TournamentGame], dict[int, str]],
                       tuple[list[Paired], str | None]]


def round_limit(clock: str, grace: float) -> timedelta:
    """The deadline of a round of an event on ``clock`` (``grace``: seconds of each
    side's first turn): the longest a game can last, and a minute more."""
    control = parse_time_control(clock)
    assert isinstance(control, RealTime)
    seconds = 2 * control.initial + TURNS * control.increment + 2 * grace + 60
    return timedelta(seconds=seconds)


def swiss_minutes(clock: str, rounds: int, grace: float) -> int:
    """The longest a Swiss event of ``rounds`` on ``clock`` lasts, in minutes."""
    return math.ceil(rounds * round_limit(clock, grace).total_seconds() / 60)


def entrants(entries: Sequence[Entry]) -> list[swiss.Entrant]:
    """The event's players as the pairing knows them."""
    return [swiss.Entrant(entry.player, entry.rating, entry.first_round, not entry.active)
            for entry in entries]


def _outcome(game: TournamentGame) -> swiss.Outcome | None:
    if game.result is None:
        return None
    if game.result == "aborted":  # a forfeit: the side that showed wins
        return swiss.Outcome.FIRST_WINS if game.no_show == game.second else \
            swiss.Outcome.SECOND_WINS
    return {"first": swiss.Outcome.FIRST_WINS, "second": swiss.Outcome.SECOND_WINS,
            "draw": swiss.Outcome.DRAW}[game.result]


def history(games: Sequence[TournamentGame], byes: dict[int, str],
            rounds: int) -> list[swiss.Round]:
    """Rounds 1 to ``rounds`` as played so far: the games over, and the byes."""
    played: list[list[swiss.Game]] = [[] for _ in range(rounds)]
    for game in games:
        outcome = _outcome(game)
        if outcome is not None and game.round is not None and 1 <= game.round <= rounds:
            played[game.round - 1].append(swiss.Game(game.first, game.second, outcome))
    return [swiss.Round(tuple(round_games), byes.get(number))
            for number, round_games in enumerate(played, start=1)]


def _choose(event: Tournament, at: datetime, grace: float, game: GameMaker
            ) -> ChooseRound:
    number = event.round + 1

    def choose(current: Tournament, entries: list[Entry], games: list[TournamentGame],
               byes: dict[int, str]) -> tuple[list[Paired], str | None]:
        busy = {entry.player for entry in entries if entry.current is not None}
        players = [swiss.Entrant(e.player, e.rating, e.first_round,
                                 not e.active or e.player in busy) for e in entries]
        made = swiss.pair_round(players, history(games, byes, current.round), number,
                                current.rounds)
        return ([Paired(p.first, p.second, game(current, p.first, p.second, at, grace))
                 for p in made.pairings], made.bye)

    return choose


def keep(store: GameStore, event: Tournament, at: datetime, grace: float,
         game: GameMaker) -> list[Paired]:
    """One look at the running Swiss ``event``: its next round started when the round
    before is over (or past its deadline), or the event ended after its last round or
    when no round can be paired any more.  The games started."""
    assert event.rounds is not None
    games = store.event_games(event.id)
    running = [g for g in games if g.result is None]
    if event.round:
        this_round = [g for g in running if g.round == event.round]
        deadline = (event.round_started or event.starts) + round_limit(event.clock, grace)
        if this_round and at < deadline:
            return []
    if event.round == 0 and sum(e.active for e in store.entries(event.id)) < 2:
        # Nobody to pair yet: the first round waits for two players, until the
        # event's latest end.
        if at >= event.starts + timedelta(minutes=event.minutes):
            store.set_status(event.id, "started", "finished")
        return []
    if event.round >= event.rounds:
        if not running:
            store.set_status(event.id, "started", "finished")
        return []
    try:
        return store.start_round(event.id, event.round + 1, _choose(event, at, grace, game), at)
    except PairingTaken:
        return []
    except swiss.UnpairableRoundError:
        if not running:
            store.set_status(event.id, "started", "finished")
        return []
