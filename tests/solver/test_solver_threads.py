"""Several threads on one search find exactly what one thread finds."""

from __future__ import annotations

import random
import threading
import time

import pytest
from tests.solver.solver_helpers import RULE_SETS, play

from quads.position import Position
from quads.rules import Rules
from quads.solver import analyse, compiled_available, solve
from quads.solver.kernel import load_kernel
from quads.solver.root import Node
from quads.solver.symmetry import board_symmetries
from quads.solver.value import Value
from quads.turn import Turn

pytestmark = pytest.mark.skipif(not compiled_available(), reason="kernel not compiled")

WINDOWS = ((-1, 1), (-1, 0), (0, 1), (-100, 100), (-3, 5), (2, 4))
"""Null windows, the split window (win, draw or loss?) and wide ones."""


def agrees(one: int, many: int, alpha: int, beta: int) -> bool:
    """Whether two fail-soft scores of one window say the same about the node."""
    if one <= alpha:
        return many <= alpha
    if one >= beta:
        return many >= beta
    return many == one


@pytest.mark.parametrize("name", RULE_SETS)
def test_every_window_gives_what_one_thread_gives(name: str) -> None:
    rules = Rules.parse(name)
    rng = random.Random(f"threads {name}")
    kernel = load_kernel(pure=False)
    symmetries = board_symmetries(rules.shape_masks)
    checked = 0
    while checked < 5:
        position = play(rules, rng.randrange(9, 13), rng)
        if position.winning_cells(position.hand or 0, rules):
            continue
        checked += 1
        node = Node.of(position, 0)
        for alpha, beta in WINDOWS:
            scores = []
            for threads in (1, 2, 3):
                # a fresh table each time: nothing learnt by one search helps the next
                engine = kernel.engine(rules.shape_masks, rules.traits, symmetries, 1 << 16,
                                       7, 10, 7)
                score = engine.search(kernel.control(), node.occupied, node.cells, node.hand,
                                      node.supply, 0, alpha, beta, threads)
                assert score is not None
                scores.append(score)
            assert all(agrees(scores[0], s, alpha, beta) for s in scores[1:]), (
                position.to_string(), alpha, beta, scores)


@pytest.mark.parametrize("name", ["quads", "classic", "advanced", "lines:height,color,shape"])
def test_solve_and_analyse_agree_with_one_thread(name: str) -> None:
    rules = Rules.parse(name)
    rng = random.Random(f"solve {name}")
    for empties in (11, 12):  # one thread whatever is asked, then two
        for hand in (True, False):
            position = play(rules, empties, rng, hand=hand)
            one = solve(position, rules, threads=1)
            two = solve(position, rules, threads=2)
            assert (two.value, two.plies) == (one.value, one.plies)
            if one.best is not None:
                assert two.best is not None
                assert value_after(position, rules, two.best) == value_after(
                    position, rules, one.best)
            assert move_values(position, rules, 2) == move_values(position, rules, 1)


def move_values(
    position: Position, rules: Rules, threads: int
) -> dict[Turn, tuple[Value, int | None]]:
    """Every turn's value and distance, analysed with ``threads`` threads."""
    return {m.turn: (m.value, m.plies) for m in analyse(position, rules, threads=threads).moves}


def value_after(position: Position, rules: Rules, turn: Turn) -> tuple[Value, int | None]:
    """The value of one turn, from the analysis of the position (one thread)."""
    return move_values(position, rules, 1)[turn]


def test_stop_ends_a_shared_search_at_once() -> None:
    rules = Rules.parse("classic")
    kernel = load_kernel(pure=False)
    engine = kernel.engine(rules.shape_masks, rules.traits, board_symmetries(rules.shape_masks),
                           1 << 20, 7, 10, 7)
    node = Node.of(Position.from_string("..../..../..../.... 0"), 0)
    control = kernel.control()
    result: list[int | None] = []
    search = threading.Thread(target=lambda: result.append(engine.search(
        control, node.occupied, node.cells, node.hand, node.supply, 0, -1, 1, 2)))
    search.start()
    time.sleep(0.3)
    assert search.is_alive()  # the whole game takes far longer than this
    control.stop()
    search.join(timeout=10)
    assert not search.is_alive()
    assert result == [None]
    assert control.nodes > 0


def test_node_budget_is_shared_by_the_threads() -> None:
    rules = Rules.parse("quads")
    position = Position.from_string("..../..../..../.... 0")
    solution = solve(position, rules, nodes=200_000, threads=2)
    assert not solution.complete
    assert 200_000 <= solution.nodes < 2_000_000


@pytest.mark.parametrize("threads", [0, -1, 65])
def test_thread_count_out_of_range_is_refused(threads: int) -> None:
    rules = Rules.parse("quads")
    kernel = load_kernel(pure=False)
    engine = kernel.engine(rules.shape_masks, rules.traits, board_symmetries(rules.shape_masks),
                           1 << 10, 7, 10, 7)
    with pytest.raises(ValueError, match="out of range"):
        engine.search(kernel.control(), 0, 0, 0, 0xFFFE, 0, -1, 1, threads)
