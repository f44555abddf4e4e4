"""The live socket's limits against a real server (``quads serve`` in a
subprocess, real WebSockets): an oversized message closes the socket with 1009,
and sockets over the caps of ``--config`` (per game, per client address, opens
per address) are closed with 4429; a closed socket leaves nothing behind in the
hub.  Every client is on loopback; several 127.0.0.x addresses stand for
several clients."""

from __future__ import annotations

import dataclasses
import json
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from e2e.quads_server import Server, free_port
from helpers import run_async
from quads.web.live_hub import LiveHub, LiveSocket


class ConfiguredServer(Server):
    """``quads serve`` with a settings file."""

    def __init__(self, directory: Path, settings: str) -> None:
        super().__init__(directory / "games.sqlite3", free_port(), directory / "server.log")
        self.config = directory / "quads.toml"
        self.config.write_text(settings)

    def command(self) -> list[str]:
        return [*super().command(), "--config", str(self.config)]


def serve(directory: Path, settings: str = "") -> Iterator[ConfiguredServer]:
    server = ConfiguredServer(directory, settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def new_game(server: Server) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{server.url}/api/games", data=json.dumps({"mode": "local", "rules": "quads"}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        game: dict[str, Any] = json.loads(answer.read())
        game["cookie"] = answer.headers["Set-Cookie"].split(";")[0]
    return game


def open_live(server: Server, game: dict[str, Any], source: str = "127.0.0.1",
              **kwargs: Any) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/live",
                   additional_headers={"Cookie": game["cookie"]}, open_timeout=10,
                   source_address=(source, 0), **kwargs)


def close_code(socket: ClientConnection) -> int | None:
    """The code the server closed ``socket`` with (after reading what it sent)."""
    try:
        for _ in range(10):
            socket.recv(timeout=10)
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code
    pytest.fail("the socket stayed open")


def first_view(socket: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(socket.recv(timeout=10))
    assert message["type"] == "view"
    return message


def test_an_oversized_message_closes_the_socket(tmp_path: Path) -> None:
    for server in serve(tmp_path):
        game = new_game(server)
        with open_live(server, game, max_size=None) as socket:
            first_view(socket)
            socket.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
            assert close_code(socket) == 1009
        # A message within the limit is read as ever.
        with open_live(server, game) as socket:
            first_view(socket)
            socket.send(json.dumps({"type": "ping", "pad": "x" * 3000}))
            assert json.loads(socket.recv(timeout=10)) == {"type": "pong"}


def test_sockets_over_the_cap_of_one_address_are_closed(tmp_path: Path) -> None:
    for server in serve(tmp_path, "sockets_per_client = 3\n"):
        game = new_game(server)
        with ExitStack() as stack:
            for _ in range(3):
                first_view(stack.enter_context(open_live(server, game)))
            with open_live(server, game) as extra:
                assert close_code(extra) == 4429
            # Another address is another client.
            with open_live(server, game, source="127.0.0.2") as other:
                first_view(other)
        # Once closed, the address may open sockets again.
        with open_live(server, game) as again:
            first_view(again)


def test_sockets_over_the_cap_of_one_game_are_closed(tmp_path: Path) -> None:
    for server in serve(tmp_path, "sockets_per_game = 4\n"):
        game, other_game = new_game(server), new_game(server)
        with ExitStack() as stack:
            for n in range(4):
                first_view(stack.enter_context(open_live(server, game, f"127.0.0.{n + 2}")))
            with open_live(server, game, "127.0.0.9") as extra:
                assert close_code(extra) == 4429
            with open_live(server, other_game, "127.0.0.9") as elsewhere:
                first_view(elsewhere)


def test_a_reconnect_storm_meets_the_socket_rate(tmp_path: Path) -> None:
    for server in serve(tmp_path, 'socket_rate = "5/minute"\n'):
        game = new_game(server)
        codes = []
        for _ in range(8):
            with open_live(server, game) as socket:
                message = None
                try:
                    message = json.loads(socket.recv(timeout=10))
                except ConnectionClosed as closed:
                    codes.append(closed.rcvd.code if closed.rcvd else None)
                else:
                    assert message["type"] == "view"
                    codes.append("view")
        assert codes == ["view"] * 5 + [4429] * 3
        with open_live(server, game, source="127.0.0.3") as other:
            first_view(other)


def test_joins_wake_the_others_only_when_presence_changes() -> None:
    from quads.site.games import play

    async def run() -> None:
        hub = LiveHub()
        stored = play.new_game("quads", "online", None, None, "alice", "first")
        game = stored.id
        watchers = [LiveSocket(game, None, latest=stored) for _ in range(100)]
        for socket in watchers:
            hub._join(socket)
        for socket in watchers:
            socket.wake.clear()
        hub._join(LiveSocket(game, None, latest=stored))  # one more spectator without an identity
        assert not any(s.wake.is_set() for s in watchers)
        alice = LiveSocket(game, "alice", latest=stored)
        hub._join(alice)  # a seat holder arrives: everyone's view changes
        assert all(s.wake.is_set() for s in watchers)
        for socket in watchers:
            socket.wake.clear()
        second = LiveSocket(game, "alice", latest=stored)
        hub._join(second)  # her second tab: nobody's view changes
        hub._leave(second)
        assert not any(s.wake.is_set() for s in watchers)
        assert hub.connected(game) == {"alice"}
        hub._leave(alice)
        assert all(s.wake.is_set() for s in watchers)
        assert hub.connected(game) == frozenset()

    run_async(run())


def test_a_viewer_with_an_identity_but_no_seat_wakes_nobody() -> None:
    from quads.site.games import play

    async def run() -> None:
        hub = LiveHub()
        told: list[tuple[str, str, bool]] = []
        hub.on_presence = lambda game, player, open_: told.append((game, player, open_))
        stored = play.new_game("quads", "online", None, None, "alice", "first")
        game = stored.id
        alice = LiveSocket(game, "alice", latest=stored)
        hub._join(alice)
        watchers = [LiveSocket(game, f"viewer-{n}", latest=stored) for n in range(200)]
        for socket in watchers:
            hub._join(socket)
        assert told == [(game, "alice", True)]
        for socket in [alice, *watchers]:
            socket.wake.clear()
        bob = LiveSocket(game, "bob", latest=stored)
        hub._join(bob)  # another player, who holds no seat, watches
        hub._leave(bob)
        hub._leave(watchers.pop())
        assert not any(s.wake.is_set() for s in [alice, *watchers])
        assert told == [(game, "alice", True)]
        assert hub.connected(game) == {"alice"}
        # Bob takes the free seat while his socket is open: now he is present.
        hub._join(bob)
        assert not alice.wake.is_set()
        seated = dataclasses.replace(stored, second_player="bob", revision=stored.revision + 1)
        hub.publish(game, seated)
        assert alice.wake.is_set()
        assert hub.connected(game) == {"alice", "bob"}
        assert told[-1] == (game, "bob", True)
        hub._leave(bob)
        assert hub.connected(game) == {"alice"}
        assert told[-1] == (game, "bob", False)

    run_async(run())


def test_one_view_is_built_for_all_who_see_the_same(tmp_path: Path) -> None:
    from quads.site.games import play

    async def run() -> None:
        hub = LiveHub()
        stored = play.new_game("quads", "online", None, None, "alice", "first")
        sockets = [LiveSocket(stored.id, None, latest=stored) for _ in range(3)]
        for socket in sockets:
            hub._join(socket)
        seen = hub.connected(stored.id)
        one = hub.view_message(stored, "bob", seen)
        assert hub.view_message(stored, None, seen) is one  # spectators alike
        mine = hub.view_message(stored, "alice", seen)
        assert mine is not one
        assert json.loads(mine)["view"]["you"] == "first"
        for socket in sockets:
            hub._leave(socket)
        assert hub.held() == (0, 0, 0)
        assert hub.games() == []

    run_async(run())


def test_closed_sockets_leave_nothing_in_the_hub(tmp_path: Path) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the test client asks for httpx2
        from fastapi.testclient import TestClient

    from quads.web.app import create_app
    from web.test_live import receive

    with TestClient(create_app(tmp_path / "games.db", static_dir=None)) as client:
        hub: LiveHub = client.app.state.hub  # type: ignore[attr-defined]
        games = [client.post("/api/games", json={"mode": "online", "rules": "quads"}).json()
                 for _ in range(3)]
        with ExitStack() as stack:
            for game in games:
                for _ in range(2):
                    socket = stack.enter_context(
                        client.websocket_connect(f"/api/games/{game['id']}/live"))
                    assert receive(socket)["type"] == "view"
            assert hub.held() == (3, 6, 1)
            assert hub.sockets(games[0]["id"]) == 2
        deadline = time.monotonic() + 5
        while hub.held() != (0, 0, 0):
            assert time.monotonic() < deadline, hub.held()
            time.sleep(0.05)
        assert hub.games() == []
