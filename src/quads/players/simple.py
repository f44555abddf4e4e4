"""The two gentlest levels: a first-game beginner and a casual player.

The beginner's mistakes are a person's mistakes: each turn it overlooks some
traits and some shapes (diagonals and squares more often than rows), and plays
as if only what it noticed could win.  So it misses wins that rest on what it
did not see, and hands over pieces that it wrongly believes safe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from quads.bits import iter_bits
from quads.players.base import ComputerPlayer
from quads.position import Position, WinCondition
from quads.rules import Rules
from quads.shapes import ShapeKind
from quads.turn import Turn

__all__ = ["Beginner", "Casual", "Glance"]


@dataclass(frozen=True)
class Glance:
    """The shapes and traits a player noticed this turn (a narrower :class:`WinCondition`)."""

    shape_masks: Sequence[int]
    traits: int


def _pick(rng: Random, mask: int) -> int:
    """A random set bit of a non-empty ``mask``."""
    return rng.choice(list(iter_bits(mask)))


class _Looking(ComputerPlayer):
    """Takes each win it sees, avoids handing over each winner it sees, else plays at random."""

    def view(self, rules: Rules) -> WinCondition:
        """The shapes and traits this player takes into account on this turn."""
        return rules

    def choose_turn(self, position: Position, rules: Rules) -> Turn:
        """Take a win in view; otherwise place anywhere and hand over a piece that looks safe."""
        view = self.view(rules)
        if position.hand is None:
            return Turn(None, self._give(position, view))
        wins = position.winning_cells(position.hand, view)
        if wins:
            return Turn(_pick(self.random, wins), None)
        cell = _pick(self.random, position.empty_cells)
        after = position.place(cell)
        if not after.supply:
            return Turn(cell, None)
        return Turn(cell, self._give(after, view))

    def _give(self, position: Position, view: WinCondition) -> int:
        return _pick(self.random, position.safe_pieces(view) or position.supply)


class Beginner(_Looking):
    """Level 1: plays like someone in their first game."""

    level = 1
    name = "beginner"

    TRAIT_NOTICED = 0.6
    """Chance of keeping each counted trait in mind on a turn."""
    SHAPE_NOTICED: dict[ShapeKind, float] = {  # noqa: RUF012 - read-only table
        ShapeKind.ROW: 0.9,
        ShapeKind.COLUMN: 0.8,
        ShapeKind.DIAGONAL: 0.55,
        ShapeKind.SQUARE: 0.5,
    }
    """Chance of looking at a shape of each kind on a turn."""

    def view(self, rules: Rules) -> WinCondition:
        """What this player notices on one turn: some traits, some shapes."""
        traits = 0
        for trait in rules.counted_traits:
            if self.random.random() < self.TRAIT_NOTICED:
                traits |= trait.mask
        shapes = [s.cells for s in rules.winning_shapes
                  if self.random.random() < self.SHAPE_NOTICED[s.kind]]
        return Glance(tuple(shapes), traits)


class Casual(_Looking):
    """Level 2: never misses a win on the board or hands over a winner it could avoid.

    Beyond that it plays loosely: any cell, any safe piece.
    """

    level = 2
    name = "casual"
