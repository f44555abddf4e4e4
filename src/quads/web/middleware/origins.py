"""Requests from pages of other sites: refused before they change anything.

A browser tells where a request comes from: ``Sec-Fetch-Site`` (every current
browser) or, failing that, ``Origin``.  :class:`CrossSiteMiddleware` refuses
every unsafe request (``POST``, ``PUT``, ``PATCH``, ``DELETE``) under ``/api/``
that a page of another origin sends, with ``403 cross_site``: a form of another
site that posts without a body (``rematch``), or a script that sends a
"simple" request without asking first.  Allowed are ``Sec-Fetch-Site:
same-origin`` and ``none`` (the person typed it), or, without that header, an
``Origin`` that is this server's own scheme, host and port.

A request that carries neither header does not come from a browser's page: a
bot, a script, ``curl``.  It is judged by its token, as any other.

:func:`same_origin` also judges the ``Origin`` of the live sockets
(:mod:`quads.web.live`).  The server's own origin is the request's scheme (as
the server saw it: a proxy's ``X-Forwarded-Proto`` counts only where the
server trusts that proxy) and its ``Host`` header; ``X-Forwarded-Host`` is
never believed.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from quads.web.errors import error_response

__all__ = ["UNSAFE_METHODS", "CrossSiteMiddleware", "is_cross_site", "own_origin", "same_origin"]

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that may change something."""

_SAME_SITE = frozenset({"same-origin", "none"})
"""The values of ``Sec-Fetch-Site`` that are not another site's page."""

_SCHEMES = {"http": "http", "ws": "http", "https": "https", "wss": "https"}
_PORTS = {"http": 80, "https": 443}

_Origin = tuple[str, str, int]


def _origin(scheme: str, netloc: str) -> _Origin | None:
    """(scheme, host, port) of ``scheme://netloc``, ``None`` if it is none."""
    web = _SCHEMES.get(scheme.lower())
    if web is None or not netloc:
        return None
    parts = urlsplit(f"//{netloc}")
    try:
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname
    if not host:
        return None
    return web, host.lower(), _PORTS[web] if port is None else port


def own_origin(scope: Scope) -> _Origin | None:
    """The origin of the server that ``scope`` was sent to: its scheme and ``Host``."""
    return _origin(scope.get("scheme", "http"), Headers(scope=scope).get("host", ""))


def same_origin(origin: str, scope: Scope) -> bool:
    """Whether ``origin`` (an ``Origin`` header) is the origin ``scope`` was sent to:
    the same scheme (``ws`` and ``http``, ``wss`` and ``https``), host and port."""
    parts = urlsplit(origin.strip())
    theirs = _origin(parts.scheme, parts.netloc)
    return theirs is not None and theirs == own_origin(scope)


def is_cross_site(scope: Scope) -> bool:
    """Whether the request of ``scope`` comes from a page of another origin."""
    headers = Headers(scope=scope)
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site.strip().lower() not in _SAME_SITE
    origin = headers.get("origin")
    return origin is not None and not same_origin(origin, scope)


class CrossSiteMiddleware:
    """Refuse unsafe requests under ``/api/`` from pages of other origins with
    ``403 cross_site``, before anything reads them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope["method"] in UNSAFE_METHODS
                and scope["path"].startswith("/api/") and is_cross_site(scope)):
            response = error_response(
                403, "cross_site",
                "a page of another site may not change anything here (Sec-Fetch-Site or "
                "Origin is not this server)")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
