"""Quick routes run on the event loop, on both engines, and answer as before."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from quads.web.app import create_app
from quads.web.dispatch import quick


def test_quick_routes_run_on_the_event_loop() -> None:
    app = FastAPI()

    @app.get("/loop")
    async def loop_thread() -> int:
        return threading.get_ident()

    @app.get("/quick/{n}")
    @quick
    def quick_route(request: Request, n: int) -> dict[str, int]:
        assert isinstance(request, Request)
        return {"thread": threading.get_ident(), "n": n}

    @app.get("/plain")
    def plain_route() -> int:
        return threading.get_ident()

    with TestClient(app) as client:
        loop = client.get("/loop").json()
        answer = client.get("/quick/7").json()
        assert answer == {"thread": loop, "n": 7}
        assert client.get("/plain").json() != loop
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
