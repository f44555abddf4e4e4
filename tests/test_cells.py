"""Cells and their names (RULES.md, "Board and cells")."""

from __future__ import annotations

import pytest

from quads import InvalidCellError, cell_name, parse_cell
from quads.cells import ALL_CELLS, CELL_NAMES, CELLS, cell_column, cell_row, make_cell


@pytest.mark.parametrize("column", "ABCD")
@pytest.mark.parametrize("row", [1, 2, 3, 4])
def test_cell_index_is_row_minus_one_times_four_plus_column(column: str, row: int) -> None:
    index = (row - 1) * 4 + "ABCD".index(column)
    name = f"{column}{row}"
    assert parse_cell(name) == index
    assert cell_name(index) == name
    assert make_cell("ABCD".index(column), row - 1) == index
    assert cell_column(index) == "ABCD".index(column)
    assert cell_row(index) == row - 1


def test_corners() -> None:
    assert parse_cell("A1") == 0  # top left
    assert parse_cell("D1") == 3  # top right
    assert parse_cell("A4") == 12  # bottom left
    assert parse_cell("D4") == 15  # bottom right


def test_sixteen_cells_in_reading_order() -> None:
    assert tuple(range(16)) == CELLS
    assert ALL_CELLS == 0xFFFF
    assert CELL_NAMES[:5] == ("A1", "B1", "C1", "D1", "A2")
    assert len(set(CELL_NAMES)) == 16


def test_cells_are_read_in_either_case() -> None:
    assert parse_cell("b3") == parse_cell("B3") == 9


@pytest.mark.parametrize("text", ["", "A", "E1", "A0", "A5", "1A", "A10", "AA", " A1", "B 2"])
def test_parse_cell_refuses_non_cells(text: str) -> None:
    with pytest.raises(InvalidCellError) as info:
        parse_cell(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("cell", [-1, 16, True, 1.0])
def test_cell_name_refuses_non_cells(cell: object) -> None:
    with pytest.raises(InvalidCellError) as info:
        cell_name(cell)  # type: ignore[arg-type]
    assert repr(cell) in str(info.value)


@pytest.mark.parametrize(("column", "row"), [(4, 0), (0, 4), (-1, 0), (0, -1)])
def test_make_cell_refuses_coordinates_off_the_board(column: int, row: int) -> None:
    with pytest.raises(InvalidCellError):
        make_cell(column, row)
