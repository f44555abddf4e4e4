"""The counter of drawn full boards (bench/draws.c, driven by bench/draws.py) against
counts made here in plain Python: completions of partly filled boards by brute force,
and the whole board with one counted trait by enumerating the two-class labellings."""

from __future__ import annotations

import math
import os
import random
import shutil
import sys
from itertools import combinations, permutations
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import draws  # the counter's build and driver

from quads.rules import Rules

RULE_NAMES = (
    "lines:height:auto",
    "lines:color,top:auto",
    "lines:height,shape,top:auto",
    "classic",
    "lines+squares:shape:auto",
    "lines+squares:height,color:auto",
    "lines+squares:color,shape,top:auto",
    "quads",
)


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler (cc or $CC) to build bench/draws.c")
    return draws.build(tmp_path_factory.mktemp("draws"))


def won(cells: int, board: list[int], traits: int) -> bool:
    """Whether the four pieces on ``cells`` share a value of a counted trait."""
    pieces = [board[c] for c in range(16) if cells >> c & 1]
    ones = zeros = 0b1111
    for piece in pieces:
        ones &= piece
        zeros &= ~piece
    return bool((ones | zeros) & traits)


def brute_force(rules: Rules, board: list[int | None]) -> int:
    """Completions of ``board`` with no won shape, tried one by one."""
    empty = [c for c in range(16) if board[c] is None]
    left = sorted(set(range(16)) - {p for p in board if p is not None})
    total = 0
    filled = [0 if p is None else p for p in board]
    for pieces in permutations(left):
        for cell, piece in zip(empty, pieces, strict=True):
            filled[cell] = piece
        if not any(won(mask, filled, rules.traits) for mask in rules.shape_masks):
            total += 1
    return total


def partial_board(rng: random.Random, rules: Rules, empties: int) -> list[int | None]:
    """A random board with ``empties`` empty cells and no shape of filled cells won."""
    while True:
        pieces = list(range(16))
        rng.shuffle(pieces)
        board: list[int | None] = list(pieces)
        for cell in rng.sample(range(16), empties):
            board[cell] = None
        filled = [0 if p is None else p for p in board]
        if not any(won(mask, filled, rules.traits) for mask in rules.shape_masks
                   if all(board[c] is not None for c in range(16) if mask >> c & 1)):
            return board


@pytest.mark.parametrize("name", RULE_NAMES)
def test_completions_of_partly_filled_boards_match_a_brute_force(binary: Path, name: str) -> None:
    rules = Rules.parse(name)
    rng = random.Random(f"draws {name}")
    found = []
    for empties in (3, 5, 6, 7):
        board = partial_board(rng, rules, empties)
        expected = brute_force(rules, board)
        result = draws.count(binary, rules, board)
        assert result.count == expected, (name, draws.board_argument(board))
        assert result.count == result.labellings * result.multiplier
        found.append(expected)
    assert any(found), "every case has no completion: the boards test little"


def test_a_board_with_a_won_shape_has_no_completion(binary: Path) -> None:
    board: list[int | None] = [0, 1, 2, 3, *([None] * 12)]  # row 1: short and light
    assert draws.count(binary, Rules.parse("classic"), board).count == 0
    assert draws.count(binary, Rules.parse("lines:shape:auto"), board).count > 0


@pytest.mark.parametrize("shapes", draws.SHAPES)
def test_the_whole_board_with_one_counted_trait(binary: Path, shapes: str) -> None:
    # With one counted trait a board is, as far as wins go, the set of cells whose
    # pieces have the trait: eight cells, no shape all in or all out of it.  Each
    # such set stands for 8! * 8! boards.
    masks = Rules.parse(f"{shapes}:height:auto").shape_masks
    sets = 0
    for cells in combinations(range(16), 8):
        chosen = sum(1 << c for c in cells)
        if all(chosen & mask not in (0, mask) for mask in masks):
            sets += 1
    expected = sets * math.factorial(8) ** 2
    for trait in draws.TRAITS:
        assert draws.count(binary, draws.rules_for(shapes, [trait])).count == expected


@pytest.mark.parametrize(
    ("name", "board"),
    [
        ("lines:height,color:auto", "................"),
        ("lines+squares:shape,top:auto", "................"),
        ("lines:color,shape,top:auto", "0.....8.......7."),
        ("lines+squares:height,color,top:auto", "0....1..2......."),
        ("classic", "0....F..3....C.."),
        ("quads", "0.....F.......3C"),
    ],
)
def test_the_symmetry_of_the_pieces_changes_no_count(binary: Path, name: str,
                                                     board: str) -> None:
    # The search tries one class per orbit of the trait maps that fix the classes
    # already placed, weighted by the orbit's size; without that it tries them all.
    rules = Rules.parse(name)
    cells = draws.parse_board(board)
    reduced = draws.count(binary, rules, cells)
    full = draws.count(binary, rules, cells, symmetry=False)
    assert reduced.count == full.count > 0
    assert reduced.nodes < full.nodes


def test_the_split_into_tasks_and_threads_changes_no_count(binary: Path) -> None:
    rules = Rules.parse("lines+squares:height,color,shape:auto")
    board = draws.parse_board("0..3......5....9")
    counts = {draws.count(binary, rules, board, threads=threads, tasks=tasks).count
              for threads in (1, 2) for tasks in (1, 50, 5000)}
    assert len(counts) == 1


def test_the_section_replaces_its_old_self_and_keeps_the_rest(tmp_path: Path) -> None:
    doc = tmp_path / "solved.md"
    doc.write_text("# Title\n\nA table.\n", encoding="utf-8")
    draws.write_section(doc, f"{draws.SECTION}\n\nfirst\n")
    assert doc.read_text(encoding="utf-8") == (
        f"# Title\n\nA table.\n\n{draws.SECTION}\n\nfirst\n")
    doc.write_text(doc.read_text(encoding="utf-8") + "\n## Later\n\nkept\n", encoding="utf-8")
    draws.write_section(doc, f"{draws.SECTION}\n\nsecond\n")
    assert doc.read_text(encoding="utf-8") == (
        f"# Title\n\nA table.\n\n{draws.SECTION}\n\nsecond\n\n## Later\n\nkept\n")
