"""The book file: a versioned header, then the solved positions, compressed.

A book holds the exact score (see :mod:`quads.solver.value`) of every position
it covers, keyed by the solver's canonical key, so that one entry serves every
position that a board symmetry or a relabelling of the pieces carries onto it.
The file is::

    QUADS-BOOK\\n
    {"format": 1, "game": "lines+squares:color,height,shape,top", "min_empty": 14,
     "positions": 12507, "sha256": "..."}\\n          (one line of JSON, sorted keys)
    xz-compressed records, sorted by key: 10 bytes of key (big-endian), 1 byte of
    score (signed)

The same positions always give the same bytes.  Reading checks everything (the
magic line, the header's fields, the length and digest of the records) and
refuses a file that fails with one :class:`BookError` naming it.
"""

from __future__ import annotations

import hashlib
import json
import lzma
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from quads.errors import QuadsError

__all__ = ["FORMAT", "MAGIC", "RECORD", "BookError", "BookHeader", "Scores", "cut_records",
           "empties_of", "read_book", "read_records", "write_book"]

MAGIC = b"QUADS-BOOK\n"
FORMAT = 1
KEY_BYTES = 10
RECORD = KEY_BYTES + 1


class BookError(QuadsError):
    """A book file that cannot be used: missing, truncated, corrupt or foreign."""


@dataclass(frozen=True, slots=True)
class BookHeader:
    """What a book covers."""

    game: str
    """The shape set and counted traits it was solved for, e.g. ``lines:color,height,shape,top``
    (calling wins does not change a value, so one book serves both callings)."""
    min_empty: int
    """Every turn of every position with at least this many empty cells is judged by it."""
    positions: int


class Scores(Mapping[int, int]):
    """A book's scores by canonical key, read from its sorted records by binary search.

    The records stay one block of bytes (11 bytes a position), so that a book of
    millions of positions costs its size in memory and no time to index.
    """

    __slots__ = ("_count", "_records")

    def __init__(self, records: bytes) -> None:
        if len(records) % RECORD:
            raise ValueError(f"records of {RECORD} bytes expected, got {len(records)} bytes")
        self._records = records
        self._count = len(records) // RECORD

    def _index(self, key: int) -> int:
        """The record of ``key``, or -1."""
        if not 0 <= key < 1 << (8 * KEY_BYTES):
            return -1
        wanted = key.to_bytes(KEY_BYTES, "big")
        records = self._records
        low, high = 0, self._count
        while low < high:
            middle = (low + high) // 2
            start = middle * RECORD
            if records[start:start + KEY_BYTES] < wanted:
                low = middle + 1
            else:
                high = middle
        start = low * RECORD
        if low < self._count and records[start:start + KEY_BYTES] == wanted:
            return low
        return -1

    def _score(self, index: int) -> int:
        byte = self._records[index * RECORD + KEY_BYTES]
        return byte - 256 if byte >= 128 else byte

    def __getitem__(self, key: int) -> int:
        index = self._index(key) if isinstance(key, int) else -1
        if index < 0:
            raise KeyError(key)
        return self._score(index)

    def get(self, key: int, default: int | None = None) -> int | None:  # type: ignore[override]
        """The score of ``key``, or ``default``."""
        index = self._index(key) if isinstance(key, int) else -1
        return default if index < 0 else self._score(index)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, int) and self._index(key) >= 0

    def __len__(self) -> int:
        return self._count

    @property
    def records(self) -> bytes:
        """The records themselves: sorted keys, each followed by its score."""
        return self._records

    def __iter__(self) -> Iterator[int]:
        records = self._records
        for start in range(0, len(records), RECORD):
            yield int.from_bytes(records[start:start + KEY_BYTES], "big")


def empties_of(key: int) -> int:
    """The number of empty cells of the position with this canonical key (its top
    16 bits are the occupied cells, under a board symmetry)."""
    return 16 - (key >> 64).bit_count()


def cut_records(records: bytes, min_empties: int) -> bytes:
    """The records (in their order) of the positions with at least ``min_empties``
    empty cells."""
    if len(records) % RECORD:
        raise ValueError(f"records of {RECORD} bytes expected, got {len(records)} bytes")
    kept = bytearray()
    for start in range(0, len(records), RECORD):
        if 16 - records[start].bit_count() - records[start + 1].bit_count() >= min_empties:
            kept += records[start:start + RECORD]
    return bytes(kept)


def _payload(scores: Mapping[int, int]) -> bytes:
    records = bytearray()
    for key in sorted(scores):
        records += key.to_bytes(KEY_BYTES, "big")
        records += scores[key].to_bytes(1, "big", signed=True)
    return bytes(records)


def write_book(path: Path, header: BookHeader, scores: Mapping[int, int]) -> None:
    """Write a book (atomically: a reader never sees half a file)."""
    if header.positions != len(scores):
        raise ValueError(f"the header counts {header.positions} positions, not {len(scores)}")
    records = _payload(scores)
    meta = {
        "format": FORMAT, "game": header.game, "min_empty": header.min_empty,
        "positions": header.positions, "sha256": hashlib.sha256(records).hexdigest(),
    }
    compressed = lzma.compress(records, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=9)
    data = MAGIC + json.dumps(meta, sort_keys=True).encode() + b"\n" + compressed
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    temporary.replace(path)


def read_records(path: Path) -> tuple[BookHeader, bytes, bytes]:
    """The header of the book at ``path``, its header line (the JSON, as written) and
    its records (decompressed: sorted keys and scores), all checked.

    :raises BookError: if the file cannot be read or is not a sound book.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BookError(f"{path}: cannot read the book: {exc.strerror or exc}") from None
    if not data.startswith(MAGIC):
        raise BookError(f"{path}: not a Quads book")
    line_end = data.find(b"\n", len(MAGIC))
    try:
        if line_end < 0:
            raise ValueError("no header")
        meta = json.loads(data[len(MAGIC):line_end])
        if meta.get("format") != FORMAT:
            raise BookError(f"{path}: book format {meta.get('format')!r}, this version reads "
                            f"format {FORMAT}")
        header = BookHeader(str(meta["game"]), int(meta["min_empty"]), int(meta["positions"]))
        digest = str(meta["sha256"])
    except (ValueError, KeyError, TypeError, AttributeError):
        raise BookError(f"{path}: the book's header is damaged") from None
    try:
        records = lzma.decompress(data[line_end + 1:], format=lzma.FORMAT_XZ)
    except lzma.LZMAError:
        raise BookError(f"{path}: the book is truncated or damaged") from None
    if len(records) != header.positions * RECORD or hashlib.sha256(records).hexdigest() != digest:
        raise BookError(f"{path}: the book's positions do not match its header")
    return header, data[len(MAGIC):line_end], records


def read_book(path: Path) -> tuple[BookHeader, Scores]:
    """The header and scores of the book at ``path``.

    :raises BookError: if the file cannot be read or is not a sound book.
    """
    header, _, records = read_records(path)
    return header, Scores(records)  # in key order: write_book sorts, the digest vouches
