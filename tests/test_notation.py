"""Record tokens: what each token stands for, and the marks checked against the board."""

from __future__ import annotations

import pytest

from helpers import replay
from quads import (
    Claim,
    Declare,
    Decline,
    Game,
    GameState,
    Give,
    InvalidRecordError,
    Place,
    Rules,
    parse_cell,
)
from quads.notation import parse_token, write_tokens

A1, D1, D4 = parse_cell("A1"), parse_cell("D1"), parse_cell("D4")
ROW_1 = "1. 4 A15 2. B16 C17 3. D1"
SIXTEENTH = (
    "1. C A1B 2. B1F C10 3. D16 A2A 4. B28 C23 5. D29 A34 6. B31 C32 7. D37 A4E 8. B45 "
    "C4D 9. D4"
)


def state_of(moves: str, rules: str = "quads") -> tuple[GameState, Rules]:
    game = replay(moves, rules)
    return game.state, game.rules


def tokens(game: Game) -> list[str]:
    return write_tokens(game.states, game.actions)


@pytest.mark.parametrize(
    ("moves", "rules", "token", "actions"),
    [
        ("", "quads", "7", [Give(7)]),
        ("", "quads", "a", [Give(0xA)]),
        ("1. 7", "quads", "A1F", [Place(A1), Give(0xF)]),
        ("1. 7", "quads", "a1f", [Place(A1), Give(0xF)]),
        ("1. 4 A15 2. B16 C17", "quads", "D1!", [Place(D1)]),
        ("1. 4 A15 2. B16 C17", "classic", "D1!", [Place(D1), Declare()]),
        ("1. 4 A15 2. B16 C17", "classic", "D1?8", [Place(D1), Give(8)]),
        (ROW_1 + "?8", "classic", "!", [Claim()]),
        (SIXTEENTH[:-2], "classic", "D4?", [Place(D4), Decline()]),
        (SIXTEENTH[:-2], "classic", "D4!", [Place(D4), Declare()]),
        (SIXTEENTH[:-2], "lines:height", "D4", [Place(D4)]),
    ],
)
def test_parse_token(moves: str, rules: str, token: str, actions: list[object]) -> None:
    state, parsed_rules = state_of(moves, rules)
    assert parse_token(token, state, parsed_rules, last=False) == actions
    assert parse_token(token, state, parsed_rules, last=True) == actions


def test_a_placement_alone_may_only_end_the_move_text() -> None:
    state, rules = state_of("1. 7")
    assert parse_token("A1", state, rules, last=True) == [Place(A1)]
    with pytest.raises(InvalidRecordError, match="must be followed by the piece handed over"):
        parse_token("A1", state, rules, last=False)


def test_a_pending_declaration_may_end_the_move_text() -> None:
    state, rules = state_of("1. 4 A15 2. B16 C17", "classic")
    assert parse_token("D1", state, rules, last=True) == [Place(D1)]
    with pytest.raises(InvalidRecordError, match="write D1! to declare or D1\\?8"):
        parse_token("D18", state, rules, last=True)


@pytest.mark.parametrize(
    ("moves", "rules", "token", "why"),
    [
        ("", "quads", "A17", "a piece must be handed over here"),
        ("", "quads", "!", "no missed declaration to claim"),
        ("1. 7", "quads", "3", "piece 7 must be placed here"),
        ("1. 7", "quads", "A1!", "completes no winning shape; drop the '!'"),
        ("1. 7", "quads", "A1?3", "completes no winning shape; drop the '\\?'"),
        ("1. 7", "classic", "A1!", "completes no winning shape"),
        ("1. 7", "quads", "!3", "the mark '!' follows a placement"),
        ("1. 7", "quads", "?", "the mark '\\?' follows a placement"),
        ("1. 7", "quads", "A1F3", "expected a cell and a piece"),
        ("1. 7", "quads", "E1F", "expected a cell and a piece"),
        ("1. 7", "quads", "", "expected a cell and a piece"),
        ("1. 4 A15 2. B16 C17", "quads", "D1", "this placement wins; write D1!"),
        ("1. 4 A15 2. B16 C17", "quads", "D1?8", "no piece can follow"),
        ("1. 4 A15 2. B16 C17", "quads", "D1?", "this placement wins; write D1!"),
        ("1. 4 A15 2. B16 C17", "quads", "D1!8", "no piece can follow"),
        ("1. 4 A15 2. B16 C17", "classic", "D18", "this placement completes row 1"),
        ("1. 4 A15 2. B16 C17", "classic", "D1!8", "a declaration ends the game"),
        ("1. 4 A15 2. B16 C17", "classic", "D1?", "followed by the piece handed over"),
        (ROW_1 + "!", "quads", "8", "the game is already over"),
        (ROW_1 + "?8 A3", "classic", "!", "no missed declaration to claim"),
    ],
)
def test_marks_are_checked_against_the_board(moves: str, rules: str, token: str, why: str) -> None:
    state, parsed_rules = state_of(moves, rules)
    with pytest.raises(InvalidRecordError, match=why) as info:
        parse_token(token, state, parsed_rules, last=True)
    assert repr(token) in str(info.value)


def test_a_piece_after_the_sixteenth_is_refused_when_played() -> None:
    with pytest.raises(InvalidRecordError, match="token 'D4\\?5': cannot give 5"):
        replay(SIXTEENTH + "?5", "classic")


def test_write_tokens() -> None:
    assert tokens(replay("1. 7 a1f 2. b2")) == ["7", "A1F", "B2"]
    assert tokens(replay(ROW_1 + "!")) == ["4", "A15", "B16", "C17", "D1!"]
    assert tokens(replay(ROW_1 + "!", "classic")) == ["4", "A15", "B16", "C17", "D1!"]
    assert tokens(replay(ROW_1 + "?8 !", "classic")) == ["4", "A15", "B16", "C17", "D1?8", "!"]
    assert tokens(replay(ROW_1, "classic")) == ["4", "A15", "B16", "C17", "D1"]
    assert tokens(replay(SIXTEENTH + "?", "classic"))[-1] == "D4?"
    assert tokens(replay(SIXTEENTH + "!", "classic"))[-1] == "D4!"
    assert tokens(replay(SIXTEENTH, "lines:height:declare"))[-1] == "D4"
    assert tokens(Game()) == []


def test_write_tokens_after_a_game_object_plays() -> None:
    game = Game(Rules.parse("classic"))
    for action in (Give(4), Place(0), Give(5), Place(1), Give(6), Place(2), Give(7), Place(3)):
        game.apply(action)
    assert tokens(game) == ["4", "A15", "B16", "C17", "D1"]
    game.give(8)
    game.claim()
    assert tokens(game) == ["4", "A15", "B16", "C17", "D1?8", "!"]
