"""``GET /api/games`` answers a page at a time: ``limit`` games at most, and a
cursor (``next``) to the following page that stays in step while games are
added and played."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from quads.web.app import create_app
from quads.web.settings import Settings


@pytest.fixture
def client(db_path: Path) -> Any:
    app = create_app(db_path, static_dir=None, settings=Settings(
        rate_games="1000/minute", rate_games_per_address="1000/minute"))
    with TestClient(app) as client:
        yield client


def _played(client: TestClient) -> str:
    game = client.post("/api/games", json={"mode": "local"}).json()
    moved = client.post(f"/api/games/{game['id']}/actions",
                        json={"revision": game["revision"], "action": "give", "piece": "0"})
    assert moved.status_code == 200, moved.text
    return str(game["id"])


def _pages(client: TestClient, **params: Any) -> list[list[str]]:
    pages = []
    cursor = None
    while True:
        query = dict(params) | ({"cursor": cursor} if cursor else {})
        answer = client.get("/api/games", params=query)
        assert answer.status_code == 200, answer.text
        page = answer.json()
        pages.append([game["id"] for game in page["games"]])
        cursor = page["next"]
        if cursor is None:
            return pages
        assert len(pages) < 50


def test_the_list_comes_in_pages_of_50_by_default(client: TestClient) -> None:
    made = [_played(client) for _ in range(120)]
    pages = _pages(client)
    assert [len(page) for page in pages] == [50, 50, 20]
    listed = [game for page in pages for game in page]
    assert listed == list(reversed(made))  # the most recently played first


def test_limit_sets_the_page_size_and_the_last_page_has_no_next(client: TestClient) -> None:
    made = [_played(client) for _ in range(7)]
    pages = _pages(client, limit=3)
    assert [len(page) for page in pages] == [3, 3, 1]
    assert sorted(game for page in pages for game in page) == sorted(made)
    exact = client.get("/api/games", params={"limit": 7}).json()
    assert len(exact["games"]) == 7
    assert exact["next"] is None


def test_pages_stay_in_step_while_games_are_added_and_played(client: TestClient) -> None:
    made = [_played(client) for _ in range(6)]
    first = client.get("/api/games", params={"limit": 3}).json()
    assert [g["id"] for g in first["games"]] == made[:2:-1]
    newer = _played(client)
    # A game of the first page is played meanwhile: it moves to the top, not twice.
    moved = client.get(f"/api/games/{made[4]}").json()
    client.post(f"/api/games/{made[4]}/actions",
                json={"revision": moved["revision"], "action": "place", "cell": "A1"})
    second = client.get("/api/games", params={"limit": 3, "cursor": first["next"]}).json()
    assert [g["id"] for g in second["games"]] == made[2::-1]
    assert second["next"] is None
    top = client.get("/api/games", params={"limit": 2}).json()
    assert [g["id"] for g in top["games"]] == [made[4], newer]


def test_status_pages_too(client: TestClient) -> None:
    made = [_played(client) for _ in range(5)]
    for game_id in made[:2]:
        view = client.get(f"/api/games/{game_id}").json()
        client.post(f"/api/games/{game_id}/resign", json={"revision": view["revision"]})
    over = _pages(client, status="over", limit=1)
    assert over == [[made[1]], [made[0]]]
    assert _pages(client, status="ongoing", limit=2) == [made[:1:-1][:2], made[2:3]]


@pytest.mark.parametrize("params", [
    {"limit": 0}, {"limit": 101}, {"limit": "x"}, {"cursor": "not a cursor"},
])
def test_a_wrong_limit_or_cursor_is_refused(client: TestClient, params: Any) -> None:
    answer = client.get("/api/games", params=params)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad_request"


@pytest.mark.parametrize("cursor", ["0", "AAAA", "bm9uZQ"])
def test_a_cursor_of_the_right_form_but_not_ours_is_unprocessable(
        client: TestClient, cursor: str) -> None:
    answer = client.get("/api/games", params={"cursor": cursor})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "invalid_cursor"
