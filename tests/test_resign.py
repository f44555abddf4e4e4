"""Resignation: either player gives up, the record says so, and reads back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import CALL_RULE_SETS, RULE_SETS, replay, snapshot
from quads import (
    Game,
    IllegalActionError,
    InvalidRecordError,
    Player,
    Resign,
    Rules,
    Step,
    Termination,
    read_record,
    write_record,
)
from quads.storage.stored import action_text, parse_action


@pytest.mark.parametrize("player", list(Player))
def test_either_player_resigns_whoever_is_to_move(player: Player) -> None:
    game = replay("1. 4 A15")  # the first player is to move
    position = game.position
    game.resign(player)
    assert game.is_over()
    assert game.step is Step.OVER
    assert game.to_move is None
    assert game.legal_actions() == []
    assert game.position == position
    assert game.outcome is not None
    assert game.outcome.termination is Termination.RESIGNATION
    assert game.outcome.winner is player.other
    assert game.outcome.shapes == ()
    assert game.outcome.result == ("0-1" if player is Player.FIRST else "1-0")
    assert game.actions[-1] == Resign(player)


def test_a_resignation_is_undone_like_any_action() -> None:
    game = replay("1. 4 A15")
    before = game.states
    game.resign(Player.SECOND)
    assert game.undo() == Resign(Player.SECOND)
    assert game.states == before
    assert not game.is_over()
    game.redo()
    assert game.outcome is not None
    assert game.outcome.winner is Player.FIRST


def test_a_finished_game_cannot_be_resigned() -> None:
    game = replay("1. 4 A15 2. B16 C17 3. D1!")
    seen = snapshot(game)
    with pytest.raises(IllegalActionError, match="cannot resign first: the game is over"):
        game.resign(Player.FIRST)
    game_resigned = replay("1. 4")
    game_resigned.resign(Player.SECOND)
    with pytest.raises(IllegalActionError, match="the game is over"):
        game_resigned.resign(Player.FIRST)
    assert snapshot(game) == seen


def test_a_resignation_names_a_player() -> None:
    with pytest.raises(TypeError, match="names a Player"):
        Resign("first")  # type: ignore[arg-type]


def test_a_resignation_is_not_among_the_legal_moves() -> None:
    # Players, perft and the solver walk the legal actions: giving up is no move.
    game = Game()
    assert not any(isinstance(action, Resign) for action in game.legal_actions())


def test_a_resigned_record_says_the_winner_and_the_termination() -> None:
    game = replay("1. 4 A15 2. B1")
    game.resign(Player.SECOND)
    text = write_record(game)
    assert text == ('[Rules "quads"]\n[Result "1-0"]\n[Termination "resignation"]\n\n'
                    "1. 4 A15 2. B1 1-0\n")
    again = read_record(text)
    assert again.actions == game.actions
    assert again.states == game.states
    assert write_record(again) == text


def test_a_termination_header_is_written_from_the_game_only() -> None:
    game = replay("1. 4 A15")
    game.headers["Termination"] = "resignation"
    assert "Termination" not in write_record(game)


@pytest.mark.parametrize(("termination", "loser"), [
    ("first player resigned", Player.FIRST), ("second player resigned", Player.SECOND)])
def test_records_of_earlier_versions_read_as_resigned(termination: str, loser: Player) -> None:
    old = f'[Result "*"]\n[Termination "{termination}"]\n\n1. 4 A15 *\n'
    game = read_record(old)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.RESIGNATION
    assert game.outcome.winner is loser.other
    assert "Termination" not in game.headers
    assert '[Termination "resignation"]' in write_record(game)


@pytest.mark.parametrize(("record", "message"), [
    ('[Result "*"]\n[Termination "resignation"]\n\n1. 4 *\n', "needs the result 1-0 or 0-1"),
    ('[Result "1/2-1/2"]\n[Termination "resignation"]\n\n1. 4 1/2-1/2\n',
     "needs the result 1-0 or 0-1"),
    ('[Result "1-0"]\n[Termination "time forfeit"]\n\n1. 4 1-0\n', "Termination 'time forfeit'"),
    ('[Result "1-0"]\n[Termination "resignation"]\n\n1. 4 A15 2. B16 C17 3. D1! 1-0\n',
     "the game ended by the rules"),
    ('[Result "1-0"]\n\n1. 4 A15 1-0\n', "says '1-0' but the game's result is '\\*'"),
    ('[Result "0-1"]\n[Termination "resignation"]\n\n1. 4 A15 1-0\n', "says '0-1'"),
    ('[Result "0-1"]\n[Termination "first player resigned"]\n\n1. 4 A15 1-0\n', "says '1-0'"),
])
def test_a_resignation_that_does_not_fit_is_refused(record: str, message: str) -> None:
    with pytest.raises(InvalidRecordError, match=message):
        read_record(record)


@given(rules=st.sampled_from(RULE_SETS + CALL_RULE_SETS),
       choices=st.lists(st.integers(0, 200), max_size=24),
       loser=st.sampled_from(list(Player)))
def test_any_game_resigned_at_any_moment_reads_back(rules: str, choices: list[int],
                                                    loser: Player) -> None:
    game = Game(Rules.parse(rules))
    for choice in choices:
        if game.is_over():
            break
        legal = game.legal_actions()
        game.apply(legal[choice % len(legal)])
    if game.is_over():
        game.undo()  # resign just before the end instead
    game.resign(loser)
    again = read_record(write_record(game))
    assert again.actions == game.actions
    assert again.states == game.states
    assert again.outcome == game.outcome
    assert [parse_action(action_text(action)) for action in game.actions] == list(game.actions)
