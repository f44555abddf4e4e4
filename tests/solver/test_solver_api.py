"""solve() and analyse(): values, best turns, budgets, progress and bad input."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable

import pytest
from tests.solver.solver_helpers import RULE_SETS, play

from quads.errors import InvalidPositionError
from quads.position import EMPTY, Position
from quads.rules import ADVANCED, CLASSIC, QUADS, Rules
from quads.solver import Progress, Value, analyse, default_table_mb, solve
from quads.solver.search import TABLE_MB_MIN, TABLE_MB_PER_SECOND, THREADS_MIN_EMPTIES, _Search
from quads.solver.value import WIN, score_of, value_of


def test_win_in_one() -> None:
    solution = solve(Position.from_string("0.../1.../2.../.... 3"), QUADS)
    assert (solution.value, solution.plies) == (Value.WIN, 1)
    assert solution.best is not None
    assert solution.best.text == "A4"


def test_hand_over_first_position_counts_the_opponents_placement_first() -> None:
    # With "-" the opponent places first: handing over 3 lets them win at once.
    position = Position.from_string("0.../1.../2.../.... -")
    analysis = analyse(position, QUADS)
    by_turn = {move.turn.text: move for move in analysis.moves}
    assert (by_turn["3"].value, by_turn["3"].plies) == (Value.LOSS, 1)
    assert solve(position, QUADS).best != by_turn["3"].turn


def test_value_helpers_round_trip() -> None:
    for score in (WIN - 1, WIN - 8, 0, -(WIN - 2), -(WIN - 15)):
        assert score_of(*value_of(score)) == score
    assert value_of(0) == (Value.DRAW, None)
    with pytest.raises(ValueError, match="no score"):
        score_of(Value.UNKNOWN, None)


def test_full_board_is_a_finished_draw() -> None:
    position = Position.from_string("0123/4567/89AB/CDEF -")
    solution = solve(position, CLASSIC)  # full lines are dead under declare
    assert (solution.value, solution.plies, solution.best) == (Value.DRAW, None, None)
    assert analyse(position, CLASSIC).moves == ()


def test_dead_shapes_under_declare_are_harmless() -> None:
    # Row 1 shares "short" (0-3), yet under declare it is dead and cannot win again.
    position = Position.from_string("0123/..../..../.... 4")
    with pytest.raises(InvalidPositionError, match="already won"):
        solve(position, QUADS)
    solution = solve(position, ADVANCED)
    assert solution.value is not Value.UNKNOWN


@pytest.mark.parametrize("text", ["FFFF/..../..../.... 1", "..../..../..../.... G",
                                  "0.../..../..../.... 0", "..../..../.../.... -"])
def test_malformed_or_impossible_positions_are_refused(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        solve(Position.from_string(text), QUADS)


@pytest.mark.parametrize("budget", [{"nodes": 1000}, {"seconds": 0.001}])
def test_budget_gives_unknown(budget: dict[str, float]) -> None:
    position = Position.from_string("..../..../F4../...8 1")
    solution = solve(position, CLASSIC, **budget)  # type: ignore[arg-type]
    assert solution.value is Value.UNKNOWN
    assert solution.plies is None
    assert solution.best is None
    assert not solution.complete
    analysis = analyse(position, CLASSIC, **budget)  # type: ignore[arg-type]
    assert analysis.value is Value.UNKNOWN
    assert not analysis.complete
    assert any(move.value is Value.UNKNOWN for move in analysis.moves)


def test_budget_that_suffices_changes_nothing() -> None:
    position = play(QUADS, 10, random.Random(3))
    free = solve(position, QUADS)
    limited = solve(position, QUADS, nodes=free.nodes * 10 + 10_000, seconds=600)
    assert (limited.value, limited.plies, limited.best) == (free.value, free.plies, free.best)


def test_the_default_table_grows_with_the_empty_cells_and_the_budget() -> None:
    assert [default_table_mb(n) for n in (4, 13, 14, 15, 16)] == [2, 2, 16, 256, 1024]
    assert default_table_mb(16, seconds=3) == 3 * TABLE_MB_PER_SECOND
    assert default_table_mb(16, seconds=3, threads=2) == 6 * TABLE_MB_PER_SECOND
    assert default_table_mb(16, seconds=600) == 1024  # never more than the cells ask
    assert default_table_mb(16, seconds=0.01) == default_table_mb(16, nodes=10) == TABLE_MB_MIN
    assert default_table_mb(16, nodes=1 << 20) == 16  # an entry of 16 bytes a node
    assert default_table_mb(12, seconds=3) == 2


@pytest.mark.parametrize("budget", [{"seconds": 3.0}, {"nodes": 2_000_000}])
def test_a_search_with_a_budget_gets_no_table_it_cannot_fill(budget: dict[str, float]) -> None:
    """A GiB table is paged in during the search, which costs a virtual machine about
    3 s: a three-second analysis of the empty board would do nothing else."""
    nodes, seconds = budget.get("nodes"), budget.get("seconds")
    search = _Search(EMPTY, QUADS, None if nodes is None else int(nodes), seconds, None, None,
                     1, None)
    assert search.engine.table_bytes <= 32 << 20
    unbounded = _Search(EMPTY, QUADS, None, None, None, None, 1, None)
    assert unbounded.engine.table_bytes == 1 << 30


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="node budget"):
        solve(EMPTY, QUADS, nodes=0)
    with pytest.raises(ValueError, match="table size"):
        solve(EMPTY, QUADS, table_mb=-1)


def test_progress_reports() -> None:
    reports: list[Progress] = []
    position = Position.from_string("..../..../F4../...8 1")
    solve(position, CLASSIC, progress=reports.append)
    assert reports
    assert all(0 <= r.done <= r.total for r in reports)
    nodes = [r.nodes for r in reports]
    assert nodes == sorted(nodes)


@pytest.mark.parametrize("name", RULE_SETS)
def test_analyse_lists_every_legal_turn_once(name: str) -> None:
    rules = Rules.parse(name)
    rng = random.Random(name)
    for hand in (True, False):
        position = play(rules, 7, rng, hand=hand)
        analysis = analyse(position, rules)
        turns = Counter(move.turn for move in analysis.moves)
        assert turns == Counter(position.legal_turns(rules))
        scores = [score_of(m.value, m.plies) for m in analysis.moves]
        assert scores == sorted(scores, reverse=True)
        assert (analysis.value, analysis.plies) == (analysis.moves[0].value,
                                                    analysis.moves[0].plies)
        solution = solve(position, rules)
        assert (solution.value, solution.plies) == (analysis.value, analysis.plies)
        best = next(m for m in analysis.moves if m.turn == solution.best)
        assert (best.value, best.plies) == (solution.value, solution.plies)


def test_draw_choice_leaves_fewest_non_losing_replies() -> None:
    rules = QUADS
    rng = random.Random(21)
    checked = 0
    while checked < 3:
        position = play(rules, 7, rng)
        analysis = analyse(position, rules)
        drawing = [m.turn for m in analysis.moves if m.value is Value.DRAW]
        if analysis.value is not Value.DRAW or len(drawing) < 2:
            continue
        counts = {}
        for turn in drawing:
            reply = analyse(position.play(turn), rules)
            counts[turn] = sum(1 for m in reply.moves if m.value is not Value.LOSS)
        solution = solve(position, rules, refine=True)
        assert solution.best in drawing
        assert counts[solution.best] == min(counts.values())
        checked += 1


@pytest.mark.parametrize("name", RULE_SETS)
def test_a_value_only_solve_gives_the_value_and_a_turn_of_that_value(name: str) -> None:
    rules = Rules.parse(name)
    rng = random.Random(f"value-only {name}")
    values = set()
    for empties in (5, 6, 7, 8):
        for hand in (True, False):
            position = play(rules, empties, rng, hand=hand)
            analysis = analyse(position, rules)
            quick = solve(position, rules, distance=False)
            assert quick.value is analysis.value
            assert quick.complete
            values.add(quick.value)
            if quick.value is Value.DRAW:
                continue
            assert quick.plies is None
            chosen = next(m for m in analysis.moves if m.turn == quick.best)
            assert chosen.value is quick.value
    assert Value.WIN in values


def _solver_threads_started(run: Callable[[], object]) -> list[str]:
    """The names of the threads that ``run()`` started (a thread that is not yet
    registered when it first runs Python reads as ``Dummy-N``)."""
    started: list[str] = []
    threading.setprofile(lambda *_: started.append(threading.current_thread().name))
    try:
        run()
    finally:
        threading.setprofile(None)  # type: ignore[arg-type]
    return sorted(set(started))


@pytest.mark.parametrize("name", RULE_SETS)
def test_a_small_solve_on_the_calling_thread_is_the_workers_solve(name: str) -> None:
    """Without progress reports a small solve on one thread runs its searches on the
    calling thread; with them, on a worker thread: the same answers, the same nodes."""
    rules = Rules.parse(name)
    rng = random.Random(f"calling thread {name}")
    reports: list[Progress] = []
    for empties in (4, 7, 9, 10, 11):
        position = play(rules, empties, rng, hand=empties != 9)
        for options in ({}, {"nodes": 3_000}, {"refine": True}, {"distance": False}):
            alone = solve(position, rules, threads=1, **options)  # type: ignore[arg-type]
            worker = solve(position, rules, threads=1, progress=reports.append,
                           **options)  # type: ignore[arg-type]
            assert (alone.value, alone.plies, alone.best, alone.nodes, alone.complete) == (
                worker.value, worker.plies, worker.best, worker.nodes, worker.complete)
        alone_analysis = analyse(position, rules, threads=1)
        worker_analysis = analyse(position, rules, threads=1, progress=reports.append)
        assert alone_analysis.moves == worker_analysis.moves
        assert alone_analysis.nodes == worker_analysis.nodes
    assert reports  # the worker's solves did report
    position = play(rules, 10, rng)
    assert _solver_threads_started(lambda: analyse(position, rules, threads=1)) == []
    on_worker = _solver_threads_started(
        lambda: analyse(position, rules, threads=1, progress=reports.append))
    assert any(name.startswith("quads-solver") for name in on_worker)
    larger = play(rules, THREADS_MIN_EMPTIES, rng)  # too large for the calling thread
    assert _solver_threads_started(lambda: solve(larger, rules, threads=1, nodes=20_000))
