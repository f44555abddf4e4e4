"""The server prunes its store by itself every ``prune_interval`` seconds: the
expired games go (their live sockets hear ``gone``), the rest stays."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from quads.storage import GameNotFoundError, GameStore
from quads.web.app import create_app
from quads.web.settings import Settings


def test_the_server_prunes_unplayed_games_by_itself(db_path: Path) -> None:
    settings = Settings(prune_interval=0.2, unplayed_days=1.5 / 86_400)
    with TestClient(create_app(db_path, static_dir=None, settings=settings)) as client:
        played = client.post("/api/games", json={"mode": "local"}).json()
        moved = client.post(f"/api/games/{played['id']}/actions",
                            json={"revision": 0, "action": "give", "piece": "7"})
        assert moved.status_code == 200
        unplayed = client.post("/api/games", json={"mode": "local"}).json()
        with client.websocket_connect(f"/api/games/{unplayed['id']}/live") as socket:
            assert socket.receive_json()["type"] == "view"
            deadline = time.monotonic() + 10
            while client.get(f"/api/games/{unplayed['id']}").status_code != 404:
                assert time.monotonic() < deadline, "not pruned within 10 s"
                time.sleep(0.1)
            assert socket.receive_json() == {"type": "gone"}
        assert client.get(f"/api/games/{played['id']}").status_code == 200
    store = GameStore(db_path)
    store.load(played["id"])
    with pytest.raises(GameNotFoundError):
        store.load(unplayed["id"])


def test_no_prune_when_the_interval_is_zero(db_path: Path) -> None:
    settings = Settings(prune_interval=0, unplayed_days=0.5 / 86_400)
    with TestClient(create_app(db_path, static_dir=None, settings=settings)) as client:
        unplayed = client.post("/api/games", json={"mode": "local"}).json()
        time.sleep(1.0)
        assert client.get(f"/api/games/{unplayed['id']}").status_code == 200
