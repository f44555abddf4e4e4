"""Fixtures of the web tests: an app on a real SQLite file in a temporary
directory, and a small client that speaks the API of ``docs/web-api.md``."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.storage import GameStore
from quads.storage.stored import redo_trail
from quads.web.app import create_app


class Api:
    """Calls to the API that check the status of each answer."""

    def __init__(self, client: TestClient, db_path: Path) -> None:
        self.client = client
        self.store = GameStore(db_path)
        """A second store on the app's file, to read what it holds."""

    def new(self, expect: int = 201, **body: Any) -> dict[str, Any]:
        """``POST /api/games``; ``mode`` defaults to ``local``."""
        body.setdefault("mode", "local")
        return self._check(self.client.post("/api/games", json=body), expect)

    def get(self, game_id: str, expect: int = 200) -> dict[str, Any]:
        return self._check(self.client.get(f"/api/games/{game_id}"), expect)

    def act(self, view: dict[str, Any], action: str, expect: int = 200,
            **fields: Any) -> dict[str, Any]:
        """Play ``action`` at the view's ply."""
        body = {"revision": view["revision"], "action": action, **fields}
        return self.post(view["id"], "actions", body, expect)

    def post(self, game_id: str, what: str, body: Any, expect: int = 200) -> dict[str, Any]:
        """``POST /api/games/{id}/{what}`` with ``body``."""
        return self._check(self.client.post(f"/api/games/{game_id}/{what}", json=body), expect)

    def computer(self, view: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        return self.post(view["id"], "computer", {"revision": view["revision"]}, expect)

    def undo(self, view: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        return self.post(view["id"], "undo", {"revision": view["revision"]}, expect)

    def redo(self, view: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        return self.post(view["id"], "redo", {"revision": view["revision"]}, expect)

    def play(self, view: dict[str, Any], *turns: str) -> dict[str, Any]:
        """Play turns written as record tokens without marks: ``7``, ``A1C``, ``D4``."""
        for turn in turns:
            if len(turn) != 1:
                view = self.act(view, "place", cell=turn[:2])
            if len(turn) != 2:
                view = self.act(view, "give", piece=turn[-1])
        return view

    def import_record(self, record: str, expect: int = 201, **settings: Any) -> dict[str, Any]:
        settings.setdefault("mode", "local")
        body = {"record": record, **settings}
        return self._check(self.client.post("/api/games/import", json=body), expect)

    def stored(self, game_id: str) -> tuple[Any, ...]:
        """What the database holds of a game, read straight from the file."""
        stored = self.store.load(game_id)
        return (stored.revision, stored.updated, stored.game.actions,
                tuple(redo_trail(stored.game)), stored.game.outcome)

    @staticmethod
    def _check(response: Any, expect: int) -> dict[str, Any]:
        assert response.status_code == expect, response.text
        data: dict[str, Any] = response.json()
        if expect >= 400:
            assert set(data) == {"error"}
            assert set(data["error"]) == {"code", "message"}
            assert data["error"]["message"]
        return data


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, static_dir=None)) as test_client:
        yield test_client


@pytest.fixture
def api(client: TestClient, db_path: Path) -> Api:
    return Api(client, db_path)
