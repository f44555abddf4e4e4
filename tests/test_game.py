"""A game under ``auto`` calling: the course of a game, wins, draws, undo and redo.

Games are set up from records (RULES.md, "A game"; "Shapes that can win").
The ``declare`` calling has its own module, ``test_declare.py``.
"""

from __future__ import annotations

import pytest

from helpers import RULE_SETS, replay, shapes, snapshot
from quads import (
    CLASSIC,
    EMPTY,
    QUADS,
    Claim,
    Declare,
    Decline,
    Game,
    Give,
    IllegalActionError,
    InvalidPositionError,
    Place,
    Player,
    Position,
    Rules,
    Step,
    Termination,
    Trait,
    Turn,
    parse_cell,
    write_record,
)

A1, B2, C3, D1, D4 = (parse_cell(name) for name in ("A1", "B2", "C3", "D1", "D4"))

FULL_BOARD_DRAW = (
    "1. 1 A1A 2. B10 C1E 3. D12 A2F 4. B23 C25 5. D2D A38 6. B36 C39 7. D3B A47 8. B4C "
    "C44 9. D4"
)
"""A whole game under ``quads`` that fills the board ``1A0E/2F35/D869/B7C4`` without a win."""

# A1 completes row 1 (dark), column A (tall), the diagonal A1-D4 (hollow) and, with the
# squares, the square A1-B2 (round) at once.
SEVERAL_SHAPES = ".456/81../9.3./A..B D"


# -- the course of a game --------------------------------------------------------------------


def test_the_first_player_only_hands_over() -> None:
    game = Game()
    assert game.to_move is Player.FIRST
    assert game.step is Step.GIVE
    assert game.legal_actions() == [Give(piece) for piece in range(16)]
    with pytest.raises(IllegalActionError, match="a piece must be handed over first"):
        game.place(A1)
    handed = replay("1. 7")
    assert handed.position.to_string() == "..../..../..../.... 7"
    assert handed.to_move is Player.SECOND


def test_the_piece_handed_over_must_be_placed_and_cannot_be_refused_or_swapped() -> None:
    game = replay("1. 7")
    assert game.step is Step.PLACE
    assert game.legal_actions() == [Place(cell) for cell in range(16)]
    before = snapshot(game)
    for piece in range(16):
        with pytest.raises(IllegalActionError, match="piece 7 must be placed first"):
            game.give(piece)
    assert snapshot(game) == before
    game.place(C3)
    assert game.position.piece_at(C3) == 7


def test_a_turn_is_a_placement_then_a_hand_over_by_the_same_player() -> None:
    game = replay("1. 7 B2")
    assert game.to_move is Player.SECOND
    assert game.step is Step.GIVE
    assert game.position.to_string() == "..../.7../..../.... -"
    assert game.legal_actions() == [Give(piece) for piece in range(16) if piece != 7]
    game.give(0xC)
    assert (game.to_move, game.step) == (Player.FIRST, Step.PLACE)
    assert game.position.to_string() == "..../.7../..../.... C"


def test_both_players_draw_from_one_shared_supply() -> None:
    game = replay("1. 7 A1C 2. B23")
    # 7 was chosen by the first player, C by the second, 3 by the first again.
    assert game.position.supply == 0xFFFF & ~(1 << 7 | 1 << 0xC | 1 << 3)
    assert game.legal_actions() == [Place(cell) for cell in range(16) if cell not in (A1, B2)]
    game.place(C3)
    assert game.legal_actions() == [Give(p) for p in range(16) if p not in (7, 0xC, 3)]


def test_pieces_never_move() -> None:
    game = replay(FULL_BOARD_DRAW)
    for before, after in zip(game.states, game.states[1:], strict=False):
        assert before.position.board.items() <= after.position.board.items()


def test_passing_is_impossible() -> None:
    # Every action allowed before the end changes the board or the hand, or ends the game.
    for game in (replay(FULL_BOARD_DRAW), replay("1. 4 A15 2. B16 C17 3. D1?8", "classic")):
        for state in game.states:
            if state.outcome is None:
                assert state.legal_actions()
            for action in state.legal_actions():
                after = state.apply(action, game.rules)
                assert after.position != state.position or after.outcome is not None


def test_draw_when_all_sixteen_pieces_are_placed() -> None:
    game = replay(FULL_BOARD_DRAW)
    assert game.is_over()
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FULL_BOARD
    assert game.outcome.winner is None
    assert game.outcome.shapes == ()
    assert game.outcome.result == "1/2-1/2"
    assert game.position.to_string() == "1A0E/2F35/D869/B7C4 -"
    assert game.to_move is None
    assert game.legal_actions() == []
    assert write_record(game).endswith("9. D4 1/2-1/2\n")


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_same_full_board_is_a_draw_under_every_rule_set(rules: str) -> None:
    game = replay(FULL_BOARD_DRAW + " 1/2-1/2", rules)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FULL_BOARD


def test_a_game_from_a_full_board_is_already_drawn() -> None:
    game = Game(QUADS, Position.from_string("1A0E/2F35/D869/B7C4 -"))
    assert game.is_over()
    assert game.outcome is not None
    assert game.outcome.termination is Termination.FULL_BOARD
    assert game.legal_actions() == []


# -- winning ----------------------------------------------------------------------------------


def test_one_shared_trait_is_enough() -> None:
    # 4 D 6 F: only "dark" is shared.
    game = replay("1. 4 A1D 2. B16 C1F 3. D1!")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.WIN
    assert game.outcome.winner is Player.FIRST
    assert game.outcome.shapes == shapes("row1")
    assert game.outcome.traits == ((Trait.COLOR, True),)
    assert game.outcome.result == "1-0"


def test_a_shape_sharing_several_traits_is_one_win() -> None:
    # 4 5 6 7: short and dark.
    game = replay("1. 4 A15 2. B16 C17 3. D1!")
    assert game.outcome is not None
    assert game.outcome.shapes == shapes("row1")
    assert game.outcome.traits == ((Trait.HEIGHT, False), (Trait.COLOR, True))
    assert game.outcome.describe() == "row 1: all short and dark"


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_full_line_sharing_nothing_does_not_win(rules: str) -> None:
    # 0 F 3 C differ in every trait.
    game = replay("1. 0 A1F 2. B13 C1C 3. D15", rules)
    assert not game.is_over()
    assert game.position.to_string() == "0F3C/..../..../.... 5"
    assert game.position.winning_shapes(game.rules) == ()
    assert game.to_move is Player.SECOND


def test_the_player_who_places_the_fourth_piece_wins() -> None:
    # The first player places 4, 5 and 6 on row 1; the second places the fourth piece, 7.
    game = replay("1. 8 A34 2. A19 B35 3. B1A C36 4. C17 D1! 0-1")
    placers = {}
    for state, action in zip(game.states, game.actions, strict=False):
        if isinstance(action, Place):
            placers[action.cell] = state.to_move
    assert [placers[cell] for cell in range(4)] == [Player.FIRST] * 3 + [Player.SECOND]
    assert game.outcome is not None
    assert game.outcome.winner is Player.SECOND
    assert game.outcome.shapes == shapes("row1")


def test_a_win_ends_the_game_at_once_under_auto() -> None:
    game = replay("1. 4 A15 2. B16 C17 3. D1!")
    assert game.step is Step.OVER
    assert game.to_move is None
    assert game.legal_actions() == []
    assert not game.can_declare()
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.give(8)


def test_uncounted_traits_do_not_win() -> None:
    # 8 F A D: only "tall" is shared.
    moves = "1. 8 A1F 2. B1A C1D 3. D1"
    assert replay(moves + "0", "lines:color:auto").outcome is None
    assert replay(moves + "0", "lines:shape,top:auto").outcome is None
    for rules in ("quads", "lines:height:auto", "lines:height,top"):
        outcome = replay(moves + "!", rules).outcome
        assert outcome is not None
        assert outcome.traits == ((Trait.HEIGHT, True),)


def test_only_counted_traits_are_reported() -> None:
    game = replay("1. 4 A15 2. B16 C17 3. D1!", "lines:color")
    assert game.outcome is not None
    assert game.outcome.traits == ((Trait.COLOR, True),)


def test_squares_count_only_with_lines_and_squares() -> None:
    # 4 D 6 F on the square A1-B2: all dark, nothing else shared.
    game = replay("1. 4 A1D 2. B16 A2F 3. B2!")
    assert game.outcome is not None
    assert game.outcome.shapes == shapes("sqA1")
    lines_only = replay("1. 4 A1D 2. B16 A2F 3. B20", "lines:height,color,shape,top:auto")
    assert not lines_only.is_over()


def test_a_placement_completing_several_shapes_wins_with_all_of_them() -> None:
    game = replay("1. A1! 1-0", position=SEVERAL_SHAPES)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.WIN
    assert game.outcome.winner is Player.FIRST
    assert game.outcome.shapes == shapes("row1", "colA", "diagA1", "sqA1")
    assert game.outcome.traits == (
        (Trait.HEIGHT, True), (Trait.COLOR, True), (Trait.SHAPE, False), (Trait.TOP, True),
    )
    lines = replay("1. A1! 1-0", "lines", position=SEVERAL_SHAPES)
    assert lines.outcome is not None
    assert lines.outcome.shapes == shapes("row1", "colA", "diagA1")


def test_the_sixteenth_piece_can_win_under_auto() -> None:
    game = replay("1. D4! 1-0", "lines", position="CBF0/6A83/9412/7E5. D")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.WIN
    assert game.outcome.shapes == shapes("row4")


# -- the start position -----------------------------------------------------------------------


def test_a_game_may_start_from_any_possible_position() -> None:
    start = Position.from_string("F..0/..A./..../.3.. 7")
    game = Game(CLASSIC, start)
    assert game.start == start
    assert game.to_move is Player.FIRST
    assert game.step is Step.PLACE


def test_a_game_refuses_a_start_position_already_won_under_auto() -> None:
    start = Position.from_string("4567/..../..../.... 8")
    with pytest.raises(InvalidPositionError, match="already won"):
        Game(QUADS, start)
    Game(CLASSIC, start)  # under declare the full row is a dead shape


# -- playing whole turns ----------------------------------------------------------------------


def test_play_a_whole_turn() -> None:
    game = Game()
    game.play(Turn(None, 7))
    game.play(Turn(B2, 0xC))
    assert game.actions == (Give(7), Place(B2), Give(0xC))
    assert game.position.to_string() == "..../.7../..../.... C"


def test_play_a_turn_whose_placement_wins() -> None:
    game = replay("1. 4 A15 2. B16 C17")
    game.play(Turn(D1, None))
    assert game.outcome is not None
    assert game.outcome.winner is Player.FIRST


def test_play_refuses_a_turn_whose_second_part_is_illegal() -> None:
    game = replay("1. 7 A1C")
    before = snapshot(game)
    for turn in (Turn(B2, 0xC), Turn(B2, 7), Turn(A1, 3), Turn(None, 3)):
        with pytest.raises(IllegalActionError):
            game.play(turn)
        assert snapshot(game) == before


def test_play_refuses_a_hand_over_after_a_winning_placement() -> None:
    game = replay("1. 4 A15 2. B16 C17")
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.play(Turn(D1, 8))
    assert snapshot(game) == before


# -- undo and redo ----------------------------------------------------------------------------


def test_undo_and_redo_one_action() -> None:
    game = replay("1. 7 A1C")
    states = game.states
    assert game.undo() == Give(0xC)
    assert game.states == states[:-1]
    assert game.position.to_string() == "7.../..../..../.... -"
    assert game.step is Step.GIVE
    assert game.to_move is Player.SECOND
    assert game.can_redo()
    assert game.redo() == Give(0xC)
    assert game.states == states
    assert not game.can_redo()


def test_undo_a_win_and_play_on() -> None:
    game = replay("1. 4 A15 2. B16 C17 3. D1!")
    assert game.undo() == Place(D1)
    assert not game.is_over()
    assert game.to_move is Player.FIRST
    game.place(D4)
    assert not game.is_over()
    assert not game.can_redo()


def test_undo_everything_then_redo_everything() -> None:
    game = replay(FULL_BOARD_DRAW)
    states, actions = game.states, game.actions
    undone = [game.undo() for _ in actions]
    assert undone == list(reversed(actions))
    assert game.states == (states[0],)
    assert not game.can_undo()
    redone = [game.redo() for _ in actions]
    assert redone == list(actions)
    assert game.states == states
    assert game.outcome == states[-1].outcome


def test_a_new_action_clears_the_redo_trail_unless_it_is_the_next_one() -> None:
    game = replay("1. 7 A1C 2. B2")
    game.undo()
    game.undo()
    game.give(0xC)  # the same as the next action to redo: the trail is kept
    assert game.can_redo()
    assert game.redo() == Place(B2)
    game.undo()
    game.undo()
    game.give(3)
    assert not game.can_redo()


def test_undo_with_no_history_and_redo_with_nothing_undone_are_refused() -> None:
    game = Game()
    with pytest.raises(IllegalActionError, match="cannot undo"):
        game.undo()
    with pytest.raises(IllegalActionError, match="cannot redo"):
        game.redo()
    game = replay("1. 7")
    with pytest.raises(IllegalActionError, match="cannot redo"):
        game.redo()


# -- the Game object --------------------------------------------------------------------------


def test_copy_is_independent() -> None:
    game = replay("1. 7 A1C")
    game.headers["Event"] = "Club night"
    other = game.copy()
    other.place(B2)
    other.headers["Event"] = "Other"
    assert game.actions == (Give(7), Place(A1), Give(0xC))
    assert game.headers == {"Event": "Club night"}
    assert other.actions[-1] == Place(B2)


def test_states_and_actions() -> None:
    game = replay("1. 7 A1C")
    assert len(game.states) == len(game.actions) + 1 == 4
    assert game.states[0].position == EMPTY
    assert game.state is game.states[-1]


def test_repr() -> None:
    assert repr(replay("1. 7", "classic")) == "<Game classic '..../..../..../.... 7' place>"


def test_action_names() -> None:
    assert [str(a) for a in (Give(0xA), Place(B2), Declare(), Claim(), Decline())] == [
        "give A", "place B2", "declare", "claim", "decline",
    ]


def test_rules_of_a_game_travel_beside_the_position() -> None:
    game = Game(Rules.parse("lines:color"))
    assert game.rules.name == "lines:color:auto"
    assert game.start == EMPTY
