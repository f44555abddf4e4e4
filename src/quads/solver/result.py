"""What the solver returns: a solution, an analysis, and progress reports."""

from __future__ import annotations

from dataclasses import dataclass

from quads.position import Position
from quads.rules import Rules
from quads.solver.value import Value
from quads.turn import Turn

__all__ = ["Analysis", "MoveValue", "Progress", "Solution"]


@dataclass(frozen=True, slots=True)
class Solution:
    """The value of a position for the side to move, and a best turn."""

    position: Position
    rules: Rules
    value: Value
    plies: int | None
    """Placements (both sides) until the game ends, counting the last; ``None`` for a draw,
    when unknown, or when the solve was asked for the value alone."""
    best: Turn | None
    """The fastest win, the longest resistance, or the draw that leaves the opponent the
    fewest non-losing replies; ``None`` when there is no turn or the value is unknown."""
    nodes: int
    seconds: float
    complete: bool = True
    """``False`` when the budget ran out: the value may then be unknown, or known while the
    distance or the choice among equal turns is not final."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    """The value of one turn, for the player making it."""

    turn: Turn
    value: Value
    plies: int | None
    """Placements until the end counted from before this turn, as for :class:`Solution`."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """The value of a position and of each of its legal turns, best first."""

    position: Position
    rules: Rules
    value: Value
    plies: int | None
    moves: tuple[MoveValue, ...]
    nodes: int
    seconds: float

    @property
    def complete(self) -> bool:
        """Whether every turn's value is known."""
        return all(move.value is not Value.UNKNOWN for move in self.moves)


@dataclass(frozen=True, slots=True)
class Progress:
    """A report on a running solve."""

    stage: str
    """``value``, ``distance``, ``draws`` or ``refine`` for :func:`solve`; ``turns`` for
    :func:`analyse`."""
    done: int
    """Root turns (counted by symmetry class) finished in this stage."""
    total: int
    nodes: int
    seconds: float
