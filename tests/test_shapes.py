"""The shapes that can win (RULES.md, "Shapes that can win")."""

from __future__ import annotations

import pytest

from quads import SHAPES, parse_cell
from quads.shapes import LINES, SQUARES, ShapeKind, shape_by_id


def cells(*names: str) -> int:
    mask = 0
    for name in names:
        mask |= 1 << parse_cell(name)
    return mask


def test_ten_lines_and_nine_squares() -> None:
    assert len(LINES) == 10
    assert len(SQUARES) == 9
    assert SHAPES == LINES + SQUARES
    assert [shape.kind for shape in SHAPES] == (
        [ShapeKind.ROW] * 4 + [ShapeKind.COLUMN] * 4 + [ShapeKind.DIAGONAL] * 2
        + [ShapeKind.SQUARE] * 9
    )


def test_every_shape_has_four_distinct_cells_and_its_own_index() -> None:
    assert [shape.index for shape in SHAPES] == list(range(19))
    assert all(shape.cells.bit_count() == 4 for shape in SHAPES)
    assert len({shape.cells for shape in SHAPES}) == 19


def test_lines_are_the_rows_columns_and_long_diagonals() -> None:
    expected = [cells(*(f"{c}{r}" for c in "ABCD")) for r in "1234"]
    expected += [cells(*(f"{c}{r}" for r in "1234")) for c in "ABCD"]
    expected += [cells("A1", "B2", "C3", "D4"), cells("D1", "C2", "B3", "A4")]
    assert [shape.cells for shape in LINES] == expected


def test_squares_are_the_nine_blocks_of_neighbouring_cells() -> None:
    expected = {
        cells(f"{c1}{r1}", f"{c2}{r1}", f"{c1}{r2}", f"{c2}{r2}")
        for c1, c2 in ("AB", "BC", "CD")
        for r1, r2 in ("12", "23", "34")
    }
    assert {shape.cells for shape in SQUARES} == expected


@pytest.mark.parametrize(
    ("ident", "name", "members"),
    [
        ("row1", "row 1", ("A1", "B1", "C1", "D1")),
        ("row4", "row 4", ("A4", "B4", "C4", "D4")),
        ("colA", "column A", ("A1", "A2", "A3", "A4")),
        ("colC", "column C", ("C1", "C2", "C3", "C4")),
        ("diagA1", "diagonal A1-D4", ("A1", "B2", "C3", "D4")),
        ("diagD1", "diagonal D1-A4", ("D1", "C2", "B3", "A4")),
        ("sqA1", "square A1-B2", ("A1", "B1", "A2", "B2")),
        ("sqB2", "square B2-C3", ("B2", "C2", "B3", "C3")),
        ("sqC3", "square C3-D4", ("C3", "D3", "C4", "D4")),
    ],
)
def test_shape_ids_and_names(ident: str, name: str, members: tuple[str, ...]) -> None:
    shape = shape_by_id(ident)
    assert shape.id == ident
    assert shape.name == name
    assert str(shape) == name
    assert shape.cells == cells(*members)


@pytest.mark.parametrize(
    ("ident", "german"),
    [
        ("row3", "Reihe 3"),
        ("colD", "Spalte D"),
        ("diagA1", "Diagonale A1-D4"),
        ("diagD1", "Diagonale D1-A4"),
        ("sqC1", "Quadrat C1-D2"),
    ],
)
def test_shape_names_in_german(ident: str, german: str) -> None:
    shape = shape_by_id(ident)
    assert shape.describe("de") == german
    assert shape.describe() == shape.describe("en") == shape.name


def test_shape_ids_are_unique_and_read_in_either_case() -> None:
    assert len({shape.id for shape in SHAPES}) == 19
    for shape in SHAPES:
        assert shape_by_id(shape.id) is shape
        assert shape_by_id(shape.id.upper()) is shape


def test_unknown_shape_id_raises_key_error() -> None:
    with pytest.raises(KeyError):
        shape_by_id("row5")


@pytest.mark.parametrize(
    ("cell", "lines", "squares"),
    [("A1", 3, 1), ("B1", 2, 2), ("B2", 3, 4), ("C2", 3, 4), ("A2", 2, 2), ("D4", 3, 1)],
)
def test_shapes_through_a_cell(cell: str, lines: int, squares: int) -> None:
    bit = 1 << parse_cell(cell)
    assert sum(1 for shape in LINES if shape.cells & bit) == lines
    assert sum(1 for shape in SQUARES if shape.cells & bit) == squares
