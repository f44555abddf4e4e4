"""Computer players, level 1 (a beginner) to 5 (perfect play).

>>> from quads import Game
>>> player = make_player(2, seed=7)
>>> game = Game()
>>> player.play(game)
[Give(piece=10)]
"""

from __future__ import annotations

from quads.errors import QuadsError
from quads.players.base import ComputerPlayer
from quads.players.club import Club
from quads.players.simple import Beginner, Casual
from quads.players.strong import Expert, Perfect

__all__ = [
    "LEVELS",
    "Beginner",
    "Casual",
    "Club",
    "ComputerPlayer",
    "Expert",
    "Perfect",
    "make_player",
]

LEVELS: dict[int, type[ComputerPlayer]] = {
    player.level: player for player in (Beginner, Casual, Club, Expert, Perfect)
}
"""The player class of each level."""


def make_player(level: int, seed: int | None = None) -> ComputerPlayer:
    """Return a computer player of ``level``; the same ``seed`` replays the same choices.

    :raises QuadsError: if there is no such level.
    """
    try:
        return LEVELS[level](seed)
    except (KeyError, TypeError):
        raise QuadsError(
            f"unknown level {level!r}: expected one of {', '.join(map(str, sorted(LEVELS)))}"
        ) from None
