"""Exceptions raised by the library.

Every exception is a :class:`ValueError`, so code that only cares whether some
input was acceptable can catch that.  Each message quotes the offending input.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidCellError",
    "InvalidDateError",
    "InvalidPieceError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRulesError",
    "QuadsError",
]


class QuadsError(ValueError):
    """Base class of every error raised for bad input."""


class InvalidCellError(QuadsError):
    """A cell name is not one of ``A1`` .. ``D4``."""


class InvalidPieceError(QuadsError):
    """A piece is not a hex digit ``0`` .. ``F`` (or an integer 0 .. 15)."""


class InvalidRulesError(QuadsError):
    """A rule-set name or one of its parts is not understood."""


class InvalidPositionError(QuadsError):
    """A position string is malformed, or describes an impossible position."""


class InvalidRecordError(QuadsError):
    """A game record cannot be read: a header, a token or the order of tokens is wrong."""


class IllegalActionError(QuadsError):
    """An action that the rules do not allow in the current state of a game."""


class InvalidDateError(QuadsError):
    """A date is not a real date written ``YYYY-MM-DD``."""
