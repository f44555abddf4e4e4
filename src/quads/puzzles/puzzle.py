"""The daily puzzle as a value: its date, rule set, position, goal and solution.

A goal is counted two ways.  RULES.md ("Values") counts the placements of
*both* sides until the game ends, the winning one included: that is
:attr:`Puzzle.plies`.  A player thinks in their own placements: that is
:attr:`Puzzle.moves`.  The side to move places first and places the last,
winning piece, so its placements are the odd ones (1st, 3rd, 5th, ...) and

    moves = (plies + 1) // 2        plies = 2 * moves - 1

(:func:`own_placements` and :func:`plies_for`).  A win in 1 ply is a win in
1 move (the piece in hand wins now); a win in 5 plies is a win in 3 moves:
we place, they place, we place, they place, we place and win.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from quads.errors import InvalidDateError
from quads.position import Position
from quads.rules import CLASSIC, QUADS, Rules
from quads.turn import Turn

__all__ = [
    "CLASSIC_WEEKDAY",
    "WEEKDAYS",
    "WEEKDAY_MOVES",
    "Puzzle",
    "own_placements",
    "parse_date",
    "plies_for",
    "rules_for",
    "target_moves",
]

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""The weekday names, Monday first (``datetime.date.weekday()`` order)."""

WEEKDAY_MOVES = (1, 2, 2, 3, 3, 4, 5)
"""The goal of each weekday, Monday first, in the solver's own placements.

Monday's piece in hand wins at once; Sunday's takes five placements of one's
own (nine in all).  A day whose target cannot be met within the generator's
search falls back to the next shorter goal (see :mod:`quads.puzzles.generate`),
so :attr:`Puzzle.moves` may in rare cases be below this table.
"""

CLASSIC_WEEKDAY = 3
"""Thursday (``date.weekday() == 3``): the one puzzle a week in classic Quarto.

Every other day uses the default ``quads`` rule set.
"""


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(text: str) -> datetime.date:
    """Read a date written ``YYYY-MM-DD``.

    :raises InvalidDateError: if it is not a real date in that form.
    """
    if _DATE.fullmatch(text.strip()):
        try:
            return datetime.date.fromisoformat(text.strip())
        except ValueError:
            pass
    raise InvalidDateError(
        f"invalid date {text!r}: expected a real date as YYYY-MM-DD, e.g. 2025-03-06",
        "date", date=text
    )


def own_placements(plies: int) -> int:
    """The placements of the side to move in a win in ``plies`` placements of both sides.

    :raises ValueError: if ``plies`` is not a positive odd number (a win by the
        side to move always ends on one of its own, odd-numbered placements).
    """
    if plies < 1 or plies % 2 == 0:
        raise ValueError(f"invalid winning distance {plies!r}: expected a positive odd number")
    return (plies + 1) // 2


def plies_for(moves: int) -> int:
    """The placements of both sides in a win in ``moves`` placements of one's own.

    :raises ValueError: if ``moves`` is not positive.
    """
    if moves < 1:
        raise ValueError(f"invalid number of moves {moves!r}: expected at least 1")
    return 2 * moves - 1


def rules_for(date: datetime.date) -> Rules:
    """The rule set of the puzzle of ``date``: classic on Thursdays, ``quads`` otherwise."""
    return CLASSIC if date.weekday() == CLASSIC_WEEKDAY else QUADS


def target_moves(date: datetime.date) -> int:
    """The goal of ``date``'s weekday, in own placements (:data:`WEEKDAY_MOVES`)."""
    return WEEKDAY_MOVES[date.weekday()]


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One day's puzzle: the side to move (the player) can force a win within the goal.

    Exactly one first turn wins at all, up to the symmetries of the position
    (board symmetries and trait relabelings that leave it unchanged).
    """

    date: datetime.date
    rules: Rules
    position: Position
    """The position to solve; the player has the piece in hand."""
    plies: int
    """The goal: a forced win in this many placements of both sides, the winning one
    included (RULES.md "Values").  It is the fastest forced win, so it is odd."""
    solution: tuple[Turn, ...]
    """The winning line: the player's fastest win against the defender's longest
    resistance, the player's and the defender's turns alternating.  It has
    :attr:`plies` turns; the last is the winning placement, with nothing handed over."""

    @property
    def moves(self) -> int:
        """The goal in the player's own placements: ``(plies + 1) // 2``."""
        return own_placements(self.plies)

    @property
    def weekday(self) -> str:
        """The weekday name, e.g. ``Thursday``."""
        return WEEKDAYS[self.date.weekday()]

    @property
    def difficulty(self) -> int:
        """The weekday's difficulty: 1 on Monday rising to 7 on Sunday."""
        return self.date.weekday() + 1

    @property
    def first(self) -> Turn:
        """The unique winning first turn (the first turn of :attr:`solution`)."""
        return self.solution[0]

    def solution_tokens(self) -> list[str]:
        """The solution as record tokens: ``A1F`` for each turn, ``D4!`` for the win."""
        tokens = [turn.text for turn in self.solution]
        tokens[-1] += "!"
        return tokens

    def summary(self, *, solution: bool = False) -> dict[str, object]:
        """The puzzle as a JSON object; the solution line only when ``solution`` is true.

        ``goal.plies`` counts both sides' placements (RULES.md "Values"),
        ``goal.moves`` only the player's own.
        """
        data: dict[str, object] = {
            "date": self.date.isoformat(),
            "rules": self.rules.name,
            "position": self.position.to_string(),
            "goal": {"result": "win", "plies": self.plies, "moves": self.moves},
            "weekday": self.weekday,
            "difficulty": self.difficulty,
        }
        if solution:
            data["solution"] = self.solution_tokens()
        return data
