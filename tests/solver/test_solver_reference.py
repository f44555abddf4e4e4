"""The solver agrees with a simple independent solver on small positions."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests.solver.solver_helpers import RULE_SETS, board_of, max_empties, play
from tests.solver.solver_reference import WIN, Reference

from budget import examples
from quads.position import Position
from quads.rules import Rules
from quads.solver import analyse, solve
from quads.solver.kernel import load_kernel
from quads.solver.root import Node
from quads.solver.symmetry import board_symmetries
from quads.solver.value import score_of


def reference(rules: Rules) -> Reference:
    """A fresh reference solver (its cache lives as long as one example)."""
    return Reference(rules.shapes.value == "lines+squares", rules.traits)


def reference_score(position: Position, rules: Rules) -> int:
    ref = reference(rules)
    if position.hand is None:
        return ref.hand_over_value(board_of(position))
    return ref.value(board_of(position), position.hand)


@st.composite
def positions(draw: st.DrawFn, hand: bool = True) -> tuple[Position, Rules]:
    rules = Rules.parse(draw(st.sampled_from(RULE_SETS)))
    most = max_empties(rules) if hand else max_empties(rules) - 1
    least = 1 if hand else 2
    # mostly the larger positions, where the search has work to do
    empties = draw(st.integers(max(least, most - 2), most) | st.integers(least, most))
    rng = draw(st.randoms(use_true_random=False))
    return play(rules, empties, random.Random(rng.getrandbits(64)), hand=hand), rules


@settings(max_examples=examples(12))
@given(positions())
def test_solve_agrees_with_reference(case: tuple[Position, Rules]) -> None:
    position, rules = case
    solution = solve(position, rules, refine=False)
    assert solution.complete
    assert score_of(solution.value, solution.plies) == reference_score(position, rules)


@settings(max_examples=25)
@given(positions(hand=False))
def test_solve_agrees_with_reference_when_handing_over_first(
    case: tuple[Position, Rules],
) -> None:
    position, rules = case
    assert position.hand is None
    solution = solve(position, rules)
    assert score_of(solution.value, solution.plies) == reference_score(position, rules)


@settings(max_examples=25)
@given(positions())
def test_best_turn_achieves_the_value(case: tuple[Position, Rules]) -> None:
    position, rules = case
    solution = solve(position, rules)
    assert solution.best is not None
    ref = reference(rules)
    board = board_of(position)
    turn = solution.best
    best_score = ref.turn_score(board, position.hand, turn.place, turn.give)
    assert best_score == score_of(solution.value, solution.plies)


@settings(max_examples=25)
@given(positions())
def test_analyse_agrees_with_reference_turn_by_turn(case: tuple[Position, Rules]) -> None:
    position, rules = case
    analysis = analyse(position, rules)
    assert analysis.complete
    ref = reference(rules)
    board = board_of(position)
    for move in analysis.moves:
        expected = ref.turn_score(board, position.hand, move.turn.place, move.turn.give)
        assert score_of(move.value, move.plies) == expected, move


@settings(max_examples=examples(20))
@given(positions(), st.booleans())
def test_kernel_with_table_and_canonical_keys_everywhere(
    case: tuple[Position, Rules], pure: bool
) -> None:
    """Probe the table and use canonical keys from 3 empty cells on, so that small
    positions exercise the code that normally runs only on large ones."""
    position, rules = case
    assert position.hand is not None
    # The kernel searches only positions where the hand cannot win at once.
    assume(not position.winning_cells(position.hand, rules) and position.empty_count >= 2)
    kernel = load_kernel(pure=True if pure else None)
    engine = kernel.engine(rules.shape_masks, rules.traits, board_symmetries(rules.shape_masks),
                           1 << 8, 3, 3, 4)
    node = Node.of(position, 0)
    expected = reference_score(position, rules)
    for window in ((-WIN, WIN), (-1, 1), (0, 1), (-1, 0)):
        score = engine.search(kernel.control(), node.occupied, node.cells, node.hand,
                              node.supply, 0, *window)
        assert score is not None
        low, high = window
        if low < expected < high:
            assert score == expected
        elif expected <= low:
            assert score <= low
        else:
            assert score >= high
