"""A player's daily puzzles as the site keeps them, on a real store with no web
server: which dates have a puzzle, what counts as solved, the streak, and an attempt
sent twice."""

from __future__ import annotations

import datetime

import pytest

from quads.errors import InvalidDateError
from quads.site.errors import SiteError
from quads.site.puzzles.days import ahead_dates, puzzle_date
from quads.site.puzzles.results import Attempt, PuzzleResults
from quads.storage import GameStore

TODAY = datetime.date(2026, 12, 6)
PLAYER = "p" * 64


def test_the_dates_with_a_puzzle_run_from_the_first_to_today() -> None:
    assert puzzle_date("today", TODAY) == TODAY
    assert puzzle_date("2026-12-01", TODAY) == datetime.date(2026, 12, 1)
    with pytest.raises(SiteError) as refused:
        puzzle_date("2026-12-07", TODAY)
    assert refused.value.code == "not_found"
    with pytest.raises(InvalidDateError):
        puzzle_date("1999-12-31", TODAY)
    assert ahead_dates(TODAY)[0] == TODAY
    assert ahead_dates(TODAY)[-1] == TODAY + datetime.timedelta(days=14)


def test_a_solve_counts_only_once_checked_and_makes_the_streak(store: GameStore) -> None:
    results = PuzzleResults(store)
    yesterday = TODAY - datetime.timedelta(days=1)
    with pytest.raises(SiteError) as refused:
        results.record(PLAYER, TODAY, Attempt(1, 30, solved=True), proven=False, today=TODAY)
    assert refused.value.code == "not_solved"
    assert results.results(PLAYER) == []  # nothing of a refusal is stored
    results.solved(PLAYER, yesterday)
    results.record(PLAYER, yesterday, Attempt(2, 40, solved=True), proven=False, today=TODAY)
    recorded = results.record(PLAYER, TODAY, Attempt(1, 20, solved=True, attempt="x1"),
                              proven=True, today=TODAY)
    assert (recorded.solved, recorded.streak, recorded.attempts) == (2, 2, 1)
    again = results.record(PLAYER, TODAY, Attempt(1, 20, solved=True, attempt="x1"),
                           proven=True, today=TODAY)
    assert again.result == recorded.result
    assert again.attempts == 1  # the same attempt, stored once
    assert results.results(None) == []
