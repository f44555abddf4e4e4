"""What a false call costs: ``free-calls``, ``forfeit-calls`` and ``losing-calls``.

A call with nothing to call is a declaration after a placement that completed no
winning shape, or a claim when the opponent missed none.  Free, it is refused and
answers whether there was a win; otherwise it is a move of the game, written ``x``.
"""

from __future__ import annotations

import pytest

from helpers import replay
from quads import (
    CLASSIC,
    Claim,
    Declare,
    FalseCalls,
    Game,
    IllegalActionError,
    InvalidRecordError,
    InvalidRulesError,
    Outcome,
    Player,
    Rules,
    Step,
    Termination,
    parse_cell,
    read_record,
    write_record,
)

QUIET = "1. 4 A15 2. B16"
"""Two placements that complete nothing: the second player holds 6, before placing."""

ROW_1 = "1. 4 A15 2. B16 C17 3. D1"
"""The first player places 7 on D1 and completes row 1."""


# -- the rule sets -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "expected"), [
    ("classic", FalseCalls.FREE),
    ("classic:forfeit-calls", FalseCalls.FORFEIT),
    ("losing-calls:advanced", FalseCalls.LOSING),
    ("lines:color:declare:losing-calls", FalseCalls.LOSING),
    ("declare:free-calls", FalseCalls.FREE),
])
def test_the_false_calls_are_part_of_the_rule_sets_name(name: str,
                                                        expected: FalseCalls) -> None:
    rules = Rules.parse(name)
    assert rules.false_calls is expected
    assert Rules.parse(rules.name) == rules
    assert (expected.value in rules.name) == (expected is not FalseCalls.FREE)


@pytest.mark.parametrize("name", ["quads:losing-calls", "lines:auto:forfeit-calls",
                                  "classic:losing-calls:forfeit-calls", "losing-calls"])
def test_false_calls_that_cost_need_declare_calling_and_are_said_once(name: str) -> None:
    with pytest.raises(InvalidRulesError):
        Rules.parse(name)


# -- free ----------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [Declare(), Claim()], ids=str)
def test_a_free_false_call_is_refused_and_changes_nothing(action: Declare | Claim) -> None:
    game = replay(QUIET + " C1" if isinstance(action, Declare) else QUIET, "classic")
    before = game.states
    with pytest.raises(IllegalActionError, match="cannot"):
        game.apply(action)
    assert game.states == before
    assert Declare() not in game.legal_actions()
    assert Claim() not in game.legal_actions()


# -- forfeit -------------------------------------------------------------------------------


def test_a_false_declaration_forfeits_the_callers_next_claim() -> None:
    game = replay("1. 4 A15 2. B16 C1", "classic:forfeit-calls")
    assert game.is_declare_moment()
    assert Declare() in game.legal_actions()  # offered whether or not it would win
    assert not game.can_declare()
    game.declare()
    assert not game.is_over()
    assert game.to_move is Player.SECOND
    assert not game.is_declare_moment()
    with pytest.raises(IllegalActionError, match="forfeited") as refused:
        game.declare()
    assert refused.value.reason == "calls_forfeited"
    # The first player misses row 1 on D1 and hands over: the second player, who
    # forfeited this claim, cannot take it, and the row dies with the placement.
    game.give(7)
    game.place(parse_cell("D1"))
    assert game.can_declare()
    game.give(8)
    assert game.state.claimable
    assert not game.is_claim_moment()
    assert not game.can_claim()
    assert Claim() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="forfeited"):
        game.claim()
    game.place(parse_cell("A2"))
    assert game.is_declare_moment()  # the forfeit is over with the placement
    assert write_record(game).splitlines()[-1] == "1. 4 A15 2. B16 C1x7 3. D1?8 A2 *"


def test_a_false_claim_forfeits_the_declaration_of_this_turn() -> None:
    game = replay("1. 4 A15 2. B16 C17", "classic:forfeit-calls")
    assert game.is_claim_moment()
    assert not game.can_claim()
    game.claim()
    assert game.state.forfeit is not None
    game.place(parse_cell("D1"))  # completes row 1, but the caller may not declare it
    assert game.state.declarable
    assert not game.can_declare()
    assert not game.is_declare_moment()
    assert Declare() not in game.legal_actions()
    game.give(8)
    assert game.can_claim()  # the opponent may claim the row the caller could not call
    game.claim()
    assert game.outcome == Outcome(Termination.CLAIM, Player.SECOND, game.outcome.shapes,
                                   game.outcome.traits)
    text = write_record(game)
    assert text.splitlines()[-1] == "1. 4 A15 2. B16 C17 3. xD1?8 ! 0-1"
    assert read_record(text).states == game.states


# -- losing --------------------------------------------------------------------------------


@pytest.mark.parametrize(("moves", "action", "token"), [
    ("1. 4 A15 2. B16 C1", Declare(), "C1x"),
    ("1. 4 A15 2. B16", Claim(), "x"),
])
def test_a_losing_false_call_loses_the_game(moves: str, action: Declare | Claim,
                                            token: str) -> None:
    game = replay(moves, "classic:losing-calls")
    caller = game.to_move
    assert caller is not None
    game.apply(action)
    assert game.outcome == Outcome(Termination.FALSE_CALL, caller.other)
    assert game.outcome.describe() == (
        f"the {caller.identifier} player called a win that was not there")
    text = write_record(game)
    assert text.splitlines()[-1].split()[-2] == token
    assert read_record(text).outcome == game.outcome


def test_a_true_call_still_wins_under_losing_calls() -> None:
    game = replay(ROW_1, "classic:losing-calls")
    game.declare()
    assert game.outcome is not None
    assert game.outcome.termination is Termination.DECLARATION


def test_a_call_is_only_made_at_its_moment_whatever_it_costs() -> None:
    # The first hand-over of a game follows no placement: nothing can be called there.
    game = Game(CLASSIC.with_false_calls(FalseCalls.LOSING))
    assert game.step is Step.GIVE
    assert Declare() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="no placement was just made"):
        game.declare()
    game.give(4)
    with pytest.raises(IllegalActionError, match="no placement just before"):
        game.claim()
    assert not game.is_over()


@pytest.mark.parametrize(("record", "reason"), [
    ('[Rules "classic"]\n\n1. 4 A15 2. B16 C1x7 *\n', "nothing_to_declare"),
    ('[Rules "classic:forfeit-calls"]\n\n1. 4 A15 2. B16 C17 3. D1x8 *\n', "mark_win"),
    ('[Rules "classic:forfeit-calls"]\n\n1. 4 A15 2. B16 C17 3. D1?8 xA2 *\n', "claim_wins"),
    ('[Rules "classic:losing-calls"]\n\n1. 4 A15 2. B16 C1x7 *\n', "piece_after_end"),
])
def test_a_record_whose_false_call_the_rules_contradict_is_refused(record: str,
                                                                   reason: str) -> None:
    with pytest.raises(InvalidRecordError) as refused:
        read_record(record)
    assert refused.value.reason == reason
