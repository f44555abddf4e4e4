"""The puzzle value type: goal conversions, weekdays and the JSON summary."""

from __future__ import annotations

import datetime

import pytest

from quads.position import Position
from quads.puzzles import Puzzle, own_placements, plies_for, rules_for, target_moves
from quads.rules import CLASSIC, QUADS
from quads.turn import Turn


@pytest.mark.parametrize(("plies", "moves"), [(1, 1), (3, 2), (5, 3), (7, 4), (9, 5), (15, 8)])
def test_plies_and_own_placements_convert_both_ways(plies: int, moves: int) -> None:
    assert own_placements(plies) == moves == (plies + 1) // 2
    assert plies_for(moves) == plies


@pytest.mark.parametrize("plies", [0, 2, 4, -1])
def test_a_win_by_the_side_to_move_takes_an_odd_number_of_placements(plies: int) -> None:
    with pytest.raises(ValueError, match="odd"):
        own_placements(plies)


def test_no_goal_below_one_placement() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        plies_for(0)


def test_thursday_is_classic_and_every_other_day_quads() -> None:
    monday = datetime.date(2025, 3, 3)
    days = [monday + datetime.timedelta(days=offset) for offset in range(7)]
    assert [rules_for(day) for day in days] == [QUADS, QUADS, QUADS, CLASSIC, QUADS, QUADS, QUADS]
    assert [target_moves(day) for day in days] == sorted(target_moves(day) for day in days)
    assert target_moves(monday) == 1


def test_summary_and_tokens() -> None:
    puzzle = Puzzle(datetime.date(2025, 3, 4), QUADS, Position.from_string(
        ".E2./45BD/AC.3/.... 0"), 3,
        (Turn.parse("D48"), Turn.parse("A11"), Turn.parse("C3")))
    assert puzzle.moves == 2
    assert puzzle.weekday == "Tuesday"
    assert puzzle.difficulty == 2
    assert puzzle.first == Turn.parse("D48")
    assert puzzle.solution_tokens() == ["D48", "A11", "C3!"]
    assert puzzle.summary() == {
        "date": "2025-03-04", "rules": "quads", "position": ".E2./45BD/AC.3/.... 0",
        "goal": {"result": "win", "plies": 3, "moves": 2}, "weekday": "Tuesday",
        "difficulty": 2,
    }
    assert puzzle.summary(solution=True)["solution"] == ["D48", "A11", "C3!"]
