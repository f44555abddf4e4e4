"""One address, many people: the shipped set-up (``quads serve --workers 2`` on
PostgreSQL with ``deploy/quads.toml``, and the nginx of ``deploy/nginx.conf`` in
front of it, ``tests/site_server.py``) lets a room of forty newcomers behind one
address (a school class, a café) play as if each had an address of their own, and
still holds one abusive client of another address at the shipped limits.  Each test
twice: straight at the server, and through the proxy (the room of forty through the
proxy alone in a CI run, where it plays the whole path; both under the thorough
profile).

The clients come from 127.0.B.x, never from 127.0.0.1, which nginx does not limit;
straight at the server, that is the address it counts, and behind the proxy the
address nginx forwards.  Every rate of the app is counted by each of the two
processes on its own, so a client gets between one and two times its share before it
is refused.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from limits import parse_many
from websockets.exceptions import ConnectionClosed, InvalidStatus

from budget import THOROUGH
from postgres_server import PostgresServer
from quads.web.middleware.identity import COOKIE
from quads.web.settings import Settings
from site_server import DEPLOY, NGINX, WORKERS, Site, Target, proxied_site
from web.test_live_limits import close_code

pytestmark = pytest.mark.skipif(not NGINX.exists() and not os.environ.get("CI"),
                                reason="nginx is not installed: apt-get install nginx")

SHIPPED = Settings.from_file(DEPLOY / "quads.toml")
SOCKETS_BURST = int(re.findall(r"limit_req zone=quads_sockets burst=(\d+) nodelay;",
                               (DEPLOY / "nginx.conf").read_text(encoding="utf-8"))[0])
SOCKETS_RATE = int(re.findall(r"zone=quads_sockets:\w+ rate=(\d+)r/s;",
                              (DEPLOY / "nginx.conf").read_text(encoding="utf-8"))[0])
"""The new sockets a second that nginx lets one address open beyond its burst."""
ROOM = 40
"""The people behind one address that the shipped limits are sized for."""


LOGS: list[Path] = []
"""The log of the site's server: a failure of the server (a 5xx) shows its end."""


@pytest.fixture(scope="module")
def site(postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with proxied_site(postgres, tmp_path_factory.mktemp("site"), SHIPPED) as here:
        LOGS[:] = [here.prefix / "quads.log"]
        yield here
        LOGS.clear()


@pytest.fixture(scope="module", params=["direct", "proxy"])
def target(site: Site, request: pytest.FixtureRequest) -> Target:
    return Target(request.param, site, 30 if request.param == "direct" else 40)


def _answered(answer: httpx.Response, status: int) -> dict[str, Any]:
    if answer.status_code >= 500 and status < 500:  # the server's own account of it
        told = "".join(log.read_text(encoding="utf-8", errors="replace")[-6000:]
                       for log in LOGS if log.exists())
        raise AssertionError((answer.request.url, answer.status_code, answer.text, told))
    assert answer.status_code == status, (answer.request.url, answer.status_code, answer.text)
    body: dict[str, Any] = answer.json() if answer.content else {}
    return body


def _cookie(browser: httpx.Client) -> str:
    return f"{COOKIE}={browser.cookies[COOKIE]}"


def _first(socket: Any, kind: str) -> None:
    message = json.loads(socket.recv(timeout=15))
    assert message["type"] == kind, message


def test_a_room_of_forty_newcomers_behind_one_address_plays(target: Target) -> None:
    if target.name == "direct" and not THOROUGH:
        pytest.skip("the room plays through the proxy in a CI run (the thorough profile: both)")
    browsers = [target.client(1) for _ in range(ROOM)]  # one address, forty cookie jars

    def arrive(n: int) -> dict[str, Any]:
        browser = browsers[n]
        _answered(browser.post("/api/players"), 204)
        named = _answered(browser.put("/api/players/me", json={"name": f"Pupil {n}"}), 200)
        assert named["name"] == f"Pupil {n}"
        _answered(browser.post("/api/games", json={"mode": "local"}), 201)
        _answered(browser.post("/api/puzzles/today/result",
                               json={"tries": 1, "seconds": 30, "solved": False}), 201)
        if n % 2:
            return {}
        return _answered(browser.post("/api/games", json={"mode": "online",
                                                          "host": "first"}), 201)

    def join(n: int) -> dict[str, Any]:
        game = hosted[n - 1]
        return _answered(browsers[n].post(f"/api/games/{game['id']}/join", json={
            "invite": game["invite"].rsplit("/", 1)[1]}), 200)

    def seek(n: int) -> str:
        return str(_answered(browsers[n].post("/api/seeks", json={"clock": {"days": 3}}),
                             201)["id"])

    try:
        with ThreadPoolExecutor(8) as pool:
            hosted = list(pool.map(arrive, range(ROOM)))
            joined = list(pool.map(join, range(1, ROOM, 2)))
            seeks = list(pool.map(seek, range(ROOM)))
        games = [joined[n // 2] for n in range(ROOM)]
        assert [game["names"] for game in joined] == [
            {"first": f"Pupil {n}", "second": f"Pupil {n + 1}", "first_bot": False,
             "second_bot": False, "first_account": False, "second_account": False}
            for n in range(0, ROOM, 2)]
        with ExitStack() as stack:
            # Every page holds its game's socket and the lobby's, all at once.
            for n, game in enumerate(games):
                held = _cookie(browsers[n])
                _first(stack.enter_context(target.live(game["id"], 1, held)), "view")
                _first(stack.enter_context(target.socket("/api/lobby/live", 1, held)),
                       "seeks")
            # Meanwhile every browser installs the app: its service worker fetches every
            # file it keeps, and a single refusal would stop the install.
            script = browsers[0].get("/sw.js")
            found = re.search(r"^const BUILD = (.*);$", script.text, re.MULTILINE)
            assert found is not None
            files = ["/sw.js", *json.loads(found[1])["files"]]
            assert len(files) > 40
            # All forty install at once, each a few files at a time as a browser
            # does: the fetches go round the browsers, so that no one client opens
            # sixteen connections (a browser opens six to a site at most).
            wanted = [(n, path) for path in files for n in range(ROOM)]
            with ThreadPoolExecutor(16) as pool:
                statuses = list(pool.map(
                    lambda item: (item[1], browsers[item[0]].get(item[1]).status_code),
                    wanted))
            refused = [item for item in statuses if item[1] != 200]
            assert refused == [], f"{len(refused)} of {len(statuses)}: {refused[:10]}"
        with ThreadPoolExecutor(8) as pool:
            withdrawn = list(pool.map(
                lambda n: browsers[n].delete(f"/api/seeks/{seeks[n]}").status_code,
                range(ROOM)))
        assert set(withdrawn) <= {204, 404}  # gone already if its page left first
    finally:
        for browser in browsers:
            browser.close()


def _held(answer: httpx.Response, whose: str) -> None:
    """``answer`` is the app's refusal of a rate: ``429`` with ``Retry-After``, saying
    whose rate it was (``you`` or ``your address``)."""
    assert answer.status_code == 429, answer.text
    error = answer.json()["error"]
    assert error["code"] == "rate_limited"
    assert f"from {whose}:" in error["message"], error
    assert 1 <= int(answer.headers["Retry-After"]) <= 3600
    assert "set-cookie" not in answer.headers


def _amount(rate: str) -> int:
    """The first (shortest) window's count of a rate of the settings."""
    return parse_many(rate)[0].amount


def test_one_player_too_quick_is_held_and_the_others_of_the_address_are_not(
        target: Target) -> None:
    games = _amount(SHIPPED.rate_games)
    with target.client(2) as quick, target.client(2) as neighbour:
        answers = [quick.post("/api/games", json={"mode": "local"})
                   for _ in range(WORKERS * games + 3)]
        made = [answer for answer in answers if answer.status_code == 201]
        assert games <= len(made) <= WORKERS * games
        for answer in answers:
            if answer.status_code != 201:
                _held(answer, "you")
        # A classmate behind the same address starts their game all the same.
        _answered(neighbour.post("/api/games", json={"mode": "local"}), 201)


def test_a_client_that_makes_player_after_player_is_held_by_its_address(
        target: Target) -> None:
    identities = _amount(SHIPPED.rate_identities)
    made: list[httpx.Client] = []
    try:
        for _ in range(WORKERS * identities + 3):
            client = target.client(3)
            answer = client.post("/api/players")
            if answer.status_code == 204:
                made.append(client)
                continue
            _held(answer, "your address")
            client.close()
        assert identities <= len(made) <= WORKERS * identities
        # Its players, each far below its own rate, meet the address's budget of games.
        budget = _amount(SHIPPED.rate_games_per_address)
        assert WORKERS * budget + 3 < len(made) * _amount(SHIPPED.rate_games)
        answers = [made[n % len(made)].post("/api/games", json={"mode": "local"})
                   for n in range(WORKERS * budget + 3)]
        created = [answer for answer in answers if answer.status_code == 201]
        assert budget <= len(created) <= WORKERS * budget
        for answer in answers:
            if answer.status_code != 201:
                _held(answer, "your address")
    finally:
        for client in made:
            client.close()
    # Another address is another client.
    with target.client(4) as other:
        _answered(other.post("/api/games", json={"mode": "local"}), 201)


def _socket_end(target: Target, game_id: str, n: int, cookie: str) -> str | int | None:
    """How a socket opened now ends: its first message's type, the code it was closed
    with, or nginx's refusal (status and ``Retry-After``)."""
    try:
        with target.live(game_id, n, cookie) as socket:
            try:
                kind: str = json.loads(socket.recv(timeout=15))["type"]
                return kind
            except ConnectionClosed as closed:
                return None if closed.rcvd is None else closed.rcvd.code
    except InvalidStatus as refused:  # by nginx, before the server
        answer = refused.response
        return f"{answer.status_code} Retry-After {answer.headers.get('Retry-After')}"


def test_a_storm_of_sockets_from_one_address_is_held(target: Target) -> None:
    with target.client(7) as player:
        game = _answered(player.post("/api/games", json={"mode": "local"}), 201)
        held = _cookie(player)
    # nginx refuses past its burst (and 4 a second), the server past socket_rate.  The
    # sockets are opened 16 at a time, so that the storm outruns nginx's rate on a slow
    # machine too; what nginx let through is bounded by its burst and the time taken.
    allowed = SOCKETS_BURST if target.proxied else _amount(SHIPPED.socket_rate)
    tries = allowed + 240 if target.proxied else WORKERS * allowed + 3
    began = time.monotonic()
    with ThreadPoolExecutor(16) as pool:
        ends = Counter(pool.map(lambda _: _socket_end(target, game["id"], 7, held),
                                range(tries)))
    took = time.monotonic() - began
    refusal = "429 Retry-After 1" if target.proxied else 4429
    assert set(ends) == {"view", refusal}, ends
    if target.proxied:
        assert allowed <= ends["view"] <= allowed + SOCKETS_RATE * took + 1, (ends, took)
    else:
        assert allowed <= ends["view"] <= WORKERS * allowed, ends
    # Another address is another client.
    with target.client(8) as other:
        game = _answered(other.post("/api/games", json={"mode": "local"}), 201)
        with target.live(game["id"], 8, _cookie(other)) as socket:
            _first(socket, "view")


def test_two_identity_cookies_are_refused(target: Target) -> None:
    with target.client(5) as person, target.client(5) as planter:
        game = _answered(person.post("/api/games", json={"mode": "local"}), 201)
        _answered(person.post(f"/api/games/{game['id']}/actions", json={
            "revision": game["revision"], "action": "give", "piece": "3"}), 200)
        _answered(planter.post("/api/players"), 204)
        mine, planted = _cookie(person), _cookie(planter)
    headers: list[list[tuple[str, str]]] = [
        [("Cookie", f"{planted}; {mine}")], [("Cookie", f"{mine}; {planted}")],
        [("Cookie", f"{mine}; theme=dark; {mine}")],
        [("Cookie", mine), ("Cookie", planted)],  # as two headers
    ]
    with target.client(6) as browser:
        for header in headers:
            for method, path in [("GET", "/api/games"), ("GET", f"/api/games/{game['id']}"),
                                 ("POST", "/api/games"), ("PUT", "/api/players/me")]:
                body = {"mode": "local"} if path == "/api/games" else {"name": "Planted"}
                answer = browser.request(method, path, headers=header,
                                         json=body if method != "GET" else None)
                assert answer.status_code == 400, (header, path, answer.text)
                assert answer.json()["error"]["code"] == "ambiguous_player"
                assert "set-cookie" not in answer.headers
            # A live socket is followed as by a caller without a token: a local game
            # is nobody's to watch.
            with target.live(game["id"], 6, "; ".join(value for _, value in header)) as live:
                assert close_code(live) == 4403  # another's private game
        # A bearer token is read before any cookie.
        token = mine.split("=", 1)[1]
        answer = browser.get("/api/games", headers={"Cookie": f"{planted}; {mine}",
                                                    "Authorization": f"Bearer {token}"})
        assert [listed["id"] for listed in _answered(answer, 200)["games"]] == [game["id"]]
    # Nothing changed for either player.
    with target.client(5, Cookie=mine) as person, target.client(5, Cookie=planted) as planter:
        assert [g["id"] for g in _answered(person.get("/api/games"), 200)["games"]] == [
            game["id"]]
        assert _answered(planter.get("/api/games"), 200)["games"] == []
        assert _answered(planter.get("/api/players/me"), 200)["name"] != "Planted"
