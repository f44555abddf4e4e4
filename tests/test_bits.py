"""The mask helpers of :mod:`quads.bits`."""

from __future__ import annotations

import pytest

from quads.bits import FULL, iter_bits, lsb, popcount


def test_full_mask_has_sixteen_bits() -> None:
    assert FULL == 0xFFFF
    assert popcount(FULL) == 16


@pytest.mark.parametrize(
    ("mask", "count"), [(0, 0), (1, 1), (0b1011, 3), (0x8000, 1), (0xFFFF, 16)]
)
def test_popcount(mask: int, count: int) -> None:
    assert popcount(mask) == count


@pytest.mark.parametrize(("mask", "low"), [(1, 0), (0b1000, 3), (0b1010_0000, 5), (0x8000, 15)])
def test_lsb(mask: int, low: int) -> None:
    assert lsb(mask) == low


def test_iter_bits_yields_set_bits_lowest_first() -> None:
    assert list(iter_bits(0)) == []
    assert list(iter_bits(0b1000_0000_0010_0101)) == [0, 2, 5, 15]
    assert list(iter_bits(FULL)) == list(range(16))
