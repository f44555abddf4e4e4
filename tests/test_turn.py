"""Whole turns and their text form."""

from __future__ import annotations

import pytest

from quads import InvalidCellError, InvalidPieceError, QuadsError, Turn, parse_cell


@pytest.mark.parametrize(
    ("text", "place", "give"),
    [("A1F", "A1", 0xF), ("7", None, 7), ("D4", "D4", None), ("c20", "C2", 0), ("b3a", "B3", 0xA)],
)
def test_parse_and_text(text: str, place: str | None, give: int | None) -> None:
    turn = Turn.parse(text)
    assert turn == Turn(None if place is None else parse_cell(place), give)
    assert turn.text == text.upper()
    assert str(turn) == text.upper()
    assert Turn.parse(turn.text) == turn


def test_parse_strips_spaces() -> None:
    assert Turn.parse(" A1F ") == Turn(0, 15)


def test_every_turn_round_trips() -> None:
    turns = [Turn(cell, piece) for cell in [None, *range(16)] for piece in [None, *range(16)]
             if cell is not None or piece is not None]
    assert len(turns) == 16 * 17 + 16
    assert all(Turn.parse(turn.text) == turn for turn in turns)


def test_a_turn_does_something() -> None:
    with pytest.raises(QuadsError, match="places a piece, hands one over, or both"):
        Turn(None, None)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", InvalidPieceError),
        ("G", InvalidPieceError),
        ("E1", InvalidCellError),
        ("A5F", InvalidCellError),
        ("A1G", InvalidPieceError),
        ("A1FF", InvalidCellError),
        ("7A1", InvalidCellError),
        ("A1!", InvalidPieceError),
    ],
)
def test_parse_refuses_malformed_turns(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        Turn.parse(text)


def test_turn_refuses_cells_and_pieces_out_of_range() -> None:
    with pytest.raises(InvalidCellError):
        Turn(16, 0)
    with pytest.raises(InvalidPieceError):
        Turn(0, 16)
