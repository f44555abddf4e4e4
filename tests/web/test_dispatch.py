"""Where store calls and quick routes run: on the event loop with SQLite, in a worker
thread with PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from quads.storage import GameStore
from quads.web.app import create_app
from quads.web.dispatch import call_store


def _thread_of_call(store: GameStore) -> tuple[int, int, bool]:
    async def run() -> tuple[int, int, bool]:
        loop_thread = threading.get_ident()
        called, known = await call_store(
            store, lambda: (threading.get_ident(), store.has_player("0" * 64)))
        return loop_thread, called, known

    return asyncio.run(run())


def test_sqlite_calls_run_on_the_event_loop(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    try:
        loop_thread, called, known = _thread_of_call(store)
    finally:
        store.close()
    assert store.local
    assert called == loop_thread
    assert known is False


def test_postgres_calls_run_in_a_worker_thread(postgres_url: str) -> None:
    store = GameStore(postgres_url)
    try:
        loop_thread, called, known = _thread_of_call(store)
    finally:
        store.close()
    assert not store.local
    assert called != loop_thread
    assert known is False


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
