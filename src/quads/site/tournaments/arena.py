"""Arenas: how a game scores, and whom a free player meets next.

An arena runs for a fixed time; a player who finishes a game is free again and is
paired again at once, and the most points at the end wins.

**Scoring.**  A win scores 2 points, a draw 1, a loss 0.  After two wins in a row
a player is *on fire*: each following game counts double (a win 4, a draw 2) until
a game that is not a win ends the streak, so a game counts double exactly when the
player's two games before it were both wins.  A game abandoned, or lost on time
without a single turn made, is a *no-show*: it scores 0, ends the streak, and pauses
the player, who is not paired again until they rejoin.  The standings show each
player's points game by game, oldest first (``2 2 4 2 2 2 0`` for
win, win, win, draw, win, win, loss).

**Pairing.**  Whenever players are free they are paired at once, nobody waiting for
a better opponent.  The free players are ranked by score (highest first), then
rating (highest first), then how long they have been free (longest first); going
down that ranking, each player not yet paired meets the nearest player below them
who is not their last opponent, so neighbours in the standings (near scores, then
near ratings) meet, as in lichess's arenas.  Nobody meets the opponent of their
last game again straight away: a player whose only possible partner is their last
opponent waits for the next pairing.  When two players are left waiting that way
while a pair already made could be split to seat all four, it is split.  With an odd
number of players, the one who became free last waits.

**Who hands over first.**  Of two players paired, the one who handed over first less
often than second so far does (their balance of firsts over seconds is lower); at
equal balance, the one who did not hand over first in their last game; then the
draw of the given random generator, or without one the higher ranked.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

__all__ = ["ArenaPairings", "ArenaScore", "Free", "Pairing", "Result", "Side", "arena_score",
           "game_points", "pair_free", "pauses"]


class Result(Enum):
    """How a game of an arena ended for one player."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    NO_SHOW = "no_show"
    """The game was abandoned, or lost on time before the player made a turn."""


_BASE = {Result.WIN: 2, Result.DRAW: 1, Result.LOSS: 0, Result.NO_SHOW: 0}


def pauses(result: Result) -> bool:
    """Whether ``result`` pauses the player: a no-show does; they must rejoin to be
    paired again."""
    return result is Result.NO_SHOW


def game_points(result: Result, on_fire: bool) -> int:
    """The points of one game: 2 for a win, 1 for a draw, 0 otherwise, doubled
    ``on_fire`` (a no-show scores 0 on fire too)."""
    return _BASE[result] * (2 if on_fire else 1)


@dataclass(frozen=True)
class ArenaScore:
    """A player's score in an arena, from their results oldest first."""

    total: int
    sheet: tuple[int, ...]
    """The points of each game, oldest first (the standings' sheet)."""
    on_fire: bool
    """Whether the player's next game counts double (their last two were wins)."""
    wins: int
    draws: int
    losses: int
    """Games lost, no-shows not counted."""
    no_shows: int

    @property
    def games(self) -> int:
        """The games played (no-shows included)."""
        return len(self.sheet)


def arena_score(results: Iterable[Result]) -> ArenaScore:
    """The score of a player whose games ended in ``results``, oldest first."""
    sheet: list[int] = []
    streak = 0
    counts = dict.fromkeys(Result, 0)
    for result in results:
        sheet.append(game_points(result, streak >= 2))
        streak = streak + 1 if result is Result.WIN else 0
        counts[result] += 1
    return ArenaScore(sum(sheet), tuple(sheet), streak >= 2, counts[Result.WIN],
                      counts[Result.DRAW], counts[Result.LOSS], counts[Result.NO_SHOW])


class Side(Enum):
    """The side of a player in a game: who hands over the first piece."""

    FIRST = "first"
    SECOND = "second"


@dataclass(frozen=True)
class Free:
    """A player free to be paired, as the arena knows them now."""

    player: str
    score: int
    rating: int
    since: datetime
    """When they became free (joined, or their last game ended)."""
    last_opponent: str | None = None
    firsts: int = 0
    """Games of this arena in which they handed over first."""
    seconds: int = 0
    """Games of this arena in which they did not."""
    last_side: Side | None = None
    """Their side in their last game of this arena."""

    @property
    def balance(self) -> int:
        """Games handed over first minus games handed over second."""
        return self.firsts - self.seconds


@dataclass(frozen=True)
class Pairing:
    """A game to start: ``first`` hands over the first piece."""

    first: str
    second: str


@dataclass(frozen=True)
class ArenaPairings:
    """What one pairing of the free players makes: the games, best ranked first, and
    the players left waiting, in ranking order."""

    pairings: tuple[Pairing, ...]
    waiting: tuple[str, ...]


def _rank_key(free: Free) -> tuple[int, int, datetime, str]:
    return (-free.score, -free.rating, free.since, free.player)


def _allowed(one: Free, other: Free) -> bool:
    return one.last_opponent != other.player and other.last_opponent != one.player


def _greedy(order: Sequence[Free], pairs: list[tuple[Free, Free]]) -> list[Free]:
    """Pairs down ``order``, each with the nearest allowed below; returns the unpaired."""
    left = list(order)
    waiting: list[Free] = []
    while left:
        top = left.pop(0)
        partner = next((free for free in left if _allowed(top, free)), None)
        if partner is None:
            waiting.append(top)
        else:
            left.remove(partner)
            pairs.append((top, partner))
    return waiting


def _split_to_seat(waiting: list[Free], pairs: list[tuple[Free, Free]]) -> list[Free]:
    """Splits a pair to seat two waiting players, while one can be; returns those
    still waiting."""
    for i, one in enumerate(waiting):
        for other in waiting[i + 1:]:
            for index, (a, b) in enumerate(pairs):
                for x, y in ((a, b), (b, a)):
                    if _allowed(one, x) and _allowed(other, y):
                        pairs[index:index + 1] = [(one, x), (other, y)]
                        rest = [free for free in waiting if free not in (one, other)]
                        return _split_to_seat(rest, pairs)
    return waiting


def _sides(one: Free, other: Free, rank: dict[str, int], rng: random.Random | None) -> Pairing:
    def key(free: Free) -> tuple[int, bool]:
        return (free.balance, free.last_side is Side.FIRST)

    if key(one) != key(other):
        first, second = sorted((one, other), key=key)
    elif rng is not None:
        first, second = (one, other) if rng.random() < 0.5 else (other, one)
    else:
        first, second = sorted((one, other), key=lambda free: rank[free.player])
    return Pairing(first.player, second.player)


def pair_free(free: Sequence[Free], rng: random.Random | None = None) -> ArenaPairings:
    """Pairs the players ``free`` now, by the rules of the module's docstring: the
    games to start and who waits.  Without ``rng`` the result depends on ``free``
    alone (not on its order).

    Raises :class:`ValueError` if a player is listed twice."""
    players = [entry.player for entry in free]
    if len(set(players)) != len(players):
        twice = sorted({player for player in players if players.count(player) > 1})
        raise ValueError(f"players listed twice among the free: {twice!r}")
    order = sorted(free, key=_rank_key)
    rank = {entry.player: index for index, entry in enumerate(order)}
    pairs: list[tuple[Free, Free]] = []
    if len(order) % 2:
        latest = max(order, key=lambda entry: (entry.since, rank[entry.player]))
        waiting = _greedy([entry for entry in order if entry is not latest], pairs)
        waiting = _greedy(sorted([*waiting, latest], key=_rank_key), pairs)
    else:
        waiting = _greedy(order, pairs)
    waiting = _split_to_seat(waiting, pairs)
    pairs.sort(key=lambda pair: min(rank[pair[0].player], rank[pair[1].player]))
    return ArenaPairings(tuple(_sides(one, other, rank, rng) for one, other in pairs),
                         tuple(entry.player for entry in sorted(waiting, key=_rank_key)))
