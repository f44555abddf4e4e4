"""The answer to a fault: ``500 internal_error`` in JSON, never plain text.

A refusal is an exception that a handler of :mod:`quads.web.errors` answers.
Anything else raised while a request is served (by a route, by the validator of
its parameters, by a middleware) is a fault of the server.  Starlette's last
resort answers it with ``Internal Server Error`` in plain text and raises it on
to the HTTP server, which then drops the connection: the next request a client
sends on it is lost.  :class:`FaultMiddleware` stops it one step inside: it logs
the fault with its traceback on ``quads.web`` and answers in the shape of every
refusal, so that the connection stays open:

    {"error": {"code": "internal_error", "message": "..."}}

A live socket with a fault is answered the same way before it is accepted, and
closed with ``1011`` (internal error) after.  An answer already under way
cannot be taken back: the fault is logged and raised on, and the connection
closes; one sent whole stands.

The few middleware outside :class:`FaultMiddleware` (the access log and the
security headers, which its answer passes through) are covered by
:func:`install`: Starlette's last resort then answers in JSON too, though the
server, which it tells of the fault, closes that connection.
"""

from __future__ import annotations

import logging
from contextlib import suppress

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from quads.web.errors import error_response
from quads.web.middleware.access import logged_path

__all__ = ["FaultMiddleware", "install"]

_log = logging.getLogger("quads.web")


def _fault() -> JSONResponse:
    return error_response(500, "internal_error",
                          "the server failed to answer this request; try again later")


async def _last_resort(request: Request, exc: Exception) -> JSONResponse:
    return _fault()


def install(app: Starlette) -> None:
    """Answer in JSON a fault that :class:`FaultMiddleware` cannot see (one of the
    middleware outside it), through Starlette's last resort; the server logs it."""
    app.add_exception_handler(Exception, _last_resort)


class FaultMiddleware:
    """Answer any exception of the app inside it as ``500 internal_error`` in JSON
    (this module's description)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        sent: set[str] = set()

        async def sending(message: Message) -> None:
            kind = str(message["type"])
            if kind == "http.response.body" and not message.get("more_body", False):
                kind = "http.response.end"
            sent.add(kind)
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            method = scope.get("method", "GET") if scope["type"] == "http" else "WS"
            _log.exception("quads: a fault while serving %s %s", method, logged_path(scope))
            if scope["type"] == "websocket":
                await _close(scope, send, sent)
            elif not sent:
                await _fault()(scope, receive, send)
            elif "http.response.end" not in sent:
                raise  # the answer is under way: only closing the connection is left


async def _close(scope: Scope, send: Send, sent: set[str]) -> None:
    """End a live socket after a fault: an HTTP answer of ``500`` if it was not accepted
    (where the server can send one), else a close with ``1011``."""
    if "websocket.close" in sent or "websocket.http.response.body" in sent:
        return
    with suppress(Exception):  # the client may be gone already: nothing more to tell
        if ("websocket.accept" not in sent
                and "websocket.http.response" in scope.get("extensions", {})):
            answer = _fault()
            await send({"type": "websocket.http.response.start", "status": 500,
                        "headers": answer.raw_headers})
            await send({"type": "websocket.http.response.body", "body": answer.body})
            return
        await send({"type": "websocket.close", "code": 1011})
