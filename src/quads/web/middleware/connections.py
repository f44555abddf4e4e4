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
  uvicorn answers in plain text.

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

from quads.web.settings import Settings, client_address

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
        if self.key is not None:
            self.book.release(self.key)
            self.key = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
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
