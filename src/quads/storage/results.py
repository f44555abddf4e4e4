"""Puzzle results: one row per attempt at a day's puzzle, solved or failed.

There are no accounts: a result belongs to an anonymous player id that the
page makes up once and keeps in the browser.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

__all__ = ["PuzzleResult"]


@dataclass(frozen=True, slots=True)
class PuzzleResult:
    """One attempt of ``player`` at the puzzle of ``date``."""

    player: str
    date: datetime.date
    """The puzzle's date (not the day it was played)."""
    tries: int
    """The tries so far at this date's puzzle, this one included (1 or more)."""
    seconds: int
    """The time taken since the puzzle was opened, in whole seconds."""
    solved: bool
    recorded: datetime.datetime
    """When the result was stored (UTC)."""
    attempt: str | None = None
    """The id the client gave this attempt, if any: sent again, it is stored once."""
