"""The HTTP server's edge, attacked from 127.0.0.x: idle and slow connections are
closed, one address cannot hold every connection, the process never runs out of
file handles, forwarded headers are believed only from a trusted proxy, and an
unknown ``Host`` is refused (``quads.web.middleware.connections``,
``quads.web.middleware.hosts``)."""

from __future__ import annotations

import http.client
import json
import socket
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
from websockets.sync.client import connect as websocket

from edge_server import closed_within, connect, edge_server, get


def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(
        tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="header_timeout = 1.0\n") as server:
        with connect(server.port) as idle:
            waited = closed_within(idle, 8)
        assert waited is not None, "an idle connection was kept open"
        assert 0.5 < waited < 4


def test_a_request_head_sent_a_byte_at_a_time_is_cut_off(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="header_timeout = 2.0\n") as server:
        head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Slow: {'a' * 40}"
        started = time.monotonic()
        with connect(server.port) as slow:
            slow.settimeout(0.5)
            closed = False
            for byte in head.encode():
                try:
                    slow.send(bytes([byte]))
                    if slow.recv(100) == b"":
                        closed = True
                        break
                except TimeoutError:
                    continue
                except ConnectionError:
                    closed = True
                    break
        assert closed, "a head sent a byte every 0.5 s was read for ever"
        assert time.monotonic() - started < 5


def test_a_body_that_never_ends_is_cut_off(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="body_timeout = 1.0\n") as server:
        with connect(server.port) as slow:
            slow.sendall(f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                         "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
                         .encode())
            waited = closed_within(slow, 8)
        assert waited is not None
        assert waited < 5


def test_a_kept_alive_connection_serves_several_requests(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="header_timeout = 1.0\n") as server:
        kept = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        try:
            for _ in range(3):
                kept.request("GET", "/api/messages/en")
                answer = kept.getresponse()
                assert answer.status == 200
                answer.read()
                time.sleep(1.5)  # longer than the header timeout, shorter than keep-alive
            assert kept.sock is not None  # never reconnected
        finally:
            kept.close()


def test_one_address_cannot_hold_more_than_its_share_of_connections(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="connections_per_client = 4\n") as server:
        held = [connect(server.port) for _ in range(4)]
        try:
            time.sleep(0.3)
            status, answer = get(server.port)
            assert status in (0, 503), answer[:200]
            if status:
                assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["code"] == \
                    "unavailable"
                assert b"retry-after: " in answer.lower()
            assert get(server.port, source="127.0.0.2")[0] == 200
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.3)
        assert get(server.port)[0] == 200  # a closed connection frees its place


def test_with_hundreds_of_idle_connections_another_client_is_answered(tmp_path: Path) -> None:
    # The process may open 256 files; six addresses try 60 idle connections each.
    with edge_server(tmp_path, settings="connections_per_client = 20\n",
                     files=256) as server:
        held: list[socket.socket] = []
        try:
            for n in range(6):
                for _ in range(60):
                    try:
                        held.append(connect(server.port, f"127.0.1.{n + 1}", timeout=2))
                    except OSError:
                        break
            time.sleep(0.5)
            status, _ = get(server.port, source="127.0.2.1", timeout=5)
            assert status == 200
        finally:
            for sock in held:
                sock.close()
        assert "Too many open files" not in server.log.read_text(errors="replace")


def test_an_unknown_host_is_refused(tmp_path: Path) -> None:
    with edge_server(tmp_path) as server:
        status, answer = get(server.port, host="rebound.example.org")
        assert status == 400
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["code"] == "unknown_host"
        for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", "localhost",
                     f"[::1]:{server.port}"):
            status, answer = get(server.port, host=host)
            assert status == 200, host
            head = answer.split(b"\r\n\r\n", 1)[0].lower()
            assert b"\r\nserver:" not in head  # the server does not name itself


def test_the_allowed_hosts_are_those_given(tmp_path: Path) -> None:
    with edge_server(tmp_path, "--allowed-host", "quads.example.org,play.example.org",
                     "--allowed-host", "*.example.net", "--allowed-host", "127.0.0.1") as server:
        for host in ("quads.example.org", "play.example.org:8443", "a.example.net"):
            assert get(server.port, host=host)[0] == 200, host
        for host in ("localhost", "example.org", "quads.example.org.evil"):
            assert get(server.port, host=host)[0] == 400, host


MALFORMED_HOSTS = (
    "127.0.0.1:80@evil.example", "user@localhost", "localhost:8000@127.0.0.1",
    "localhost/path", "localhost?query", "localhost#part", "local host", "localhost,other",
    "localhost:", "localhost:99999", "localhost:80:80", "localhost:+80", "ex%61mple.org",
    "[::1", "[::1]x", "[::1]:", "::1", "[fe80::1%25eth0]:80", "[v1.future]",
)
"""``Host`` values that are no plain ``host[:port]``: userinfo, a path, a query, a
fragment, a space, a list, an empty, too large, second or signed port, an escape, an
IPv6 address half bracketed, unbracketed, with a zone, or in a future form."""


def _refused(answer: bytes, code: str) -> None:
    head, body = answer.split(b"\r\n\r\n", 1)
    assert b"\r\ncontent-type: application/json" in head.lower()
    assert json.loads(body)["error"]["code"] == code


def test_a_host_that_is_not_a_plain_host_and_port_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    # Whatever the names allowed: the loopback names by default, any with "*".
    for server_args in ((), ("--allowed-host", "*")):
        folder = tmp_path / ("b" if server_args else "a")
        with edge_server(folder, *server_args) as server:
            for host in MALFORMED_HOSTS:
                status, answer = get(server.port, host=host)
                assert status == 400, host
                _refused(answer, "invalid_host")
            for host in (f"127.0.0.1:{server.port}", "localhost", f"[::1]:{server.port}",
                         "LOCALHOST:80"):
                assert get(server.port, host=host)[0] == 200, host
            status, answer = get(server.port, "/api/lobby/live", host=MALFORMED_HOSTS[0],
                                 headers=["Upgrade: websocket", "Connection: Upgrade",
                                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                                          "Sec-WebSocket-Version: 13"])
            assert status == 400
            _refused(answer, "invalid_host")
            # Two Host headers: h11 refuses the request before the app reads it.
            status, answer = get(server.port, headers=["Host: evil.example"])
            assert status == 400
            _refused(answer, "bad_request")


def _access_lines(log: Path) -> list[str]:
    return [line for line in log.read_text(errors="replace").splitlines()
            if "quads.access" in line]


def test_forwarded_headers_are_believed_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    forged = ["X-Forwarded-For: 203.0.113.9", "X-Forwarded-Proto: https"]
    (tmp_path / "a").mkdir()
    with edge_server(tmp_path / "a") as server:
        assert get(server.port, "/api/messages/de", headers=forged)[0] == 200
        time.sleep(0.2)
        line = next(line for line in _access_lines(server.log) if "/api/messages/de" in line)
        assert " 127.0.0.1 GET " in line
        assert "203.0.113.9" not in line
    (tmp_path / "b").mkdir()
    with edge_server(tmp_path / "b", "--forwarded-allow-ips", "127.0.0.1") as server:
        assert get(server.port, "/api/messages/de", headers=forged)[0] == 200
        time.sleep(0.2)
        line = next(line for line in _access_lines(server.log) if "/api/messages/de" in line)
        assert " 203.0.113.9 GET " in line


def test_the_access_log_has_a_line_a_request_and_no_secret(tmp_path: Path) -> None:
    with edge_server(tmp_path) as server:
        base = server.url
        with httpx.Client(base_url=base, trust_env=False) as host, \
                httpx.Client(base_url=base, trust_env=False) as guest:
            game = host.post("/api/games", json={"mode": "online", "host": "first"})
            assert game.status_code == 201, game.text
            token = game.json()["invite"].rsplit("/", 1)[1]
            assert guest.get(f"/join/{token}", follow_redirects=False).status_code == 303
            assert guest.get(f"/api/invites/{token}").status_code == 200
            joined = guest.post(f"/api/games/{game.json()['id']}/join", json={"invite": token})
            assert joined.status_code == 200, joined.text
            secrets = [token, *host.cookies.values(), *guest.cookies.values()]
        time.sleep(0.3)
        lines = _access_lines(server.log)
        text = server.log.read_text(errors="replace")
    assert len(lines) >= 5  # the start-up probe, the creation, two reads and the join
    assert any(f"POST /api/games/{game.json()['id']}/join 200 " in line for line in lines)
    assert any("GET /join/… 303 0 " in line for line in lines)
    assert any("GET /api/invites/… 200 " in line for line in lines)
    created = next(line for line in lines if "POST /api/games 201 " in line)
    assert created.split()[-1].endswith("ms")
    for secret in secrets:
        assert secret not in text


def test_the_log_level_leaves_out_the_access_log(tmp_path: Path) -> None:
    with edge_server(tmp_path, "--log-level", "warning") as server:
        assert get(server.port)[0] == 200
        time.sleep(0.2)
        assert _access_lines(server.log) == []


def test_a_live_socket_holds_its_place_until_it_closes(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="connections_per_client = 3\n") as server:
        with httpx.Client(base_url=server.url, trust_env=False) as player:
            game = player.post("/api/games", json={"mode": "local"}).json()["id"]
            cookie = "; ".join(f"{k}={v}" for k, v in player.cookies.items())
        address = f"ws://127.0.0.1:{server.port}/api/games/{game}/live"
        with ExitStack() as stack:
            for _ in range(3):
                live = stack.enter_context(websocket(
                    address, additional_headers={"Cookie": cookie}, open_timeout=10))
                assert json.loads(live.recv(timeout=10))["type"] == "view"
            assert get(server.port)[0] in (0, 503)  # three sockets fill the address's share
        time.sleep(0.5)
        assert get(server.port)[0] == 200


def test_live_sockets_are_compressed_only_when_the_setting_says_so(tmp_path: Path) -> None:
    for compressed in (False, True):
        settings = f"ws_compression = {'true' if compressed else 'false'}\n"
        (folder := tmp_path / str(compressed)).mkdir()
        with edge_server(folder, settings=settings) as server:
            with httpx.Client(base_url=server.url, trust_env=False) as player:
                game = player.post("/api/games", json={"mode": "local"}).json()["id"]
                cookie = "; ".join(f"{k}={v}" for k, v in player.cookies.items())
            # The client offers permessage-deflate, as browsers do.
            with websocket(f"ws://127.0.0.1:{server.port}/api/games/{game}/live",
                           additional_headers={"Cookie": cookie}, open_timeout=10,
                           compression="deflate") as live:
                assert json.loads(live.recv(timeout=10))["type"] == "view"
                names = [extension.name for extension in live.protocol.extensions]
                assert names == (["permessage-deflate"] if compressed else [])


def test_a_flood_of_bad_connections_does_not_flood_the_log(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="connections_per_client = 2\n") as server:
        before = len(server.log.read_text(errors="replace").splitlines())
        for _ in range(60):
            with connect(server.port, "127.0.0.5") as bad:
                bad.sendall(b"NOT HTTP AT ALL\x00\r\n\r\n")
                closed_within(bad, 5)
        held = [connect(server.port, "127.0.0.6") for _ in range(2)]
        try:
            for _ in range(60):
                assert get(server.port, source="127.0.0.6")[0] in (0, 503)
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.5)
        lines = server.log.read_text(errors="replace").splitlines()[before:]
    assert len(lines) < 10, lines[:20]


def test_the_connection_cap_is_below_the_file_limit() -> None:
    from quads.web.middleware.connections import RESERVED_HANDLES, accept_backlog, connection_cap
    from quads.web.settings import Settings

    defaults = Settings()
    # A fifth of the handles is kept for the database, files and logs, and one
    # listening backlog for the connections accepted before any can be refused.
    assert accept_backlog(1024) == 128
    assert connection_cap(defaults, 1024) == 1024 - 204 - 128
    assert connection_cap(defaults, 65536) == 65536 - 13107 - 2048
    # At least RESERVED_HANDLES are kept, however low the limit.
    assert connection_cap(defaults, 256) == 256 - RESERVED_HANDLES - accept_backlog(256)
    assert connection_cap(defaults, 40) == 8  # never none at all
    for limit in (64, 100, 256, 1024, 4096, 65536, 1 << 20):
        cap = connection_cap(defaults, limit)
        assert cap >= 8
        assert limit <= 100 or cap + max(RESERVED_HANDLES, limit // 5) + \
            accept_backlog(limit) <= limit
    # max_connections lowers the cap, never raises it above the file limit's.
    assert connection_cap(defaults.replace(max_connections=100), 1024) == 100
    assert connection_cap(defaults.replace(max_connections=5000), 1024) == 692


def test_connections_over_the_cap_of_all_are_refused_until_one_closes(
        tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="max_connections = 4\n") as server:
        held = [connect(server.port, f"127.0.0.{n + 2}") for n in range(4)]
        try:
            time.sleep(0.3)
            for source in ("127.0.0.1", "127.0.0.9"):  # the cap is of all addresses
                status, answer = get(server.port, source=source)
                assert status in (0, 503), answer[:200]
                if status:
                    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["code"] == \
                        "unavailable"
                    assert b"retry-after: " in answer.lower()
            held.pop().close()
            time.sleep(0.3)
            assert get(server.port, source="127.0.0.9")[0] == 200  # a place was freed
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.3)
        assert [get(server.port)[0] for _ in range(3)] == [200] * 3


def test_an_idle_kept_alive_connection_is_closed_after_the_keep_alive_timeout(
        tmp_path: Path) -> None:
    with edge_server(tmp_path, settings="keep_alive = 1.0\n") as server:
        kept = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        try:
            kept.request("GET", "/api/messages/en")
            answer = kept.getresponse()
            assert answer.status == 200
            answer.read()
            assert kept.sock is not None  # kept alive
            waited = closed_within(kept.sock, 8)
        finally:
            kept.close()
        assert waited is not None, "an idle kept-alive connection was kept open"
        assert 0.5 < waited < 3
