"""One-line helpers for the 16-bit masks used everywhere (cells and pieces)."""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["FULL", "iter_bits", "lsb", "popcount"]

FULL = 0xFFFF
"""A mask with all sixteen bits set: every cell, or every piece."""


def popcount(mask: int) -> int:
    """Return the number of set bits of ``mask``."""
    return mask.bit_count()


def lsb(mask: int) -> int:
    """Return the index of the lowest set bit of a non-zero ``mask``."""
    return (mask & -mask).bit_length() - 1


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
