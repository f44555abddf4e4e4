"""The sixteen pieces and their four traits.

A piece is a plain integer 0-15 whose four bits are its traits (see
:class:`Trait`); it is written as one hex digit, ``0`` .. ``F``.  A set of
pieces is a 16-bit mask with bit ``p`` set for piece ``p``.
"""

from __future__ import annotations

import enum
from typing import Literal

from quads.errors import InvalidPieceError, InvalidRulesError

__all__ = [
    "ALL_PIECES",
    "PIECES",
    "TRAITS",
    "Language",
    "Piece",
    "Trait",
    "describe_piece",
    "parse_piece",
    "piece_name",
    "piece_traits",
    "trait_name",
    "trait_word",
]

Piece = int
"""A piece, 0-15.  Bit 3 is height, bit 2 colour, bit 1 shape, bit 0 top."""

PIECES: tuple[Piece, ...] = tuple(range(16))
ALL_PIECES = 0xFFFF
"""The set of all sixteen pieces, as a mask."""

Language = Literal["en", "de"]


class Trait(enum.IntEnum):
    """A two-way trait; its value is the bit it occupies in a piece code."""

    HEIGHT = 3
    COLOR = 2
    SHAPE = 1
    TOP = 0

    @property
    def mask(self) -> int:
        """The bit of this trait within a piece code."""
        return 1 << self.value

    @property
    def identifier(self) -> str:
        """The lower-case name used in rule-set names: ``height``, ``color``, ..."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Trait:
        """Return the trait named ``text`` (``height``, ``color``, ``shape`` or ``top``).

        :raises InvalidRulesError: if ``text`` names no trait.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise InvalidRulesError(
                f"unknown trait {text!r}: expected one of height, color, shape, top",
                "trait", trait=text
            ) from None


TRAITS: tuple[Trait, ...] = (Trait.HEIGHT, Trait.COLOR, Trait.SHAPE, Trait.TOP)
"""The four traits in their conventional order (high bit first)."""

# (word when the bit is 1, word when the bit is 0), per language.
_WORDS: dict[Language, dict[Trait, tuple[str, str]]] = {
    "en": {
        Trait.HEIGHT: ("tall", "short"),
        Trait.COLOR: ("dark", "light"),
        Trait.SHAPE: ("square", "round"),
        Trait.TOP: ("hollow", "solid"),
    },
    "de": {
        Trait.HEIGHT: ("groß", "klein"),
        Trait.COLOR: ("dunkel", "hell"),
        Trait.SHAPE: ("eckig", "rund"),
        Trait.TOP: ("hohl", "massiv"),
    },
}

_TRAIT_NAMES: dict[Language, dict[Trait, str]] = {
    "en": {Trait.HEIGHT: "height", Trait.COLOR: "colour", Trait.SHAPE: "shape", Trait.TOP: "top"},
    "de": {Trait.HEIGHT: "Größe", Trait.COLOR: "Farbe", Trait.SHAPE: "Form",
           Trait.TOP: "Oberseite"},
}


def parse_piece(text: str) -> Piece:
    """Return the piece written as the hex digit ``text`` (case-insensitive).

    :raises InvalidPieceError: if ``text`` is not a single hex digit.
    """
    if len(text) != 1 or text not in "0123456789abcdefABCDEF":
        raise InvalidPieceError(f"invalid piece {text!r}: expected one hex digit 0-F", "piece",
                                piece=text)
    return int(text, 16)


def _check(piece: int) -> Piece:
    if isinstance(piece, bool) or not isinstance(piece, int) or not 0 <= piece < 16:
        raise InvalidPieceError(f"invalid piece {piece!r}: expected an integer 0-15", "piece",
                                piece=str(piece))
    return piece


def piece_name(piece: Piece) -> str:
    """Return the hex digit of ``piece``, upper-case (``0`` .. ``F``).

    :raises InvalidPieceError: if ``piece`` is not 0-15.
    """
    return "0123456789ABCDEF"[_check(piece)]


def trait_word(trait: Trait, value: bool, language: Language = "en") -> str:
    """Return the word for one value of a trait, e.g. ``tall`` or ``hell``."""
    return _WORDS[language][trait][0 if value else 1]


def trait_name(trait: Trait, language: Language = "en") -> str:
    """Return the name of the trait itself, e.g. ``colour`` or ``Farbe``."""
    return _TRAIT_NAMES[language][trait]


def piece_traits(piece: Piece) -> tuple[tuple[Trait, bool], ...]:
    """Return ``(trait, value)`` for each of the four traits of ``piece``."""
    _check(piece)
    return tuple((trait, bool(piece & trait.mask)) for trait in TRAITS)


def describe_piece(piece: Piece, language: Language = "en") -> str:
    """Describe ``piece`` in words, e.g. ``tall dark square hollow``.

    :raises InvalidPieceError: if ``piece`` is not 0-15.
    """
    return " ".join(trait_word(t, v, language) for t, v in piece_traits(piece))
