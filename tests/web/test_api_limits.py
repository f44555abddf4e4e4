"""What a request may carry: at most 64 KiB, and JSON under ``/api/``; and the API's
documentation page, served from local files only."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from quads.web.middleware.limits import MAX_BODY

NEW = b'{"mode": "local", "rules": "classic"}'


def refused(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    data = answer.json()
    assert set(data) == {"error"}
    assert data["error"]["code"] == code
    message: str = data["error"]["message"]
    assert message
    return message


def padded(size: int) -> bytes:
    """The body of a new game, padded with spaces to ``size`` bytes."""
    return NEW[:-1] + b" " * (size - len(NEW)) + b"}"


def chunks(body: bytes, size: int = 4096) -> Iterator[bytes]:
    """The body in pieces: sent chunked, without a Content-Length."""
    for start in range(0, len(body), size):
        yield body[start:start + size]


@pytest.fixture
def game(api: Any) -> dict[str, Any]:
    view: dict[str, Any] = api.play(api.new(rules="classic"), "7")
    return view


# ---- size ----------------------------------------------------------------------------------


def test_64_kib_are_accepted(api: Any, client: Any) -> None:
    body = padded(MAX_BODY)
    assert len(body) == MAX_BODY == 64 * 1024
    answer = client.post("/api/games", content=body,
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 201, answer.text
    chunked = client.post("/api/games", content=chunks(body),
                          headers={"Content-Type": "application/json"})
    assert chunked.status_code == 201, chunked.text
    assert "content-length" not in chunked.request.headers


@pytest.mark.parametrize("send", ["length", "chunked"])
@pytest.mark.parametrize("size", [MAX_BODY + 1, 10 * MAX_BODY])
def test_a_larger_body_is_refused(api: Any, client: Any, game: dict[str, Any], send: str,
                                  size: int) -> None:
    before = api.stored(game["id"])
    headers = {"Content-Type": "application/json"}
    body = padded(size)
    content = body if send == "length" else chunks(body)
    answer = client.post("/api/games", content=content, headers=headers)
    assert "64 KiB" in refused(answer, 413, "too_large")
    if send == "chunked":
        assert "content-length" not in answer.request.headers
        assert answer.request.headers["transfer-encoding"] == "chunked"
    action = {"revision": game["revision"], "action": "place", "cell": "A1"}
    text = json.dumps(action).encode()
    big = text[:-1] + b" " * size + b"}"
    answer = client.post(f"/api/games/{game['id']}/actions",
                         content=big if send == "length" else chunks(big), headers=headers)
    refused(answer, 413, "too_large")
    record = '[Rules "classic"]\n\n1. 7 *\n' + "\n" * size
    answer = client.post("/api/games/import", json={"record": record, "mode": "local"})
    refused(answer, 413, "too_large")
    assert api.stored(game["id"]) == before
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [game["id"]]


# ---- content type ----------------------------------------------------------------------------


@pytest.mark.parametrize(("content_type", "body"), [
    ("text/plain", NEW),
    ("application/x-www-form-urlencoded", b"mode=local&rules=classic"),
    ("multipart/form-data; boundary=x",
     b'--x\r\nContent-Disposition: form-data; name="mode"\r\n\r\nlocal\r\n--x--\r\n'),
    ("text/json", NEW),
    ("application/jsonp", NEW),
    (None, NEW),
])
def test_a_body_that_is_not_json_is_refused(api: Any, client: Any, game: dict[str, Any],
                                            content_type: str | None, body: bytes) -> None:
    before = api.stored(game["id"])
    headers = {} if content_type is None else {"Content-Type": content_type}
    answer = client.post("/api/games", content=body, headers=headers)
    assert "JSON" in refused(answer, 415, "unsupported_media_type")
    action = json.dumps({"revision": game["revision"], "action": "place", "cell": "A1"})
    answer = client.post(f"/api/games/{game['id']}/actions", content=action.encode(),
                         headers=headers)
    refused(answer, 415, "unsupported_media_type")
    answer = client.post(f"/api/games/{game['id']}/resign",
                         content=json.dumps({"revision": game["revision"]}).encode(),
                         headers=headers)
    refused(answer, 415, "unsupported_media_type")
    assert api.stored(game["id"]) == before
    assert len(client.get("/api/games").json()["games"]) == 1


@pytest.mark.parametrize("content_type", [
    "application/json", "application/json; charset=utf-8", "Application/JSON",
    "application/vnd.quads+json",
])
def test_json_by_any_name_is_accepted(client: Any, content_type: str) -> None:
    answer = client.post("/api/games", content=NEW, headers={"Content-Type": content_type})
    assert answer.status_code == 201, answer.text


def test_no_body_needs_no_content_type(api: Any, client: Any) -> None:
    over = api.act(api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E", "D1"),
                   "declare")
    answer = client.post(f"/api/games/{over['id']}/rematch")
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize("body", [b'{"mode": "local",', b"{mode: local}", b"\xff\xfe{}",
                                  b'{"mode": "local"} trailing'])
def test_malformed_json_is_refused(api: Any, client: Any, game: dict[str, Any],
                                   body: bytes) -> None:
    before = api.stored(game["id"])
    headers = {"Content-Type": "application/json"}
    message = refused(client.post("/api/games", content=body, headers=headers), 400,
                      "bad_request")
    assert "JSON" in message
    answer = client.post(f"/api/games/{game['id']}/actions", content=body, headers=headers)
    assert "JSON" in refused(answer, 400, "bad_request")
    assert api.stored(game["id"]) == before
    assert len(client.get("/api/games").json()["games"]) == 1


# ---- the documentation ---------------------------------------------------------------------


def test_the_docs_are_served_from_local_files(client: Any) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    html = page.text
    assert "swagger-ui" in html.lower()
    assert "http://" not in html
    assert "https://" not in html
    assets = re.findall(r'<(?:script|link|img)\b[^>]*?\b(?:src|href)\s*=\s*["\']([^"\']+)', html,
                        flags=re.IGNORECASE)
    scripts = [a for a in assets if a.endswith(".js")]
    styles = [a for a in assets if a.endswith(".css")]
    assert scripts
    assert styles
    for asset in assets:
        parts = urlsplit(asset)
        assert not parts.scheme
        assert not parts.netloc
        assert not asset.startswith("//")
        answer = client.get(asset)
        assert answer.status_code == 200, asset
        assert answer.content
    for script in scripts:
        assert "javascript" in client.get(script).headers["content-type"]
    for style in styles:
        assert client.get(style).headers["content-type"].startswith("text/css")
    spec = re.search(r"url:\s*'([^']+)'", html)
    assert spec is not None
    assert client.get(spec.group(1)).json()["info"]["title"] == "Quads"
    assert client.get("/redoc").status_code == 404
