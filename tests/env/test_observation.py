"""The observation vector says what the position says."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st
from tests.env.env_helpers import RULE_SETS

from quads import CLASSIC, QUADS, Game, Rules
from quads.env.observation import (
    BOARD,
    CALLS,
    HAND,
    OBSERVATION_SIZE,
    RULES,
    SUPPLY,
    encode,
    observation_space,
)


def test_the_parts_tile_the_vector() -> None:
    parts = [BOARD, HAND, SUPPLY, CALLS, RULES]
    assert parts[0].start == 0
    assert parts[-1].stop == OBSERVATION_SIZE == 109
    for before, after in itertools.pairwise(parts):
        assert before.stop == after.start
    assert observation_space().shape == (OBSERVATION_SIZE,)


@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULE_SETS))
def test_every_moment_of_a_random_game_is_encoded_faithfully(seed: int, rules: str) -> None:
    rng = random.Random(seed)
    game = Game(Rules.parse(rules))
    space = observation_space()
    while True:
        vector = encode(game.state, game.rules)
        assert space.contains(vector)
        position = game.position
        board = vector[BOARD].reshape(16, 5)
        for cell in range(16):
            piece = position.piece_at(cell)
            expected = [0, 0, 0, 0, 1] if piece is None else [
                piece >> bit & 1 for bit in range(4)] + [0]
            assert board[cell].tolist() == expected
        hand = position.hand
        assert vector[HAND].tolist() == ([0, 0, 0, 0, 1] if hand is None else [
            hand >> bit & 1 for bit in range(4)] + [0])
        assert [piece for piece in range(16) if vector[SUPPLY][piece]] == [
            piece for piece in range(16)
            if piece not in position.board.values() and piece != hand]
        assert vector[CALLS].tolist() == [int(game.can_declare()), int(game.can_claim())]
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))


def test_the_rule_set_is_part_of_the_vector() -> None:
    def rules_of(rules: Rules) -> list[int]:
        return encode(Game(rules).state, rules)[RULES].tolist()

    assert rules_of(QUADS) == [1, 1, 1, 1, 1, 0]
    assert rules_of(CLASSIC) == [1, 1, 1, 1, 0, 1]
    assert rules_of(Rules.parse("lines:color,top:auto")) == [1, 0, 1, 0, 0, 0]
    assert rules_of(Rules.parse("lines+squares:height:declare")) == [0, 0, 0, 1, 1, 1]


def test_under_false_calls_that_cost_the_calls_are_told_where_they_may_be_made() -> None:
    """Under free false calls the call bits say whether a call would win; where a false
    call costs something they say where one may be made, win or not."""
    free, losing = Game(CLASSIC), Game(Rules.parse("classic:losing-calls"))
    for game in (free, losing):
        game.give(4)
        game.place(0)  # completes nothing
    assert encode(free.state, free.rules)[CALLS].tolist() == [0, 0]
    assert encode(losing.state, losing.rules)[CALLS].tolist() == [1, 0]
    for game in (free, losing):
        game.give(5)
    assert encode(losing.state, losing.rules)[CALLS].tolist() == [0, 1]
    assert encode(free.state, free.rules)[CALLS].tolist() == [0, 0]
