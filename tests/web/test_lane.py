"""The database lane: calls run in its threads within a deadline; past it the
breaker opens, refuses at once, and closes by itself once its probe reaches the
database; a call that had not started by its deadline never runs.  And the
PostgreSQL connections it uses carry a statement timeout and TCP keepalives."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from sqlalchemy import text

from helpers import run_async
from quads.storage import GameStore, StorageUnavailableError
from quads.web.lane import DatabaseLane
from web.conftest import Breakable
from web.test_live import _give, receive


def test_a_call_runs_in_the_lane_and_answers() -> None:
    lane = DatabaseLane(wait=2, threads=2)
    try:
        name = run_async(lane.run(lambda: threading.current_thread().name))
        assert name.startswith("quads-db")
        with pytest.raises(ZeroDivisionError):
            run_async(lane.run(lambda: 1 // 0))
        assert not lane.broken
    finally:
        lane.close()


def test_the_breaker_opens_refuses_at_once_and_closes_by_itself() -> None:
    release = threading.Event()
    healthy = threading.Event()
    ran: list[str] = []

    def probe() -> None:
        if not healthy.is_set():
            raise StorageUnavailableError("still away")

    lane = DatabaseLane(wait=0.2, threads=2, probe=probe)
    try:
        began = time.monotonic()
        with pytest.raises(StorageUnavailableError):
            run_async(lane.run(release.wait, 30))
        assert time.monotonic() - began < 2
        assert lane.broken
        began = time.monotonic()
        with pytest.raises(StorageUnavailableError):
            run_async(lane.run(ran.append, "refused"))
        assert time.monotonic() - began < 0.1
        healthy.set()
        deadline = time.monotonic() + 5
        while lane.broken:
            assert time.monotonic() < deadline, "the breaker stayed open"
            time.sleep(0.05)
        run_async(lane.run(ran.append, "after"))
        assert ran == ["after"]
        assert lane.trips == 1
    finally:
        release.set()
        lane.close()


def test_a_call_that_missed_its_deadline_before_starting_never_runs() -> None:
    release = threading.Event()
    ran: list[str] = []
    lane = DatabaseLane(wait=0.3, threads=1)

    async def both() -> None:
        first = asyncio.ensure_future(lane.run(release.wait, 30))
        await asyncio.sleep(0.05)
        with pytest.raises(StorageUnavailableError):
            await lane.run(ran.append, "late")
        with pytest.raises(StorageUnavailableError):
            await first

    try:
        run_async(both())
        release.set()
        time.sleep(0.2)
        assert ran == []
    finally:
        release.set()
        lane.close()


def test_postgresql_statements_are_bounded(postgres_url: str) -> None:
    store = GameStore(postgres_url, statement_timeout=0.5)
    try:
        began = time.monotonic()
        with pytest.raises(StorageUnavailableError), store.begin() as connection:
            connection.execute(text("SELECT pg_sleep(5)"))
        assert time.monotonic() - began < 4
        store.ping()  # the store works on after a statement was cancelled
        raw = store.engine.raw_connection()
        try:
            parameters = raw.driver_connection.info.get_parameters()  # type: ignore[union-attr]
        finally:
            raw.close()
        assert parameters["keepalives"] == "1"
        assert int(parameters["tcp_user_timeout"]) > 0
        assert int(parameters["connect_timeout"]) > 0
    finally:
        store.close()


def test_a_store_without_a_statement_timeout_is_made_as_before(postgres_url: str) -> None:
    store = GameStore(postgres_url)
    try:
        with store.begin() as connection:
            assert connection.execute(text("SHOW statement_timeout")).scalar() == "0"
    finally:
        store.close()


def test_a_socket_waits_out_an_open_breaker_without_spinning(breakable: Breakable) -> None:
    client, lane, game = breakable.client, breakable.lane, breakable.game
    with client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
        assert receive(socket)["type"] == "view"
        breakable.break_()
        client.app.state.hub.publish(game["id"])  # type: ignore[attr-defined]
        time.sleep(0.5)  # (a change to read from the store, meanwhile)
        assert lane.refused <= 2
        socket.send_json({"type": "ping"})
        assert receive(socket) == {"type": "pong"}
        breakable.heal()
        moved = client.post(f"/api/games/{game['id']}/actions",
                            json={"action": "give", "piece": "5",
                                  "revision": game["revision"]}).json()
        while (view := receive(socket))["view"]["revision"] < moved["revision"]:
            pass
        assert view["view"]["revision"] == moved["revision"]


def test_a_socket_refused_by_the_breaker_reads_again_once_it_closes(
        breakable: Breakable) -> None:
    """A change announced while the breaker is open cannot be read; the socket reads it
    by itself once the breaker closes, with nothing else to wake it (no ping, no other
    change): a bot that never pings hears it too."""
    client, lane, game = breakable.client, breakable.lane, breakable.game
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
        assert receive(socket)["type"] == "view"
        breakable.break_()
        # Another process saves a move and says so; this one cannot read it now.
        changed = _give(store, game["id"], 5)
        client.app.state.hub.publish(game["id"], revision=changed.revision)  # type: ignore[attr-defined]
        time.sleep(0.5)
        refused = lane.refused
        assert refused >= 1  # it tried, and was refused
        time.sleep(0.5)
        assert lane.refused == refused  # it waits for the breaker, not knocking on it
        breakable.heal()
        view = receive(socket, seconds=3)
        assert view["type"] == "view"
        assert view["view"]["revision"] == changed.revision
        assert view["view"]["moves"] == ["5"]


def test_a_lobby_socket_that_cannot_resync_waits_for_the_breaker(
        breakable: Breakable) -> None:
    """The lobby's seeks are read again (as after the database's notifications were cut
    off) while the breaker is open: the socket stays open, and sends the whole list by
    itself once the breaker closes."""
    client, lane = breakable.client, breakable.lane
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    with client.websocket_connect("/api/lobby/live") as socket:
        assert receive(socket)["type"] == "seeks"
        breakable.break_()
        lobby.resync()
        time.sleep(0.5)
        assert lane.refused >= 1
        socket.send_json({"type": "ping"})
        assert receive(socket) == {"type": "pong"}
        breakable.heal()
        assert receive(socket, seconds=3)["type"] == "seeks"
