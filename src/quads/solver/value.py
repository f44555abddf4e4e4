"""Solved values: win, draw or loss for the side to move, and the distance to the end.

Inside the solver a value is an integer *score*: a win whose last placement
is the ``n``-th from now scores ``WIN - n``, a loss ``-(WIN - n)``, a draw 0.
Higher is better, so the fastest win and the longest loss score highest.
"""

from __future__ import annotations

import enum

__all__ = ["WIN", "Value", "score_of", "turn_score", "value_of"]

WIN = 100
"""The score of a win in zero placements; every real score lies strictly inside ``±WIN``."""


class Value(enum.Enum):
    """The value of a position or a turn, for the player to move (or making the turn)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    UNKNOWN = "unknown"
    """The budget ran out before the value was known."""


def value_of(score: int) -> tuple[Value, int | None]:
    """The value and the number of placements to the end (``None`` for a draw) of ``score``."""
    if score > 0:
        return Value.WIN, WIN - score
    if score < 0:
        return Value.LOSS, WIN + score
    return Value.DRAW, None


def score_of(value: Value, plies: int | None) -> int:
    """The score of a known value; the inverse of :func:`value_of`.

    :raises ValueError: if ``value`` is unknown, or ``plies`` is missing for a win or loss.
    """
    if value is Value.DRAW:
        return 0
    if value is Value.UNKNOWN or plies is None:
        raise ValueError(f"no score for {value.value} in {plies!r} placements")
    return WIN - plies if value is Value.WIN else plies - WIN


def turn_score(child: int, placements: int) -> int:
    """The score of a turn for the player making it, from the score ``child`` of
    the position it leads to (for that position's side to move), which comes
    ``placements`` placements later."""
    if child > 0:
        return -(child - placements)
    if child < 0:
        return -(child + placements)
    return 0
