"""Fixtures of the web tests: an app on a real SQLite file in a temporary
directory, and a small client that speaks the API of ``docs/web-api.md``."""

from __future__ import annotations

import sqlite3
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.storage import GameNotFoundError, GameStore, StorageUnavailableError
from quads.storage.stored import redo_trail
from quads.web import app as app_module
from quads.web.app import create_app
from quads.web.lane import DatabaseLane, lane_for
from quads.web.middleware.identity import COOKIE, player_id
from quads.web.settings import Settings

ERROR_FIELDS = {"code", "message", "reason", "params"}
"""The fields a refusal may carry."""


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
            # reason and params only where the refusal says more than its code
            assert {"code", "message"} <= set(data["error"]) <= ERROR_FIELDS
            assert data["error"]["message"]
        return data


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's games live: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "games.sqlite3"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """The app on a SQLite file, with the settings of the test's ``settings`` marker over
    a module's ``SETTINGS`` (if it has them) over the defaults, and always the tests'
    patient database lane (``tests/conftest.py``).

    Unless a test asks for them, the app makes none of the site's scheduled arenas and
    looks for no mistakes of the games that end: a test that compares the whole
    database before and after a request must not see an arena announced, or exercises
    kept, in between."""
    module = getattr(request.module, "SETTINGS", None)
    marker = request.node.get_closest_marker("settings")
    patient = app_module.Settings()  # the tests' own defaults: a patient lane
    base = module if isinstance(module, Settings) else patient
    settings = base.replace(**{"db_wait": patient.db_wait, "scheduled_arenas": False,
                               "mistakes_tick": 0.0, **(marker.kwargs if marker else {})})
    with TestClient(create_app(db_path, static_dir=None, settings=settings)) as test_client:
        yield test_client


@pytest.fixture
def api(client: TestClient, db_path: Path) -> Api:
    return Api(client, db_path)


# ---- more players on the same server ----------------------------------------------


class Player(Api):
    """One browser (its own cookie jar) on the app: the routes of online play too."""

    def token(self) -> str:
        """The token of this player's cookie (asking the server for one if needed)."""
        if COOKIE not in self.client.cookies:
            assert self.client.post("/api/players").status_code == 204
        token: str = self.client.cookies[COOKIE]
        return token

    def id(self) -> str:
        """The player's id as the store keeps it."""
        return player_id(self.token())

    def join(self, view: dict[str, Any], invite: str | None = None,
             expect: int = 200) -> dict[str, Any]:
        """``POST /join`` with ``invite`` (a token, or a ``/join/TOKEN`` path), by default
        the view's own."""
        token = (invite if invite is not None else view["invite"]).rsplit("/", 1)[-1]
        return self.post(view["id"], "join", {"invite": token}, expect)

    def answer(self, view: dict[str, Any], accept: bool, expect: int = 200) -> dict[str, Any]:
        """Accept or refuse the other player's undo request."""
        body = {"revision": view["revision"], "accept": accept}
        return self.post(view["id"], "undo/answer", body, expect)

    def resign(self, view: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        return self.post(view["id"], "resign", {"revision": view["revision"]}, expect)

    def rematch(self, view: dict[str, Any], expect: int = 201) -> dict[str, Any]:
        return self._check(self.client.post(f"/api/games/{view['id']}/rematch"), expect)

    def delete(self, game_id: str, expect: int = 204,
               revision: int | None = None) -> dict[str, Any] | None:
        """``DELETE /api/games/{id}`` at ``revision`` (by default the stored one)."""
        if revision is None:
            try:
                revision = self.store.load(game_id).revision
            except GameNotFoundError:
                revision = 0
        response = self.client.delete(f"/api/games/{game_id}?revision={revision}")
        if expect == 204:
            assert response.status_code == 204, response.text
            assert response.content == b""
            return None
        return self._check(response, expect)

    def games(self, **params: str) -> list[dict[str, Any]]:
        """``GET /api/games``: the caller's list."""
        games: list[dict[str, Any]] = self._check(
            self.client.get("/api/games", params=params), 200)["games"]
        return games

    def row(self, game_id: str) -> dict[str, Any] | None:
        """The game's whole row in the SQLite file (``None`` once deleted)."""
        with closing(sqlite3.connect(self.store.path)) as db:
            db.row_factory = sqlite3.Row
            found = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if found is None else dict(found)


def another_browser(client: TestClient) -> TestClient:
    """A client with its own cookies on the app of ``client``, served by the same event
    loop, as two browsers are by one server."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


@pytest.fixture
def host(client: TestClient, db_path: Path) -> Player:
    """The first player: the browser of the ``client`` fixture."""
    return Player(client, db_path)


@pytest.fixture
def guest(client: TestClient, db_path: Path) -> Iterator[Player]:
    """A second player, in another browser."""
    other = another_browser(client)
    yield Player(other, db_path)
    other.close()


@pytest.fixture
def stranger(client: TestClient, db_path: Path) -> Iterator[Player]:
    """A third player, in a third browser: neither created nor joined anything."""
    other = another_browser(client)
    yield Player(other, db_path)
    other.close()


@pytest.fixture
def playing(host: Player, guest: Player) -> dict[str, Any]:
    """A classic online game, the host first and the guest second, at ply 0."""
    view = host.new(mode="online", rules="classic")
    guest.join(view)
    return host.get(view["id"])


@dataclass
class Breakable:
    """An app whose database lane refuses every call once :meth:`break_` is called
    (its breaker open, its probe failing) until :meth:`heal`; with a local game."""

    client: TestClient
    lane: DatabaseLane
    healthy: threading.Event
    game: dict[str, Any]

    def break_(self) -> None:
        self.lane.trip()

    def heal(self) -> None:
        """Let the probe reach the database; return once the breaker closed."""
        self.healthy.set()
        deadline = time.monotonic() + 10
        while self.lane.broken:
            assert time.monotonic() < deadline, "the breaker stayed open"
            time.sleep(0.05)


@pytest.fixture
def breakable(tmp_path: Path) -> Iterator[Breakable]:
    healthy = threading.Event()

    def probe() -> None:
        if not healthy.wait(0.05):
            raise StorageUnavailableError("still away")

    app = create_app(tmp_path / "games.db", static_dir=None)
    lane = DatabaseLane(wait=2, threads=2, probe=probe)
    app.state.lane = lane_for(app.state.store, lane)
    try:
        with TestClient(app) as client:
            game = client.post("/api/games", json={"mode": "local", "rules": "quads"}).json()
            yield Breakable(client, lane, healthy, game)
    finally:
        healthy.set()
