"""Rates of creation: one client address that creates games, players, joins or
puzzle answers too fast meets ``429 rate_limited`` with ``Retry-After``, and no
other address is slowed by it."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from quads.web.app import create_app
from quads.web.middleware.identity import COOKIE
from quads.web.settings import Settings

DAY = "2025-06-01"


def _app(db_path: Path, **rates: str) -> Any:
    import datetime

    return create_app(db_path, static_dir=None, today=lambda: datetime.date(2025, 6, 1),
                      settings=Settings(**rates))


def _client(app: Any, address: str) -> TestClient:
    return TestClient(app, client=(address, 40000))


def _refused(response: Any, kind: str | None = None) -> int:
    """The ``Retry-After`` of a ``429 rate_limited`` (whose ``reason`` is ``kind``)."""
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "rate_limited"
    if kind is not None:
        assert response.json()["error"]["reason"] == kind
    retry = int(response.headers["Retry-After"])
    assert retry >= 1
    return retry


@pytest.fixture
def app(db_path: Path) -> Iterator[Any]:
    app = _app(db_path, rate_games="20/minute", rate_identities="5/minute",
               rate_joins="4/minute", rate_puzzles="6/minute")
    with TestClient(app):
        yield app


def test_quick_creations_meet_429s_and_another_address_is_unaffected(app: Any) -> None:
    flood = _client(app, "127.0.0.2")
    answers = [flood.post("/api/games", json={"mode": "local"}) for _ in range(200)]
    statuses = [a.status_code for a in answers]
    assert statuses[:20] == [201] * 20
    assert set(statuses[20:]) == {429}
    retry = _refused(answers[-1], "games")
    assert retry <= 60
    other = _client(app, "127.0.0.3")
    assert other.post("/api/games", json={"mode": "local"}).status_code == 201
    # Nothing was stored for the refused ones.
    assert len(app.state.store.summaries()) == 21


def test_imports_and_rematches_count_as_new_games(db_path: Path) -> None:
    app = _app(db_path, rate_games="2/minute")
    with _client(app, "127.0.0.2") as client:
        record = client.post("/api/games", json={"mode": "local"})
        assert record.status_code == 201
        game = record.json()
        game = client.post(f"/api/games/{game['id']}/resign",
                           json={"revision": game["revision"]}).json()
        assert game["outcome"] is not None
        first = client.post(f"/api/games/{game['id']}/rematch")
        assert first.status_code == 201
        # Asked again, the same game: no new creation, so no refusal.
        again = client.post(f"/api/games/{game['id']}/rematch")
        assert again.status_code == 201
        assert again.json()["id"] == first.json()["id"]
        text = client.get(f"/api/games/{game['id']}/record").text
        _refused(client.post("/api/games/import", json={"record": text, "mode": "local"}),
                 "games")


def test_new_identities_are_limited_per_address(app: Any) -> None:
    issued = 0
    for _ in range(8):
        response = _client(app, "127.0.0.4").post("/api/players")
        if response.status_code == 204:
            assert COOKIE in response.cookies
            issued += 1
        else:
            _refused(response, "identities")
            assert "set-cookie" not in response.headers
    assert issued == 5
    assert _client(app, "127.0.0.5").post("/api/players").status_code == 204


def test_joins_are_limited(app: Any) -> None:
    host = _client(app, "127.0.0.6")
    game = host.post("/api/games", json={"mode": "online", "host": "first"}).json()
    guest = _client(app, "127.0.0.7")
    answers = [guest.post(f"/api/games/{game['id']}/join", json={"invite": "x" * 22})
               for _ in range(6)]
    assert [a.status_code for a in answers[:4]] == [403] * 4
    _refused(answers[4], "joins")


def test_puzzle_checks_and_results_are_limited(app: Any) -> None:
    solver = _client(app, "127.0.0.8")
    answers = []
    for _ in range(4):
        answers.append(solver.post(f"/api/puzzles/{DAY}/result",
                                   json={"tries": 1, "seconds": 3, "solved": False}))
        answers.append(solver.post(f"/api/puzzles/{DAY}/check",
                                   json={"played": [], "turn": "A1F"}))
    assert [a.status_code for a in answers[:6:2]] == [201] * 3
    assert {a.status_code for a in answers[1:6:2]} <= {200, 422}
    _refused(answers[6], "puzzles")
    _refused(answers[7], "puzzles")


def test_a_rate_frees_after_its_window(db_path: Path) -> None:
    app = _app(db_path, rate_games="2/second")
    with _client(app, "127.0.0.9") as client:
        for _ in range(2):
            assert client.post("/api/games", json={"mode": "local"}).status_code == 201
        assert _refused(client.post("/api/games", json={"mode": "local"})) == 1
        time.sleep(1.1)
        assert client.post("/api/games", json={"mode": "local"}).status_code == 201


def test_the_document_names_the_429s(app: Any) -> None:
    paths = _client(app, "127.0.0.10").get("/openapi.json").json()["paths"]
    for path, method in [("/api/games", "post"), ("/api/games/import", "post"),
                         ("/api/games/{game_id}/rematch", "post"),
                         ("/api/games/{game_id}/join", "post"),
                         ("/api/puzzles/{day}/check", "post"),
                         ("/api/puzzles/{day}/result", "post")]:
        refusal = paths[path][method]["responses"]["429"]
        assert "Retry-After" in refusal["headers"]


def test_a_player_over_their_rate_leaves_the_others_of_the_address_playing(
        db_path: Path) -> None:
    app = _app(db_path, rate_games="3/minute", rate_games_per_address="10/minute")
    with _client(app, "127.0.0.11") as quick, _client(app, "127.0.0.11") as other:
        made = [quick.post("/api/games", json={"mode": "local"}) for _ in range(5)]
        assert [answer.status_code for answer in made[:3]] == [201] * 3
        _refused(made[3])
        assert "from you:" in made[3].json()["error"]["message"]
        # The same address, another player: their own three.
        assert [other.post("/api/games", json={"mode": "local"}).status_code
                for _ in range(3)] == [201] * 3


def test_new_players_one_after_the_other_meet_the_addresss_budget(db_path: Path) -> None:
    app = _app(db_path, rate_games="3/minute", rate_games_per_address="10/minute",
               rate_identities="20/minute")
    made = 0
    with TestClient(app):
        for _ in range(8):  # eight players, two games each: 16 asked, 10 made
            newcomer = _client(app, "127.0.0.12")
            for _ in range(2):
                answer = newcomer.post("/api/games", json={"mode": "local"})
                if answer.status_code == 201:
                    made += 1
                else:
                    _refused(answer)
                    assert "from your address:" in answer.json()["error"]["message"]
        assert made == 10
        elsewhere = _client(app, "127.0.0.13")
        assert elsewhere.post("/api/games", json={"mode": "local"}).status_code == 201


def test_a_name_is_no_new_identity(db_path: Path) -> None:
    # A newcomer who names themselves costs one identity; before, the name counted
    # as another one.
    app = _app(db_path, rate_identities="2/minute", rate_names="2/minute")
    with TestClient(app):
        for n in range(2):
            newcomer = _client(app, "127.0.0.14")
            assert newcomer.post("/api/players").status_code == 204
            named = newcomer.put("/api/players/me", json={"name": f"Pupil {n}"})
            assert named.status_code == 200, named.text
            assert named.json()["name"] == f"Pupil {n}"
            again = newcomer.put("/api/players/me", json={"name": f"Pupil {n}b"})
            assert again.status_code == 200, again.text
            _refused(newcomer.put("/api/players/me", json={"name": "Pupil x"}))
        _refused(_client(app, "127.0.0.14").post("/api/players"))
