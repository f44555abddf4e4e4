"""What a request body may be: at most :data:`MAX_BODY` bytes, and JSON.

:class:`BodyLimitMiddleware` answers ``413 too_large`` to a larger body
(announced by ``Content-Length`` or found while reading), and ``415
unsupported_media_type`` to a body under ``/api/`` whose content type is not
JSON, before any route sees it.  (A form of another site may still post without
a body: :mod:`quads.web.middleware.origins` refuses that.)
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from quads.web.errors import error_response

__all__ = ["MAX_BODY", "BodyLimitMiddleware"]

MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes."""


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/")
                                           and media.endswith("+json"))


class BodyLimitMiddleware:
    """Refuse request bodies over :data:`MAX_BODY` and API bodies that are not JSON."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._too_large(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._too_large(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if (body and scope["path"].startswith("/api/")
                and not _is_json(headers.get("content-type", ""))):
            response = error_response(
                415, "unsupported_media_type",
                "the request body must be JSON, sent as Content-Type: application/json")
            await response(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413, "too_large", f"the request body is larger than {self.limit // 1024} KiB")
        await response(scope, receive, send)
