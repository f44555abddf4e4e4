"""The headers of every answer that tell a browser what the page may do.

:class:`SecurityHeadersMiddleware` adds them to every HTTP answer that does not
set them itself:

- a strict ``Content-Security-Policy`` (:data:`PAGE_POLICY`): scripts, styles,
  images, the manifest and the service worker only from this server, no inline
  script or style, no ``eval`` (WebAssembly may be compiled: the solver's kernel,
  ``engine/quads.wasm``, from this server like every script), no plugin, no
  ``<base>``, forms only to this server, and no
  page of any site may frame this one (``frame-ancestors 'none'``, and
  ``X-Frame-Options: DENY`` for older browsers), so that nobody can clickjack
  a move or "Resign";
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (an
  invitation's token is in its address), ``Cross-Origin-Opener-Policy`` and
  ``Cross-Origin-Resource-Policy`` (``same-origin``), a ``Permissions-Policy``
  that turns off what the page never uses;
- ``Strict-Transport-Security`` only over https (over plain http a browser
  ignores it, and a local server must stay reachable);
- ``Cache-Control: no-store`` on every answer of the API (``/api/``), refusals
  included, but the message catalogues (:data:`CACHED_API`), which the service
  worker keeps: a game, a player's list or a token never stays in a cache.  The
  page's own files are left to the browser's revalidation.

The API's documentation (``/docs``, Swagger UI) starts with an inline script:
its answer gets :data:`DOCS_POLICY` with the SHA-256 hash of each inline script
that it really sends, computed from the answer itself.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CACHED_API", "DOCS_POLICY", "PAGE_POLICY", "SecurityHeadersMiddleware",
           "inline_script_hashes"]

PAGE_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
"""The ``Content-Security-Policy`` of the page and of every other answer."""

DOCS_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' {hashes}",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
"""The policy of the API's documentation: Swagger UI's own inline script (by its hash),
its inline styles and the icons its style sheet holds as ``data:`` addresses."""

HEADERS: tuple[tuple[str, str], ...] = (
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
    ("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
)
"""The headers of every answer besides the policy."""

HSTS = "max-age=31536000"
"""``Strict-Transport-Security`` over https: a year."""

CACHED_API = ("/api/messages/",)
"""The API's answers that may be kept in a cache (the message catalogues)."""

_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL | re.IGNORECASE)


def inline_script_hashes(html: bytes) -> list[str]:
    """The CSP sources (``'sha256-...'``) of the inline scripts of ``html``."""
    return [f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"
            for body in _INLINE_SCRIPT.findall(html)]


class SecurityHeadersMiddleware:
    """Add the headers of :mod:`quads.web.middleware.headers` to every HTTP answer; ``docs`` are
    the paths of the API's documentation, which get :data:`DOCS_POLICY`."""

    def __init__(self, app: ASGIApp, docs: Iterable[str | None] = ()) -> None:
        self.app = app
        self.docs = frozenset(path for path in docs if path)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"
        path: str = scope["path"]
        if path in self.docs:
            await self._docs(scope, receive, send, https)
            return
        uncached = path.startswith("/api/") and not path.startswith(CACHED_API)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                _add(message, PAGE_POLICY, https)
                if uncached:
                    MutableHeaders(scope=message).setdefault("cache-control", "no-store")
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _docs(self, scope: Scope, receive: Receive, send: Send, https: bool) -> None:
        """Answer a documentation page whole, once its inline scripts are hashed."""
        start: Message | None = None
        chunks: list[bytes] = []

        async def hold(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = b"".join(chunks)
            hashes = " ".join(inline_script_hashes(body)) or "'none'"
            _add(start, DOCS_POLICY.format(hashes=hashes).replace("'self' 'none'", "'self'"),
                 https)
            await send(start)
            await send({"type": "http.response.body", "body": body, "more_body": False})

        await self.app(scope, receive, hold)


def _add(message: Message, policy: str, https: bool) -> None:
    headers = MutableHeaders(scope=message)
    headers.setdefault("content-security-policy", policy)
    for name, value in HEADERS:
        headers.setdefault(name, value)
    if https:
        headers.setdefault("strict-transport-security", HSTS)
