"""Exceptions raised by the library.

Every exception is a :class:`ValueError`, so code that only cares whether some
input was acceptable can catch that.  Each message quotes the offending input,
in English, for developers.  For people, every exception also says what is
wrong in a form that any language can word: :attr:`QuadsError.reason`, a short
name such as ``already_won`` or ``cell_taken``, and :attr:`QuadsError.params`,
the values it speaks of (a cell name, a piece, a token, a shape's id):

>>> from quads import Position, QUADS
>>> try:
...     Position.from_string("0123/..../..../.... -").check(QUADS)
... except InvalidPositionError as error:
...     print(error.reason, error.params)
already_won {'shape': 'row1'}
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
    "InvalidTimeControlError",
    "Params",
    "QuadsError",
]


Params = dict[str, str | int]
"""The values an error speaks of, by name: ``{"cell": "B2"}``, ``{"token": "1."}``."""


class QuadsError(ValueError):
    """Base class of every error raised for bad input.

    ``QuadsError(message, reason, **params)``: ``message`` in English; ``reason`` and
    ``params`` as the attributes below (an error raised without them has the reason
    ``""`` and no params).
    """

    reason: str
    """What is wrong, as a short name that stays the same in every language (e.g.
    ``already_won``, ``turn_number``, ``cell_taken``); ``""`` when none is given."""
    params: Params
    """The values :attr:`reason` speaks of: cells and pieces by name (``B2``, ``F``),
    shapes by id (``row1``), tokens and other inputs as written."""

    def __init__(self, message: str, reason: str = "", /, **params: str | int) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = dict(params)

    def __reduce__(self) -> tuple[object, ...]:
        # Keep the reason and the params when the error is pickled (across processes).
        return (type(self), (str(self), self.reason), {"params": self.params})


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


class InvalidTimeControlError(QuadsError):
    """A time control (``300+3``, ``3d``) or a clock header cannot be read, or is out
    of range."""
