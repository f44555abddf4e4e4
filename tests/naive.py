"""An independent model of the rules, written plainly, for cross-checking the library.

A board here is a tuple of sixteen cells in reading order (A1 B1 C1 D1 A2 ...),
each ``None`` or a piece 0-15.  Nothing is imported from :mod:`quads`: the
shapes, the win test and the move counts are worked out again from RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass

Board = tuple[int | None, ...]

ROWS: list[tuple[int, ...]] = [tuple(row * 4 + col for col in range(4)) for row in range(4)]
COLUMNS: list[tuple[int, ...]] = [tuple(row * 4 + col for row in range(4)) for col in range(4)]
DIAGONALS: list[tuple[int, ...]] = [(0, 5, 10, 15), (3, 6, 9, 12)]
BLOCKS: list[tuple[int, ...]] = [
    (row * 4 + column, row * 4 + column + 1, row * 4 + column + 4, row * 4 + column + 5)
    for row in range(3)
    for column in range(3)
]
LINES = ROWS + COLUMNS + DIAGONALS


@dataclass(frozen=True)
class Variant:
    """A rule set: whether squares win, which bits count, whether wins are declared, and
    what a false call costs (``free``, ``forfeit`` or ``losing``)."""

    squares: bool
    bits: tuple[int, ...]
    declare: bool
    false_calls: str = "free"

    @property
    def groups(self) -> list[tuple[int, ...]]:
        return LINES + BLOCKS if self.squares else LINES


VARIANTS = {
    "quads": Variant(squares=True, bits=(3, 2, 1, 0), declare=False),
    "classic": Variant(squares=False, bits=(3, 2, 1, 0), declare=True),
    "advanced": Variant(squares=True, bits=(3, 2, 1, 0), declare=True),
    "lines:color:auto": Variant(squares=False, bits=(2,), declare=False),
    "lines+squares:height,top:declare": Variant(squares=True, bits=(3, 0), declare=True),
    "lines:shape": Variant(squares=False, bits=(1,), declare=False),
    "classic:forfeit-calls": Variant(squares=False, bits=(3, 2, 1, 0), declare=True,
                                     false_calls="forfeit"),
    "lines+squares:height,top:declare:losing-calls": Variant(
        squares=True, bits=(3, 0), declare=True, false_calls="losing"),
}
"""The rule sets of ``helpers.RULE_SETS`` and ``helpers.CALL_RULE_SETS``, spelt out by
hand."""


def parse(text: str) -> tuple[Board, int | None]:
    """Read a position string into a board and the piece in hand."""
    rows, hand = text.split()
    board = tuple(None if char == "." else int(char, 16) for char in rows.replace("/", ""))
    return board, None if hand == "-" else int(hand, 16)


def shared(board: Board, group: tuple[int, ...], variant: Variant) -> set[tuple[int, int]]:
    """The counted ``(bit, value)`` pairs that all four pieces of a full ``group`` share."""
    pieces = [board[cell] for cell in group]
    if any(piece is None for piece in pieces):
        return set()
    values = set()
    for bit in variant.bits:
        seen = {piece >> bit & 1 for piece in pieces if piece is not None}
        if len(seen) == 1:
            values.add((bit, seen.pop()))
    return values


def completed(board: Board, cell: int, variant: Variant) -> list[tuple[int, ...]]:
    """The winning groups through ``cell``, in the order rows, columns, diagonals, squares."""
    return [g for g in variant.groups if cell in g and shared(board, g, variant)]


def supply(board: Board, hand: int | None) -> list[int]:
    return [piece for piece in range(16) if piece not in board and piece != hand]


def count(board: Board, hand: int | None, depth: int, variant: Variant, *, claim: bool = False
          ) -> int:
    """The number of sequences of ``depth`` record tokens from this position.

    A token is one turn (``7``, ``A1F``, ``A1!``, ``A1?F``, ``D4?``, ``D4``) or
    a claim (``!``).  A token that ends the game counts only at the last ply.
    """
    if depth == 0:
        return 1
    rest = supply(board, hand)
    if hand is None:
        return sum(count(board, piece, depth - 1, variant) for piece in rest)
    leaf = depth == 1
    total = 1 if claim and leaf else 0
    for cell in range(16):
        if board[cell] is not None:
            continue
        after = (*board[:cell], hand, *board[cell + 1:])
        if completed(after, cell, variant):
            total += leaf  # won at once, or declared
            if not variant.declare:
                continue
            if not rest:
                total += leaf  # not declared: a draw
            for piece in rest:  # a missed declaration
                total += 1 if leaf else count(after, piece, depth - 1, variant, claim=True)
        elif not rest:
            total += leaf  # the board is full: a draw
        else:
            for piece in rest:
                total += 1 if leaf else count(after, piece, depth - 1, variant)
    return total


def safe_count(board: Board, hand: int | None, variant: Variant) -> int:
    """The number of pieces off the board and out of hand that win on no empty cell."""
    return sum(
        1
        for piece in supply(board, hand)
        if not any(
            board[cell] is None
            and completed((*board[:cell], piece, *board[cell + 1:]), cell, variant)
            for cell in range(16)
        )
    )
