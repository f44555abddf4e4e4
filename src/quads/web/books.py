"""The opening books for the page: ``GET /engine/books/{name}.bin``.

The page judges turns near the empty board from the same books as the library
(``js/engine/book.js``), so that it plays without the server.  Browsers read no
xz, so each shipped book is served decompressed, once checked::

    QUADS-BOOK-RECORDS\\n
    the book file's header line (JSON: format, game, min_empty, positions, sha256)\\n
    the records: 10 bytes of canonical key (big-endian), 1 byte of score (signed)

A book that reaches deeper than :data:`PAGE_MIN_EMPTY` is served cut at it: the
positions of at least ``PAGE_MIN_EMPTY - 1`` empty cells, under a header line of
their own (``min_empty``, ``positions`` and ``sha256`` of what is served).  Deeper
than that a book grows some twentyfold per cell while the page's own engine needs
a few seconds there, so a phone keeps a book of well under a megabyte: classic's,
which the library reads down to 12 empty cells, would be 20 MB served whole (4.2
gzipped) instead of 1 MB (0.2).  Down to 13 empty cells the page and the server
judge from the same records; at 12 empty cells of classic the page searches
where the server reads its book: both are exact, but level 5 may choose another
of the turns that keep the value.

The names are fixed (one per shipped book: ``lines-squares``, ``lines``); any other
name is ``404``, any method but ``GET`` and ``HEAD`` ``405``.  The bytes are made
once per process; the answer carries the records' digest as its ``ETag`` and is
revalidated (``304`` when unchanged), so the service worker's copy
(:mod:`quads.web.pwa`) stays current at the cost of a few bytes.  A client that
accepts gzip gets the bytes gzipped (a fifth of their size: 0.8 MB for the book of
lines and squares instead of 3.6), under an ``ETag`` of their own.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from functools import cache

from fastapi import FastAPI
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from quads.book.format import RECORD, cut_records, read_records
from quads.book.probe import SHIPPED, shipped_path
from quads.rules import Rules

__all__ = ["MAGIC", "NAMES", "PAGE_MIN_EMPTY", "PREFIX", "book_bytes", "book_digest",
           "book_paths", "install"]

MAGIC = b"QUADS-BOOK-RECORDS\n"
PREFIX = "/engine/books/"
MEDIA_TYPE = "application/octet-stream"

PAGE_MIN_EMPTY = 13
"""The page's books judge every turn down to this many empty cells at most."""

NAMES: dict[str, str] = {file.removesuffix(".qbook"): game for game, file in SHIPPED.items()}
"""The served name of each shipped book, and the game it is for."""


@cache
def _served(name: str) -> tuple[bytes, str] | None:
    """The bytes served for ``name`` and their digest, or ``None`` if the book is missing."""
    game = NAMES[name]
    shapes, traits = game.split(":")
    path = shipped_path(Rules.parse(f"{shapes}:{traits}"))
    if not path.exists():
        return None
    header, line, records = read_records(path)
    if header.game != game:
        return None
    meta = json.loads(line)
    if header.min_empty < PAGE_MIN_EMPTY:
        records = cut_records(records, PAGE_MIN_EMPTY - 1)
        meta.update(min_empty=PAGE_MIN_EMPTY, positions=len(records) // RECORD,
                    sha256=hashlib.sha256(records).hexdigest())
        line = json.dumps(meta, sort_keys=True).encode()
    return MAGIC + line + b"\n" + records, str(meta["sha256"])


@cache
def _gzipped(name: str) -> bytes:
    """The bytes served for ``name``, gzipped once per process (a fifth of their size)."""
    served = _served(name)
    assert served is not None
    return gzip.compress(served[0], compresslevel=6, mtime=0)


def _accepts_gzip(request: Request) -> bool:
    for part in request.headers.get("accept-encoding", "").split(","):
        coding, _, quality = part.strip().partition(";")
        if coding.strip().lower() == "gzip":
            return quality.strip().replace(" ", "") not in ("q=0", "q=0.0", "q=0.00")
    return False


def book_bytes(name: str) -> bytes | None:
    """What ``/engine/books/{name}.bin`` serves, or ``None`` (no such book).

    :raises BookError: if the shipped book is damaged.
    """
    served = _served(name) if name in NAMES else None
    return None if served is None else served[0]


def book_digest(name: str) -> str | None:
    """The SHA-256 digest of the records of the book ``name``, or ``None``."""
    served = _served(name) if name in NAMES else None
    return None if served is None else served[1]


def book_paths() -> list[str]:
    """The addresses of the books this installation serves."""
    return [f"{PREFIX}{name}.bin" for name in sorted(NAMES) if book_bytes(name) is not None]


def _book(request: Request) -> Response:
    if request.method not in ("GET", "HEAD"):
        raise HTTPException(status_code=405)
    file = str(request.path_params["file"])
    name = file.removesuffix(".bin")
    served = _served(name) if file.endswith(".bin") and name in NAMES else None
    if served is None:
        raise HTTPException(status_code=404)
    body, digest = served
    zipped = _accepts_gzip(request)
    etag = f'"{digest[:32]}{"-gz" if zipped else ""}"'
    headers = {"ETag": etag, "Cache-Control": "public, no-cache", "Vary": "Accept-Encoding"}
    if etag in (tag.strip() for tag in request.headers.get("if-none-match", "").split(",")):
        return Response(status_code=304, headers=headers)
    if zipped:
        headers["Content-Encoding"] = "gzip"
        body = _gzipped(name)
    return Response(body, media_type=MEDIA_TYPE, headers=headers)


def install(app: FastAPI) -> None:
    """Add the books' route to ``app`` (before the page's files are mounted)."""
    app.router.routes.append(Route(
        PREFIX + "{file}", _book, include_in_schema=False,
        methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]))
