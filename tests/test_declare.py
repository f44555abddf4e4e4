"""Calling the win under ``declare`` (RULES.md, "Calling the win").

Every game here is read from a record: ``D1!`` declares, ``D1?8`` misses the
declaration and hands over 8, ``!`` claims the missed shape.
"""

from __future__ import annotations

import pytest

from helpers import replay, shapes, snapshot
from quads import (
    CLASSIC,
    Claim,
    Declare,
    Decline,
    Game,
    Give,
    IllegalActionError,
    InvalidRecordError,
    Place,
    Player,
    Position,
    Step,
    Termination,
    Trait,
    parse_cell,
)

ROW_1 = "1. 4 A15 2. B16 C17 3. D1"
"""The first player places 7 on D1 and completes row 1: 4 5 6 7, all short and dark."""

DEAD_ROW = "1. 4 A15 2. B16 C17 3. D1?8 A39 4. D30 A21 5. B2"
"""Row 1 is missed and not claimed; later B2 completes the square A1-B2 (short, round)."""

SEVERAL_SHAPES = ".456/81../9.3./A..B D"
"""A1 completes row 1, column A and the diagonal A1-D4, and the square A1-B2 with squares."""

SIXTEENTH = (
    "1. C A1B 2. B1F C10 3. D16 A2A 4. B28 C23 5. D29 A34 6. B31 C32 7. D37 A4E 8. B45 "
    "C4D 9. D4"
)
"""The first player places the sixteenth piece, D, on D4 and completes row 4 (all dark)."""

FIFTEENTH = ".BF0/6A83/9412/7E5. D"
"""D on D4 completes row 4 with the fifteenth piece; C, the last piece, goes on A1."""


# -- the declaration --------------------------------------------------------------------------


def test_completing_a_shape_gives_the_placer_the_right_to_declare() -> None:
    game = replay(ROW_1, "classic")
    assert not game.is_over()
    assert game.step is Step.GIVE
    assert game.to_move is Player.FIRST
    assert game.can_declare()
    assert not game.can_claim()
    assert game.state.declarable == shapes("row1")
    supply = [Give(piece) for piece in range(16) if piece not in (4, 5, 6, 7)]
    assert game.legal_actions() == [Declare(), *supply]


def test_declaring_wins() -> None:
    game = replay(ROW_1 + "! 1-0", "classic")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.DECLARATION
    assert game.outcome.winner is Player.FIRST
    assert game.outcome.shapes == shapes("row1")
    assert game.outcome.traits == ((Trait.HEIGHT, False), (Trait.COLOR, True))
    assert game.legal_actions() == []


def test_declaring_through_the_game_object() -> None:
    game = replay(ROW_1, "classic")
    game.declare()
    assert game.outcome is not None
    assert game.outcome.termination is Termination.DECLARATION
    assert game.actions[-2:] == (Place(parse_cell("D1")), Declare())


def test_the_same_placement_wins_at_once_under_auto() -> None:
    game = replay(ROW_1 + "!", "quads")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.WIN
    assert game.actions[-1] == Place(parse_cell("D1"))


# -- the missed declaration and the claim -----------------------------------------------------


def test_handing_over_without_declaring_misses_the_declaration() -> None:
    game = replay(ROW_1 + "?8", "classic")
    assert not game.is_over()
    assert game.to_move is Player.SECOND
    assert game.step is Step.PLACE
    assert game.can_claim()
    assert not game.can_declare()
    assert game.state.claimable == shapes("row1")
    assert game.state.declarable == ()
    assert game.legal_actions() == [Claim()] + [
        Place(cell) for cell in range(16) if cell not in range(4)
    ]


def test_claiming_wins_for_the_receiver() -> None:
    game = replay(ROW_1 + "?8 ! 0-1", "classic")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.CLAIM
    assert game.outcome.winner is Player.SECOND
    assert game.outcome.shapes == shapes("row1")
    assert game.outcome.traits == ((Trait.HEIGHT, False), (Trait.COLOR, True))
    assert game.position.hand == 8  # claimed before placing


def test_the_placer_cannot_declare_after_handing_over() -> None:
    game = replay(ROW_1 + "?8", "classic")
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="cannot declare"):
        game.declare()
    assert snapshot(game) == before


def test_there_is_only_one_chance_to_claim() -> None:
    game = replay(ROW_1 + "?8 A3", "classic")
    assert not game.can_claim()
    assert game.state.claimable == ()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="cannot claim"):
        game.claim()
    assert snapshot(game) == before
    game.give(9)
    assert not game.can_claim()
    assert game.state.claimable == ()


def test_the_missed_shape_is_dead_for_good_once_the_receiver_places() -> None:
    game = replay(DEAD_ROW + "! 1-0", "advanced")
    row1 = shapes("row1")[0]
    claim_window = game.actions.index(Place(parse_cell("A3")))
    for state in game.states[claim_window + 1:]:
        assert row1 not in state.declarable
        assert row1 not in state.claimable
    assert row1 in game.position.winning_shapes(game.rules)  # still full and sharing
    assert game.outcome is not None
    assert game.outcome.termination is Termination.DECLARATION
    assert game.outcome.shapes == shapes("sqA1")
    assert game.outcome.traits == ((Trait.HEIGHT, False), (Trait.SHAPE, False))


def test_a_dead_shape_can_never_be_declared_again() -> None:
    # Under classic, B2 completes no line: nothing can be declared although row 1 is full.
    game = replay(DEAD_ROW, "classic")
    assert game.step is Step.GIVE
    assert game.state.declarable == ()
    assert not game.can_declare()
    with pytest.raises(IllegalActionError, match="completed no winning shape"):
        game.declare()
    with pytest.raises(InvalidRecordError, match="completes no winning shape"):
        replay(DEAD_ROW + "!", "classic")


def test_only_shapes_completed_by_the_current_placement_can_be_declared() -> None:
    # Row 1 is full and dark on the start board, but no placement of this game completed it.
    game = Game(CLASSIC, Position.from_string("4567/..../..../.... 8"))
    game.place(parse_cell("A2"))
    assert game.state.declarable == ()
    with pytest.raises(IllegalActionError):
        game.declare()
    game.give(9)
    assert game.state.claimable == ()
    with pytest.raises(IllegalActionError):
        game.claim()


# -- several shapes at once -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "completed"),
    [
        ("classic", ("row1", "colA", "diagA1")),
        ("advanced", ("row1", "colA", "diagA1", "sqA1")),
        ("lines:color:declare", ("row1",)),
        ("lines+squares:shape:declare", ("sqA1",)),
    ],
)
def test_a_placement_completing_several_shapes_declares_them_all(
    rules: str, completed: tuple[str, ...]
) -> None:
    game = replay("1. A1", rules, position=SEVERAL_SHAPES)
    assert game.state.declarable == shapes(*completed)
    game.declare()
    assert game.outcome is not None
    assert game.outcome.shapes == shapes(*completed)
    assert game.outcome.winner is Player.FIRST


def test_a_missed_placement_completing_several_shapes_is_claimed_whole() -> None:
    game = replay("1. A1?0 ! 0-1", "advanced", position=SEVERAL_SHAPES)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.CLAIM
    assert game.outcome.winner is Player.SECOND
    assert game.outcome.shapes == shapes("row1", "colA", "diagA1", "sqA1")
    assert game.outcome.traits == (
        (Trait.HEIGHT, True), (Trait.COLOR, True), (Trait.SHAPE, False), (Trait.TOP, True),
    )


# -- the sixteenth piece ----------------------------------------------------------------------


def test_the_sixteenth_piece_may_still_be_declared() -> None:
    game = replay(SIXTEENTH, "classic")
    assert game.position.empty_count == 0
    assert game.state.declarable == shapes("row4")
    assert game.legal_actions() == [Declare(), Decline()]
    game = replay(SIXTEENTH + "! 1-0", "classic")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.DECLARATION
    assert game.outcome.winner is Player.FIRST
    assert game.outcome.shapes == shapes("row4")


def test_not_declaring_the_sixteenth_piece_is_a_draw() -> None:
    game = replay(SIXTEENTH + "? 1/2-1/2", "classic")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FULL_BOARD
    assert game.outcome.winner is None
    assert game.actions[-1] == Decline()
    game = replay(SIXTEENTH, "classic")
    game.decline()
    assert game.outcome is not None
    assert game.outcome.result == "1/2-1/2"


def test_there_is_no_claim_after_the_sixteenth_piece() -> None:
    game = replay(SIXTEENTH, "classic")
    before = snapshot(game)
    for piece in range(16):
        with pytest.raises(IllegalActionError, match="not in the supply"):
            game.give(piece)
    assert snapshot(game) == before
    with pytest.raises(InvalidRecordError):
        replay(SIXTEENTH + "?5", "classic")
    with pytest.raises(InvalidRecordError):
        replay(SIXTEENTH + "? !", "classic")


def test_the_sixteenth_piece_without_a_counted_shape_ends_in_a_draw_at_once() -> None:
    # Row 4 (7 E 5 D) is dark but mixed in height.
    game = replay(SIXTEENTH + " 1/2-1/2", "lines:height:declare")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FULL_BOARD
    assert game.legal_actions() == []


def test_an_unfinished_record_may_stop_before_the_sixteenth_declaration() -> None:
    game = replay(SIXTEENTH + " *", "classic")
    assert game.outcome is None
    assert game.can_declare()


def test_decline_only_after_the_sixteenth_piece() -> None:
    game = replay(ROW_1, "classic")
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="cannot decline"):
        game.decline()
    assert snapshot(game) == before


def test_a_declaration_missed_on_the_fifteenth_piece_may_be_claimed_before_the_last() -> None:
    game = replay("1. D4?C", "classic", position=FIFTEENTH)
    assert game.state.claimable == shapes("row4")
    assert game.legal_actions() == [Claim(), Place(parse_cell("A1"))]
    claimed = replay("1. D4?C ! 0-1", "classic", position=FIFTEENTH)
    assert claimed.outcome is not None
    assert claimed.outcome.termination is Termination.CLAIM
    assert claimed.outcome.winner is Player.SECOND
    placed = replay("1. D4?C A1 1/2-1/2", "classic", position=FIFTEENTH)
    assert placed.outcome is not None
    assert placed.outcome.termination is Termination.FULL_BOARD


# -- nothing to declare or claim --------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "position"),
    [
        ("", None),  # the first hand-over
        ("1. 4", None),  # a piece to place, nothing missed
        ("1. 4 A1", None),  # a placement that completed nothing
        (ROW_1 + "?8 A3", None),  # the claim window has closed
        (ROW_1 + "?8 A39", None),
        (ROW_1 + "! 1-0", None),  # the game is over
        ("1. A2", "4567/..../..../.... 8"),  # a dead shape on the board
    ],
)
@pytest.mark.parametrize("action", [Declare(), Claim(), Decline()], ids=str)
def test_declaring_or_claiming_with_nothing_valid_is_refused_and_changes_nothing(
    moves: str, position: str | None, action: Declare | Claim | Decline
) -> None:
    game = replay(moves, "classic", position)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=f"cannot {action}"):
        game.apply(action)
    assert snapshot(game) == before
    assert action not in game.legal_actions()


def test_auto_calling_never_offers_a_declaration_or_a_claim() -> None:
    game = replay(ROW_1 + "!", "lines:height,color,shape,top:auto")
    assert game.outcome is not None
    assert game.legal_actions() == []
    assert not game.can_declare()
    assert not game.can_claim()


# -- the moments to call ----------------------------------------------------------------------

def test_the_moment_to_declare_follows_every_own_placement_whether_or_not_it_wins() -> None:
    game = Game(CLASSIC)
    assert not game.is_declare_moment()  # nothing placed: the first hand-over
    game.give(4)
    assert not game.is_declare_moment()
    assert not game.is_claim_moment()  # handed over without a placement before it
    game.place(parse_cell("A1"))
    assert game.is_declare_moment()  # a placement that completes nothing
    assert not game.can_declare()
    game.give(5)
    assert not game.is_declare_moment()
    assert game.is_claim_moment()  # the opponent placed, then handed over
    assert not game.can_claim()
    game.place(parse_cell("B1"))
    assert not game.is_claim_moment()


def test_the_moments_to_call_hold_where_a_call_wins() -> None:
    declared = replay(ROW_1, "classic")
    assert declared.is_declare_moment()
    assert declared.can_declare()
    missed = replay(ROW_1 + "?8", "classic")
    assert missed.is_claim_moment()
    assert missed.can_claim()
    assert not missed.is_declare_moment()


def test_a_start_position_offers_no_call_before_a_placement() -> None:
    game = Game(CLASSIC, Position.from_string("7CD./..../..../.... -"))
    assert game.step is Step.GIVE
    assert not game.is_declare_moment()
    game.give(14)
    assert not game.is_claim_moment()


def test_auto_calling_and_a_finished_game_have_no_moment_to_call() -> None:
    auto = Game()
    auto.give(4)
    auto.place(0)
    assert not auto.is_declare_moment()
    auto.give(5)
    assert not auto.is_claim_moment()
    over = replay(ROW_1 + "!", "classic")
    assert not over.is_declare_moment()
    assert not over.is_claim_moment()
