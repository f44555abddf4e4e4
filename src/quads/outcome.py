"""Who plays, and how a game ends."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from quads.pieces import Language, Trait, trait_word
from quads.shapes import Shape

__all__ = ["Outcome", "Player", "Termination"]


class Player(enum.IntEnum):
    """The two players.  ``FIRST`` hands over the first piece of the game."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Player:
        """The opponent."""
        return Player(1 - self.value)

    @property
    def identifier(self) -> str:
        """``first`` or ``second``."""
        return self.name.lower()


class Termination(enum.Enum):
    """How a game ended."""

    WIN = "win"
    """A placement completed a winning shape (``auto`` calling)."""
    DECLARATION = "declaration"
    """The placer declared the shape they had just completed (``declare`` calling)."""
    CLAIM = "claim"
    """The receiver claimed a shape whose declaration the placer had missed."""
    FULL_BOARD = "full-board"
    """All sixteen pieces were placed without a (called) win: a draw."""
    RESIGNATION = "resignation"
    """A player gave up: the other player wins."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: how, who won (``None`` for a draw), and with what.

    A resignation has a winner (the player who did not resign) and no shapes.
    """

    termination: Termination
    winner: Player | None
    shapes: tuple[Shape, ...] = ()
    """The winning shapes (empty for a draw)."""
    traits: tuple[tuple[Trait, bool], ...] = ()
    """The counted trait values that the pieces of a winning shape share."""

    @property
    def result(self) -> str:
        """The result in record notation: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Player.FIRST else "0-1"

    def describe(self, language: Language = "en") -> str:
        """A short description in English or German, e.g. ``row 2: all tall``.

        A draw is ``full board, no winner`` (``volles Brett, kein Sieger``), a
        resignation ``the first player resigned`` (``der erste Spieler hat aufgegeben``).
        """
        if self.winner is None:
            return "full board, no winner" if language == "en" else "volles Brett, kein Sieger"
        if self.termination is Termination.RESIGNATION:
            if language == "en":
                return f"the {self.winner.other.identifier} player resigned"
            loser = "erste" if self.winner.other is Player.FIRST else "zweite"
            return f"der {loser} Spieler hat aufgegeben"
        every, conjunction = ("all", "and") if language == "en" else ("alle", "und")
        shapes = ", ".join(shape.describe(language) for shape in self.shapes)
        words = f" {conjunction} ".join(trait_word(t, v, language) for t, v in self.traits)
        return f"{shapes}: {every} {words}"
