"""The headers of every answer: a strict content security policy, no framing, no
sniffing, no referrer; the documentation's inline script allowed by its hash."""

from __future__ import annotations

import base64
import hashlib
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.web.app import create_app

PATHS = ["/", "/index.html", "/js/main.js", "/css/quads.css", "/sw.js", "/manifest.webmanifest",
         "/api/games", "/api/messages/en", "/api/games/no-such-game", "/api/no-such-route",
         "/openapi.json", "/no-such-file", "/join/abc"]
"""The page, its files, the API (answers and refusals), the documents."""


@pytest.fixture
def page(tmp_path: Path) -> Iterator[TestClient]:
    """The whole app, with its page."""
    with TestClient(create_app(tmp_path / "games.sqlite3"), follow_redirects=False) as client:
        yield client


def policy(header: str) -> dict[str, list[str]]:
    """A ``Content-Security-Policy`` as its directives and their sources."""
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


@pytest.mark.parametrize("path", PATHS)
def test_every_answer_refuses_framing_and_sniffing(page: TestClient, path: str) -> None:
    answer = page.get(path)
    assert answer.status_code < 500
    headers = answer.headers
    csp = policy(headers["content-security-policy"])
    assert csp["frame-ancestors"] == ["'none'"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["cross-origin-resource-policy"] == "same-origin"
    assert "camera=()" in headers["permissions-policy"]
    assert "strict-transport-security" not in headers  # plain http


def test_the_page_policy_allows_no_inline_script(page: TestClient) -> None:
    csp = policy(page.get("/").headers["content-security-policy"])
    assert csp["default-src"] == ["'self'"]
    for directive in ("style-src", "img-src", "connect-src"):
        assert csp[directive] == ["'self'"], directive
    # Scripts from this server only, no eval; compiling WebAssembly (the solver's kernel,
    # fetched from this server) is allowed.
    assert csp["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'none'"]
    assert csp["form-action"] == ["'self'"]
    # The page itself holds no inline script or style that the policy would block.
    html = page.get("/").text
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert "style=" not in html
    assert "<style" not in html


def test_refusals_of_the_body_limit_get_the_headers_too(page: TestClient) -> None:
    answer = page.post("/api/games", content=b"x" * 70_000,
                       headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert policy(answer.headers["content-security-policy"])["frame-ancestors"] == ["'none'"]


def test_hsts_only_over_https(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3")
    with TestClient(app, base_url="https://testserver") as client:
        answer = client.get("/api/games")
    assert answer.headers["strict-transport-security"] == "max-age=31536000"


@pytest.mark.parametrize("path", ["/docs", "/docs/oauth2-redirect"])
def test_the_documentation_allows_its_own_inline_script(page: TestClient, path: str) -> None:
    answer = page.get(path)
    assert answer.status_code == 200
    csp = policy(answer.headers["content-security-policy"])
    scripts = re.findall(r"<script>(.*?)</script>", answer.text, re.DOTALL)
    assert scripts
    hashes = {"'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
              for s in scripts}
    assert set(csp["script-src"]) == {"'self'", *hashes}
    assert "'unsafe-inline'" not in csp["script-src"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert int(answer.headers["content-length"]) == len(answer.content)


@pytest.mark.parametrize("path", [
    "/api/games", "/api/games/no-such-game", "/api/no-such-route", "/api/puzzles/history",
    "/api/analysis?position=nonsense", "/api/invites/none"])
def test_api_answers_are_never_cached(page: TestClient, path: str) -> None:
    assert page.get(path).headers["cache-control"] == "no-store"


def test_refusals_and_changes_of_the_api_are_never_cached(page: TestClient) -> None:
    made = page.post("/api/games", json={"mode": "local"})
    assert made.status_code == 201
    assert made.headers["cache-control"] == "no-store"
    refused = page.get("/api/games", headers={"Cookie": "quads_player=forged"})
    assert refused.status_code == 401
    assert refused.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("path", ["/api/messages/en", "/", "/js/main.js", "/css/quads.css",
                                  "/manifest.webmanifest"])
def test_the_catalogues_and_the_pages_files_may_be_cached(page: TestClient, path: str) -> None:
    answer = page.get(path)
    assert answer.status_code == 200
    assert "no-store" not in answer.headers.get("cache-control", "")
