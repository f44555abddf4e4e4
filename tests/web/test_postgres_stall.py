"""A PostgreSQL server that stops answering (every process of its cluster
``SIGSTOP``-ped, as a frozen host or a stalled disk would leave it) does not
freeze ``quads serve --workers 2``, straight or behind the shipped nginx
(``tests/site_server.py``): the page, its files and the live sockets' pings
answer within 100 ms, API calls that need the database answer ``503`` with
``Retry-After`` within 2 s (the invitation's QR code too), a live socket opened
meanwhile is closed with 1013 (try again later), and after ``SIGCONT`` everything
works again by itself.

The issue's stop is 20 s (``bench/abuse.py --postgres --attacks stopped-db``);
here the database stays stopped for a few seconds, long enough for every bound to
be met many times over."""

from __future__ import annotations

import json
import math
import os
import secrets
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from postgres_server import PostgresServer
from quads.storage import GameStore
from quads.web.middleware.identity import COOKIE, player_id
from quads.web.settings import Settings
from site_server import NGINX, Site, Target, proxied_site

pytestmark = pytest.mark.postgres

STOPPED = 4.0
"""Seconds the database stays stopped."""
SAMPLES = 10
"""Requests of each kind while it is stopped."""
QUICK = 0.1
"""The p95 of the page, a file and a ping while it is stopped, in seconds."""
REFUSED = 2.0
"""The longest an API call may take to answer ``503``, in seconds."""


@pytest.fixture(scope="module")
def site(postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with proxied_site(postgres, tmp_path_factory.mktemp("site"), Settings(),
                      proxy=NGINX.exists()) as here:
        yield here


@pytest.fixture(scope="module", params=["direct", "proxy"])
def target(site: Site, request: pytest.FixtureRequest) -> Target:
    if request.param == "proxy" and not NGINX.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must install nginx (.ci/run does)")
        pytest.skip("nginx is not installed: apt-get install nginx")
    return Target(request.param, site, 10 if request.param == "direct" else 20)


@contextmanager
def stopped(postgres: PostgresServer) -> Iterator[None]:
    """Every process of the cluster stopped (``SIGSTOP``), continued on leaving."""
    processes = postgres.processes()
    for pid in processes:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in processes:
            os.kill(pid, signal.SIGCONT)


def timed(client: httpx.Client, method: str, path: str, body: Any = None,
          ) -> tuple[httpx.Response, float]:
    began = time.monotonic()
    answer = client.request(method, path, json=body)
    return answer, time.monotonic() - began


def p95(seconds: list[float]) -> float:
    ordered = sorted(seconds)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


def unavailable(answer: httpx.Response, taken: float) -> None:
    """A ``503 unavailable`` with ``Retry-After``, answered within the bound."""
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "unavailable"
    assert answer.headers["Retry-After"] == "2"
    assert taken < REFUSED, f"a 503 took {taken:.2f} s"


def close_code(target: Target, game_id: str, n: int, cookie: str | None) -> int | None:
    """The code a socket opened now is closed with (``None``: it got its view, or was
    closed without a code)."""
    with target.live(game_id, n, cookie) as socket:
        try:
            message = json.loads(socket.recv(timeout=5))
        except ConnectionClosed as closed:
            return None if closed.rcvd is None else closed.rcvd.code
    assert message["type"] == "view", message
    return None


def served(check: Callable[[], bool]) -> None:
    """Wait until ``check`` holds: every process has recovered."""
    deadline = time.monotonic() + 30
    while not check():
        assert time.monotonic() < deadline, "a process of the server did not recover"
        time.sleep(0.2)


def recovered(client: httpx.Client, game_id: str) -> dict[str, Any]:
    """The game, once the server reads it again (it recovers by itself)."""
    deadline = time.monotonic() + 30
    while True:
        answer = client.get(f"/api/games/{game_id}")
        if answer.status_code == 200:
            view: dict[str, Any] = answer.json()
            return view
        assert answer.status_code == 503, answer.text
        assert time.monotonic() < deadline, "the server did not recover"
        time.sleep(0.2)


def test_a_stopped_database_freezes_nothing(postgres: PostgresServer, target: Target) -> None:
    with target.client(1) as player:
        created = player.post("/api/games", json={"mode": "local"})
        assert created.status_code == 201, created.text
        view = created.json()
        online = player.post("/api/games", json={"mode": "online", "host": "first"}).json()
        cookie = f"{COOKIE}={player.cookies[COOKIE]}"
        game, invite = f"/api/games/{view['id']}", f"/api/games/{online['id']}/invite.svg"
        assert player.get(invite).status_code == 200
        with target.live(view["id"], 1, cookie) as socket:
            assert json.loads(socket.recv(timeout=10))["view"]["revision"] == view["revision"]
            page: list[float] = []
            files: list[float] = []
            pings: list[float] = []
            began = time.monotonic()
            with stopped(postgres):
                for n in range(SAMPLES):
                    answer, taken = timed(player, "GET", "/")
                    assert answer.status_code == 200
                    page.append(taken)
                    answer, taken = timed(player, "GET", "/js/live.js")
                    assert answer.status_code == 200
                    files.append(taken)
                    pinged = time.monotonic()
                    socket.send(json.dumps({"type": "ping"}))
                    assert json.loads(socket.recv(timeout=5)) == {"type": "pong"}
                    pings.append(time.monotonic() - pinged)
                    # What needs the database: a read, a change, the invitation's code.
                    unavailable(*timed(player, "GET", game))
                    unavailable(*timed(player, "POST", f"{game}/actions", {
                        "revision": view["revision"], "action": "give", "piece": "5"}))
                    if n < 2:
                        unavailable(*timed(player, "GET", invite))
                # A socket opened meanwhile is told to come back later.
                assert close_code(target, view["id"], 2, cookie) == 1013
                time.sleep(max(0.0, STOPPED - (time.monotonic() - began)))
            assert p95(page) < QUICK, page
            assert p95(files) < QUICK, files
            assert p95(pings) < QUICK, pings
            seen = recovered(player, view["id"])
            moved = player.post(f"{game}/actions", json={
                "revision": seen["revision"], "action": "give", "piece": "5"})
            assert moved.status_code == 200, moved.text
            while True:
                message = json.loads(socket.recv(timeout=10))
                if message["type"] == "view" and message["view"]["revision"] == \
                        moved.json()["revision"]:
                    break
        # Each process recovers by itself (its own probe), the other one too.
        served(lambda: player.get(invite).status_code == 200)
        served(lambda: close_code(target, view["id"], 2, cookie) is None)


def test_a_socket_whose_caller_cannot_be_checked_is_told_to_come_back(
        postgres: PostgresServer, site: Site, target: Target) -> None:
    """A player that no process of the server has met yet (the store has them, as it
    would after a restart): while the database is stopped their socket cannot be
    checked, and is closed with 1013, not failed."""
    token = secrets.token_urlsafe(32)
    with closing(GameStore(site.database)) as store:
        store.add_player(player_id(token))
    with target.client(3) as player:
        view = player.post("/api/games", json={"mode": "online", "host": "first"}).json()
        with stopped(postgres):
            assert close_code(target, view["id"], 4, f"{COOKIE}={token}") == 1013
        recovered(player, view["id"])
    served(lambda: close_code(target, view["id"], 4, f"{COOKIE}={token}") is None)
