"""The compiled kernel and the pure-Python fallback run the same search."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from tests.solver.solver_helpers import RULE_SETS, play

from quads.rules import Rules
from quads.solver import analyse, compiled_available, solve
from quads.solver.kernel import PURE_ENV, load_kernel
from quads.solver.root import Node
from quads.solver.symmetry import board_symmetries

needs_compiled = pytest.mark.skipif(not compiled_available(), reason="kernel not compiled")


@needs_compiled
@pytest.mark.parametrize("name", RULE_SETS)
def test_same_scores_nodes_and_moves(name: str) -> None:
    rules = Rules.parse(name)
    rng = random.Random(name)
    engines = []
    for kernel in (load_kernel(pure=False), load_kernel(pure=True)):
        engine = kernel.engine(rules.shape_masks, rules.traits,
                               board_symmetries(rules.shape_masks), 1 << 10, 5, 7, 6)
        engines.append((kernel, engine))
    for _ in range(4):
        position = play(rules, rng.randrange(5, 10), rng)
        if position.winning_cells(position.hand or 0, rules):
            continue
        node = Node.of(position, 0)
        results = []
        for kernel, engine in engines:
            control = kernel.control()
            scores = [engine.search(control, node.occupied, node.cells, node.hand, node.supply,
                                    0, alpha, beta)
                      for alpha, beta in ((-1, 1), (0, 1), (-100, 100))]
            moves = engine.moves(node.occupied, node.cells, node.hand, node.supply)
            keys = [engine.key(node.occupied, node.cells, node.hand, canon)
                    for canon in (False, True)]
            results.append((scores, control.nodes, moves, keys))
        assert results[0] == results[1]


@needs_compiled
def test_solve_and_analyse_agree() -> None:
    rng = random.Random(7)
    for name in ("quads", "classic", "lines:color,top"):
        rules = Rules.parse(name)
        for hand in (True, False):
            position = play(rules, 8, rng, hand=hand)
            fast = solve(position, rules, pure=False, threads=1)
            slow = solve(position, rules, pure=True)
            assert (fast.value, fast.plies, fast.best) == (slow.value, slow.plies, slow.best)
            assert fast.nodes == slow.nodes
            assert analyse(position, rules, pure=False).moves == analyse(
                position, rules, pure=True).moves


def test_environment_variable_forces_the_fallback() -> None:
    code = ("from quads.solver.kernel import load_kernel; "
            "from quads.solver import solve; from quads import Position, QUADS; "
            "print(load_kernel().name, solve(Position.from_string("
            "'0.../1.../2.../.... 3'), QUADS).value.value)")
    env = {**os.environ, PURE_ENV: "1"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, check=True, timeout=60)
    assert result.stdout.split() == ["pure", "win"]


def test_pure_kernel_can_be_chosen() -> None:
    assert load_kernel(pure=True).name == "pure"
    if compiled_available():
        assert load_kernel(pure=False).compiled
