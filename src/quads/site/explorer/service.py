"""What people played from a position: the counts of the store
(:mod:`quads.storage.explorer`) shown in the position's own frame.

A turn counted is a key (the position it led to, up to symmetry); in the position
asked about, every legal turn that leads to a position of that key is the same
turn.  :func:`explore` lists one of them, the first in the order of cells and
pieces, with the others beside it, the most played first.
"""

from __future__ import annotations

from dataclasses import dataclass

from quads.explorer import position_key, turns_from
from quads.position import Position
from quads.rules import Rules
from quads.storage import GameStore
from quads.storage.explorer import Counts, Filters
from quads.turn import Turn

__all__ = ["SOURCES", "Explored", "ExploredTurn", "explore"]

SOURCES = ("people", "level-1", "level-2", "level-3", "level-4", "level-5")
"""The kinds of game the explorer tells apart: between people, against each level."""


@dataclass(frozen=True, slots=True)
class ExploredTurn:
    """A turn people played, with how often and how those games ended."""

    turn: Turn
    same: tuple[Turn, ...]
    """The other turns of the position that lead to the same position up to symmetry."""
    counts: Counts


@dataclass(frozen=True, slots=True)
class Explored:
    """What people played in a position."""

    position: Position
    rules: Rules
    turns: tuple[ExploredTurn, ...]
    """The most played first (then in the order of cells and pieces)."""

    @property
    def games(self) -> int:
        """Games counted through the position."""
        return sum(turn.counts.games for turn in self.turns)


def explore(store: GameStore, position: Position, rules: Rules,
            filters: Filters | None = None) -> Explored:
    """What people played in ``position`` under ``rules``, over the games ``filters``
    let through (``None``: all)."""
    counted = store.explorer(rules.name, position_key(position, rules), filters)
    turns = []
    if counted:
        for key, leading in turns_from(position, rules).items():
            counts = counted.get(key)
            if counts is not None:
                turns.append(ExploredTurn(leading[0], tuple(leading[1:]), counts))
    turns.sort(key=lambda found: -found.counts.games)  # stable: cells and pieces order
    return Explored(position, rules, tuple(turns))
