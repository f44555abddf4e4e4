"""The access log: one line a request, on the logger ``quads.access``.

Each line holds the client's address (as a trusted proxy gave it), the method, the
path and query, the status, the bytes of the answer's body and the time it took::

    127.0.0.1 GET /api/games/3f2a 200 812 4.1ms

A live socket is logged once it closes (status ``101`` if it was accepted), with
the time it was open.  No secret is ever written: invitation tokens in paths
(``/join/TOKEN``, ``/api/invites/TOKEN``) are replaced by ``…``, and neither
headers (cookies, ``Authorization``) nor bodies (where joins carry a token) are
logged.
"""

from __future__ import annotations

import logging
import re
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["AccessLogMiddleware", "logged_path"]

logger = logging.getLogger("quads.access")

_SECRET_PATHS = re.compile(r"^(/join/|/api/invites/)[^/?]*")


def logged_path(scope: Scope) -> str:
    """The path and query of a request as the log shows them: invitation tokens
    hidden, other characters that could forge a line escaped."""
    path = _SECRET_PATHS.sub(r"\1…", str(scope.get("path", "")))
    query = scope.get("query_string", b"")
    if query:
        path += "?" + query.decode("latin-1")
    return path.encode("unicode_escape").decode("ascii").replace("\\u2026", "…")


class AccessLogMiddleware:
    """Log one line for each request and each live socket (this module's description)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not logger.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0
        size = 0

        async def sending(message: Message) -> None:
            nonlocal status, size
            kind = message["type"]
            if kind == "http.response.start":
                status = int(message["status"])
            elif kind == "http.response.body":
                size += len(message.get("body", b""))
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and not status:
                status = 403
            elif kind == "websocket.http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except BaseException:
            status = status or 500
            raise
        finally:
            client = scope.get("client")
            method = scope.get("method", "GET") if scope["type"] == "http" else "WS"
            logger.info("%s %s %s %d %d %.1fms", client[0] if client else "-", method,
                        logged_path(scope), status, size,
                        (time.perf_counter() - started) * 1000)
