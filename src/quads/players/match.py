"""Matches between computer players: alternate colours, keep the score and the clock."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from quads.clock import RealTime
from quads.game import Game, Resign, Timeout
from quads.outcome import Player
from quads.players.base import Clocks, ComputerPlayer, PlayerError
from quads.rules import Rules

__all__ = ["MatchResult", "TurnTimes", "play_game", "play_match"]


@dataclass(frozen=True)
class TurnTimes:
    """Summary of one player's thinking time per turn, in seconds."""

    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, seconds: list[float]) -> TurnTimes:
        """Summarise a list of turn times (all zero for an empty list)."""
        if not seconds:
            return cls(0.0, 0.0, 0.0)
        ordered = sorted(seconds)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return cls(statistics.median(ordered), p95, ordered[-1])


@dataclass
class MatchResult:
    """The score of a match between players ``a`` and ``b``."""

    rules: Rules
    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    seconds_a: list[float] = field(default_factory=list)
    seconds_b: list[float] = field(default_factory=list)
    adjudications: list[str] = field(default_factory=list)
    """How each game that was not played out ended: ``game 3: B lost on time`` or
    ``game 5: A played an illegal turn: ...``."""

    @property
    def score_a(self) -> float:
        """Player ``a``'s share of the points, 0 to 1 (a draw is half a point)."""
        return (self.wins_a + self.draws / 2) / self.games if self.games else 0.0


def play_game(first: ComputerPlayer, second: ComputerPlayer, rules: Rules,
              clock: Callable[[ComputerPlayer, float], None] | None = None, *,
              time_control: RealTime | None = None) -> Game:
    """Play one game to its end; ``first`` hands over the first piece.

    ``clock(player, seconds)`` is told how long each turn took.  With a
    ``time_control`` each side has its time and increment, and a side whose time
    runs out loses on time.  A player that cannot make its turn
    (:class:`~quads.players.base.PlayerError`: a program's illegal turn, or no
    answer) loses: on time if its time ran out, else by resignation, with the
    reason in the game's ``Adjudication`` header.
    """
    game = Game(rules)
    players = {Player.FIRST: first, Player.SECOND: second}
    for side, player in players.items():
        try:
            player.new_game(rules)
        except PlayerError as exc:
            game.apply(Resign(side))
            game.headers["Adjudication"] = f"{side.identifier} player: {exc}"
            return game
    left = [0, 0] if time_control is None else [time_control.initial * 1000] * 2
    increment = 0 if time_control is None else time_control.increment * 1000
    while (to_move := game.to_move) is not None:
        player = players[to_move]
        clocks = None if time_control is None else Clocks(left[0], left[1], increment,
                                                           increment)
        start = time.perf_counter()
        try:
            actions = player.timed_actions(game, clocks)
        except PlayerError as exc:
            elapsed = time.perf_counter() - start
            late = clocks is not None and elapsed * 1000 > clocks.left(to_move)
            game.apply(Timeout(to_move) if late else Resign(to_move))
            game.headers["Adjudication"] = f"{to_move.identifier} player: {exc}"
            break
        elapsed = time.perf_counter() - start
        if clock is not None:
            clock(player, elapsed)
        if time_control is not None:
            left[to_move] -= round(elapsed * 1000)
            if left[to_move] < 0:
                game.apply(Timeout(to_move))
                game.headers["Adjudication"] = f"{to_move.identifier} player: lost on time"
                break
            left[to_move] += increment
        for action in actions:
            game.apply(action)
    return game


def play_match(make_a: Callable[[int], ComputerPlayer], make_b: Callable[[int], ComputerPlayer],
               games: int, rules: Rules, seed: int = 0,
               progress: Callable[[MatchResult], None] | None = None, *,
               time_control: RealTime | None = None) -> MatchResult:
    """Play ``games`` games, ``a`` handing over first in the even-numbered ones.

    ``make_a(seed)`` and ``make_b(seed)`` build the players of one game, so
    that each game can be replayed from its seed.  ``progress`` is called
    after every game with the score so far.  ``time_control`` puts both sides on
    the clock (see :func:`play_game`).
    """
    result = MatchResult(rules)
    for number in range(games):
        a, b = make_a(seed + 2 * number), make_b(seed + 2 * number + 1)

        def clock(player: ComputerPlayer, seconds: float, a: ComputerPlayer = a) -> None:
            (result.seconds_a if player is a else result.seconds_b).append(seconds)

        first, second = (a, b) if number % 2 == 0 else (b, a)
        game = play_game(first, second, rules, clock, time_control=time_control)
        outcome = game.outcome
        assert outcome is not None
        if "Adjudication" in game.headers:
            loser = "A" if (outcome.winner is Player.FIRST) != (first is a) else "B"
            reason = game.headers["Adjudication"].split(": ", 1)[1]
            result.adjudications.append(f"game {number + 1}: {loser} {reason}")
        result.games += 1
        if outcome.winner is None:
            result.draws += 1
        elif (outcome.winner is Player.FIRST) == (first is a):
            result.wins_a += 1
        else:
            result.wins_b += 1
        if progress is not None:
            progress(result)
    return result
