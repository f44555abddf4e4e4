"""Tries to sign in refused at the server's edge, from raw sockets on 127.0.0.x: what
its route would refuse (an address over its rate) is answered from the request line,
with the same JSON, ``Retry-After`` and headers, on a connection that stays usable;
what its route would take is still the route's; a try sent again from that address
before its ``Retry-After`` is over waits for it (``GuardedProtocol`` and
``quads.web.middleware.gate``)."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

from edge_server import closed_within, connect, edge_server

STRICT = ('rate_signins_per_address = "2/minute"\nheader_timeout = 2.0\nbody_timeout = 1.0\n'
          'edge_hold = 0.5\n')
TRY = json.dumps({"name": "nobody-here", "password": "not the right one"}).encode()


def _head(port: int, path: str = "/api/session", length: int = len(TRY),
          extra: str = "") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n{extra}\r\n"
            ).encode()


def _answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One whole answer read from ``sock``: its status, headers and body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip()
               for name, _, value in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers["content-length"]):
        chunk = sock.recv(65536)
        assert chunk, "closed within an answer"
        body += chunk
    return int(lines[0].split(" ")[1]), headers, body


def _use_up(port: int, source: str) -> None:
    """Spend the address's two tries a minute: each is the route's ``401``."""
    with connect(port, source) as sock:
        for _ in range(2):
            sock.sendall(_head(port) + TRY)
            status, _, body = _answer(sock)
            assert status == 401, body


def test_a_try_over_its_address_rate_is_refused_like_the_route_and_the_connection_kept(
        tmp_path: Path) -> None:
    with edge_server(tmp_path, settings=STRICT) as server:
        _use_up(server.port, "127.0.0.5")
        with connect(server.port, "127.0.0.5") as sock:
            # Head and body in two writes, as most clients send them.
            sock.sendall(_head(server.port))
            time.sleep(0.1)
            sock.sendall(TRY)
            status, headers, body = _answer(sock)
            assert status == 429
            assert json.loads(body)["error"] == {
                **json.loads(body)["error"], "code": "rate_limited", "reason": "signins"}
            assert 1 <= int(headers["retry-after"]) <= 60
            assert headers["cache-control"] == "no-store"
            assert headers["x-content-type-options"] == "nosniff"
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert "connection" not in headers
            # The body was dropped, not read as a next request: the connection serves on.
            sock.sendall(f"GET /api/messages/en HTTP/1.1\r\nHost: 127.0.0.1:{server.port}"
                         "\r\n\r\n".encode())
            status, _, body = _answer(sock)
            assert status == 200, body[:200]
            # A refused try with a next request behind it in one write: answered, and
            # the connection closed (the client sends the next one again).
            sock.sendall(_head(server.port) + TRY + _head(server.port) + TRY)
            status, headers, _ = _answer(sock)
            assert (status, headers["connection"]) == (429, "close")
            assert closed_within(sock, 5) is not None
        # Another address is the route's, as before.
        with connect(server.port, "127.0.0.6") as sock:
            sock.sendall(_head(server.port) + TRY)
            assert _answer(sock)[0] == 401
        time.sleep(0.2)
        log = server.log.read_text(errors="replace")
    assert "POST /api/session 401" in log


def test_a_refused_try_whose_body_never_comes_is_cut_off(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings=STRICT) as server:
        _use_up(server.port, "127.0.0.7")
        with connect(server.port, "127.0.0.7") as sock:
            sock.sendall(_head(server.port, length=500) + b"{")
            assert _answer(sock)[0] == 429
            waited = closed_within(sock, 8)
        assert waited is not None, "a refused try's missing body held the connection"
        assert waited < 5


def test_a_refused_try_the_edge_cannot_keep_is_answered_and_closed(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings=STRICT) as server:
        _use_up(server.port, "127.0.0.8")
        for extra, body in (("Connection: close\r\n", TRY),
                            ("Transfer-Encoding: chunked\r\n", b"")):
            with connect(server.port, "127.0.0.8") as sock:
                sock.sendall(_head(server.port, extra=extra) + body)
                status, headers, _ = _answer(sock)
                assert status == 429
                assert headers["connection"] == "close"
                assert closed_within(sock, 5) is not None


def test_through_a_trusted_proxy_the_address_in_its_header_is_judged(tmp_path: Path) -> None:
    with (edge_server(tmp_path, "--forwarded-allow-ips", "127.0.0.1",
                      settings=STRICT) as server, connect(server.port) as sock):
        for expected in (401, 401, 429):
            sock.sendall(_head(server.port, extra="X-Forwarded-For: 203.0.113.9\r\n") + TRY)
            status, _, body = _answer(sock)
            assert status == expected, body
        # The proxy's other clients are not its first client.
        sock.sendall(_head(server.port, extra="X-Forwarded-For: 203.0.113.10\r\n") + TRY)
        assert _answer(sock)[0] == 401


def test_refusals_at_the_edge_do_not_flood_the_log(tmp_path: Path) -> None:
    with edge_server(tmp_path, settings=STRICT.replace("0.5", "0.02")) as server:
        _use_up(server.port, "127.0.0.9")
        before = len(server.log.read_text(errors="replace").splitlines())
        with connect(server.port, "127.0.0.9") as sock:
            for _ in range(60):
                sock.sendall(_head(server.port) + TRY)
                assert _answer(sock)[0] == 429
        time.sleep(0.5)
        lines = server.log.read_text(errors="replace").splitlines()[before:]
    # Answered at the edge: no access line each, one summary line an interval at most.
    assert len(lines) < 3, lines[:10]


def _nothing_yet(sock: socket.socket, seconds: float) -> bool:
    """Whether ``sock`` stays silent (and open) for ``seconds``."""
    sock.settimeout(seconds)
    try:
        sock.recv(1, socket.MSG_PEEK)
    except TimeoutError:
        return True
    finally:
        sock.settimeout(10)
    return False


def test_a_try_sent_again_before_its_retry_after_waits_for_it(tmp_path: Path) -> None:
    """A client that asks again at once, on any of its connections, is not read until
    its ``Retry-After`` (at most ``edge_hold``) is over; its other requests, and other
    addresses, are answered meanwhile."""
    with edge_server(tmp_path, settings=STRICT.replace("0.5", "3.0")) as server:
        _use_up(server.port, "127.0.0.11")
        with (connect(server.port, "127.0.0.11") as first,
              connect(server.port, "127.0.0.11") as second,
              connect(server.port, "127.0.0.12") as elsewhere):
            first.sendall(_head(server.port) + TRY)
            assert _answer(first)[0] == 429  # the first refusal: at once
            first.sendall(f"GET /api/messages/en HTTP/1.1\r\nHost: 127.0.0.1:{server.port}"
                          "\r\n\r\n".encode())
            assert _answer(first)[0] == 200  # not a try: never held
            first.sendall(_head(server.port) + TRY)
            second.sendall(_head(server.port) + TRY)
            elsewhere.sendall(_head(server.port) + TRY)
            assert _answer(elsewhere)[0] == 401  # another address: its route's
            assert _nothing_yet(first, 1.0)
            assert _nothing_yet(second, 0.1)
            # Then judged afresh: still over the rate, so refused, on the same connection.
            for sock in (first, second):
                status, headers, body = _answer(sock)
                assert status == 429, body
                assert json.loads(body)["error"]["code"] == "rate_limited"
                assert "connection" not in headers


def test_a_held_try_whose_window_frees_goes_to_its_route(tmp_path: Path) -> None:
    settings = STRICT.replace("2/minute", "2/3 seconds").replace("0.5", "10.0")
    with edge_server(tmp_path, settings=settings) as server:
        _use_up(server.port, "127.0.0.13")
        with connect(server.port, "127.0.0.13") as sock:
            sock.sendall(_head(server.port) + TRY)
            status, headers, _ = _answer(sock)
            assert status == 429
            assert int(headers["retry-after"]) <= 3
            sock.sendall(_head(server.port) + TRY)
            assert _nothing_yet(sock, 0.3)
            # Held until the window had room again, then the route's answer.
            status, _, body = _answer(sock)
            assert status == 401, body
