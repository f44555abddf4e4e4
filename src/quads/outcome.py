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
    FALSE_CALL = "false-call"
    """A player called a win with nothing to call, under losing false calls
    (:attr:`~quads.rules.FalseCalls.LOSING`): the other player wins."""
    FULL_BOARD = "full-board"
    """All sixteen pieces were placed without a (called) win: a draw."""
    RESIGNATION = "resignation"
    """A player gave up: the other player wins."""
    TIME = "time"
    """A player's clock ran out: the other player wins."""
    ABANDONMENT = "abandonment"
    """A player left a game with a clock during their turn, and the other player claimed
    the win (or a draw)."""
    AGREEMENT = "agreement"
    """The players agreed to a draw (one offered it, the other accepted)."""
    ABORTED = "aborted"
    """A side did not make its first move in time: the game ends with no result (``*``)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: how, who won (``None`` for a draw), and with what.

    A resignation, a loss on time or by abandonment has a winner (the other player)
    and no shapes; an aborted game has none and no result (``*``).
    """

    termination: Termination
    winner: Player | None
    shapes: tuple[Shape, ...] = ()
    """The winning shapes (empty for a draw)."""
    traits: tuple[tuple[Trait, bool], ...] = ()
    """The counted trait values that the pieces of a winning shape share."""

    @property
    def result(self) -> str:
        """The result in record notation: ``1-0``, ``0-1``, ``1/2-1/2`` or, for an
        aborted game, ``*``."""
        if self.termination is Termination.ABORTED:
            return "*"
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Player.FIRST else "0-1"

    def describe(self, language: Language = "en") -> str:
        """A short description in English or German, e.g. ``row 2: all tall``.

        A draw is ``full board, no winner`` (``volles Brett, kein Sieger``), a
        resignation ``the first player resigned`` (``der erste Spieler hat aufgegeben``),
        a loss on time ``the first player ran out of time``.
        """
        ending = _ENDINGS.get(self.termination)
        if ending is not None:
            if self.termination in (Termination.ABORTED, Termination.AGREEMENT):
                return ending[language]
            # Abandonment drawn: the side that stayed took the draw; the other one left.
            loser = self.winner.other if self.winner is not None else None
            if loser is None:
                return _ABANDONED_DRAW[language]
            if language == "en":
                return f"the {loser.identifier} player {ending['en']}"
            ordinal = "erste" if loser is Player.FIRST else "zweite"
            return f"der {ordinal} Spieler {ending['de']}"
        if self.winner is None:
            return "full board, no winner" if language == "en" else "volles Brett, kein Sieger"
        every, conjunction = ("all", "and") if language == "en" else ("alle", "und")
        shapes = ", ".join(shape.describe(language) for shape in self.shapes)
        words = f" {conjunction} ".join(trait_word(t, v, language) for t, v in self.traits)
        return f"{shapes}: {every} {words}"


_ENDINGS: dict[Termination, dict[Language, str]] = {
    Termination.RESIGNATION: {"en": "resigned", "de": "hat aufgegeben"},
    Termination.TIME: {"en": "ran out of time", "de": "hat die Zeit überschritten"},
    Termination.ABANDONMENT: {"en": "left the game", "de": "hat die Partie verlassen"},
    Termination.FALSE_CALL: {"en": "called a win that was not there",
                             "de": "hat einen Sieg angesagt, den es nicht gab"},
    Termination.AGREEMENT: {"en": "drawn by agreement", "de": "remis nach Vereinbarung"},
    Termination.ABORTED: {"en": "game aborted, no result",
                          "de": "Partie abgebrochen, kein Ergebnis"},
}
"""How :meth:`Outcome.describe` words the endings that are no shape on the board."""

_ABANDONED_DRAW: dict[Language, str] = {"en": "a player left the game: drawn",
                                        "de": "ein Spieler hat die Partie verlassen: remis"}
