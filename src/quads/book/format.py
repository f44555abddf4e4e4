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
from dataclasses import dataclass
from pathlib import Path

from quads.errors import QuadsError

__all__ = ["FORMAT", "MAGIC", "RECORD", "BookError", "BookHeader", "read_book", "read_records",
           "write_book"]

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


def _payload(scores: dict[int, int]) -> bytes:
    records = bytearray()
    for key in sorted(scores):
        records += key.to_bytes(KEY_BYTES, "big")
        records += scores[key].to_bytes(1, "big", signed=True)
    return bytes(records)


def write_book(path: Path, header: BookHeader, scores: dict[int, int]) -> None:
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


def read_book(path: Path) -> tuple[BookHeader, dict[int, int]]:
    """The header and scores of the book at ``path``.

    :raises BookError: if the file cannot be read or is not a sound book.
    """
    header, _, records = read_records(path)
    scores = {}
    for offset in range(0, len(records), RECORD):
        key = int.from_bytes(records[offset:offset + KEY_BYTES], "big")
        scores[key] = int.from_bytes(records[offset + KEY_BYTES:offset + RECORD], "big",
                                     signed=True)
    return header, scores
