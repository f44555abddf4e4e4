"""The puzzles of four weeks of consecutive dates (each weekday four times),
generated once per test session.

Nothing is stored between runs: every session generates (and so re-verifies)
each puzzle from its date.
"""

from __future__ import annotations

import datetime

import pytest

from quads.puzzles import Puzzle, puzzle_for

START = datetime.date(2025, 3, 3)
"""A Monday."""
DAYS = 28


@pytest.fixture(scope="session")
def four_weeks_of_puzzles() -> list[Puzzle]:
    return [puzzle_for(START + datetime.timedelta(days=offset)) for offset in range(DAYS)]
