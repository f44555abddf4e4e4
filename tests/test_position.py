"""Positions: the position string, the board, wins, danger and safe pieces."""

from __future__ import annotations

import pytest

from helpers import shapes
from quads import (
    CLASSIC,
    EMPTY,
    QUADS,
    IllegalActionError,
    InvalidPositionError,
    Position,
    Rules,
    Turn,
    parse_cell,
)
from quads.bits import iter_bits


def mask(*names: str) -> int:
    """The mask of the named cells, or of the pieces written as hex digits."""
    bits = 0
    for name in names:
        bits |= 1 << (parse_cell(name) if len(name) == 2 else int(name, 16))
    return bits


def pieces(text: str) -> int:
    """The mask of the pieces written as hex digits, e.g. ``"089"``."""
    return mask(*text)


# -- the position string --------------------------------------------------------------------


def test_empty_position() -> None:
    assert EMPTY.to_string() == "..../..../..../.... -"
    assert Position.from_string("..../..../..../.... -") == EMPTY
    assert EMPTY.hand is None
    assert EMPTY.empty_count == 16
    assert EMPTY.board == {}
    assert EMPTY.supply == 0xFFFF


def test_from_string_reads_the_board_row_by_row() -> None:
    position = Position.from_string("F..0/..A./..../.3.. 7")
    assert position.board == {
        parse_cell("A1"): 0xF, parse_cell("D1"): 0x0, parse_cell("C2"): 0xA, parse_cell("B4"): 0x3,
    }
    assert position.piece_at(parse_cell("A1")) == 0xF
    assert position.piece_at(parse_cell("B4")) == 0x3
    assert position.piece_at(parse_cell("B1")) is None
    assert position.hand == 7
    assert position.empty_count == 12
    assert position.occupied == mask("A1", "D1", "C2", "B4")
    assert position.empty_cells == 0xFFFF & ~position.occupied
    assert position.on_board == pieces("F0A3")
    assert position.supply == 0xFFFF & ~pieces("F0A37")


def test_trait_masks() -> None:
    position = Position.from_string("F..0/..A./..../.3.. 7")
    # bits[b] holds the cells whose piece has bit b set: F=1111, 0=0000, A=1010, 3=0011.
    assert position.bits == (
        mask("A1", "B4"), mask("A1", "C2", "B4"), mask("A1"), mask("A1", "C2"),
    )


def test_position_strings_are_read_in_either_case_and_written_upper_case() -> None:
    position = Position.from_string("f..0/..a./..../.3.. b")
    assert position.to_string() == "F..0/..A./..../.3.. B"
    assert str(position) == "F..0/..A./..../.3.. B"
    assert Position.from_string("F..0/..A./..../.3.. B") == position


def test_position_string_between_turns() -> None:
    position = Position.from_string("F..0/..A./..../.3.. -")
    assert position.hand is None
    assert position.supply == 0xFFFF & ~pieces("F0A3")


@pytest.mark.parametrize(
    "text",
    [
        "..../..../..../.... -",
        "..../..../..../.... 0",
        "F..0/..A./..../.3.. 7",
        "1A0E/2F35/D869/B7C4 -",
        "1A0E/2F35/D869/B7C. 4",
    ],
)
def test_position_string_round_trips(text: str) -> None:
    assert Position.from_string(text).to_string() == text


def test_from_pieces() -> None:
    position = Position.from_pieces({0: 0xF, 3: 0, 6: 0xA, 13: 3}, 7)
    assert position == Position.from_string("F..0/..A./..../.3.. 7")
    assert Position.from_pieces({}) == EMPTY


# -- placing and handing over ---------------------------------------------------------------


def test_place_then_give() -> None:
    position = Position.from_string("F..0/..A./..../.3.. 7")
    placed = position.place(parse_cell("B2"))
    assert placed.to_string() == "F..0/.7A./..../.3.. -"
    assert placed.supply == position.supply
    given = placed.give(0xC)
    assert given.to_string() == "F..0/.7A./..../.3.. C"
    assert position.play(Turn(parse_cell("B2"), 0xC)) == given
    assert EMPTY.play(Turn(None, 7)).to_string() == "..../..../..../.... 7"
    assert position.to_string() == "F..0/..A./..../.3.. 7"  # unchanged


def test_legal_placements_and_handovers() -> None:
    position = Position.from_string("F..0/..A./..../.3.. 7")
    assert set(position.legal_placements()) == set(iter_bits(position.empty_cells))
    assert list(position.legal_handovers()) == []
    between = position.place(parse_cell("A2"))
    assert list(between.legal_placements()) == []
    assert list(between.legal_handovers()) == list(iter_bits(between.supply))
    assert len(list(between.legal_handovers())) == 11


def test_legal_turns_end_with_a_winning_placement() -> None:
    # Row 1 holds F E 7 (dark and square); 2 is square, so D1 wins and has no hand-over.
    position = Position.from_string("FE7./..../..../.... 2")
    turns = list(position.legal_turns(QUADS))
    assert Turn(parse_cell("D1"), None) in turns
    assert not any(turn.place == parse_cell("D1") and turn.give is not None for turn in turns)
    assert len(turns) == 1 + 12 * 12
    assert len(list(EMPTY.legal_turns(QUADS))) == 16


def test_legal_turns_of_the_last_piece_have_no_hand_over() -> None:
    position = Position.from_string("1A0E/2F35/D869/B7C. 4")
    assert list(position.legal_turns(QUADS)) == [Turn(15, None)]


# -- wins -------------------------------------------------------------------------------------


def test_winning_shapes_share_a_counted_trait() -> None:
    # Row 1: 4 5 6 7, all short and dark.  Column A: 4 8 9 A is mixed in every trait.
    position = Position.from_string("4567/8.../9.../A... -")
    assert position.winning_shapes(QUADS) == shapes("row1")
    assert position.shared_values(shapes("row1")[0], QUADS) == ((3, False), (2, True))
    assert position.shared_values(shapes("colA")[0], QUADS) == ()
    assert position.shared_values(shapes("row2")[0], QUADS) == ()  # not full
    assert position.winning_shapes(Rules.parse("lines:shape,top")) == ()
    assert position.winning_shapes_through(parse_cell("B1"), QUADS) == shapes("row1")
    assert position.winning_shapes_through(parse_cell("A2"), QUADS) == ()


def test_winning_shapes_include_squares_under_lines_and_squares_only() -> None:
    position = Position.from_string("4D../6F../..../.... -")  # all dark
    assert position.winning_shapes(QUADS) == shapes("sqA1")
    assert position.winning_shapes(CLASSIC) == ()


def test_winning_cells() -> None:
    # Columns A (8 9 A: tall, light) and D (C D E: tall, dark) each miss their fourth piece.
    position = Position.from_string("8..C/9..D/A..E/.... -")
    a4, d4 = parse_cell("A4"), parse_cell("D4")
    assert position.winning_cells(0xF, QUADS) == 1 << a4 | 1 << d4
    assert position.winning_cells(0x0, QUADS) == 1 << a4
    assert position.winning_cells(0x4, QUADS) == 1 << d4
    assert position.winning_cells(0x7, Rules.parse("lines:height")) == 0
    assert position.winning_cells(0xF, Rules.parse("lines:color")) == 1 << d4
    assert position.winning_cells(0x3, Rules.parse("lines:color")) == 1 << a4


def test_danger_and_safe_pieces() -> None:
    position = Position.from_string("FE7./..../..../.... 1")
    dark_or_square = pieces("234567ABCDEF")
    assert position.danger(QUADS) == dark_or_square
    assert position.safe_pieces(QUADS) == pieces("089")  # 1 is in hand, F E 7 on the board
    assert position.wins_anywhere(0x2, QUADS)
    assert not position.wins_anywhere(0x8, QUADS)
    assert position.safe_pieces(Rules.parse("lines:color")) == pieces("02389AB")
    assert position.safe_pieces(Rules.parse("lines:top")) == position.supply


def test_column_threat_leaves_only_short_dark_pieces_safe() -> None:
    position = Position.from_string("8.../9.../A.../.... -")  # tall and light
    assert position.safe_pieces(QUADS) == pieces("4567")
    assert position.safe_pieces(Rules.parse("lines:color")) == pieces("4567CDEF")
    assert position.safe_pieces(Rules.parse("lines:shape,top")) == position.supply


def test_every_piece_is_safe_on_the_empty_board() -> None:
    assert EMPTY.safe_pieces(QUADS) == 0xFFFF
    assert EMPTY.danger(QUADS) == 0


def test_no_safe_piece_left() -> None:
    position = Position.from_string("8..C/9..D/A..E/.... -")
    assert position.danger(QUADS) == 0xFFFF
    assert position.safe_pieces(QUADS) == 0


def test_full_shapes_are_no_danger() -> None:
    # Row 1 is full and won (a dead shape under declare); it threatens nothing.
    position = Position.from_string("4567/..../..../.... -")
    assert position.danger(CLASSIC) == 0
    assert position.safe_pieces(CLASSIC) == position.supply


# -- validity ----------------------------------------------------------------------------------


def test_check_refuses_a_won_board_under_auto_only() -> None:
    position = Position.from_string("4567/..../..../.... 8")
    with pytest.raises(InvalidPositionError, match="row 1 is already won"):
        position.check(QUADS)
    position.check(CLASSIC)  # a dead shape under declare


def test_place_refuses_a_taken_cell_and_an_empty_hand() -> None:
    position = Position.from_string("F..0/..A./..../.3.. 7")
    with pytest.raises(IllegalActionError, match="the cell is taken"):
        position.place(parse_cell("A1"))
    with pytest.raises(IllegalActionError, match="no piece in hand"):
        EMPTY.place(0)


def test_give_refuses_before_placing_and_pieces_not_in_the_supply() -> None:
    position = Position.from_string("F..0/..A./..../.3.. 7")
    with pytest.raises(IllegalActionError, match="must be placed first"):
        position.give(1)
    between = position.place(parse_cell("A2"))
    for piece in (0xF, 7):
        with pytest.raises(IllegalActionError, match="not in the supply"):
            between.give(piece)
    with pytest.raises(IllegalActionError, match="must be placed first"):
        position.play(Turn(None, 1))
