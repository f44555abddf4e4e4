"""The daily puzzle: one position a day where the side to move can force a win.

:func:`puzzle_for` generates the puzzle of a date from the date alone
(:mod:`quads.puzzles.generate`); :func:`check_turn` judges a player's turn and
gives the defender's reply, and :func:`line_solves` judges a whole line played
without the server (:mod:`quads.puzzles.check`).  The goal rises through
the week, from a win at once on Monday to a win in five own placements on
Sunday; Thursday's puzzle is in classic Quarto, every other day's in ``quads``.
:func:`streak` counts a player's run of solved days (:func:`streak_of_newest` from
their dates newest first, as far as the run goes).
"""

from quads.puzzles.check import (
    Verdict,
    check_turn,
    line_solves,
    needs_handover,
    position_after,
)
from quads.puzzles.generate import puzzle_for, verify, winning_classes
from quads.puzzles.puzzle import (
    CLASSIC_WEEKDAY,
    WEEKDAY_MOVES,
    WEEKDAYS,
    Puzzle,
    own_placements,
    parse_date,
    plies_for,
    rules_for,
    target_moves,
)
from quads.puzzles.streak import streak, streak_of_newest

__all__ = [
    "CLASSIC_WEEKDAY",
    "WEEKDAYS",
    "WEEKDAY_MOVES",
    "Puzzle",
    "Verdict",
    "check_turn",
    "line_solves",
    "needs_handover",
    "own_placements",
    "parse_date",
    "plies_for",
    "position_after",
    "puzzle_for",
    "rules_for",
    "streak",
    "streak_of_newest",
    "target_moves",
    "verify",
    "winning_classes",
]
