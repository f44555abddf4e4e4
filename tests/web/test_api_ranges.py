"""Every date and every integer a request brings in is bounded where it comes in, and
out of bounds it is refused in the API's JSON and changes nothing: an integer outside
the range ``/openapi.json`` gives it with ``400 bad_request`` (request bodies, query
parameters, the messages of a live socket), a date outside its window with
``422 invalid_date`` (a device game started before 2000 or more than a day after the
server's now; a puzzle before 2000).  On SQLite, and the device's revision on a real
PostgreSQL server too, whose INTEGER columns hold 32 bits."""

from __future__ import annotations

import sqlite3
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.storage import GameStore
from quads.web.app import create_app
from web.conftest import ERROR_FIELDS, Player
from web.test_live import receive

EXTREMES = (0, -1, 2**31 - 1, 2**31, 2**53 - 1, 2**63, 10**30)
"""Integers at the edges: of a 32-bit column, of the integers JSON keeps exactly, of a
64-bit one, and beyond."""

EARLIEST = "2000-01-01T00:00:00Z"


def error(answer: Any, status: int) -> dict[str, Any]:
    """The error object of a refusal in the API's JSON shape, with ``status``."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json"
    body = answer.json()
    assert set(body) == {"error"}
    assert {"code", "message"} <= set(body["error"]) <= ERROR_FIELDS
    found: dict[str, Any] = body["error"]
    return found


def everything(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the SQLite file ``db``."""
    with closing(sqlite3.connect(db)) as connection:
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: sorted(connection.execute(f"SELECT * FROM {table}").fetchall(),
                              key=repr) for table in tables}


def upload(client: TestClient, device: str, expect: int, **fields: Any) -> dict[str, Any]:
    body = {"mode": "local", "rules": "quads", "actions": ["give 7"],
            "created": "2026-11-30T09:12:03.120Z", "device_revision": 1, **fields}
    answer = client.put(f"/api/games/device/{device}", json=body)
    if expect >= 400:
        return error(answer, expect)
    assert answer.status_code == expect, answer.text
    view: dict[str, Any] = answer.json()
    return view


def moment(when: datetime) -> str:
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


# ---- dates ------------------------------------------------------------------------


def test_a_device_game_dated_outside_its_window_is_refused(host: Player,
                                                          db_path: Path) -> None:
    host.token()
    before = everything(db_path)
    now = datetime.now(UTC)
    for created in (
        "0001-01-01T00:00:00+01:00",  # 0000-12-31 in UTC: it once answered 500 in plain text
        "0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00-14:00", "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59+14:00", "9999-12-31T23:59:59-14:00",
        "9999-12-31T23:59:59.999999999Z",
        "1999-12-31T23:59:59.999Z", "2000-01-01T00:00:00+14:00",  # just before 2000
        moment(now + timedelta(days=1, minutes=5)),
        moment(now + timedelta(days=1, minutes=5)).replace("Z", "-14:00"),
    ):
        refused = upload(host.client, str(uuid.uuid4()), 422, created=created)
        assert (refused["code"], refused["reason"]) == ("invalid_date", "time_range"), created
        assert refused["params"]["time"] == created
        assert refused["params"]["earliest"] == EARLIEST
        assert created in refused["message"]
    assert everything(db_path) == before
    for created in (EARLIEST, "2000-01-01T00:00:00-14:00", "2000-01-01T01:00:00+01:00"):
        upload(host.client, str(uuid.uuid4()), 201, created=created)
    soon = upload(host.client, str(uuid.uuid4()), 201,
                  created=moment(now + timedelta(hours=23)))
    [listed] = [game for game in host.games() if game["id"] == soon["id"]]
    assert listed["created"] <= listed["updated"]  # a time to come counts as now


def test_a_puzzle_before_2000_is_refused(client: TestClient, db_path: Path) -> None:
    client.post("/api/players")
    before = everything(db_path)
    for day in ("0001-01-01", "1999-12-31"):
        for answer in (client.get(f"/api/puzzles/{day}"),
                       client.post(f"/api/puzzles/{day}/check", json={"turn": "A1"}),
                       client.post(f"/api/puzzles/{day}/result",
                                   json={"tries": 1, "seconds": 3, "solved": False})):
            refused = error(answer, 422)
            assert (refused["code"], refused["reason"], refused["params"]) == (
                "invalid_date", "date_range", {"date": day, "earliest": "2000-01-01"})
    for answer in (client.get("/api/puzzles/9999-12-31"),
                   client.post("/api/puzzles/9999-12-31/result",
                               json={"tries": 1, "seconds": 3, "solved": False})):
        assert error(answer, 404)["code"] == "not_found"
    assert everything(db_path) == before
    assert client.get("/api/puzzles/2000-01-01").status_code == 200


# ---- integers -----------------------------------------------------------------------


@pytest.fixture
def on_both(location: str | Path) -> Iterator[tuple[TestClient, GameStore]]:
    """The app on SQLite or PostgreSQL, and a store of its own on the same database."""
    store = GameStore(location)
    with TestClient(create_app(location, static_dir=None)) as client:
        yield client, store
    store.close()


def test_a_device_revision_out_of_range_is_refused_and_never_freezes_a_game(
        on_both: tuple[TestClient, GameStore]) -> None:
    client, store = on_both
    device = str(uuid.uuid4())
    view = upload(client, device, 201, device_revision=3)

    def stored(game_id: str) -> tuple[Any, ...]:
        game = store.load(game_id)
        return game.revision, game.device_revision, game.updated, game.game.actions

    kept = stored(view["id"])
    for value in (-1, 2**31, 2**53 - 1, 2**63, 10**30, 1e30):
        refused = upload(client, device, 400, device_revision=value,
                         actions=["give 7", "place A1"])
        assert refused["code"] == "bad_request"
        assert "device_revision" in refused["message"]
        assert upload(client, str(uuid.uuid4()), 400, device_revision=value)
    assert stored(view["id"]) == kept
    assert len(client.get("/api/games").json()["games"]) == 1
    # The next revision of the device still follows.
    assert upload(client, device, 200, device_revision=4,
                  actions=["give 7", "place A1"])["ply"] == 2
    # The ends of the range, stored on either engine.
    for value in (0, 2**31 - 1):
        stored = upload(client, str(uuid.uuid4()), 201, device_revision=value)
        assert store.load(stored["id"]).device_revision == value


Request = Callable[[int], Any]


def _integers(player: Player, game: dict[str, Any]) -> list[tuple[str, Request, int, int]]:
    """Every integer a request may carry: its name, a request sending ``value`` in it,
    and its range."""
    client = player.client
    at = f"/api/games/{game['id']}"
    blitz = {"initial": 180, "increment": 2}

    def post(path: str, body: Callable[[int], Any]) -> Request:
        return lambda value: client.post(path, json=body(value))

    def device(value: int) -> Any:
        return client.put(f"/api/games/device/{uuid.uuid4()}", json={
            "mode": "computer", "rules": "quads", "level": value, "human": "first",
            "actions": [], "created": EARLIEST, "device_revision": 1})

    result = "/api/puzzles/today/result"
    return [
        ("actions revision", post(f"{at}/actions", lambda v: {
            "revision": v, "action": "give", "piece": "3"}), 0, 2**31 - 1),
        ("computer revision", post(f"{at}/computer", lambda v: {"revision": v}), 0, 2**31 - 1),
        ("undo revision", post(f"{at}/undo", lambda v: {"revision": v}), 0, 2**31 - 1),
        ("redo revision", post(f"{at}/redo", lambda v: {"revision": v}), 0, 2**31 - 1),
        ("resign revision", post(f"{at}/resign", lambda v: {"revision": v}), 0, 2**31 - 1),
        ("abandoned revision", post(f"{at}/abandoned", lambda v: {"revision": v}),
         0, 2**31 - 1),
        ("undo answer revision", post(f"{at}/undo/answer", lambda v: {
            "revision": v, "accept": True}), 0, 2**31 - 1),
        ("delete revision", lambda v: client.delete(f"{at}?revision={v}"), 0, 2**31 - 1),
        ("new game level", post("/api/games", lambda v: {
            "mode": "computer", "level": v, "human": "first"}), 1, 5),
        ("import level", post("/api/games/import", lambda v: {
            "mode": "computer", "level": v, "human": "first",
            "record": '[Rules "quads"]\n\n1. 0 *\n'}), 1, 5),
        ("device level", device, 1, 5),
        ("clock initial", post("/api/games", lambda v: {
            "mode": "online", "clock": {"initial": v, "increment": 0}}), 5, 10_800),
        ("clock increment", post("/api/games", lambda v: {
            "mode": "online", "clock": {"initial": 60, "increment": v}}), 0, 180),
        ("clock days", post("/api/games", lambda v: {  # 1, 2, 3 or 7: no extreme
            "mode": "online", "clock": {"days": v}}), 1, 1),
        ("seek initial", post("/api/seeks", lambda v: {
            "rules": "quads", "clock": {**blitz, "initial": v}}), 5, 10_800),
        ("pairing increment", post("/api/pairing", lambda v: {
            "rules": "quads", "clock": {**blitz, "increment": v}}), 0, 180),
        ("puzzle tries", post(result, lambda v: {
            "tries": v, "seconds": 5, "solved": False}), 1, 10_000),
        ("puzzle seconds", post(result, lambda v: {
            "tries": 1, "seconds": v, "solved": False}), 0, 366 * 86_400),
        ("list limit", lambda v: client.get(f"/api/games?limit={v}"), 1, 100),
        ("history days", lambda v: client.get(f"/api/puzzles/history?days={v}"), 1, 366),
    ]


def test_every_integer_out_of_its_range_is_refused_and_changes_nothing(
        host: Player, db_path: Path) -> None:
    game = host.play(host.new(rules="classic"), "7")  # at revision 1: 0 is stale
    for name, request, low, high in _integers(host, game):
        for value in EXTREMES:
            before = everything(db_path)
            answer = request(value)
            assert answer.status_code < 500, (name, value, answer.text)
            assert answer.headers["content-type"] == "application/json", (name, value)
            if low <= value <= high:
                assert answer.status_code != 400, (name, value, answer.text)
                continue
            refused = error(answer, 400)
            assert refused["code"] == "bad_request", (name, value)
            assert everything(db_path) == before, (name, value)
    assert host.get(game["id"])["revision"] == game["revision"]


def test_a_live_socket_refuses_an_integer_out_of_range(host: Player, db_path: Path) -> None:
    game = host.play(host.new(rules="classic"), "7")
    before = everything(db_path)["games"]
    with host.client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
        assert receive(socket)["type"] == "view"
        for value in EXTREMES:
            for number, revision in ((value, 0), (1, value)):
                socket.send_json({"type": "act", "id": number, "action": {
                    "revision": revision, "action": "give", "piece": "3"}})
                answer = receive(socket)
                assert answer["type"] == "refused"
                fits = 0 <= number <= 2**31 - 1 and 0 <= revision <= 2**31 - 1
                assert (answer["status"], answer["error"]["code"]) == (
                    (409, "stale") if fits else (400, "bad_request")), (number, revision)
    assert everything(db_path)["games"] == before
