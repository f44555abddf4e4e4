"""Who is calling: every browser and every bot is an anonymous *player*.

A player is known by a token of 256 random bits that the server issues on the
first answer under ``/api/`` as an ``HttpOnly``, ``SameSite=Lax`` cookie; a bot
may send the same token as ``Authorization: Bearer TOKEN`` instead.  The store
keeps only the SHA-256 hash of each token, and that hash is the player's id.

A cookie whose token this server never issued is replaced by a new one (the
caller becomes a new player, who owns nothing); a bearer token it never issued
is refused with ``401 unknown_player``, since a bot must not silently become
somebody else.
"""

from __future__ import annotations

import hashlib
import secrets
from http.cookies import SimpleCookie

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from quads.storage import GameStore, StorageUnavailableError
from quads.web.errors import error_response

__all__ = ["COOKIE", "PlayerMiddleware", "caller", "player_id"]

COOKIE = "quads_player"
"""The name of the cookie that holds a player's token."""

_MAX_AGE = 400 * 86_400
"""How long a browser keeps the cookie: the longest that browsers allow."""

_KNOWN_CACHE = 100_000
"""How many verified player ids are remembered in memory."""


def player_id(token: str) -> str:
    """The id stored for ``token``: its SHA-256 hash in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def caller(connection: HTTPConnection) -> str | None:
    """The calling player's id, as :class:`PlayerMiddleware` found it."""
    player: str | None = connection.scope.get("state", {}).get("player")
    return player


def _cookie_token(headers: Headers) -> str | None:
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # a malformed Cookie header counts as no cookie
        return None
    morsel = cookie.get(COOKIE)
    return None if morsel is None or not morsel.value else morsel.value


def _bearer_token(headers: Headers) -> str | None:
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


class PlayerMiddleware:
    """Find the caller of every request under ``/api/`` and put their id in the
    request's state (``caller(request)``); issue a cookie to a newcomer.

    WebSocket connections are identified the same way, but a newcomer gets no
    id there (a socket cannot set a cookie).
    """

    def __init__(self, app: ASGIApp, store: GameStore) -> None:
        self.app = app
        self.store = store
        self._known: set[str] = set()

    async def _is_known(self, player: str) -> bool:
        if player in self._known:
            return True
        if not self.store.has_player(player):
            return False
        if len(self._known) >= _KNOWN_CACHE:
            self._known.clear()
        self._known.add(player)
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        try:
            await self._identify(scope, receive, send)
        except StorageUnavailableError:
            if scope["type"] != "http":
                raise
            response = error_response(
                503, "unavailable", "the database cannot be reached now; try again in a moment")
            response.headers["Retry-After"] = "2"
            await response(scope, receive, send)

    async def _identify(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        state = scope.setdefault("state", {})
        bearer = _bearer_token(headers)
        if bearer is not None:
            player: str | None = player_id(bearer)
            assert player is not None
            if not await self._is_known(player):
                if scope["type"] == "http":
                    response = error_response(
                        401, "unknown_player",
                        "this bearer token was not issued by this server: use the token "
                        f"of the {COOKIE} cookie it set")
                    await response(scope, receive, send)
                    return
                player = None
            state["player"] = player
            await self.app(scope, receive, send)
            return
        token = _cookie_token(headers)
        if token is not None and await self._is_known(player_id(token)):
            state["player"] = player_id(token)
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            state["player"] = None
            await self.app(scope, receive, send)
            return
        token = secrets.token_urlsafe(32)
        player = player_id(token)
        self.store.add_player(player)
        self._known.add(player)
        state["player"] = player
        secure = scope.get("scheme") == "https"
        cookie = (f"{COOKIE}={token}; Path=/; Max-Age={_MAX_AGE}; HttpOnly; SameSite=Lax"
                  + ("; Secure" if secure else ""))

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)
