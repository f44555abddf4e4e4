"""Unsafe requests from pages of other sites are refused with ``403 cross_site``; the
server's own pages, and programs that send neither ``Sec-Fetch-Site`` nor ``Origin``,
go on as before."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

WON = ("7", "A1C", "B1D", "C1E", "D1")
"""A classic game of two people in which the first player completes row 1 with D1."""


def tables(db_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the database file."""
    with closing(sqlite3.connect(db_path)) as db:
        names = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: db.execute(f"SELECT * FROM {name}").fetchall() for name in names}


CROSS_SITE = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "https://testserver"},  # another scheme
    {"Origin": "http://testserver:8080"},  # another port
    {"Origin": "http://evil.example", "X-Forwarded-Host": "evil.example"},
]
"""What a page of another origin sends (a form, a script's simple request, a sandbox)."""

SAME_SITE = [
    {"Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "none"},
    {"Origin": "http://testserver"},
    {"Origin": "http://TESTSERVER:80"},
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
    {},  # a program: judged by its token alone
]


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_cross_site_body_less_rematch_is_refused(host: Any, db_path: Path,
                                                  headers: dict[str, str]) -> None:
    """The finding: a form of another site posted "Play again" (no body, so no JSON
    check applied) and the server answered 201."""
    over = host.act(host.play(host.new(rules="classic"), *WON), "declare")
    before = tables(db_path)
    answer = host.client.post(f"/api/games/{over['id']}/rematch", headers=headers)
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"]["code"] == "cross_site"
    assert "set-cookie" not in answer.headers
    assert tables(db_path) == before


@pytest.mark.parametrize("headers", CROSS_SITE[:4])
@pytest.mark.parametrize(("method", "path", "body"), [
    ("POST", "/api/games", {"mode": "local"}),
    ("POST", "/api/players", None),
    ("POST", "/api/games/{id}/resign", {"revision": "{revision}"}),
    ("DELETE", "/api/games/{id}?revision={revision}", None),
    ("POST", "/api/puzzles/2025-03-04/result", {"tries": 1, "seconds": 5, "solved": False}),
    ("PUT", "/api/games/{id}", None),
    ("PATCH", "/api/games/{id}", None),
])
def test_every_unsafe_method_checks_the_origin(host: Any, guest: Any, db_path: Path,
                                               headers: dict[str, str], method: str,
                                               path: str, body: Any) -> None:
    online = host.new(mode="online", rules="classic")
    guest.join(online)
    view = host.play(host.get(online["id"]), "7")
    before = tables(db_path)
    url = path.format(id=view["id"], revision=view["revision"])
    if body is not None and "revision" in body:
        body = {"revision": view["revision"]}
    answer = host.client.request(method, url, json=body, headers=headers)
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"]["code"] == "cross_site"
    assert tables(db_path) == before
    # A newcomer's cross-site request makes no player either.
    fresh = guest.client.__class__(host.client.app)
    fresh.portal = host.client.portal
    answer = fresh.request(method, url, json=body, headers=headers)
    assert answer.status_code == 403
    assert "set-cookie" not in answer.headers
    assert tables(db_path) == before


@pytest.mark.parametrize("headers", SAME_SITE)
def test_the_servers_own_pages_and_programs_still_act(host: Any, headers: dict[str, str]) -> None:
    over = host.act(host.play(host.new(rules="classic"), *WON), "declare")
    answer = host.client.post(f"/api/games/{over['id']}/rematch", headers=headers)
    assert answer.status_code == 201, answer.text
    made = host.client.post("/api/games", json={"mode": "local"}, headers=headers)
    assert made.status_code == 201, made.text
    view = made.json()
    gone = host.client.delete(f"/api/games/{view['id']}?revision={view['revision']}",
                              headers=headers)
    assert gone.status_code == 204, gone.text


@pytest.mark.parametrize("headers", CROSS_SITE[:4])
def test_reads_are_not_refused(host: Any, headers: dict[str, str]) -> None:
    """Reading is harmless: another site's page cannot read the answer anyway (no CORS)."""
    view = host.new(mode="local")
    assert host.client.get(f"/api/games/{view['id']}", headers=headers).status_code == 200
