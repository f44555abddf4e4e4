"""Board symmetries and trait relabelings: computed right, and values keep under them."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.solver.solver_helpers import RULE_SETS, play

from quads.position import Position
from quads.rules import CLASSIC, QUADS, Rules
from quads.shapes import LINES, SHAPES
from quads.solver import solve
from quads.solver.kernel import load_kernel
from quads.solver.root import cells_of
from quads.solver.symmetry import (
    board_symmetries,
    permute_mask,
    trait_transforms,
    transform_position,
)

LINE_MASKS = tuple(shape.cells for shape in LINES)
ALL_MASKS = tuple(shape.cells for shape in SHAPES)


def automorphisms(shape_masks: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every cell permutation keeping the shape set, by plain backtracking (no assumptions)."""
    shapes = [frozenset(c for c in range(16) if m >> c & 1) for m in shape_masks]
    shape_set = set(shapes)
    through = [[s for s in shapes if c in s] for c in range(16)]
    found: set[tuple[int, ...]] = set()

    def extend(perm: list[int]) -> None:
        cell = len(perm)
        if cell == 16:
            if {frozenset(perm[c] for c in s) for s in shapes} == shape_set:
                found.add(tuple(perm))
            return
        for image in range(16):
            if image in perm:
                continue
            perm.append(image)
            # the mapped part of every shape through this cell must lie inside some shape
            if all(any({perm[c] for c in s if c < len(perm)} <= t for t in shapes)
                   for s in through[cell]):
                extend(perm)
            perm.pop()

    extend([])
    return found


@pytest.mark.parametrize(("masks", "count"), [(LINE_MASKS, 32), (ALL_MASKS, 8)])
def test_board_symmetries_are_all_the_automorphisms(masks: tuple[int, ...], count: int) -> None:
    symmetries = board_symmetries(masks)
    assert len(symmetries) == count
    assert len(set(symmetries)) == count
    assert symmetries[0] == tuple(range(16))
    assert set(symmetries) == automorphisms(masks)


def test_board_symmetries_map_shapes_to_shapes() -> None:
    for masks in (LINE_MASKS, ALL_MASKS):
        for perm in board_symmetries(masks):
            assert sorted(permute_mask(m, perm) for m in masks) == sorted(masks)


def test_trait_transforms_count() -> None:
    assert len(trait_transforms(0b1111)) == 384
    assert len(set(trait_transforms(0b1111))) == 384
    # two counted traits permute among themselves, so do the two others
    assert len(trait_transforms(0b0101)) == 2 * 2 * 16


def test_trait_transforms_are_bijections_keeping_counted_traits() -> None:
    for traits in (0b1111, 0b0110, 0b1000):
        counted = [b for b in range(4) if traits >> b & 1]
        for transform in trait_transforms(traits):
            assert sorted(transform.apply(p) for p in range(16)) == list(range(16))
            assert sorted(transform.order[b] for b in counted) == counted


@st.composite
def transformed(draw: st.DrawFn) -> tuple[Position, Position, Rules]:
    rules = Rules.parse(draw(st.sampled_from(RULE_SETS)))
    empties = draw(st.integers(4, 10))
    seed = draw(st.integers(0, 2**32))
    position = play(rules, empties, random.Random(seed), hand=draw(st.booleans()))
    perm = draw(st.sampled_from(board_symmetries(rules.shape_masks)))
    transform = draw(st.sampled_from(trait_transforms(rules.traits)))
    return position, transform_position(position, perm, transform), rules


@settings(max_examples=40)
@given(transformed())
def test_value_is_unchanged_by_symmetry(case: tuple[Position, Position, Rules]) -> None:
    position, image, rules = case
    image.check(rules)
    first, second = solve(position, rules), solve(image, rules)
    assert (first.value, first.plies) == (second.value, second.plies)


@pytest.mark.parametrize("rules", [QUADS, CLASSIC, Rules.parse("lines:color,shape")])
def test_canonical_key_is_the_same_for_every_image(rules: Rules) -> None:
    rng = random.Random(5)
    for kernel in (load_kernel(pure=True), load_kernel(pure=None)):
        engine = kernel.engine(rules.shape_masks, rules.traits, board_symmetries(rules.shape_masks),
                               64, 7, 10, 7)
        for _ in range(3):
            position = play(rules, rng.randrange(6, 13), rng)
            assert position.hand is not None
            keys = set()
            for perm in board_symmetries(rules.shape_masks):
                for transform in trait_transforms(rules.traits):
                    image = transform_position(position, perm, transform)
                    assert image.hand is not None
                    keys.add(engine.key(image.occupied, cells_of(image), image.hand, True))
            assert len(keys) == 1


def test_pieces_differing_only_in_uncounted_traits_are_interchangeable() -> None:
    rules = Rules.parse("lines:color")  # only bit 2 counts
    position = play(rules, 8, random.Random(11))
    assert position.hand is not None
    kernel = load_kernel()
    engine = kernel.engine(rules.shape_masks, rules.traits, board_symmetries(rules.shape_masks),
                           64, 7, 10, 7)
    # swap two pieces of the same colour everywhere: a relabeling of the pieces
    board = position.board
    pieces = [*board.values(), position.hand]
    for a, b in permutations(range(16), 2):
        if (a ^ b) & 0b0100:
            continue
        swap = {a: b, b: a}
        image = Position.from_pieces({c: swap.get(p, p) for c, p in board.items()},
                                     swap.get(position.hand, position.hand))
        assert image.hand is not None
        key = engine.key(position.occupied, cells_of(position), position.hand, True)
        assert engine.key(image.occupied, cells_of(image), image.hand, True) == key
        if a in pieces and b in pieces and a < 2 and b < 8:
            first, second = solve(position, rules), solve(image, rules)
            assert (first.value, first.plies) == (second.value, second.plies)
