"""A rated game's ratings on its live sockets, through a real server: each seat's
rating (a newcomer's, provisional) from the start, and the change the moment the
game ends, on both players' sockets, as ``GET`` shows it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from e2e.quads_server import Server, free_port
from quads.web.middleware.identity import COOKIE

GOOD = "a quiet heron by the lake"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("ratings")
    running = Server(directory / "games.sqlite3", free_port(), directory / "server.log")
    running.start()
    yield running
    running.kill()


def _account(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=30)
    assert client.post("/api/account", json={"name": name, "password": GOOD}).status_code == 201
    return client


def _live(url: str, client: httpx.Client, game: str) -> ClientConnection:
    address = url.replace("http://", "ws://") + f"/api/games/{game}/live"
    return connect(address, additional_headers={
        "Cookie": f"{COOKIE}={client.cookies[COOKIE]}", "Origin": url}, open_timeout=10)


def _view(socket: ClientConnection, wanted: Any, within: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such view arrived"
        message = json.loads(socket.recv(timeout=left))
        if message["type"] == "view" and wanted(message["view"]):
            view: dict[str, Any] = message["view"]
            return view


def test_both_sockets_show_the_ratings_and_the_change_live(server: Server) -> None:
    ada, bea = _account(server.url, "Ada"), _account(server.url, "Bea")
    seek = ada.post("/api/seeks", json={"rated": True, "clock": {"initial": 180,
                                                                 "increment": 2}})
    assert seek.status_code == 201, seek.text
    started = bea.post(f"/api/seeks/{seek.json()['id']}/accept").json()
    game = started["id"]
    with _live(server.url, ada, game) as ada_socket, _live(server.url, bea, game) as bea_socket:
        for socket in (ada_socket, bea_socket):
            first = _view(socket, lambda v: True)
            assert first["rated"] is True
            assert first["ratings"]["first"] == {"rating": 1500, "provisional": True,
                                                 "before": None, "change": None}
        resigned = bea.post(f"/api/games/{game}/resign", json={"revision": started["revision"]})
        assert resigned.status_code == 200, resigned.text
        for socket in (ada_socket, bea_socket):
            over = _view(socket, lambda v: v["outcome"] is not None)
            changes = {side: over["ratings"][side]["change"] for side in ("first", "second")}
            assert sorted(changes.values()) == sorted(
                [resigned.json()["ratings"][s]["change"] for s in ("first", "second")])
            assert all(change is not None and change != 0 for change in changes.values())
    assert ada.get(f"/api/games/{game}").json()["ratings"] == over["ratings"]
