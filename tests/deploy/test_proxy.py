"""The shipped site set-up, tested as an operator runs it: Debian's nginx with
``deploy/nginx.conf`` (TLS, WebSockets, ``limit_conn``/``limit_req``, timeouts,
``X-Forwarded-*`` set by the proxy only) in front of ``quads serve --workers 2`` on
PostgreSQL with ``deploy/quads.toml`` (``tests/site_server.py``); the attacks of
``tests/web/test_edge.py`` made through it, and the API fuzzed through it.
"""

from __future__ import annotations

import json
import os
import re
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields

import httpx
import pytest
from websockets.sync.client import connect

from edge_server import closed_within
from postgres_server import PostgresServer
from quads.web.settings import Settings
from site_server import DEPLOY, NGINX, ROOT, SITE, Site, proxied_site

pytestmark = pytest.mark.skipif(not NGINX.exists() and not os.environ.get("CI"),
                                reason="nginx is not installed: apt-get install nginx")

SHIPPED_NGINX = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")


def shipped(pattern: str) -> int:
    """A number of ``deploy/nginx.conf``: the group of ``pattern``, found once."""
    found = re.findall(pattern, SHIPPED_NGINX)
    assert len(set(found)) == 1, (pattern, found)
    return int(found[0])


API_BURST = shipped(r"limit_req zone=quads_api burst=(\d+) nodelay;")
CONNECTIONS = shipped(r"limit_conn quads_connections (\d+);")
FILES_BURST = shipped(r"limit_req zone=quads_files burst=(\d+) nodelay;")


@pytest.fixture(scope="module")
def site(postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """nginx in front of ``quads serve --workers 2`` on a database of its own, with the
    shipped settings but the rates of creation: the fuzzing's whole load comes from one
    address."""
    shipped = Settings.from_file(DEPLOY / "quads.toml")
    lifted = shipped.replace(**{item.name: "100000/minute" for item in fields(Settings)
                                if item.name.startswith("rate_")})
    with proxied_site(postgres, tmp_path_factory.mktemp("site"), lifted) as here:
        yield here


def test_a_game_is_played_through_the_proxy(site: Site) -> None:
    with site.client() as player:
        created = player.post("/api/games", json={"mode": "local"})
        assert created.status_code == 201, created.text
        view = created.json()
        moved = player.post(f"/api/games/{view['id']}/actions",
                            json={"revision": view["revision"], "action": "give", "piece": "3"})
        assert moved.status_code == 200, moved.text
        assert player.get(f"/api/games/{view['id']}").json()["revision"] == \
            moved.json()["revision"]
        assert "strict-transport-security" in player.get("/").headers


def test_plain_http_is_sent_to_https(site: Site) -> None:
    answer = httpx.get(f"http://127.0.0.1:{site.http_port}/api/games", headers={"Host": SITE},
                       trust_env=False)
    assert answer.status_code == 301
    assert answer.headers["location"] == f"https://{SITE}/api/games"


def test_a_live_socket_works_through_the_proxy(site: Site) -> None:
    with site.client() as player:
        view = player.post("/api/games", json={"mode": "online", "host": "first"}).json()
        cookie = "; ".join(f"{name}={value}" for name, value in player.cookies.items())
    address = f"wss://127.0.0.1:{site.port}/api/games/{view['id']}/live"
    with connect(address, ssl=site.socket_tls, server_hostname=SITE, open_timeout=10,
                   origin=f"https://127.0.0.1:{site.port}",  # type: ignore[arg-type]
                   additional_headers={"Cookie": cookie}) as live:
        message = json.loads(live.recv(timeout=10))
        assert message["type"] == "view"
        assert message["view"]["id"] == view["id"]


def test_the_lobby_socket_works_through_the_proxy(site: Site) -> None:
    with site.client() as seeker:
        offer = seeker.post("/api/seeks", json={"clock": {"days": 3}})
        assert offer.status_code == 201, offer.text
        cookie = "; ".join(f"{name}={value}" for name, value in seeker.cookies.items())
        address = f"wss://127.0.0.1:{site.port}/api/lobby/live"
        with connect(address, ssl=site.socket_tls, server_hostname=SITE, open_timeout=10,
                     origin=f"https://127.0.0.1:{site.port}",  # type: ignore[arg-type]
                     additional_headers={"Cookie": cookie}) as lobby:
            message = json.loads(lobby.recv(timeout=10))
            assert message["type"] == "seeks"
            assert [(s["id"], s["mine"]) for s in message["seeks"]] == [
                (offer.json()["id"], True)]
        assert seeker.delete(f"/api/seeks/{offer.json()['id']}").status_code == 204


def test_a_tournament_s_socket_works_through_the_proxy(site: Site) -> None:
    with site.client() as maker:
        made = maker.post("/api/account", json={"name": "proxy-arena",
                                                "password": "a quiet heron by the lake"})
        assert made.status_code == 201, made.text
        arena = maker.post("/api/tournaments", json={"rules": "quads", "clock": "180+2",
                                                     "minutes": 30})
        assert arena.status_code == 201, arena.text
        cookie = "; ".join(f"{name}={value}" for name, value in maker.cookies.items())
    address = f"wss://127.0.0.1:{site.port}/api/tournaments/{arena.json()['id']}/live"
    with connect(address, ssl=site.socket_tls, server_hostname=SITE, open_timeout=10,
                 origin=f"https://127.0.0.1:{site.port}",  # type: ignore[arg-type]
                 additional_headers={"Cookie": cookie}) as live:
        message = json.loads(live.recv(timeout=10))
        assert message["type"] == "tournament"
        assert message["tournament"]["id"] == arena.json()["id"]
        assert json.loads(live.recv(timeout=10))["type"] == "me"


def test_idle_and_slow_connections_are_dropped_by_the_proxy(site: Site) -> None:
    idle = socket.create_connection(("127.0.0.1", site.port), timeout=10)
    with idle:
        waited = closed_within(idle, 8)
    assert waited is not None, "the proxy kept a silent connection"
    with site.raw("127.0.0.3") as slow:
        slow.settimeout(0.5)
        started = time.monotonic()
        closed = False
        for byte in f"GET / HTTP/1.1\r\nHost: {SITE}\r\nX-Slow: {'a' * 30}".encode():
            try:
                slow.send(bytes([byte]))
                if slow.recv(100) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except (ConnectionError, ssl.SSLError):
                closed = True
                break
        assert closed, "the proxy read a slow head for ever"
        assert time.monotonic() - started < 6


def _access_line(site: Site, path: str) -> str:
    deadline = time.monotonic() + 5
    while True:
        lines = [line for line in site.server.log.read_text(errors="replace").splitlines()
                 if "quads.access" in line and f" {path} " in line]
        if lines or time.monotonic() > deadline:
            assert lines, f"no access line for {path}"
            return lines[-1]
        time.sleep(0.1)


def test_a_forged_forwarded_for_from_outside_is_replaced_by_the_proxy(site: Site) -> None:
    with site.client("127.0.0.7") as outsider:
        answer = outsider.get("/api/messages/de?forged",
                              headers={"X-Forwarded-For": "203.0.113.9"})
        assert answer.status_code == 200
    line = _access_line(site, "/api/messages/de?forged")
    assert " 127.0.0.7 GET " in line
    assert "203.0.113.9" not in line


def test_an_unknown_host_is_refused_behind_the_proxy(site: Site) -> None:
    with site.client() as client:
        answer = client.get("/api/messages/en", headers={"Host": "rebound.example.net"})
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "unknown_host"


def test_the_proxy_limits_the_rate_of_one_address(site: Site) -> None:
    # 40 a second and a burst of 400: 2,000 requests at once from one address meet 429s
    # unless they take 40 s, which no machine of ours does.
    with site.client("127.0.0.9") as flooder, ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda _: flooder.get("/api/games/none"),
                                range(API_BURST + 1600)))
    statuses = [answer.status_code for answer in answers]
    assert 429 in statuses, statuses
    assert 404 in statuses
    # Refused as the API refuses: JSON, and when to try again.
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused.headers["Retry-After"] == "1"
    assert len(refused.headers.get_list("strict-transport-security")) == 1
    with site.client("127.0.0.10") as other:
        assert other.get("/api/messages/en").status_code == 200


def test_the_proxy_refuses_a_large_body_as_the_api_does(site: Site) -> None:
    with site.client("127.0.0.14") as client:
        answer = client.post("/api/games/import", content=b"{" + b" " * 70_000 + b"}",
                             headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["error"]["code"] == "too_large"


def test_the_proxy_limits_the_connections_of_one_address(site: Site) -> None:
    # limit_conn counts the connections with a request under way: each of these has
    # sent a request's head and keeps its body coming, a byte at a time.  They ask
    # for the page's files, whose burst of requests is above the connections' limit.
    assert FILES_BURST > CONNECTIONS
    held: list[ssl.SSLSocket] = []

    def trickle() -> None:
        for sock in held:
            sock.send(b" ")

    try:
        for n in range(CONNECTIONS):
            sock = site.raw("127.0.0.12")
            sock.sendall(f"POST /index.html HTTP/1.1\r\nHost: {SITE}\r\n"
                         "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
                         .encode())
            held.append(sock)
            if n % 8 == 7:
                trickle()
        trickle()
        with site.client("127.0.0.12") as client:
            assert client.get("/").status_code == 429
        trickle()
        with site.client("127.0.0.13") as other:  # another address
            assert other.get("/").status_code == 200
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 5
    with site.client("127.0.0.12") as client:
        while (status := client.get("/").status_code) != 200:
            assert status == 429
            assert time.monotonic() < deadline, "closed connections were not given back"
            time.sleep(0.2)


def test_a_first_visit_and_the_workers_install_meet_no_limit(site: Site) -> None:
    # The page loads its modules, then its service worker fetches every file it keeps
    # at once (cache.addAll), which fails whole on a single 429: both from one
    # address, one right after the other.
    with site.client("127.0.0.11") as browser:
        script = browser.get("/sw.js")
        assert script.status_code == 200
        found = re.search(r"^const BUILD = (.*);$", script.text, re.MULTILINE)
        assert found is not None
        files = json.loads(found[1])["files"]
        assert len(files) > 40
        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(lambda path: (path, browser.get(path).status_code),
                                     [*files, *files]))
    assert [item for item in statuses if item[1] != 200] == []
    # The API stays limited for that address as for any other.
    with site.client("127.0.0.11") as flooder, ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(lambda _: flooder.get("/api/games/none").status_code,
                              range(API_BURST + 600)))
    assert 429 in codes


def test_the_api_keeps_its_contract_through_the_proxy(site: Site) -> None:
    fuzz = ROOT / "bench" / "fuzz.py"
    run = subprocess.run(
        [sys.executable, str(fuzz), "--base", site.base, "--examples", "3", "--seed", "1",
         "--max-time", "20", "--ca", str(site.prefix / "cert.pem"), "--host", SITE,
         "--player-only"],  # the strangers' runs are the contract test's, without the proxy
        capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
    assert "no failure" in run.stdout
