"""Generating puzzles: deterministic, verified by the solver, unique answers, the weekly curve."""

from __future__ import annotations

import datetime
import os
import random
import statistics
import subprocess
import sys
from collections import defaultdict

from quads.position import Position
from quads.puzzles import CLASSIC_WEEKDAY, Puzzle, puzzle_for, winning_classes
from quads.puzzles.generate import seed_of
from quads.rules import CLASSIC, QUADS
from quads.solver import Value, analyse, solve
from quads.turn import Turn

_ELSEWHERE = """
import datetime, sys
from quads.puzzles import puzzle_for
from quads.puzzles.generate import seed_of
date = datetime.date.fromisoformat(sys.argv[1])
puzzle = puzzle_for(date)
print(seed_of(date), puzzle.position.to_string(), puzzle.plies,
      " ".join(turn.text for turn in puzzle.solution))
"""


def _described(date: datetime.date) -> str:
    puzzle = puzzle_for(date)
    return " ".join([str(seed_of(date)), puzzle.position.to_string(), str(puzzle.plies),
                     " ".join(turn.text for turn in puzzle.solution)])


def test_the_same_date_gives_the_same_puzzle_in_every_process() -> None:
    # Another process, with other string hashes and another global random state,
    # must find the same puzzle: nothing but the date may feed the generator.
    date = datetime.date(2025, 6, 2)
    random.seed(1)
    here = _described(date)
    random.seed(2)
    assert _described(date) == here
    environment = {**os.environ, "PYTHONHASHSEED": "12345",
                   "PYTHONPATH": os.pathsep.join(sys.path)}
    elsewhere = subprocess.run(
        [sys.executable, "-c", _ELSEWHERE, date.isoformat()], env=environment,
        capture_output=True, text=True, check=True, timeout=120)
    assert elsewhere.stdout.split() == here.split()


def test_every_date_has_a_seed_of_its_own() -> None:
    start = datetime.date(2024, 1, 1)
    dates = [start + datetime.timedelta(days=offset) for offset in range(3 * 366)]
    assert len({seed_of(date) for date in dates}) == len(dates)


def _check(puzzle: Puzzle) -> None:
    position, rules = puzzle.position, puzzle.rules
    assert position.hand is not None
    position.check(rules)
    solution = solve(position, rules, threads=1)
    assert solution.value is Value.WIN
    assert solution.plies == puzzle.plies
    assert puzzle.moves == (puzzle.plies + 1) // 2
    analysis = analyse(position, rules, threads=1)
    assert analysis.complete
    wins = [move.turn for move in analysis.moves if move.value is Value.WIN]
    assert len(winning_classes(position, rules, wins)) == 1, (puzzle.date, wins)
    assert puzzle.first in wins
    # The line: legal, alternating, ending with the winning placement after `plies` turns.
    assert len(puzzle.solution) == puzzle.plies
    for turn in puzzle.solution[:-1]:
        assert turn.give is not None
        position = position.play(turn)
    last = puzzle.solution[-1]
    assert last.give is None
    assert last.place is not None
    assert position.hand is not None
    assert position.winning_cells(position.hand, rules) >> last.place & 1


def test_four_weeks_give_verified_puzzles_with_one_answer(
        four_weeks_of_puzzles: list[Puzzle]) -> None:
    for puzzle in four_weeks_of_puzzles:
        _check(puzzle)


def test_the_goal_grows_through_the_week(four_weeks_of_puzzles: list[Puzzle]) -> None:
    moves: dict[int, list[int]] = defaultdict(list)
    for puzzle in four_weeks_of_puzzles:
        moves[puzzle.date.weekday()].append(puzzle.moves)
    means = [statistics.mean(moves[day]) for day in range(7)]
    assert means == sorted(means)
    assert means[0] <= 1.5
    assert means[6] >= 4
    assert all(puzzle.difficulty == puzzle.date.weekday() + 1 for puzzle in four_weeks_of_puzzles)


def test_thursday_is_classic(four_weeks_of_puzzles: list[Puzzle]) -> None:
    for puzzle in four_weeks_of_puzzles:
        expected = CLASSIC if puzzle.date.weekday() == CLASSIC_WEEKDAY else QUADS
        assert puzzle.rules == expected


def test_dates_differ(four_weeks_of_puzzles: list[Puzzle]) -> None:
    assert len({puzzle.position for puzzle in four_weeks_of_puzzles}) == len(four_weeks_of_puzzles)


def _winning_placements(position: Position) -> list[Turn]:
    analysis = analyse(position, QUADS, threads=1)
    return [move.turn for move in analysis.moves if move.value is Value.WIN and move.plies == 1]


def test_symmetric_winning_turns_count_as_one() -> None:
    # The reflection through A1 and D4, with trait bits 0<->2 and 1<->3 exchanged, fixes
    # this position: it swaps D1 (row 1 all short) and A4 (column A all round) and keeps B2.
    position = Position.from_string("012./4.../8.../.... 5")
    classes = winning_classes(position, QUADS, _winning_placements(position))
    assert sorted(sorted(turn.text for turn in group) for group in classes) == [
        ["A4", "D1"], ["B2"]]
    # A piece on D4 that the relabeling changes breaks the symmetry: three answers.
    broken = Position.from_string("012./4.../8.../...3 5")
    assert len(winning_classes(broken, QUADS, _winning_placements(broken))) == 3


def test_known_puzzles_stay_the_same() -> None:
    # Published puzzles must never change.  This fails when the computer players of
    # levels 2-3, the solver's node counting or the generator change the stream: such
    # a change needs a deliberate decision (e.g. keep it for dates from a cut-over day on).
    assert puzzle_for(datetime.date(2025, 3, 10)).position.to_string() == (
        "D6.9/2C.F/B4A7/.35. 0")
    sunday = puzzle_for(datetime.date(2025, 3, 16))
    assert sunday.position.to_string() == ".15./..E./...4/0.6. 9"
    assert sunday.plies == 9
