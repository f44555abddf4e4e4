"""A turn: place the piece in hand on a cell, then hand over a piece.

A :class:`Turn` is a small immutable value with a text form both ways:
``A1F`` places on ``A1`` and hands over ``F``; ``7`` is the first turn of a
game (a hand-over alone); ``D4`` is a placement with nothing handed over (the
game ends with it).
"""

from __future__ import annotations

from dataclasses import dataclass

from quads.cells import Cell, cell_name, parse_cell
from quads.errors import InvalidCellError, InvalidPieceError, QuadsError
from quads.pieces import Piece, parse_piece, piece_name

__all__ = ["Turn"]


@dataclass(frozen=True, slots=True)
class Turn:
    """A placement and/or a hand-over.  At least one of the two is given."""

    place: Cell | None
    give: Piece | None

    def __post_init__(self) -> None:
        if self.place is None and self.give is None:
            raise QuadsError("invalid turn: it places a piece, hands one over, or both", "turn")
        if self.place is not None:
            cell_name(self.place)  # validates
        if self.give is not None:
            piece_name(self.give)  # validates

    @property
    def text(self) -> str:
        """The turn as text: ``A1F``, ``7`` or ``D4``."""
        place = "" if self.place is None else cell_name(self.place)
        give = "" if self.give is None else piece_name(self.give)
        return place + give

    def __str__(self) -> str:
        return self.text

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read a turn written as ``A1F``, ``7`` or ``D4``.

        :raises InvalidCellError: if the cell part is wrong.
        :raises InvalidPieceError: if the piece part is wrong.
        """
        text = text.strip()
        if len(text) == 1:
            return cls(None, parse_piece(text))
        if len(text) == 2:
            return cls(parse_cell(text), None)
        if len(text) == 3:
            return cls(parse_cell(text[:2]), parse_piece(text[2]))
        if text and text[0].upper() in "ABCD":
            raise InvalidCellError(f"invalid turn {text!r}: expected a cell and a piece, e.g. A1F",
                                   "turn", turn=text)
        raise InvalidPieceError(f"invalid turn {text!r}: expected a cell and a piece, e.g. A1F",
                                "turn", turn=text)
