"""Quick routes run in the database lane, on both engines, and answer as before."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from quads.web.app import create_app
from quads.web.dispatch import quick


def test_quick_routes_run_in_the_database_lane() -> None:
    app = FastAPI()

    @app.get("/loop")
    async def loop_thread() -> int:
        return threading.get_ident()

    @app.get("/quick/{n}")
    @quick
    def quick_route(request: Request, n: int) -> dict[str, Any]:
        assert isinstance(request, Request)
        return {"thread": threading.current_thread().name, "n": n}

    @app.get("/bare")
    @quick
    def bare_route(n: int = 1) -> int:
        return n

    @app.get("/plain")
    def plain_route() -> int:
        return threading.get_ident()

    with TestClient(app) as client:
        loop = client.get("/loop").json()
        answer = client.get("/quick/7").json()
        assert answer["n"] == 7
        assert answer["thread"].startswith("quads-db")
        assert client.get("/plain").json() != loop
        # a route without a request parameter is given to the lane all the same
        assert client.get("/bare", params={"n": 3}).json() == 3
        # the parameters are still read and checked from the signature
        assert client.get("/quick/seven").status_code == 422


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_quick_routes_answer_and_refuse_as_before(
        engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    location = (tmp_path / "games.db" if engine == "sqlite"
                else request.getfixturevalue("postgres_url"))
    with TestClient(create_app(location, static_dir=None)) as client:
        created = client.post("/api/games", json={"mode": "local", "rules": "quads"})
        assert created.status_code == 201
        game = created.json()
        moved = client.post(f"/api/games/{game['id']}/actions",
                            json={"action": "give", "piece": "5", "revision": game["revision"]})
        assert moved.status_code == 200
        assert moved.json()["revision"] == game["revision"] + 1
        stale = client.post(f"/api/games/{game['id']}/actions",
                            json={"action": "give", "piece": "6", "revision": game["revision"]})
        assert stale.status_code == 409
        assert stale.json()["error"]["code"] == "stale"
        missing = client.get("/api/games/no-such-game")
        assert missing.status_code == 404
        assert client.get(f"/api/games/{game['id']}").json()["revision"] == game["revision"] + 1
