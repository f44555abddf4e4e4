"""The HTTP server's edge: how long a connection may take and how many may be open.

:class:`GuardedProtocol` is uvicorn's h11 protocol with what it lacks for a public
network (``quads serve`` passes it as uvicorn's ``http``, in every worker):

- a *header timeout*: a request's whole head (line and headers) must arrive within
  ``Settings.header_timeout``, counted from the connection's start, or from the
  first byte of a later request on a kept-alive connection (which itself is closed
  after ``Settings.keep_alive`` seconds of silence);
- a *body timeout*: a request's whole body must arrive within ``Settings.body_timeout``
  of its head;
- a cap on the open connections of one client address
  (``Settings.connections_per_client``; a trusted proxy, ``forwarded_allow_ips``,
  is not capped, it caps its own clients) and on all of them together
  (``Settings.max_connections``, else :func:`connection_cap` of the file-handle
  limit).  A live socket counts until it closes.  A connection over a cap is
  answered ``503 unavailable`` at once and closed, before it is read;
- a request that is not HTTP/1.1 as h11 reads it (a malformed head, two ``Host``
  headers) is answered ``400 bad_request`` in JSON, as every refusal is, where
  uvicorn answers in plain text;
- a try to sign in or up that its route would refuse ``429`` (its address over its
  rate, the lane that hashes passwords full: :func:`~quads.web.middleware.gate.refusal_of`)
  is answered from its request line, before h11 parses it and before the ASGI stack
  runs, so that a flood of them costs the event loop little (a client behind a
  trusted proxy is named in a header: its tries are left to the gate's middleware).
  If the whole request is in hand the connection is kept, else it is closed;
- such a try that comes again from the same address, on any of its connections,
  before that refusal's ``Retry-After`` is over (an attacker's client, which asks
  again at once whatever it is told) is not read until then (``Settings.edge_hold``
  seconds at most): its connection is paused, costing nothing, and the try is then
  judged afresh.  A flood that ignores ``Retry-After`` so gets one answer a
  connection a while, not as many as it can send; another request of that address
  (a game's move, a page) is never held.

Such events are counted and logged as one summary line an interval, never one line
each, so a flood cannot fill the disk (:class:`EdgeLog`).

It also turns Nagle's algorithm off on every connection (``TCP_NODELAY``), as
asyncio does for the sockets it opens itself: with ``--workers N`` uvicorn binds
the listening socket itself, the connections accepted from it kept Nagle's
algorithm, and every answer written in two parts (its head, then its body) waited
for the client's delayed acknowledgement, some 40 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import resource
import socket
import time
import weakref
from collections import Counter
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from quads.web.errors import error_body
from quads.web.middleware.gate import GATED, refusal_of
from quads.web.middleware.headers import HEADERS, HSTS, PAGE_POLICY
from quads.web.middleware.rates import RateLimitedError
from quads.web.settings import Settings, client_address
from quads.web.thinking import EngineBusyError

__all__ = ["EdgeLog", "GuardedProtocol", "accept_backlog", "connection_cap",
           "raise_file_limit"]

logger = logging.getLogger("quads.edge")

SUMMARY_INTERVAL = 10.0
"""Seconds between two summary lines of refused or timed-out connections."""
RESERVED_HANDLES = 64
"""File handles kept out of the connection cap at least: the database's
connections, the log, the page's files, the listening socket."""
RETRY_AFTER = 5
"""The ``Retry-After`` of a connection refused over a cap."""
EDGE_HEAD = 4096
"""The bytes of a request in which the edge looks for its request line and head."""
REFUSED_KEPT = 1024
"""The fewest addresses refused at the edge kept before those whose refusal is over
are forgotten (once they doubled since the last time)."""


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (where the
    system allows it) and return the soft limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft if soft != resource.RLIM_INFINITY else wanted
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft
    return wanted


def accept_backlog(file_limit: int) -> int:
    """The listening socket's backlog for a process that may open ``file_limit``
    files.  The event loop accepts up to that many connections at once before it
    can refuse any, so the cap leaves room for a whole batch of them."""
    return max(16, min(2048, file_limit // 8))


def connection_cap(settings: Settings, file_limit: int | None = None) -> int:
    """The open connections a process allows: the file-handle limit less a fifth
    of it (at least :data:`RESERVED_HANDLES`, for the database, files and logs)
    and less one :func:`accept_backlog`, or ``settings.max_connections`` if that
    is set and lower."""
    limit = file_limit if file_limit is not None else raise_file_limit()
    room = max(limit - max(RESERVED_HANDLES, limit // 5) - accept_backlog(limit), 8)
    if settings.max_connections:
        return min(settings.max_connections, room)
    return room


class EdgeLog:
    """Counts of refused and timed-out connections, logged as one line an interval."""

    def __init__(self, interval: float = SUMMARY_INTERVAL) -> None:
        self.interval = interval
        self.counts: Counter[str] = Counter()
        self.pending: asyncio.TimerHandle | None = None

    def count(self, event: str) -> None:
        """Count one ``event`` (a few words) for the next summary line."""
        self.counts[event] += 1
        if self.pending is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.flush()
                return
            self.pending = loop.call_later(self.interval, self.flush)

    def flush(self) -> None:
        """Log what was counted since the last line, if anything."""
        self.pending = None
        if self.counts:
            summary = ", ".join(f"{n} {event}" for event, n in sorted(self.counts.items()))
            logger.warning("in the last %.0f s: %s", self.interval, summary)
            self.counts.clear()


class _Book:
    """What every connection of one server shares: its caps and the open
    connections by client address."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.cap = connection_cap(settings)
        self.per_client = settings.connections_per_client
        self.trusted = _Networks(settings.forwarded_allow_ips)
        self.open: Counter[str] = Counter()
        self.total = 0
        self.log = EdgeLog()
        self.state: Any = None
        self.refused: dict[str, float] = {}
        """The addresses refused at the edge lately: when their refusal's
        ``Retry-After`` is over (the event loop's clock)."""
        self._forget_at = REFUSED_KEPT
        logger.debug("at most %d connections, %d from one address", self.cap,
                     self.per_client)

    def admit(self, peer: tuple[str, int] | None) -> str | None:
        """Count a new connection from ``peer``; the address it counts against, or
        ``None`` (and nothing counted) if it is over a cap."""
        key = client_address({"client": peer})
        if self.total >= self.cap:
            self.log.count("connections refused over the cap of all connections")
            return None
        if (self.per_client and self.open[key] >= self.per_client
                and not self.trusted.holds(peer[0] if peer else "")):
            self.log.count("connections refused over the cap of one address")
            return None
        self.open[key] += 1
        self.total += 1
        return key

    def app_state(self, app: Any) -> Any:
        """The state of the Quads app that ``app`` is or wraps (uvicorn's own
        middleware stands around it), or ``None``."""
        if self.state is None:
            for _ in range(8):
                state = getattr(app, "state", None)
                if state is not None and hasattr(state, "thinking"):
                    self.state = state
                    break
                app = getattr(app, "app", None)
        return self.state

    def hold_for(self, key: str, now: float) -> float:
        """Seconds a new try of the address ``key`` is held (0: none), ``now`` on the
        event loop's clock."""
        until = self.refused.get(key, 0.0)
        return min(until - now, self.settings.edge_hold) if until > now else 0.0

    def refuse(self, key: str, seconds: float, now: float) -> None:
        """Note that the address ``key`` was refused at the edge for ``seconds``,
        forgetting the addresses whose refusals are over once the book has doubled."""
        self.refused[key] = now + seconds
        if len(self.refused) >= self._forget_at:
            self.refused = {address: until for address, until in self.refused.items()
                            if until > now}
            self._forget_at = max(REFUSED_KEPT, 2 * len(self.refused))

    def release(self, key: str) -> None:
        """Uncount a connection that :meth:`admit` counted against ``key``."""
        self.total -= 1
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]


class _Networks:
    """Addresses and networks (``forwarded_allow_ips``; ``*`` is any)."""

    def __init__(self, items: tuple[str, ...]) -> None:
        self.any = "*" in items
        self.networks = []
        for item in items:
            if item != "*":
                try:
                    self.networks.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    continue

    def holds(self, host: str) -> bool:
        if self.any:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)


NOTICES = frozenset({"Invalid HTTP request received.", "Exceeded concurrency limit.",
                     "Unsupported upgrade request."})
"""uvicorn's lines about one connection, counted into the summary instead."""


class _Summarise(logging.Filter):
    """Turn uvicorn's per-connection notices into counts of an :class:`EdgeLog`."""

    def __init__(self, log: EdgeLog) -> None:
        super().__init__()
        self.log = log

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg if isinstance(record.msg, str) else ""
        if message in NOTICES:
            self.log.count(message.rstrip(".").lower())
            return False
        return True


_books: weakref.WeakKeyDictionary[ServerState, _Book] = weakref.WeakKeyDictionary()


def _book(server_state: ServerState) -> _Book:
    book = _books.get(server_state)
    if book is None:
        book = _books[server_state] = _Book(Settings.from_env())
        logging.getLogger("uvicorn.error").addFilter(_Summarise(book.log))
    return book


def _refusal() -> bytes:
    body = json.dumps({"error": {
        "code": "unavailable",
        "message": "too many connections are open; try again in a moment"}}).encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
            b"retry-after: %d\r\ncontent-length: %d\r\nconnection: close\r\n\r\n%s"
            % (RETRY_AFTER, len(body), body))


def _body_left(data: bytes, line_end: int) -> int | None:
    """How many bytes of the body of the request that ``data`` begins are still to
    come, by the ``Content-Length`` its head gives, or ``None`` if the connection
    cannot be kept: the head is not whole in ``data``, the body is chunked or longer
    than :data:`EDGE_HEAD`, the client closes, or ``data`` runs on past the body."""
    head_end = data.find(b"\r\n\r\n", line_end, EDGE_HEAD)
    if head_end < 0:
        return None
    length = -1
    for line in data[line_end + 2:head_end].split(b"\r\n"):
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"content-length":
            if not value.isdigit() or length >= 0:
                return None
            length = int(value)
        elif name == b"transfer-encoding" or (name == b"connection" and b"close" in value):
            return None
    left = max(length, 0) + head_end + 4 - len(data)
    return left if 0 <= left <= EDGE_HEAD else None


def _edge_answer(refusal: RateLimitedError | EngineBusyError, https: bool,
                 keep: bool) -> bytes:
    """The raw ``429`` of ``refusal``, with the headers of every answer of the API."""
    reason: str = ""
    if isinstance(refusal, RateLimitedError):
        code, message, reason = "rate_limited", str(refusal), refusal.kind
    else:
        code, message = refusal.code, refusal.message
    body = json.dumps({"error": error_body(code, message, reason)}).encode()
    headers = [("content-type", "application/json"), ("content-length", str(len(body))),
               ("retry-after", str(refusal.retry_after)), ("cache-control", "no-store"),
               ("content-security-policy", PAGE_POLICY), *HEADERS]
    if https:
        headers.append(("strict-transport-security", HSTS))
    if not keep:
        headers.append(("connection", "close"))
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return f"HTTP/1.1 429 Too Many Requests\r\n{head}\r\n".encode("latin-1") + body


def _no_delay(transport: asyncio.BaseTransport) -> None:
    """Send what the server writes at once (``TCP_NODELAY``), not after the client
    acknowledged the write before."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # closed meanwhile
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with header and body timeouts and connection caps
    (this module's description).  Its settings are those of ``$QUADS_CONFIG``."""

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.book = _book(server_state)
        self.key: str | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.waiting_for = ""
        self.discarding = 0
        """Bytes of the body of a request refused at the edge still to drop."""
        self.held = b""
        """What came of a try held at the edge (this module's description)."""
        self.hold: asyncio.TimerHandle | None = None
        self.judging_held = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        _no_delay(transport)
        super().connection_made(transport)
        self.key = self.book.admit(self.client)
        if self.key is None:
            transport.write(_refusal())
            transport.close()
            return
        self._await("head", self.book.settings.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        if self.hold is not None:
            self.hold.cancel()
            self.hold = None
        if self.key is not None:
            self.book.release(self.key)
            self.key = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.hold is not None:  # read before the pause took
            self.held += data
            return
        if self.discarding:
            data = self._discard(data)
            if not data:
                return
        if data.startswith(b"POST ") and self._refused_at_edge(data):
            return
        if self.deadline is None and self.conn.their_state is h11.IDLE:
            self._await("head", self.book.settings.header_timeout)  # a later request
        super().data_received(data)
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            if self.waiting_for != "body":
                self._await("body", self.book.settings.body_timeout)
        elif state is not h11.IDLE:
            self._stop_waiting()  # the whole request is in

    def _refused_at_edge(self, data: bytes) -> bool:
        """Answer a gated try that would be refused (this module's description) from
        ``data``, the start of a new request; whether it was."""
        if self.conn.their_state is not h11.IDLE or self.conn.trailing_data[0]:
            return False  # the rest of a request, or a request begun before
        end = data.find(b"\r\n", 0, EDGE_HEAD)
        parts = data[:end].split(b" ") if end > 0 else []
        if len(parts) != 3 or not parts[2].startswith(b"HTTP/1."):
            return False
        peer = self.client
        if self.book.trusted.holds(peer[0] if peer else ""):
            return False
        state = self.book.app_state(self.app)
        if state is None:
            return False
        path = parts[1].partition(b"?")[0].decode("latin-1")
        if ("POST", path) not in GATED:
            return False
        address, now = client_address({"client": peer}), self.loop.time()
        wait = 0.0 if self.judging_held else self.book.hold_for(address, now)
        if wait > 0:
            self._hold(data, wait)
            return True
        refusal = refusal_of(state, "POST", path, address)
        if refusal is None:
            return False
        self.book.refuse(address, refusal.retry_after, now)
        body_left = _body_left(data, end) if parts[2] == b"HTTP/1.1" else None
        keep = body_left is not None and body_left >= 0
        self._stop_waiting()
        self._unset_keepalive_if_required()
        self.transport.write(_edge_answer(refusal, self.scheme == "https", keep))
        self.book.log.count("tries to sign in refused at the edge")
        if not keep:
            self.transport.close()
        elif body_left:
            self.discarding = body_left  # the body still to come, read and dropped
            self._await("body", self.book.settings.body_timeout)
        else:
            self._keep_alive()
        return True

    def _hold(self, data: bytes, seconds: float) -> None:
        """Read nothing more of this connection for ``seconds``, then judge ``data``
        (the start of a try) afresh."""
        self._stop_waiting()
        self._unset_keepalive_if_required()
        self.held = data
        self.transport.pause_reading()
        self.hold = self.loop.call_later(seconds, self._let_go)
        self.book.log.count("tries to sign in held at the edge")

    def _let_go(self) -> None:
        """The end of a hold: read on, and judge what was held."""
        data, self.held, self.hold = self.held, b"", None
        if self.transport.is_closing():
            return
        self.transport.resume_reading()
        self.judging_held = True
        try:
            self.data_received(data)
        finally:
            self.judging_held = False

    def _discard(self, data: bytes) -> bytes:
        """Drop what is left of the body of a request refused at the edge from
        ``data``; the bytes after it (a next request)."""
        dropped = min(self.discarding, len(data))
        self.discarding -= dropped
        if not self.discarding:
            self._stop_waiting()
            self._keep_alive()
        return data[dropped:]

    def _keep_alive(self) -> None:
        """Wait for a next request as uvicorn does after an answer."""
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def send_400_response(self, msg: str) -> None:
        """Refuse a request that h11 cannot read (a malformed head, a second ``Host``)
        with ``400 bad_request`` in the JSON of every refusal, and close the connection."""
        body = json.dumps({"error": {
            "code": "bad_request",
            "message": "the request cannot be read as HTTP/1.1"}}).encode()
        head = h11.Response(status_code=400, reason=b"Bad Request", headers=[
            (b"content-type", b"application/json"), (b"content-length", b"%d" % len(body)),
            (b"connection", b"close")])
        for event in (head, h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._stop_waiting()
        super().handle_websocket_upgrade(event)
        key, self.key = self.key, None
        if key is None:
            return
        socket = self.transport.get_protocol()
        lost = socket.connection_lost
        book = self.book

        def connection_lost(exc: Exception | None) -> None:
            try:
                lost(exc)
            finally:
                book.release(key)

        socket.connection_lost = connection_lost  # type: ignore[method-assign]

    def _await(self, what: str, seconds: float) -> None:
        self._stop_waiting()
        self.waiting_for = what
        if seconds > 0:
            self.deadline = self.loop.call_later(seconds, self._too_slow, what, time.monotonic())

    def _stop_waiting(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline = None
        self.waiting_for = ""

    def _too_slow(self, what: str, since: float) -> None:
        self.deadline = None
        self.waiting_for = ""
        if self.transport.is_closing():
            return
        self.book.log.count(f"connections closed for a request {what} too slow")
        logger.debug("closed %s: no whole request %s in %.1f s", self.client, what,
                     time.monotonic() - since)
        self.transport.close()
