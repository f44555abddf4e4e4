"""The attacks of ``tests/web`` made on the shipped site set-up (``quads serve
--workers 2`` on PostgreSQL with ``deploy/quads.toml``, ``tests/site_server.py``),
each test twice: straight at the server, and through the real nginx of
``deploy/nginx.conf`` in front of it.  What holds for one process under the test
client holds for two processes behind the proxy: cross-site changes are refused,
every answer carries the security headers, other cookies of the host never cost a
player their games, live sockets are capped, and the engine's share answers
``429`` with ``Retry-After`` (the rates of creation are ``test_shared_address.py``'s,
at the shipped settings).

The settings are the shipped ones but for the live sockets' caps, lowered to a
few so that a test reaches them.  Every cap and rate of the app is counted by each
process on its own, so with two processes a client gets between one and two
times its share before it is refused."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from postgres_server import PostgresServer
from quads.web.middleware.identity import COOKIE
from quads.web.settings import Settings
from site_server import DEPLOY, NGINX, WORKERS, Site, Target, proxied_site
from web.test_api_players import NEIGHBOURS
from web.test_headers import PATHS, policy
from web.test_live_limits import close_code, first_view

pytestmark = pytest.mark.skipif(not NGINX.exists() and not os.environ.get("CI"),
                                reason="nginx is not installed: apt-get install nginx")

SHIPPED = Settings.from_file(DEPLOY / "quads.toml")
SOCKETS_PER_CLIENT = 3
SOCKETS_PER_GAME = 4

ANALYSED = [
    "..../...D/..24/F... 5", "..../..6./..5./.32. 0", "..../..8./...7/.0C. B",
    "..../.0.F/.2.3/.... 7", "..../0.../...4/3.F. 9", "...2/..6./.C../...8 5",
    "...5/..../.6../D.8. 3", "...7/...9/.61./.... A", "...D/6.../.B.8/.... 9",
    "..0./3.../...C/...E 4", "..0./9.7./..../..E. F", "..1./.8../C.../5... 0",
    "..34/..../.61./.... E", "..45/..../3..B/.... E", "..8./..E./.B../...3 2",
    "..8./DE../.C../.... F",
]
"""Positions beyond the opening book that take the solver a few tenths of a second
each (none symmetric to another): eight for each way to the server, since each
process remembers what it analysed."""


@pytest.fixture(scope="module")
def site(postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    settings = SHIPPED.replace(sockets_per_client=SOCKETS_PER_CLIENT,
                               sockets_per_game=SOCKETS_PER_GAME)
    with proxied_site(postgres, tmp_path_factory.mktemp("site"), settings) as here:
        yield here


@pytest.fixture(scope="module", params=["direct", "proxy"])
def target(site: Site, request: pytest.FixtureRequest) -> Target:
    return Target(request.param, site, 10 if request.param == "direct" else 20)


def new_game(client: httpx.Client, **body: Any) -> dict[str, Any]:
    body.setdefault("mode", "local")
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()
    return game


def cookie(client: httpx.Client) -> str:
    return f"{COOKIE}={client.cookies[COOKIE]}"


def end(socket: ClientConnection) -> str | int | None:
    """``"view"`` if the socket was admitted, else the code it was closed with."""
    try:
        message = json.loads(socket.recv(timeout=10))
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code
    return str(message["type"])


def test_answers_are_not_held_back(target: Target) -> None:
    # With Nagle's algorithm on the server's connections, every answer written in two
    # parts waited some 40 ms for the client's delayed acknowledgement.
    with target.client(60) as browser:
        taken = []
        for path in ["/api/messages/en", "/js/live.js"] * 8:
            began = time.monotonic()
            assert browser.get(path).status_code == 200
            taken.append(time.monotonic() - began)
    taken.sort()
    assert taken[len(taken) // 2] < 0.025, taken


def test_a_cross_site_change_is_refused(target: Target) -> None:
    scheme, _, port = target.origin.split(":")
    other_scheme = "http" if scheme == "https" else "https"
    with target.client(1) as player:
        game = new_game(player)
        for headers in [{"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                        {"Origin": "https://evil.example"}, {"Origin": "null"},
                        {"Origin": f"{other_scheme}:{target.origin.split(':', 1)[1]}"},
                        {"Origin": f"{scheme}://127.0.0.1:{int(port) + 1}"}]:
            answer = player.post(f"/api/games/{game['id']}/rematch", headers=headers)
            assert answer.status_code == 403, (headers, answer.text)
            assert answer.json()["error"]["code"] == "cross_site"
            assert "set-cookie" not in answer.headers
        own = player.post("/api/games", json={"mode": "local"},
                          headers={"Origin": target.origin, "Sec-Fetch-Site": "same-origin"})
        assert own.status_code == 201, own.text
        assert player.get(f"/api/games/{game['id']}").json() == game


def test_every_answer_carries_the_security_headers(target: Target) -> None:
    with target.client(2) as browser:
        for path in PATHS:
            answer = browser.get(path)
            assert answer.status_code < 500, path
            csp = policy(answer.headers["content-security-policy"])
            assert csp["frame-ancestors"] == ["'none'"], path
            assert csp["script-src"][0] == "'self'", path
            assert answer.headers["x-frame-options"] == "DENY"
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"
            assert "server" not in answer.headers or "uvicorn" not in answer.headers["server"]
            hsts = answer.headers.get_list("strict-transport-security")
            assert len(hsts) == (1 if target.proxied else 0), (path, hsts)


def test_other_cookies_keep_the_players_games(target: Target) -> None:
    with target.client(3) as player:
        view = new_game(player, rules="classic")
        view = player.post(f"/api/games/{view['id']}/actions", json={
            "revision": view["revision"], "action": "give", "piece": "7"}).json()
        mine = cookie(player)
    with target.client(4) as fresh:
        for neighbour in NEIGHBOURS:
            for header in (f"{neighbour}; {mine}", f"{mine}; {neighbour}"):
                answer = fresh.get(f"/api/games/{view['id']}", headers={"Cookie": header})
                assert answer.status_code == 200, (header, answer.text)
                assert answer.json() == view
                assert "set-cookie" not in answer.headers
                listed = fresh.get("/api/games", headers={"Cookie": header}).json()
                assert [game["id"] for game in listed["games"]] == [view["id"]]
        # A token this server never issued is refused, and never replaced.
        for method, path in (("GET", "/api/games"), ("GET", f"/api/games/{view['id']}"),
                             ("POST", "/api/games")):
            answer = fresh.request(method, path, json={"mode": "local"},
                                   headers={"Cookie": f"theme=dark; {COOKIE}=forged"})
            assert answer.status_code == 401, answer.text
            assert answer.json()["error"]["code"] == "unknown_player"
            assert "set-cookie" not in answer.headers


def test_an_oversized_socket_message_closes_the_socket(target: Target) -> None:
    with target.client(5) as player:
        game = new_game(player)
        held = cookie(player)
    with target.live(game["id"], 5, held, max_size=None) as socket:
        first_view(socket)
        socket.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
        assert close_code(socket) == 1009
    with target.live(game["id"], 5, held) as socket:
        first_view(socket)
        socket.send(json.dumps({"type": "ping", "pad": "x" * 3000}))
        assert json.loads(socket.recv(timeout=10)) == {"type": "pong"}


def _open_again(target: Target, game_id: str, n: int, held: str | None) -> None:
    """A socket from address ``n`` is admitted again (its closed ones given back)."""
    deadline = time.monotonic() + 5
    while True:
        with target.live(game_id, n, held) as socket:
            if end(socket) == "view":
                return
        assert time.monotonic() < deadline, "the closed sockets were not given back"
        time.sleep(0.2)


def test_the_sockets_of_one_address_are_capped(target: Target) -> None:
    with target.client(6) as player:
        games = [new_game(player) for _ in range(WORKERS * SOCKETS_PER_CLIENT + 1)]
        held = cookie(player)
    with ExitStack() as stack:
        ends = [end(stack.enter_context(target.live(game["id"], 7, held))) for game in games]
        assert set(ends) == {"view", 4429}, ends
        assert SOCKETS_PER_CLIENT <= ends.count("view") <= WORKERS * SOCKETS_PER_CLIENT
        # Another address is another client.
        with target.live(games[0]["id"], 8, held) as other:
            first_view(other)
    _open_again(target, games[0]["id"], 7, held)


def test_the_sockets_of_one_game_are_capped(target: Target) -> None:
    with target.client(9) as player:
        game = new_game(player, mode="online", host="first")  # anyone may watch it
        elsewhere = new_game(player, mode="online", host="first")
    with ExitStack() as stack:
        ends = [end(stack.enter_context(target.live(game["id"], 10 + n)))
                for n in range(WORKERS * SOCKETS_PER_GAME + 1)]
        assert set(ends) == {"view", 4429}, ends
        assert SOCKETS_PER_GAME <= ends.count("view") <= WORKERS * SOCKETS_PER_GAME
        with target.live(elsewhere["id"], 30) as other:
            first_view(other)
    _open_again(target, game["id"], 30, None)


def test_the_engine_refuses_a_client_over_its_share(target: Target) -> None:
    positions = ANALYSED[:8] if target.proxied else ANALYSED[8:]
    clients = [target.client(50) for _ in positions]
    start = threading.Barrier(len(clients))

    def ask(client: httpx.Client, position: str) -> httpx.Response:
        start.wait(timeout=10)
        return client.get("/api/analysis", params={"position": position})

    try:
        for client in clients:  # connected beforehand, so that all ask at once
            assert client.get("/api/messages/en").status_code == 200
        with ThreadPoolExecutor(len(clients)) as pool:
            answers = list(pool.map(ask, clients, positions))
    finally:
        for client in clients:
            client.close()
    refused = [answer for answer in answers if answer.status_code != 200]
    assert refused, "eight analyses at once from one address were all accepted"
    assert len(refused) < len(answers)
    for answer in refused:
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"]["code"] == "engine_busy"
        assert int(answer.headers["Retry-After"]) >= 1
