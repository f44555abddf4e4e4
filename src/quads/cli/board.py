"""Drawing a board as plain text, each piece's traits readable without colour."""

from __future__ import annotations

from quads.bits import iter_bits
from quads.pieces import TRAITS, Piece, describe_piece, piece_name
from quads.position import Position

__all__ = ["LEGEND", "draw_board", "piece_code", "piece_list"]

# One letter per trait, in the order height, colour, shape, top: (bit 1, bit 0).
_LETTERS = (("T", "S"), ("D", "L"), ("Q", "R"), ("H", "F"))

LEGEND = "traits: T/S tall/short, D/L dark/light, Q/R square/round, H/F hollow/solid"


def piece_code(piece: Piece) -> str:
    """Four letters naming the traits of ``piece``, e.g. ``TDQH`` for ``F``."""
    return "".join(
        letters[0] if piece & trait.mask else letters[1]
        for trait, letters in zip(TRAITS, _LETTERS, strict=True)
    )


def piece_list(mask: int) -> str:
    """The pieces of ``mask`` as hex digits, e.g. ``0 3 A``; ``none`` if empty."""
    return " ".join(piece_name(p) for p in iter_bits(mask)) or "none"


def draw_board(position: Position, highlight: int = 0) -> str:
    """The board as text: a hex digit and a trait code in each occupied cell.

    Cells in the ``highlight`` mask are drawn with ``*`` marks around them.
    """
    rule = "   +" + "------+" * 4
    lines = ["      A      B      C      D", rule]
    for row in range(4):
        top, bottom = [], []
        for col in range(4):
            cell = row * 4 + col
            piece = position.piece_at(cell)
            mark = "*" if highlight >> cell & 1 else " "
            symbol = "." if piece is None else piece_name(piece)
            top.append(f"{mark} {symbol}  {mark}")
            bottom.append("      " if piece is None else f" {piece_code(piece)} ")
        lines.append(f" {row + 1} |" + "|".join(top) + "|")
        lines.append("   |" + "|".join(bottom) + "|")
        lines.append(rule)
    return "\n".join(lines)


def describe(piece: Piece) -> str:
    """``7 (short dark square hollow)``."""
    return f"{piece_name(piece)} ({describe_piece(piece)})"
