"""A deliberately simple solver to check the real one against.

It shares nothing with ``quads.solver`` and little with the core: its own
shape lists, its own win test, a plain negamax over every placement and
every hand-over (no pruning, no ordering, no safe-piece shortcut), with a
cache of exact values.  Slow, and only meant for positions with few empty cells.
"""

from __future__ import annotations

from functools import cache

WIN = 100


def _lines() -> tuple[tuple[int, ...], ...]:
    rows = [tuple(4 * r + c for c in range(4)) for r in range(4)]
    cols = [tuple(4 * r + c for r in range(4)) for c in range(4)]
    diags = [tuple(5 * i for i in range(4)), tuple(3 * (i + 1) for i in range(4))]
    return tuple(rows + cols + diags)


def _squares() -> tuple[tuple[int, ...], ...]:
    return tuple(
        (4 * r + c, 4 * r + c + 1, 4 * (r + 1) + c, 4 * (r + 1) + c + 1)
        for r in range(3) for c in range(3)
    )


LINES = _lines()
SQUARES = _squares()

Board = tuple[int | None, ...]


class Reference:
    """Exact scores (``WIN - n`` for a win in ``n`` placements, negated for a loss, 0 for a
    draw) under one rule set, given by its shapes and counted-trait mask."""

    def __init__(self, squares: bool, traits: int) -> None:
        self.shapes = LINES + SQUARES if squares else LINES
        self.traits = traits
        self.value = cache(self._value)

    def completes(self, board: Board, cell: int) -> bool:
        """Whether the piece on ``cell`` has just filled a shape whose pieces share a trait."""
        for shape in self.shapes:
            if cell not in shape:
                continue
            pieces = [board[c] for c in shape]
            if any(p is None for p in pieces):
                continue
            for bit in range(4):
                if self.traits >> bit & 1:
                    values = {p >> bit & 1 for p in pieces if p is not None}
                    if len(values) == 1:
                        return True
        return False

    def _value(self, board: Board, hand: int) -> int:
        """The score of the side to move, who holds ``hand``."""
        used = {p for p in board if p is not None} | {hand}
        supply = [p for p in range(16) if p not in used]
        best = -WIN
        for cell in range(16):
            if board[cell] is not None:
                continue
            after = (*board[:cell], hand, *board[cell + 1:])
            if self.completes(after, cell):
                return WIN - 1  # nothing is faster
            if not supply:
                best = max(best, 0)
                continue
            for piece in supply:
                theirs = self.value(after, piece)
                mine = -theirs + (1 if theirs > 0 else -1 if theirs < 0 else 0)
                best = max(best, mine)
        return best

    def hand_over_value(self, board: Board) -> int:
        """The score of the side to move when it must hand over first (hand ``-``)."""
        used = {p for p in board if p is not None}
        supply = [p for p in range(16) if p not in used]
        if not supply:
            return 0
        return max(-self.value(board, piece) for piece in supply)

    def turn_score(self, board: Board, hand: int | None, place: int | None,
                   give: int | None) -> int:
        """The score of one turn for the player making it."""
        if hand is None:
            assert give is not None
            return -self.value(board, give)
        assert place is not None
        after = (*board[:place], hand, *board[place + 1:])
        if self.completes(after, place):
            return WIN - 1
        if give is None:
            return 0
        theirs = self.value(after, give)
        return -theirs + (1 if theirs > 0 else -1 if theirs < 0 else 0)
