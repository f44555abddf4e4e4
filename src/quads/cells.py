"""The sixteen cells of the board.

A cell is a plain integer 0-15: ``(row - 1) * 4 + column`` with columns
``A``-``D`` left to right and rows ``1``-``4`` top to bottom, so ``A1`` is 0
and ``D4`` is 15.  A set of cells is a 16-bit mask (a *bitboard*).
"""

from __future__ import annotations

from quads.errors import InvalidCellError

__all__ = [
    "ALL_CELLS",
    "CELLS",
    "CELL_NAMES",
    "Cell",
    "cell_column",
    "cell_name",
    "cell_row",
    "make_cell",
    "parse_cell",
]

Cell = int
"""A cell index, 0-15."""

CELLS: tuple[Cell, ...] = tuple(range(16))
ALL_CELLS = 0xFFFF
"""The set of all sixteen cells, as a mask."""

CELL_NAMES: tuple[str, ...] = tuple(f"{'ABCD'[c % 4]}{c // 4 + 1}" for c in CELLS)
_BY_NAME = {name: cell for cell, name in enumerate(CELL_NAMES)}


def make_cell(column: int, row: int) -> Cell:
    """Return the cell in ``column`` (0-3, A-D) and ``row`` (0-3, rows 1-4)."""
    if not (0 <= column < 4 and 0 <= row < 4):
        raise InvalidCellError(f"invalid cell coordinates {(column, row)!r}", "cell",
                               cell=f"{column},{row}")
    return row * 4 + column


def cell_column(cell: Cell) -> int:
    """Return the column of ``cell``, 0 (A) to 3 (D)."""
    return cell & 3


def cell_row(cell: Cell) -> int:
    """Return the row of ``cell``, 0 (row 1) to 3 (row 4)."""
    return cell >> 2


def parse_cell(text: str) -> Cell:
    """Return the cell named ``text`` (``A1`` .. ``D4``, case-insensitive).

    :raises InvalidCellError: if ``text`` names no cell.
    """
    try:
        return _BY_NAME[text.upper()]
    except (KeyError, AttributeError):
        raise InvalidCellError(f"invalid cell {text!r}: expected A1 .. D4", "cell",
                               cell=str(text)) from None


def cell_name(cell: Cell) -> str:
    """Return the name of ``cell``, e.g. ``B3``.

    :raises InvalidCellError: if ``cell`` is not 0-15.
    """
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < 16:
        raise InvalidCellError(f"invalid cell {cell!r}: expected an integer 0-15", "cell",
                               cell=str(cell))
    return CELL_NAMES[cell]
