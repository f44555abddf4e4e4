"""The conformance suite: random games under every preset and several custom rule sets.

Hypothesis plays games to the end through ``legal_actions()`` and checks each
one against the rules as ``naive.py`` spells them out: exactly the legal
actions are accepted; undo and redo are exact; records and position strings
round-trip; the outcome agrees with the final board.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import naive
from helpers import ALL_ACTIONS, CALL_RULE_SETS, RULE_SETS
from quads import (
    EMPTY,
    Claim,
    Declare,
    Decline,
    Game,
    Give,
    IllegalActionError,
    Outcome,
    Place,
    Player,
    Position,
    Rules,
    Step,
    Termination,
    read_record,
    write_record,
)


def play_out(game: Game, choose: st.DataObject | random.Random) -> Game:
    """Play ``game`` to the end, each action chosen among the legal ones."""
    while not game.is_over():
        actions = game.legal_actions()
        if isinstance(choose, random.Random):
            game.apply(choose.choice(actions))
        else:
            game.apply(choose.draw(st.sampled_from(actions), label=str(game.position)))
    return game


def board_of(position: Position) -> naive.Board:
    return tuple(position.piece_at(cell) for cell in range(16))


def cells_of(mask: int) -> tuple[int, ...]:
    return tuple(cell for cell in range(16) if mask >> cell & 1)


# -- the checks -----------------------------------------------------------------------------------


def check_steps(game: Game, variant: naive.Variant) -> None:
    """Every step follows from the one before, as the rules say."""
    rules = game.rules
    assert game.states[0].to_move is Player.FIRST
    assert len(game.states) == len(game.actions) + 1
    for before, action, after in zip(game.states, game.actions, game.states[1:], strict=False):
        assert action in before.legal_actions(rules)
        assert before.apply(action, rules) == after  # states are values; apply is pure
        if isinstance(action, Give):
            assert before.step is Step.GIVE
            assert after.to_move is before.to_move.other
            assert after.position.hand == action.piece
            assert after.position.board == before.position.board
            assert after.claimable == before.declarable  # a declaration missed, or nothing
        elif isinstance(action, Place):
            hand = before.position.hand
            assert hand is not None
            assert after.to_move is before.to_move
            assert after.position.board == {**before.position.board, action.cell: hand}
            shapes = naive.completed(board_of(after.position), action.cell, variant)
            completed = tuple(shape.cells for shape in after.declarable)
            if after.outcome is None:
                assert {cells_of(mask) for mask in completed} == set(shapes)
            else:
                assert completed == ()
        elif after.outcome is None:  # a false call that forfeits the caller's next call
            assert variant.false_calls == "forfeit"
            assert isinstance(action, Declare | Claim)
            assert after.position == before.position
            assert after.to_move is before.to_move
        else:
            assert after.outcome is not None
            assert after.position == before.position
        if not variant.declare:
            assert not isinstance(action, Declare | Claim | Decline)
            assert after.declarable == after.claimable == ()


def check_calls(game: Game, variant: naive.Variant) -> None:
    """Who may call, and when, as the calling rules say: a declaration right after one's
    own placement, a claim before placing a piece handed over right after the
    opponent's placement; a call that finds nothing is refused when false calls are
    free, else a move of the game, which under forfeited calls takes the caller's next
    chance to call (after a false claim this turn's declaration, after a false
    declaration the next claim)."""
    silenced: tuple[Player, str] | None = None  # the caller, and the step that lifts it
    placed_by: Player | None = None  # who made the last placement, while it is fresh
    for index, (before, action) in enumerate(zip(game.states, game.actions, strict=False)):
        mover = before.to_move
        moment = variant.declare and (
            (before.step is Step.GIVE and placed_by is mover)
            or (before.step is Step.PLACE and placed_by is mover.other))
        muted = silenced is not None and silenced[0] is mover
        legal = before.legal_actions(game.rules)
        wins_declare = before.step is Step.GIVE and bool(before.declarable)
        wins_claim = before.step is Step.PLACE and bool(before.claimable)
        costly = variant.false_calls != "free"
        declaring = before.step is Step.GIVE and costly and moment
        claiming = before.step is Step.PLACE and costly and moment
        assert (Declare() in legal) == (not muted and (wins_declare or declaring))
        assert (Claim() in legal) == (not muted and (wins_claim or claiming))
        after = game.states[index + 1]
        if isinstance(action, Declare | Claim) and not (wins_declare or wins_claim):
            if variant.false_calls == "losing":
                assert after.outcome == Outcome(Termination.FALSE_CALL, mover.other)
            else:
                silenced = (mover, "place" if isinstance(action, Declare) else "give")
        if isinstance(action, Place):
            placed_by = mover
            if silenced is not None and silenced == (mover, "place"):
                silenced = None
        elif isinstance(action, Give):
            if silenced is not None and silenced == (mover, "give"):
                silenced = None
            if placed_by is not mover:
                placed_by = None  # a hand-over with no placement before it: no claim


def check_legal_actions(game: Game) -> None:
    """In every state exactly the legal actions are accepted; the others change nothing."""
    for state in game.states:
        legal = state.legal_actions(game.rules)
        assert (legal == []) == (state.outcome is not None)
        assert len(set(legal)) == len(legal)
        for action in ALL_ACTIONS:
            if action in legal:
                state.apply(action, game.rules)
            else:
                with pytest.raises(IllegalActionError):
                    state.apply(action, game.rules)


def check_positions(game: Game, variant: naive.Variant) -> None:
    """Position strings round-trip; wins, danger and safe pieces agree with the naive rules."""
    for state in game.states:
        position = state.position
        text = position.to_string()
        assert Position.from_string(text) == position
        assert Position.from_string(text.lower()).to_string() == text
        board = board_of(position)
        assert naive.parse(text) == (board, position.hand)
        assert position.safe_pieces(game.rules).bit_count() == naive.safe_count(
            board, position.hand, variant
        )
        if position.hand is not None:
            expected = 0
            for cell in range(16):
                if board[cell] is None:
                    after = (*board[:cell], position.hand, *board[cell + 1:])
                    if naive.completed(after, cell, variant):
                        expected |= 1 << cell
            assert position.winning_cells(position.hand, game.rules) == expected


def check_undo_redo(game: Game) -> None:
    """Undoing every action and redoing them all restores the game exactly."""
    states, actions = game.states, game.actions
    texts = [state.position.to_string() for state in states]
    copy = game.copy()
    for index in reversed(range(len(actions))):
        assert copy.undo() == actions[index]
        assert copy.states == states[: index + 1]
        assert copy.position.to_string() == texts[index]
        assert copy.outcome is None
    assert not copy.can_undo()
    for index, action in enumerate(actions):
        assert copy.redo() == action
        assert copy.state == states[index + 1]
    assert not copy.can_redo()
    assert copy.states == states
    assert copy.outcome == game.outcome
    assert write_record(copy) == write_record(game)


def check_record(game: Game) -> None:
    """The record reads back into the same game and writes the same text."""
    text = write_record(game)
    again = read_record(text)
    assert again.rules == game.rules
    assert again.start == game.start
    assert again.actions == game.actions
    assert again.states == game.states
    assert write_record(again) == text


def check_outcome(game: Game, variant: naive.Variant) -> None:
    """The outcome agrees with the board and with the last actions."""
    outcome = game.outcome
    assert outcome is not None
    states, actions = game.states, game.actions
    board = board_of(game.position)
    if outcome.winner is None:
        assert outcome.termination is Termination.FULL_BOARD
        assert outcome.result == "1/2-1/2"
        assert outcome.shapes == ()
        assert outcome.traits == ()
        assert None not in board
        assert sorted(p for p in board if p is not None) == list(range(16))
        last = actions[-1] if actions else None
        if isinstance(last, Decline):  # the sixteenth piece completed a shape, not declared
            assert variant.declare
            assert isinstance(actions[-2], Place)
            assert naive.completed(board, actions[-2].cell, variant)
        elif isinstance(last, Place):
            assert not naive.completed(board, last.cell, variant)
        else:
            assert last is None  # a game that started on a full board
    else:
        assert outcome.result == ("1-0" if outcome.winner is Player.FIRST else "0-1")
        if outcome.termination is Termination.WIN:
            assert not variant.declare
            placement, placer = actions[-1], states[-2].to_move
        elif outcome.termination is Termination.DECLARATION:
            assert variant.declare
            assert isinstance(actions[-1], Declare)
            placement, placer = actions[-2], states[-2].to_move
        elif outcome.termination is Termination.FALSE_CALL:
            assert variant.false_calls == "losing"
            assert isinstance(actions[-1], Declare | Claim)
            assert outcome.winner is states[-2].to_move.other
            assert outcome.shapes == outcome.traits == ()
            if isinstance(actions[-1], Declare):  # the placement before completed nothing
                assert isinstance(actions[-2], Place)
                assert not naive.completed(board, actions[-2].cell, variant)
            return
        else:
            assert outcome.termination is Termination.CLAIM
            assert variant.declare
            assert isinstance(actions[-1], Claim)
            assert isinstance(actions[-2], Give)
            placement, placer = actions[-3], states[-2].to_move.other
            assert outcome.winner is states[-2].to_move  # the receiver
        assert isinstance(placement, Place)
        if outcome.termination is Termination.CLAIM:
            assert outcome.winner is placer.other
        else:
            assert outcome.winner is placer
        groups = naive.completed(board, placement.cell, variant)
        assert [cells_of(shape.cells) for shape in outcome.shapes] == groups
        values: set[tuple[int, int]] = set()
        for group in groups:
            values |= naive.shared(board, group, variant)
        assert {(trait.value, int(value)) for trait, value in outcome.traits} == values
        assert len(outcome.traits) == len(values)
    if not variant.declare:
        # Under auto the game ends with the first full winning shape.
        for state in states[:-1]:
            assert state.position.winning_shapes(game.rules) == ()


def check_game(game: Game, rules: str) -> None:
    variant = naive.VARIANTS[rules]
    check_steps(game, variant)
    check_calls(game, variant)
    check_legal_actions(game)
    check_positions(game, variant)
    check_undo_redo(game)
    check_record(game)
    check_outcome(game, variant)


# -- the suite ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS + CALL_RULE_SETS)
@given(data=st.data())
def test_random_games_from_the_empty_board(rules: str, data: st.DataObject) -> None:
    game = play_out(Game(Rules.parse(rules)), data)
    check_game(game, rules)


@pytest.mark.parametrize("rules", RULE_SETS + CALL_RULE_SETS)
@given(data=st.data())
def test_random_games_from_a_position_reached_in_play(rules: str, data: st.DataObject) -> None:
    first = play_out(Game(Rules.parse(rules)), data)
    cut = data.draw(st.integers(0, len(first.states) - 2), label="start")
    start = first.states[cut].position
    game = play_out(Game(first.rules, start), data)
    assert game.start == start
    assert (write_record(game).count("[Position ") == 1) == (start != EMPTY)
    check_game(game, rules)


@pytest.mark.parametrize("rules", RULE_SETS + CALL_RULE_SETS)
@given(data=st.data())
def test_unfinished_records_round_trip(rules: str, data: st.DataObject) -> None:
    game = play_out(Game(Rules.parse(rules)), data)
    for _ in range(data.draw(st.integers(1, len(game.actions)), label="undone")):
        game.undo()
    check_record(game)
    assert write_record(game).rstrip().endswith("*")


def test_the_random_player_reaches_every_ending() -> None:
    # Guards the suite itself: random play must reach wins, declarations, claims and draws.
    seen: dict[str, set[Termination]] = {rules: set() for rules in RULE_SETS + CALL_RULE_SETS}
    chooser = random.Random(2026)
    for rules in RULE_SETS + CALL_RULE_SETS:
        for _ in range(150):
            outcome = play_out(Game(Rules.parse(rules)), chooser).outcome
            assert isinstance(outcome, Outcome)
            seen[rules].add(outcome.termination)
    for rules in RULE_SETS + CALL_RULE_SETS:
        if naive.VARIANTS[rules].false_calls == "losing":
            assert {Termination.DECLARATION, Termination.FALSE_CALL} <= seen[rules], rules
        elif naive.VARIANTS[rules].declare:
            assert {Termination.DECLARATION, Termination.CLAIM} <= seen[rules], rules
        else:
            assert seen[rules] >= {Termination.WIN}, rules
    assert Termination.FULL_BOARD in set().union(*seen.values())


def test_a_sixteenth_piece_declined_passes_the_checks() -> None:
    game = read_record(
        '[Rules "classic"]\n\n1. C A1B 2. B1F C10 3. D16 A2A 4. B28 C23 5. D29 A34 6. B31 C32 '
        "7. D37 A4E 8. B45 C4D 9. D4? 1/2-1/2\n"
    )
    check_game(game, "classic")


def test_a_game_from_a_full_board_passes_the_checks() -> None:
    game = Game(Rules.parse("classic"), Position.from_string("CBF0/6A83/9412/7E5D -"))
    check_game(game, "classic")

