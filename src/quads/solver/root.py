"""The root of a search: the legal turns of a position, grouped and ordered.

Every legal turn either ends the game at once (a winning placement, the last
placement, a hand-over of a piece that wins for the receiver) or leads to a
position in which the opponent holds a safe piece; that position is what the
kernel searches.  Turns whose positions are equivalent under the symmetries
share one *group* and are searched once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quads.position import Position
from quads.rules import Rules
from quads.solver.kernel import Engine
from quads.solver.value import WIN
from quads.turn import Turn

__all__ = ["INFINITY", "Group", "Node", "cells_of", "root_groups"]

INFINITY = WIN + 1
"""Beyond every score: the open ends of a search window."""


def cells_of(position: Position) -> int:
    """The board as sixteen 4-bit piece codes, cell 0 lowest (empty cells read 0)."""
    cells = 0
    for cell, piece in position.board.items():
        cells |= piece << (4 * cell)
    return cells


@dataclass(frozen=True, slots=True)
class Node:
    """A position for the kernel: the side to move holds a safe piece ``hand``."""

    occupied: int
    cells: int
    hand: int
    supply: int
    ply: int
    """Placements made since the root before this node's first placement."""

    @classmethod
    def of(cls, position: Position, ply: int) -> Node:
        """The node of ``position`` (which must have a piece in hand)."""
        assert position.hand is not None
        return cls(position.occupied, cells_of(position), position.hand, position.supply, ply)


@dataclass(slots=True)
class Group:
    """Root turns with the same value: one search (or none) decides them all.

    ``lower`` and ``upper`` bound the score of the turns from the root's side;
    they meet once the score is known exactly.
    """

    turns: list[Turn]
    node: Node | None
    """The position the kernel searches (negated), or ``None`` when the score is known."""
    lower: int = -INFINITY
    upper: int = INFINITY
    order: int = 0
    """Search order: lower first."""
    key: int = field(default=0, repr=False)

    @property
    def exact(self) -> int | None:
        """The score, once known exactly."""
        return self.lower if self.lower == self.upper else None

    def learn(self, score: int, alpha: int, beta: int) -> None:
        """Record the fail-soft result ``score`` of a search with window ``(alpha, beta)``."""
        if score <= alpha:
            self.upper = min(self.upper, score)
        elif score >= beta:
            self.lower = max(self.lower, score)
        else:
            self.lower = self.upper = score


def root_groups(position: Position, rules: Rules, engine: Engine) -> list[Group]:
    """The legal turns of ``position`` (checked beforehand) in groups, in search order.

    Winning placements come first, then the searched groups (most promising
    first), then turns that draw at once, then those that lose at once.
    """
    groups: list[Group] = []
    by_key: dict[int, Group] = {}

    def known(turn: Turn, score: int) -> None:
        groups.append(Group([turn], None, score, score))

    def searched(turn: Turn, node: Node) -> None:
        key = engine.key(node.occupied, node.cells, node.hand, True)
        group = by_key.get(key)
        if group is None:
            group = by_key[key] = Group([], node, key=key)
            groups.append(group)
        group.turns.append(turn)

    if position.hand is None:
        danger = position.danger(rules)
        for turn in position.legal_turns(rules):
            assert turn.give is not None
            if danger >> turn.give & 1:
                known(turn, -(WIN - 1))  # the receiver wins with the first placement
            else:
                searched(turn, Node.of(position.give(turn.give), 0))
    else:
        winning = position.winning_cells(position.hand, rules)
        for turn in position.legal_turns(rules):
            assert turn.place is not None
            placed = position.place(turn.place)
            if turn.give is None:
                known(turn, WIN - 1 if winning >> turn.place & 1 else 0)
            elif placed.danger(rules) >> turn.give & 1:
                known(turn, -(WIN - 2))
            else:
                searched(turn, Node.of(placed.give(turn.give), 1))

    _order(groups, position, engine)
    return groups


def _order(groups: list[Group], position: Position, engine: Engine) -> None:
    """Sort ``groups`` into search order, using the kernel's own move ordering."""
    rank: dict[tuple[int | None, int | None], int] = {}
    if position.hand is not None:
        moves = engine.moves(position.occupied, cells_of(position), position.hand, position.supply)
        for index, (cell, piece, _, _) in enumerate(moves):
            rank[(cell, piece)] = index
    else:
        # Hand-overs: fewest choices for the receiver first.
        for group in groups:
            node = group.node
            if node is not None:
                choices = len(engine.moves(node.occupied, node.cells, node.hand, node.supply))
                for turn in group.turns:
                    rank[(turn.place, turn.give)] = choices * 16 + (turn.give or 0)
    for index, group in enumerate(groups):
        if group.node is None:
            score = group.lower
            group.order = -1_000_000 if score > 0 else 1_000_000 if score == 0 else 2_000_000
            group.order += index
        else:
            group.order = min(rank.get((t.place, t.give), 500_000) for t in group.turns)
    groups.sort(key=lambda group: group.order)
