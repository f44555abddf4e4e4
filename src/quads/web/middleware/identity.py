"""Who is calling: every browser and every bot is an anonymous *player*.

A player is known by a token of 256 random bits that the server issues as an
``HttpOnly``, ``SameSite=Lax`` cookie; a bot may send the same token as
``Authorization: Bearer TOKEN`` instead.  The store keeps only the SHA-256 hash
of each token, and that hash is the player's id.

A new player is made only when somebody acts: the routes marked
:func:`acting` (creating, importing or joining a game, the puzzle's checks,
results and adoption) make one for a caller who brings no token, and
``POST /api/players`` (:data:`NEW_PLAYER_ROUTE`) makes one on request.  Reads
and health checks make nobody: their caller is ``None``.  The routes marked
:func:`anonymous` (the catalogues, the analysis, the puzzle itself) do not look
at the caller at all.

A token that is present but that this server never issued (a cookie from a
reset database, a damaged cookie, a made-up bearer token) is refused with
``401 unknown_player`` and never replaced behind the caller's back: the page
asks the person first, then calls ``POST /api/players``.

A bot's token may be replaced (:mod:`quads.storage.bot_keys`): its id stays the hash
of its first token, and the store says which token is good now; an old one is
``401 unknown_player`` at once.  A process remembers the people whose token it
checked (:class:`KnownPlayers`), never a bot, whose token may be replaced on any
process at any moment.  A player who becomes a bot is forgotten by every process at
once (PostgreSQL tells them); while that news could be missed (the listener cut off)
nobody is taken from memory, and once it listens again all are forgotten.

The ``Cookie`` header is read leniently (as browsers write it), so that the
identity cookie is found whatever other cookies of the same host sit next to it.

A request that carries the identity cookie more than once is refused with ``400
ambiguous_player`` (:func:`_ambiguous`): this server sets one cookie only, for the
path ``/``, so a second one was put there by somebody else, and either choice
would let them decide who the person is.  Browsers send the cookie of the longest
path first, then the older of equal paths (RFC 6265, section 5.4): a cookie planted
for ``/api/`` (by another site under the same domain, say) would win if the first
were taken, one planted for ``/`` after ours if the last were.  The winner would be
the planter's player, whose token they hold: the person would play in their games,
and the planter would read and act in the person's new ones.  A refusal changes
nothing and tells the person; a live socket that carries two is followed as a
caller without a token (it cannot be answered ``400``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from typing import TypeVar

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection, cookie_parser
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from quads.storage import GameStore, StorageUnavailableError
from quads.storage.accounts import AccountStore
from quads.storage.bot_keys import BotKeys
from quads.web.errors import error_response
from quads.web.lane import lane_for
from quads.web.middleware import rates
from quads.web.middleware.known_players import KNOWN_CACHE, KnownPlayers

__all__ = ["CLOSE_UNAVAILABLE", "COOKIE", "NEW_PLAYER_ROUTE", "PlayerMiddleware",
           "acting", "anonymous", "by_cookie", "caller", "cookie_header", "ended_cookie_header",
           "issued_token", "player_id", "signing_in", "token_hash"]

COOKIE = "quads_player"
"""The name of the cookie that holds a player's token."""

NEW_PLAYER_ROUTE = "create_player"
"""The route (``POST /api/players``) that always makes a new player and sets its
cookie, whatever token the request brings."""

_MAX_AGE = 400 * 86_400
"""How long a browser keeps the cookie: the longest that browsers allow."""


_ACTING: set[str] = set()
"""The names of the routes that make a new player of a caller without a token."""

_ANONYMOUS: set[str] = set()
"""The names of the routes that do not look at the caller."""

_SIGNING_IN: set[str] = set()
"""The names of the routes by which a device signs in: a token that leads nowhere (a
session ended elsewhere) is no caller there, and no refusal."""

_SEEN_EVERY = 300.0
"""Seconds between two notes that a session's device was seen (``sessions.seen``)."""

_Route = TypeVar("_Route", bound=Callable[..., object])


def acting(route: _Route) -> _Route:
    """Mark ``route`` as one by which a player acts: a caller who brings no token
    becomes a new player there (and gets the cookie with the answer)."""
    _ACTING.add(route.__name__)
    return route


def anonymous(route: _Route) -> _Route:
    """Mark ``route`` as one that does not look at the caller: no token is read
    there, so that even a caller with an unknown one is answered."""
    _ANONYMOUS.add(route.__name__)
    return route


def signing_in(route: _Route) -> _Route:
    """Mark ``route`` as one by which a device signs in: a caller whose token leads to
    nobody (a session ended on another device) is answered as one without a token."""
    _SIGNING_IN.add(route.__name__)
    return route


def token_hash(connection: HTTPConnection) -> str | None:
    """The hash of the token by which the caller was found (its session's, for an
    account's device), if any."""
    hashed: str | None = connection.scope.get("state", {}).get("token_hash")
    return hashed


def player_id(token: str) -> str:
    """The id stored for ``token``: its SHA-256 hash in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def caller(connection: HTTPConnection) -> str | None:
    """The calling player's id, as :class:`PlayerMiddleware` found it (``None`` for a
    caller without a token on a route that makes nobody)."""
    player: str | None = connection.scope.get("state", {}).get("player")
    return player


def by_cookie(connection: HTTPConnection) -> bool:
    """Whether the caller's token came in the identity cookie (not as a bearer)."""
    return bool(connection.scope.get("state", {}).get("by_cookie"))


def cookie_header(token: str, scope: Scope) -> str:
    """The ``Set-Cookie`` value that gives ``token`` to the browser of ``scope``."""
    secure = scope.get("scheme") == "https"
    return (f"{COOKIE}={token}; Path=/; Max-Age={_MAX_AGE}; HttpOnly; SameSite=Lax"
            + ("; Secure" if secure else ""))


def ended_cookie_header(scope: Scope) -> str:
    """The ``Set-Cookie`` value that takes the identity cookie from the browser."""
    secure = scope.get("scheme") == "https"
    return (f"{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
            + ("; Secure" if secure else ""))


def issued_token(connection: HTTPConnection) -> str | None:
    """The token made for the caller by this very request (a newcomer on an
    :func:`acting` route), else ``None``."""
    token: str | None = connection.scope.get("state", {}).get("issued_token")
    return token


def _cookie_tokens(headers: Headers) -> list[str]:
    """Every value of the identity cookie ('' for one that is there but empty), in the
    order sent, from every ``Cookie`` header of the request."""
    return [token for header in headers.getlist("cookie") for chunk in header.split(";")
            if (token := cookie_parser(chunk).get(COOKIE)) is not None]


def _bearer_token(headers: Headers) -> str | None:
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def _operations(app: object) -> list[tuple[int, re.Pattern[str], dict[str, str]]]:
    """Each path of ``app``'s OpenAPI document as a pattern, with its number of
    parameters and the name of the route (``operationId``) of each method."""
    openapi = getattr(app, "openapi", None)
    if openapi is None:
        return []
    table = []
    for template, item in openapi()["paths"].items():
        parts = re.split(r"\{[^}]+\}", template)
        pattern = re.compile("[^/]+".join(map(re.escape, parts)))
        names = {method.upper(): operation["operationId"] for method, operation in item.items()
                 if isinstance(operation, dict) and "operationId" in operation}
        table.append((len(parts) - 1, pattern, names))
    table.sort(key=lambda entry: entry[0])  # as routing reads /api/games/import
    return table


def _route_name(table: list[tuple[int, re.Pattern[str], dict[str, str]]],
                scope: Scope) -> str | None:
    """The name of the route that answers ``scope``'s method and path, if any."""
    for _, pattern, names in table:
        if pattern.fullmatch(scope["path"]):
            return names.get(scope["method"])
    return None


def _unknown(kind: str) -> Response:
    """The refusal of a token (``kind``: ``cookie`` or ``bearer``) never issued here."""
    if kind == "cookie":
        message = (f"this browser's {COOKIE} cookie was not issued by this server (its "
                   "database was reset, or the cookie is damaged): nothing was changed; "
                   "POST /api/players to start as a new player")
    else:
        message = ("this bearer token was not issued by this server: use the token "
                   f"of the {COOKIE} cookie it set")
    return error_response(401, "unknown_player", message)


def _ambiguous() -> Response:
    """The refusal of a request that carries the identity cookie more than once (see
    the module's documentation for why neither is taken)."""
    return error_response(
        400, "ambiguous_player",
        f"this request carries more than one {COOKIE} cookie, so it cannot be told which "
        "player calls (this server sets one only: another site of this domain may have "
        "set the other): nothing was changed; clear this site's cookies, or send the "
        "token as Authorization: Bearer TOKEN")


CLOSE_UNAVAILABLE = 1013
"""The close code of a live socket whose caller could not be checked because the
database cannot be reached: try again later (as :mod:`quads.web.live` closes one
that cannot read its game)."""


async def _close_unavailable(receive: Receive, send: Send) -> None:
    """Accept a WebSocket that was not answered yet, only to close it with
    :data:`CLOSE_UNAVAILABLE`, so that the page knows to try again (a socket closed
    before it is accepted is an HTTP 403 to the browser, which gives up)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE,
                "reason": "the database cannot be reached now"})


class PlayerMiddleware:
    """Find the caller of every request under ``/api/`` and put their id in the
    request's state (``caller(request)``); make a new player where the route allows
    it (:func:`acting`, ``POST /api/players``) and set their cookie.

    WebSocket connections are identified the same way, but a newcomer or a caller
    with an unknown token gets no id there (a socket cannot set a cookie).
    """

    def __init__(self, app: ASGIApp, store: GameStore,
                 known: KnownPlayers | None = None) -> None:
        self.app = app
        self.store = store
        self._known = known if known is not None else KnownPlayers()
        self._operations: list[tuple[int, re.Pattern[str], dict[str, str]]] | None = None
        self._seen: dict[str, float] = {}
        """When each session's device was last noted as seen by this process."""

    async def _player_of(self, token: str) -> str | None:
        """The player whose good token ``token`` is, if any."""
        hashed = player_id(token)
        known = self._known.get(hashed)
        if known is not None:
            if known != hashed:
                await self._note_seen(hashed)
            return known
        mark = self._known.mark()
        found = await lane_for(self.store).run(BotKeys(self.store).player_of, hashed)
        if found is None:
            return None
        player, lasting = found
        if lasting:
            self._known.add(player, mark, hashed)
        if player != hashed:
            await self._note_seen(hashed)
        return player

    async def _note_seen(self, hashed: str) -> None:
        """Note that the device of the session ``hashed`` was seen, every few minutes."""
        moment = time.monotonic()
        if moment - self._seen.get(hashed, -_SEEN_EVERY) < _SEEN_EVERY:
            return
        if len(self._seen) >= KNOWN_CACHE:
            self._seen.clear()
        self._seen[hashed] = moment
        await lane_for(self.store).run(AccountStore(self.store).seen, hashed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        try:
            await self._identify(scope, receive, send)
        except StorageUnavailableError:
            if scope["type"] == "websocket":
                await _close_unavailable(receive, send)
                return
            response = error_response(
                503, "unavailable", "the database cannot be reached now; try again in a moment")
            response.headers["Retry-After"] = "2"
            await response(scope, receive, send)

    async def _identify(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        state = scope.setdefault("state", {})
        state["player"] = None
        route = None
        if scope["type"] == "http":
            if self._operations is None:
                self._operations = _operations(scope.get("app"))
            route = _route_name(self._operations, scope)
        if route in _ANONYMOUS:
            await self.app(scope, receive, send)
            return
        if route == NEW_PLAYER_ROUTE:
            await self._issue(scope, receive, send)
            return
        bearer = _bearer_token(headers)
        token, kind = bearer, "bearer"
        if bearer is None:
            tokens, kind = _cookie_tokens(headers), "cookie"
            if len(tokens) > 1:
                if scope["type"] == "http":
                    await _ambiguous()(scope, receive, send)
                else:
                    await self.app(scope, receive, send)
                return
            token = tokens[0] if tokens else None
        if token is not None:
            player = await self._player_of(token) if token else None
            if player is not None:
                state["player"] = player
                state["by_cookie"] = kind == "cookie"
                state["token_hash"] = player_id(token)
            elif scope["type"] == "http" and route not in _SIGNING_IN:
                # Never a new identity over one that the caller brings: ask first.
                await _unknown(kind)(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        if route in _ACTING:
            await self._issue(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _issue(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Make a new player, the caller of this request, and set their cookie."""
        if await rates.refused(scope, receive, send, "identities"):
            return
        token = secrets.token_urlsafe(32)
        player = player_id(token)
        await lane_for(self.store).run(self.store.add_player, player)
        self._known.add(player)
        scope["state"]["player"] = player
        scope["state"]["issued_token"] = token  # for a route that hands it to a program
        cookie = cookie_header(token, scope)

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                # A route that signed the newcomer in gave the cookie its session.
                if not any(value.startswith(f"{COOKIE}=")
                           for value in headers.getlist("set-cookie")):
                    headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)
