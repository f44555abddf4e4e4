"""A StopSignal ends a running solve or analysis from another thread."""

from __future__ import annotations

import threading

import pytest

from quads import QUADS, Position
from quads.solver import StopSignal, Value, analyse, solve

HARD = Position.from_string("..../..../..../.... 1")  # minutes of search without the book


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stop_ends_a_long_solve_as_unknown(threads: int) -> None:
    signal = StopSignal()
    timer = threading.Timer(0.2, signal.stop)
    timer.start()
    solution = solve(HARD, QUADS, threads=threads, table_mb=16, stop=signal)
    timer.join()
    assert signal.stopped
    assert solution.value is Value.UNKNOWN
    assert not solution.complete
    assert solution.nodes > 0  # it did search until then


def test_a_signal_stopped_before_ends_every_later_search_at_once() -> None:
    signal = StopSignal()
    signal.stop()
    analysis = analyse(HARD, QUADS, threads=1, table_mb=16, stop=signal)
    assert analysis.value is Value.UNKNOWN
    assert analysis.nodes < 100_000
    assert all(move.value is Value.UNKNOWN for move in analysis.moves)


def test_an_unused_signal_changes_nothing() -> None:
    position = Position.from_string("..E./C..9/0.3./.5.. 7")
    signal = StopSignal()
    with_signal = solve(position, QUADS, threads=1, stop=signal)
    without = solve(position, QUADS, threads=1)
    assert (with_signal.value, with_signal.plies, with_signal.nodes) == (
        without.value, without.plies, without.nodes)
    signal.stop()  # after the search: nothing left to stop
    assert signal.stopped
