"""Symmetries of the game: board permutations and piece relabelings that keep every value.

A *board symmetry* is a permutation of the sixteen cells that maps the winning
shapes of a shape set onto themselves.  The ten lines have 32 of them (the eight
rotations and reflections of the square, times the swaps of the inner and outer
rows and columns); adding the nine 2x2 squares leaves only the eight of the square.
They are computed here, not listed, so a test can check them.

A *trait transform* relabels the pieces: permute the counted traits among
themselves, then complement some of them.  With all four traits counted there
are 4! x 2^4 = 384.  Uncounted traits never decide a win, so the solver treats
two pieces that differ only in uncounted traits as the same piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations

from quads.position import Position
from quads.rules import Rules
from quads.turn import Turn

__all__ = [
    "TraitTransform",
    "board_symmetries",
    "permute_mask",
    "trait_transforms",
    "transform_position",
    "transform_turn",
]

CellPermutation = tuple[int, ...]
"""``perm[cell]`` is the cell that ``cell`` is carried to."""


def permute_mask(mask: int, perm: CellPermutation) -> int:
    """Carry a 16-bit cell mask through the cell permutation ``perm``."""
    out = 0
    for cell in range(16):
        if mask >> cell & 1:
            out |= 1 << perm[cell]
    return out


@cache
def board_symmetries(shape_masks: tuple[int, ...]) -> tuple[CellPermutation, ...]:
    """Every cell permutation that maps the set ``shape_masks`` onto itself, identity first.

    Only permutations that move whole rows and whole columns (possibly
    exchanging the two, as a transposition does) are candidates; that covers
    every symmetry of both shape sets because rows and columns are the only
    two families of four disjoint lines.
    """
    shapes = frozenset(shape_masks)
    found: list[CellPermutation] = []
    for transpose in (False, True):
        for rows in permutations(range(4)):
            for cols in permutations(range(4)):
                perm = tuple(
                    cols[c % 4] * 4 + rows[c // 4] if transpose
                    else rows[c // 4] * 4 + cols[c % 4]
                    for c in range(16)
                )
                if frozenset(permute_mask(m, perm) for m in shape_masks) == shapes:
                    found.append(perm)
    identity = tuple(range(16))
    found.remove(identity)
    return (identity, *found)


@dataclass(frozen=True, slots=True)
class TraitTransform:
    """A piece relabeling: trait bit ``b`` moves to bit ``order[b]``, then XOR ``flip``."""

    order: tuple[int, int, int, int]
    flip: int

    def apply(self, piece: int) -> int:
        """The relabeled piece."""
        out = 0
        for bit in range(4):
            if piece >> bit & 1:
                out |= 1 << self.order[bit]
        return out ^ self.flip


@cache
def trait_transforms(traits: int) -> tuple[TraitTransform, ...]:
    """The relabelings that keep the counted traits ``traits`` (a trait mask) counted.

    Counted trait bits are permuted among themselves and uncounted ones among
    themselves; any bits may be complemented.  The identity comes first.
    """
    counted = [b for b in range(4) if traits >> b & 1]
    other = [b for b in range(4) if not traits >> b & 1]
    found: list[TraitTransform] = []
    for image_counted in permutations(counted):
        for image_other in permutations(other):
            order = [0, 0, 0, 0]
            for src, dst in zip(counted + other, image_counted + image_other, strict=True):
                order[src] = dst
            for flip in range(16):
                found.append(TraitTransform((order[0], order[1], order[2], order[3]), flip))
    return tuple(found)


def transform_position(
    position: Position, perm: CellPermutation, transform: TraitTransform
) -> Position:
    """The position with cells carried by ``perm`` and pieces relabeled by ``transform``."""
    board = {perm[cell]: transform.apply(piece) for cell, piece in position.board.items()}
    hand = None if position.hand is None else transform.apply(position.hand)
    return Position.from_pieces(board, hand)


def transform_turn(turn: Turn, perm: CellPermutation, transform: TraitTransform) -> Turn:
    """The turn as it reads after :func:`transform_position` with the same arguments."""
    return Turn(
        None if turn.place is None else perm[turn.place],
        None if turn.give is None else transform.apply(turn.give),
    )


def rules_symmetries(rules: Rules) -> tuple[CellPermutation, ...]:
    """The board symmetries of the shape set of ``rules``."""
    return board_symmetries(rules.shape_masks)
