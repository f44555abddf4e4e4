"""The streak: consecutive solved dates up to today or yesterday; and the
placement that still needs its hand-over."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from quads.puzzles import needs_handover, puzzle_for, streak
from quads.turn import Turn

TODAY = datetime.date(2026, 11, 30)


def days_back(*backs: int) -> list[datetime.date]:
    return [TODAY - datetime.timedelta(days=back) for back in backs]


def test_a_run_up_to_today_or_yesterday() -> None:
    assert streak([], TODAY) == 0
    assert streak(days_back(0), TODAY) == 1
    assert streak(days_back(0, 1, 2, 4), TODAY) == 3
    assert streak(days_back(1, 2), TODAY) == 2
    assert streak(days_back(2, 3), TODAY) == 0
    assert streak(days_back(-1, 0), TODAY) == 1  # a future date does not count
    assert streak(days_back(0, 0, 1), TODAY) == 2


def test_a_placement_alone_needs_its_handover_unless_it_ends_the_game() -> None:
    puzzle = puzzle_for(datetime.date(2025, 3, 4))  # a win in 2
    first = puzzle.solution[0]
    assert first.place is not None
    assert first.give is not None
    assert needs_handover(puzzle, Turn(first.place, None))
    assert not needs_handover(puzzle, first)
    played = list(puzzle.solution[:2])
    last = puzzle.solution[2]
    assert not needs_handover(puzzle, last, played)  # the winning placement


def test_the_streak_of_dates_newest_first_reads_them_only_up_to_its_gap() -> None:
    from quads.puzzles import streak_of_newest

    for backs in [(), (0,), (0, 1, 2, 4), (1, 2), (2, 3), (-1, 0), (-1, 1, 2, 3, 7)]:
        dates = days_back(*backs)
        assert streak_of_newest(dates, TODAY) == streak(dates, TODAY), backs
    read: list[datetime.date] = []

    def newest_first() -> Iterator[datetime.date]:
        for back in [0, 1, 2, 5, *range(6, 10_000)]:
            read.append(TODAY - datetime.timedelta(days=back))
            yield read[-1]

    assert streak_of_newest(newest_first(), TODAY) == 3
    assert len(read) == 4  # the gap's date, and no further
