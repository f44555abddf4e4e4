"""Positions for the solver tests, reached by random legal play from the empty board."""

from __future__ import annotations

import random

from quads.position import EMPTY, Position
from quads.rules import Rules

RULE_SETS = (
    "quads",
    "classic",
    "advanced",
    "lines:color,height:auto",
    "lines+squares:shape,top:declare",
    "lines:top",
    "lines+squares:color",
    "lines:height,color,shape",
)
"""Presets, trait subsets and both shape sets."""


def max_empties(rules: Rules) -> int:
    """How many empty cells the reference solver handles quickly under ``rules``."""
    return {1: 6, 2: 7, 3: 7}.get(len(rules.counted_traits), 8)


def play(rules: Rules, empties: int, rng: random.Random, *, hand: bool = True) -> Position:
    """A position with ``empties`` empty cells after random play under ``rules``.

    Under ``auto`` calling nobody completes a winning shape (the game would be
    over); under ``declare`` anything goes, so completed shapes stay on the
    board as dead ones.  With ``hand=False`` the position is taken just after a
    placement, when the side to move must hand over a piece.
    """
    while True:
        position = EMPTY.give(rng.randrange(16))
        while position.empty_count > empties:
            assert position.hand is not None
            cells = [c for c in range(16) if not position.occupied >> c & 1]
            if not rules.declare:
                cells = [c for c in cells
                         if not position.winning_cells(position.hand, rules) >> c & 1]
                if not cells:
                    break
            placed = position.place(rng.choice(cells))
            if not hand and placed.empty_count == empties:
                return placed
            supply = [p for p in range(16) if placed.supply >> p & 1]
            position = placed.give(rng.choice(supply))
        else:
            if hand:
                return position


def board_of(position: Position) -> tuple[int | None, ...]:
    """The board as a tuple of sixteen pieces or ``None``."""
    return tuple(position.piece_at(cell) for cell in range(16))
