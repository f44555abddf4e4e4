"""A player's mistakes as exercises (quads.mistakes): exactly the turns the review
says threw away a win or a draw, as a whole turn or as the hand-over alone when the
placement kept the value; every turn that keeps the value is right, checked against
the solver's own values."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quads import Position, Rules
from quads.book import analyse_with_book
from quads.game import Game
from quads.mistakes import exercises
from quads.outcome import Player
from quads.review import review
from quads.solver import Value
from quads.solver.symmetry import (
    board_symmetries,
    trait_transforms,
    transform_position,
    transform_turn,
)
from quads.turn import Turn

QUADS = Rules.parse("quads")
WON = Position.from_string("A0../1F.D/27../4.BC 8")
"""The first player to move wins: at B4 handing over 6, and there only."""


def _values(position: Position) -> dict[Turn, Value]:
    analysis, _ = analyse_with_book(position, QUADS)
    return {move.turn: move.value for move in analysis.moves}


def test_a_bad_piece_after_a_good_cell_is_a_hand_over_exercise() -> None:
    game = Game(QUADS, WON)
    game.play(Turn.parse("B43"))
    (exercise,) = exercises(game)
    assert (exercise.kind, exercise.keep, exercise.player) == ("give", "win", Player.FIRST)
    assert exercise.position == WON.place(Turn.parse("B43").place)  # type: ignore[arg-type]
    assert exercise.right == (Turn.parse("6"),)
    assert exercise.is_right(Turn.parse("6"))
    assert exercise.is_right(Turn.parse("D16"))  # only the piece counts there
    assert not exercise.is_right(exercise.played)


def test_a_bad_cell_is_a_whole_turn_exercise() -> None:
    game = Game(QUADS, WON)
    game.play(Turn.parse("C16"))  # no piece saves a win after this cell
    (exercise,) = exercises(game)
    assert (exercise.kind, exercise.keep, exercise.position) == ("turn", "win", WON)
    values = _values(WON)
    assert set(exercise.right) == {turn for turn, value in values.items()
                                   if value is Value.WIN}
    assert Turn.parse("B46") in exercise.right
    assert not exercise.is_right(Turn.parse("C16"))
    assert not exercise.is_right(Turn.parse("B43"))


def test_only_the_player_asked_for() -> None:
    game = Game(QUADS, WON)
    game.play(Turn.parse("C16"))
    assert [e.player for e in exercises(game, Player.FIRST)] == [Player.FIRST]
    assert exercises(game, Player.SECOND) == []


@settings(max_examples=8)
@given(st.integers(0, 2**32 - 1))
def test_the_exercises_are_the_review_s_mistakes(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(QUADS)
    while game.position.empty_count > 7 and game.outcome is None:
        game.apply(rng.choice(game.legal_actions()))
    start = game.position
    if game.outcome is not None:
        return
    game = Game(QUADS, start)  # the game from there on, played at random
    while game.outcome is None:
        game.apply(rng.choice(game.legal_actions()))
    reviewed = review(game)
    found = exercises(game, reviewed=reviewed)
    thrown = [turn for turn in reviewed if turn.threw_away is not None]
    assert [e.ply for e in found] == [turn.ply for turn in thrown]
    for exercise, turn in zip(found, thrown, strict=True):
        assert exercise.keep == turn.threw_away
        assert exercise.player is turn.player
        kept = {"win": Value.WIN, "draw": Value.DRAW}[exercise.keep]
        values = _values(exercise.position)
        assert exercise.right
        assert set(exercise.right) == {t for t, value in values.items() if value is kept}
        assert not exercise.is_right(exercise.played)


@pytest.mark.parametrize("text", ["B46", "D16"])
def test_a_game_without_a_mistake_has_no_exercise(text: str) -> None:
    game = Game(QUADS, WON)
    game.play(Turn.parse(text))
    mistakes = exercises(game, Player.FIRST)
    assert (mistakes == []) is (_values(WON)[Turn.parse(text)] is Value.WIN)


def test_the_same_mistake_on_a_mirrored_board_is_the_same_exercise() -> None:
    mirror = board_symmetries(QUADS.shape_masks)[1]
    mirrored = transform_position(WON, mirror, trait_transforms(QUADS.traits)[0])
    played = transform_turn(Turn.parse("B43"), mirror, trait_transforms(QUADS.traits)[0])
    one, other = Game(QUADS, WON), Game(QUADS, mirrored)
    one.play(Turn.parse("B43"))
    other.play(played)
    (first,), (second,) = exercises(one), exercises(other)
    assert first.position != second.position
    assert first.key == second.key
    different = Game(QUADS, WON)
    different.play(Turn.parse("C16"))
    assert exercises(different)[0].key != first.key
