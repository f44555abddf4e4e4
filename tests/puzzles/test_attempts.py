"""Checking a player's attempt: the solution is accepted, a wrong turn is not."""

from __future__ import annotations

import datetime

import pytest

from quads.errors import IllegalActionError
from quads.puzzles import Puzzle, check_turn, position_after, puzzle_for
from quads.solver import Value, analyse
from quads.turn import Turn

WEEK = [datetime.date(2025, 3, 3) + datetime.timedelta(days=offset) for offset in range(7)]


@pytest.fixture(scope="module")
def week() -> list[Puzzle]:
    return [puzzle_for(date) for date in WEEK]


def test_the_solution_played_through_is_accepted(week: list[Puzzle]) -> None:
    for puzzle in week:
        played: list[Turn] = []
        for index in range(0, puzzle.plies, 2):
            verdict = check_turn(puzzle, puzzle.solution[index], played)
            assert verdict.accepted, (puzzle.date, index)
            if index == puzzle.plies - 1:
                assert verdict.solved
                assert verdict.reply is None
                assert verdict.plies_left == 0
            else:
                assert not verdict.solved
                assert verdict.value is Value.LOSS
                # The defender's reply is the solution's longest resistance.
                assert verdict.reply == puzzle.solution[index + 1]
                assert verdict.plies_left == puzzle.plies - index - 2
                played += [puzzle.solution[index], verdict.reply]


def test_a_turn_that_does_not_win_is_refused(week: list[Puzzle]) -> None:
    for puzzle in week:
        moves = analyse(puzzle.position, puzzle.rules, threads=1).moves
        wrong = next(move.turn for move in moves if move.value is not Value.WIN)
        verdict = check_turn(puzzle, wrong)
        assert not verdict.accepted
        assert not verdict.solved
        # The defender's best answer comes with the refusal.
        assert verdict.reply is not None
        after = puzzle.position.play(wrong)
        assert verdict.reply in set(after.legal_turns(puzzle.rules))
        assert verdict.value is not Value.LOSS or (verdict.plies or 0) > puzzle.plies - 1


def test_the_defenders_turn_is_not_the_players() -> None:
    puzzle = puzzle_for(WEEK[1])
    with pytest.raises(IllegalActionError, match="defender"):
        check_turn(puzzle, puzzle.solution[1], puzzle.solution[:1])


def test_an_illegal_turn_is_refused_with_an_error() -> None:
    puzzle = puzzle_for(WEEK[1])
    taken = next(iter(puzzle.position.board))
    with pytest.raises(IllegalActionError):
        check_turn(puzzle, Turn(taken, None))


def test_position_after_follows_the_line() -> None:
    puzzle = puzzle_for(WEEK[1])
    after = position_after(puzzle, puzzle.solution[:2])
    assert after == puzzle.position.play(puzzle.solution[0]).play(puzzle.solution[1])
