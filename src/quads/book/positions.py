"""The positions a book covers, found by playing out every turn from the empty board.

A position in a book is a solver *node*: a board and the piece in hand of the
side to move, who cannot win with it at once (a piece that wins at once is
never worth a book entry: :mod:`quads.solver.root` scores such turns without
search).  Positions are kept once per canonical key, each by the smallest
``(occupied, cells, hand)`` that has it, so the same positions come out
whatever order they are found in.

To judge every turn of the positions with at least ``min_empty`` empty cells,
a book holds those and the positions their turns lead to, one empty cell
fewer: a turn's value is then the value of the position it leads to.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from quads.position import Position
from quads.rules import FalseCalls, Rules
from quads.solver.kernel import Engine, load_kernel
from quads.solver.root import Group, Node, cells_of, root_groups
from quads.solver.search import CANON_MIN, ORDER_MIN, TT_MIN
from quads.solver.symmetry import board_symmetries

__all__ = ["BookNode", "canonical_key", "game_name", "key_engine", "node_position",
           "positions_to_solve", "turn_groups"]

BookNode = tuple[int, int, int, int]
"""``(occupied, cells, hand, supply)`` of a position to solve."""


def game_name(rules: Rules) -> str:
    """What a book's values depend on: the shape set and the counted traits,
    e.g. ``lines+squares:color,height,shape,top``."""
    traits = ",".join(sorted(t.identifier for t in rules.counted_traits))
    return f"{rules.shapes.value}:{traits}"


@cache
def key_engine(shapes: tuple[int, ...], traits: int) -> Engine:
    """A small engine whose only use is its canonical keys (and move lists)."""
    kernel = load_kernel()
    return kernel.engine(shapes, traits, board_symmetries(shapes), 1 << 10, TT_MIN,
                         CANON_MIN, ORDER_MIN)


def canonical_key(position: Position, rules: Rules) -> tuple[str, bool, int]:
    """The key of ``position`` under ``rules``: equal for symmetric positions.

    A position with a piece in hand is keyed as the book keys it; one whose side
    to move hands over a piece (none in hand) by the least key over the sixteen
    pieces it could be holding, which relabelings carry into each other.
    """
    engine = key_engine(rules.shape_masks, rules.traits)
    cells = cells_of(position)
    name = rules.with_false_calls(FalseCalls.FREE).name  # the values do not depend on it
    if position.hand is not None:
        return name, True, engine.key(position.occupied, cells, position.hand, True)
    return name, False, min(engine.key(position.occupied, cells, hand, True)
                            for hand in range(16))


def _engine(rules: Rules) -> Engine:
    return key_engine(rules.shape_masks, rules.traits)


def node_position(node: BookNode) -> Position:
    """The position of a book node."""
    occupied, cells, hand, _ = node
    board = {cell: cells >> (4 * cell) & 15 for cell in range(16) if occupied >> cell & 1}
    return Position.from_pieces(board, hand)


def turn_groups(position: Position, rules: Rules) -> list[Group]:
    """The legal turns of ``position`` grouped as the solver groups them (see
    :func:`quads.solver.root.root_groups`): a group either has its score
    already, or leads to the node that decides it."""
    return root_groups(position, rules, _engine(rules))


@dataclass(frozen=True, slots=True)
class Level:
    """The positions with one number of empty cells, by canonical key."""

    empty: int
    nodes: dict[int, BookNode]


def _children(node: BookNode, rules: Rules) -> Iterator[tuple[int, BookNode]]:
    for group in turn_groups(node_position(node), rules):
        child: Node | None = group.node
        if child is not None and group.key is not None:
            yield group.key, (child.occupied, child.cells, child.hand, child.supply)


def _keep(found: dict[int, BookNode], key: int, node: BookNode) -> None:
    known = found.get(key)
    if known is None or node < known:
        found[key] = node


def positions_to_solve(rules: Rules, min_empty: int) -> list[Level]:
    """Every position a book with ``min_empty`` holds, level by level from the
    empty board down to ``min_empty - 1`` empty cells.

    :raises ValueError: if ``min_empty`` is not between 1 and 16.
    """
    if not 1 <= min_empty <= 16:
        raise ValueError(f"invalid min_empty {min_empty!r}: expected 1 to 16")
    first: dict[int, BookNode] = {}
    empty_board = Position.from_pieces({})
    for group in turn_groups(empty_board, rules):
        given = group.node
        if given is not None and group.key is not None:
            _keep(first, group.key, (given.occupied, given.cells, given.hand, given.supply))
    levels = [Level(16, first)]
    while levels[-1].empty >= min_empty and levels[-1].empty > 1:
        found: dict[int, BookNode] = {}
        for parent in levels[-1].nodes.values():
            for key, child in _children(parent, rules):
                _keep(found, key, child)
        levels.append(Level(levels[-1].empty - 1, found))
    return levels
