"""Endings from outside the board: a loss on time, an abandonment (won or drawn), a
draw agreed and an aborted game; each is an action, is undone like one, and a record says it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import CALL_RULE_SETS, RULE_SETS, replay
from quads import (
    Abandon,
    Abort,
    Action,
    Agree,
    Game,
    IllegalActionError,
    InvalidRecordError,
    Player,
    Rules,
    Termination,
    Timeout,
    read_record,
    write_record,
)
from quads.storage.stored import action_text, parse_action

ENDINGS: list[tuple[Action, Termination, Player | None, str]] = [
    (Timeout(Player.FIRST), Termination.TIME, Player.SECOND, "0-1"),
    (Timeout(Player.SECOND), Termination.TIME, Player.FIRST, "1-0"),
    (Abandon(Player.SECOND), Termination.ABANDONMENT, Player.FIRST, "1-0"),
    (Agree(), Termination.AGREEMENT, None, "1/2-1/2"),
    (Abort(), Termination.ABORTED, None, "*"),
]


@pytest.mark.parametrize(("action", "termination", "winner", "result"), ENDINGS)
def test_an_ending_ends_the_game_and_reads_back_from_its_record(
        action: Action, termination: Termination, winner: Player | None, result: str) -> None:
    game = replay("1. 4 A15")
    position = game.position
    game.apply(action)
    assert game.is_over()
    assert game.legal_actions() == []
    assert game.position == position
    assert game.outcome is not None
    assert (game.outcome.termination, game.outcome.winner) == (termination, winner)
    assert game.outcome.result == result
    assert game.resigned is None
    record = write_record(game)
    assert f'[Termination "{termination.value}"]' in record
    assert f'[Result "{result}"]' in record
    again = read_record(record)
    assert again.actions == game.actions
    assert write_record(again) == record
    game.undo()
    assert not game.is_over()
    assert game.position == position
    with pytest.raises(IllegalActionError):
        again.apply(Abort())


def test_an_abandonment_may_be_taken_as_a_draw() -> None:
    game = replay("1. 4 A15")
    assert game.to_move is Player.FIRST
    game.apply(Abandon(Player.FIRST, draw=True))
    assert game.outcome is not None
    assert game.outcome.winner is None
    assert game.outcome.result == "1/2-1/2"
    assert game.outcome.describe() == "a player left the game: drawn"
    again = read_record(write_record(game))
    assert again.actions[-1] == Abandon(Player.FIRST, draw=True)


@pytest.mark.parametrize(("termination", "result"), [
    ("time", "1/2-1/2"), ("time", "*"), ("abandonment", "*"), ("flagged", "1-0"),
    ("aborted", "1-0"),
])
def test_a_record_whose_ending_and_result_disagree_is_refused(termination: str,
                                                              result: str) -> None:
    text = f'[Result "{result}"]\n[Termination "{termination}"]\n\n1. 4 A15 {result}\n'
    with pytest.raises(InvalidRecordError):
        read_record(text)


def test_an_ending_after_the_game_ended_by_the_rules_is_refused() -> None:
    won = write_record(replay("1. 0 A11 2. B12 C13 3. D1!"))
    with pytest.raises(InvalidRecordError, match="ended by the rules"):
        read_record(won.replace('[Result', '[Termination "time"]\n[Result'))


@pytest.mark.parametrize("language", ["en", "de"])
def test_endings_are_described(language: str) -> None:
    for action, _, _, _ in ENDINGS:
        game = replay("1. 4 A15")
        game.apply(action)
        assert game.outcome is not None
        assert game.outcome.describe(language)
    game = Game()
    game.apply(Timeout(Player.SECOND))
    assert game.outcome is not None
    assert game.outcome.describe() == "the second player ran out of time"
    assert game.outcome.describe("de") == "der zweite Spieler hat die Zeit überschritten"


@given(st.sampled_from(RULE_SETS + CALL_RULE_SETS), st.sampled_from([a for a, *_ in ENDINGS]),
       st.data())
def test_endings_are_stored_as_text_and_read_back(rules: str, action: Action,
                                                  data: st.DataObject) -> None:
    assert parse_action(action_text(action)) == action
    game = Game(Rules.parse(rules))
    for _ in range(data.draw(st.integers(0, 12))):
        if game.is_over():
            break
        game.apply(data.draw(st.sampled_from(game.legal_actions())))
    if not game.is_over():
        game.apply(action)
        assert read_record(write_record(game)).outcome == game.outcome


@pytest.mark.parametrize("text", ["timeout", "timeout third", "abandon", "abandon first drawn",
                                  "abort now"])
def test_malformed_stored_endings_are_refused(text: str) -> None:
    from quads.errors import QuadsError

    with pytest.raises(QuadsError):
        parse_action(text)


@pytest.mark.parametrize("result", ["1-0", "0-1", "*"])
def test_a_draw_agreed_needs_a_drawn_result(result: str) -> None:
    with pytest.raises(InvalidRecordError) as refused:
        read_record(f'[Termination "agreement"]\n\n1. 4 A15 {result}\n')
    assert refused.value.reason == "agreement_result"
