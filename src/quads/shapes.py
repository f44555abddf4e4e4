"""The shapes that can win: rows, columns, diagonals and 2x2 squares.

Each shape is a :class:`Shape` value holding the mask of its four cells.  The
rule sets use :data:`LINES` (10 shapes) or :data:`LINES` + :data:`SQUARES`
(19 shapes).  A set of shapes is a mask over :data:`SHAPES` indices.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from quads.cells import CELL_NAMES, make_cell
from quads.pieces import Language

__all__ = ["LINES", "SHAPES", "SQUARES", "Shape", "ShapeKind", "shape_by_id"]


class ShapeKind(enum.Enum):
    """What kind of shape a :class:`Shape` is."""

    ROW = "row"
    COLUMN = "column"
    DIAGONAL = "diagonal"
    SQUARE = "square"


# The word for each kind of shape, per language.
_KIND_WORDS: dict[Language, dict[ShapeKind, str]] = {
    "en": {ShapeKind.ROW: "row", ShapeKind.COLUMN: "column", ShapeKind.DIAGONAL: "diagonal",
           ShapeKind.SQUARE: "square"},
    "de": {ShapeKind.ROW: "Reihe", ShapeKind.COLUMN: "Spalte", ShapeKind.DIAGONAL: "Diagonale",
           ShapeKind.SQUARE: "Quadrat"},
}


@dataclass(frozen=True, slots=True)
class Shape:
    """One winning shape: four cells in a line or a 2x2 block."""

    index: int
    """Position in :data:`SHAPES`; also the bit of this shape in a shape mask."""
    kind: ShapeKind
    id: str
    """A short stable identifier: ``row1``, ``colA``, ``diagA1``, ``diagD1``, ``sqB2`` ..."""
    cells: int
    """The mask of the four cells."""

    @property
    def name(self) -> str:
        """An English name, e.g. ``row 2``, ``column C``, ``diagonal A1-D4``, ``square B2-C3``."""
        return self.describe("en")

    def describe(self, language: Language = "en") -> str:
        """The name in English or German, e.g. ``row 2`` or ``Reihe 2``."""
        first, *_, last = (CELL_NAMES[c] for c in range(16) if self.cells >> c & 1)
        word = _KIND_WORDS[language][self.kind]
        if self.kind is ShapeKind.ROW:
            return f"{word} {first[1]}"
        if self.kind is ShapeKind.COLUMN:
            return f"{word} {first[0]}"
        if self.kind is ShapeKind.DIAGONAL:
            # Name the diagonal from its top end.
            return f"{word} A1-D4" if first == "A1" else f"{word} D1-A4"
        return f"{word} {first}-{last}"

    def __str__(self) -> str:
        return self.name


def _mask(cells: list[int]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def _build() -> tuple[Shape, ...]:
    shapes: list[tuple[ShapeKind, str, int]] = []
    for row in range(4):
        cells = [make_cell(col, row) for col in range(4)]
        shapes.append((ShapeKind.ROW, f"row{row + 1}", _mask(cells)))
    for col in range(4):
        cells = [make_cell(col, r) for r in range(4)]
        shapes.append((ShapeKind.COLUMN, f"col{'ABCD'[col]}", _mask(cells)))
    shapes.append((ShapeKind.DIAGONAL, "diagA1", _mask([make_cell(i, i) for i in range(4)])))
    shapes.append((ShapeKind.DIAGONAL, "diagD1", _mask([make_cell(3 - i, i) for i in range(4)])))
    for row in range(3):
        for col in range(3):
            cells = [make_cell(col + dc, row + dr) for dr in (0, 1) for dc in (0, 1)]
            shapes.append((ShapeKind.SQUARE, f"sq{CELL_NAMES[make_cell(col, row)]}", _mask(cells)))
    return tuple(Shape(i, kind, ident, mask) for i, (kind, ident, mask) in enumerate(shapes))


SHAPES: tuple[Shape, ...] = _build()
"""All 19 shapes: rows 1-4, columns A-D, the two diagonals, then the nine squares."""
LINES: tuple[Shape, ...] = SHAPES[:10]
SQUARES: tuple[Shape, ...] = SHAPES[10:]

_BY_ID = {shape.id.lower(): shape for shape in SHAPES}


def shape_by_id(ident: str) -> Shape:
    """Return the shape with identifier ``ident`` (e.g. ``row1``, ``sqB2``).

    :raises KeyError: if there is no such shape.
    """
    return _BY_ID[ident.lower()]
