"""The opening books served to the page: ``GET /engine/books/{name}.bin``."""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads import CLASSIC, QUADS
from quads.book import book_for
from quads.book.format import KEY_BYTES, RECORD, empties_of
from quads.web import books as books_module
from quads.web.app import create_app
from quads.web.books import MAGIC, PAGE_MIN_EMPTY
from quads.web.pwa import kept_files

BOOKS = {"lines-squares": QUADS, "lines": CLASSIC}


@pytest.fixture
def client(db_path: Path) -> TestClient:
    with TestClient(create_app(db_path)) as client:
        yield client  # type: ignore[misc]


@pytest.mark.parametrize("name", sorted(BOOKS))
def test_a_book_is_served_with_every_record_of_the_shipped_book_the_page_needs(
        client: TestClient, name: str) -> None:
    """Every record of the positions of at least ``PAGE_MIN_EMPTY - 1`` empty cells,
    and no other: a deeper book is cut where the page's reach ends."""
    book = book_for(BOOKS[name])
    assert book is not None
    answer = client.get(f"/engine/books/{name}.bin")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/octet-stream"
    body = answer.content
    assert body.startswith(MAGIC)
    line_end = body.index(b"\n", len(MAGIC))
    header = json.loads(body[len(MAGIC):line_end])
    assert header["game"] == book.header.game
    assert header["min_empty"] == max(book.header.min_empty, PAGE_MIN_EMPTY)
    reach = header["min_empty"] - 1
    wanted = {key: score for key, score in book.scores.items() if empties_of(key) >= reach}
    assert header["positions"] == len(wanted) > 0
    records = body[line_end + 1:]
    assert hashlib.sha256(records).hexdigest() == header["sha256"]
    assert len(records) == RECORD * len(wanted)
    served = {
        int.from_bytes(records[at:at + KEY_BYTES], "big"):
            int.from_bytes(records[at + KEY_BYTES:at + RECORD], "big", signed=True)
        for at in range(0, len(records), RECORD)
    }
    assert served == wanted
    keys = [records[at:at + KEY_BYTES] for at in range(0, len(records), RECORD)]
    assert keys == sorted(keys)


def test_a_book_is_cacheable_and_revalidated(client: TestClient) -> None:
    answer = client.get("/engine/books/lines.bin")
    etag = answer.headers["etag"]
    assert "no-cache" in answer.headers["cache-control"]
    again = client.get("/engine/books/lines.bin", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert client.head("/engine/books/lines.bin").status_code == 200


@pytest.mark.parametrize("name", sorted(BOOKS))
def test_a_client_that_takes_gzip_gets_a_fifth_of_the_bytes(client: TestClient,
                                                             name: str) -> None:
    plain = client.get(f"/engine/books/{name}.bin", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.headers["vary"] == "Accept-Encoding"
    zipped = client.get(f"/engine/books/{name}.bin", headers={"Accept-Encoding": "br, gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.content == plain.content  # decoded by the client: the same records
    assert int(zipped.headers["content-length"]) * 3 < len(plain.content)
    assert zipped.headers["etag"] != plain.headers["etag"]
    again = client.get(f"/engine/books/{name}.bin", headers={
        "Accept-Encoding": "gzip", "If-None-Match": zipped.headers["etag"]})
    assert again.status_code == 304
    refused = client.get(f"/engine/books/{name}.bin", headers={"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in refused.headers


@pytest.mark.parametrize("path", [
    "/engine/books/quads.bin", "/engine/books/lines", "/engine/books/lines.qbook",
    "/engine/books/lines.bin.bin", "/engine/books/..%2Flines.bin", "/engine/books/",
    "/engine/books/lines-squares.BIN", "/engine/books/a/lines.bin",
])
def test_unknown_books_are_not_found(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no_route"


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
def test_only_get_and_head_are_allowed(client: TestClient, method: str) -> None:
    answer = client.request(method, "/engine/books/lines.bin")
    assert answer.status_code == 405
    assert answer.headers["allow"] == "GET, HEAD"


def test_the_service_worker_keeps_the_books_and_the_engine(client: TestClient) -> None:
    from quads.web.app import STATIC_DIR

    files = kept_files(STATIC_DIR)
    assert {"/engine/books/lines.bin", "/engine/books/lines-squares.bin",
            "/engine/quads.wasm"} <= set(files)


def test_a_book_deeper_than_the_page_reaches_is_served_cut(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the page's reach one cell short of the shipped book's, the positions of
    ``PAGE_MIN_EMPTY - 1`` empty cells and more are served, under a header of their own."""
    book = book_for(CLASSIC)
    assert book is not None
    reach = book.header.min_empty + 1
    monkeypatch.setattr(books_module, "PAGE_MIN_EMPTY", reach)
    books_module._served.cache_clear()
    books_module._gzipped.cache_clear()
    try:
        body = client.get("/engine/books/lines.bin", headers={"Accept-Encoding": "identity"})
        assert body.status_code == 200
        data = body.content
    finally:
        books_module._served.cache_clear()
        books_module._gzipped.cache_clear()
    line_end = data.index(b"\n", len(MAGIC))
    header = json.loads(data[len(MAGIC):line_end])
    records = data[line_end + 1:]
    wanted = {key: score for key, score in book.scores.items() if empties_of(key) >= reach - 1}
    assert 0 < len(wanted) < len(book.scores)
    assert header["min_empty"] == reach
    assert header["positions"] == len(wanted)
    assert header["sha256"] == hashlib.sha256(records).hexdigest()
    served = {int.from_bytes(records[at:at + KEY_BYTES], "big"):
              int.from_bytes(records[at + KEY_BYTES:at + RECORD], "big", signed=True)
              for at in range(0, len(records), RECORD)}
    assert served == wanted
