"""How often one player, and one client address, may create: games, players, names,
joins, seeks, puzzle answers and bots' new tokens; and how often they may export their
games, which reads every one of them.

A player (a caller with an identity, :mod:`quads.web.middleware.identity`) is counted
on their own: ``rate_games``, ``rate_joins``, ``rate_names``, ``rate_puzzles``,
``rate_seeks``, ``rate_keys``, ``rate_exports``, ``rate_talk``, ``rate_tournaments`` and
``rate_explorer``
of :class:`~quads.web.settings.Settings` are one person's rates, so that one player who
creates too fast is refused and the others behind the same address (a school class, a
café) are not.  Above them each kind has a budget per client address
(:func:`~quads.web.settings.client_address`), ``rate_KIND_per_address``, sized for a
room of some forty people: identities cost nothing to make anew, so a client who makes
many of them, one after the other, still meets the address's
budget.  New identities are counted per address alone (``rate_identities``).  All
count in a moving window.  A request over a rate is refused with ``429
rate_limited`` and a ``Retry-After`` header: the seconds until the window frees a
slot.

The counts are kept in the memory of each server process: with ``quads serve
--workers N`` every process counts on its own, so a client may reach N times a
rate.  The site-wide limit is the reverse proxy's (``limit_req``,
``docs/deploy.md``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse_many
from limits.strategies import MovingWindowRateLimiter
from starlette.types import Receive, Scope, Send

from quads.site.windows import Windows
from quads.web.errors import error_response
from quads.web.settings import Settings, client_address

__all__ = ["Kind", "RateLimitedError", "Rates", "charge", "install", "refused"]

Kind = Literal["explorer", "exports", "games", "identities", "joins", "keys", "names",
               "puzzles", "seeks", "signins", "signups", "talk", "tournaments"]
"""What a rate counts: looks in the explorer, exports of one's games, new games, new
players, names chosen, joins, bots' tokens replaced, puzzle checks and results, seeks,
tries to sign in, accounts, quick messages said at a table, tournaments made."""

_WHAT: dict[str, str] = {
    "explorer": "looks in the explorer",
    "exports": "exports of games",
    "games": "new games",
    "identities": "new players",
    "joins": "joins",
    "keys": "changes of bot tokens",
    "names": "changes of name",
    "puzzles": "puzzle answers",
    "seeks": "seeks",
    "signins": "tries to sign in",
    "signups": "new accounts",
    "talk": "messages",
    "tournaments": "new tournaments",
}

_PER_ADDRESS_ONLY = frozenset({"identities"})
"""The kinds counted per address alone: a new player has no identity yet."""


class RateLimitedError(Exception):
    """A client over one of its rates (``whose``: the player's own, or their
    address's); ``retry_after`` seconds free a slot."""

    def __init__(self, kind: Kind, retry_after: int,
                 whose: Literal["player", "address"] = "address") -> None:
        source = "from you" if whose == "player" else "from your address"
        super().__init__(f"too many {_WHAT[kind]} {source}: try again in {retry_after} s")
        self.kind = kind
        self.retry_after = retry_after
        self.whose = whose

    def response(self) -> JSONResponse:
        """The ``429 rate_limited`` answer, with ``Retry-After``; its ``reason`` is
        the kind counted (``signins``, ``games`` ...)."""
        answer = error_response(429, "rate_limited", str(self), reason=self.kind)
        answer.headers["Retry-After"] = str(self.retry_after)
        return answer


class Rates:
    """The rates of ``settings``, and what each player and client address has used of
    them."""

    def __init__(self, settings: Settings) -> None:
        self._player: dict[str, list[RateLimitItem]] = {
            kind: parse_many(getattr(settings, f"rate_{kind}"))
            for kind in _WHAT if kind not in _PER_ADDRESS_ONLY}
        self._address: dict[str, list[RateLimitItem]] = {
            kind: parse_many(getattr(settings, f"rate_{kind}" if kind in _PER_ADDRESS_ONLY
                                     else f"rate_{kind}_per_address"))
            for kind in _WHAT}
        self.windows = Windows()
        """The counts, which forget the clients whose hits all expired."""
        self._limiter = MovingWindowRateLimiter(self.windows)

    def charge(self, kind: Kind, client: str, player: str | None = None) -> None:
        """Count one ``kind`` for ``player`` (if the caller has an identity) and for
        the address ``client``.

        :raises RateLimitedError: if that would go over a rate (nothing is counted).
        """
        checked: list[tuple[Literal["player", "address"], str]] = (
            [("player", player)] if player is not None and kind in self._player else [])
        checked.append(("address", client))
        for whose, name in checked:
            refusal = self._refusal(kind, whose, name)
            if refusal is not None:
                raise refusal
        for whose, name in checked:
            for item in self._items(kind, whose):
                self._limiter.hit(item, kind, whose, name)

    def over(self, kind: Kind, client: str) -> RateLimitedError | None:
        """The refusal of one more ``kind`` from the address ``client`` if it is over
        its rate already, else ``None``; nothing is counted."""
        return self._refusal(kind, "address", client)

    def _items(self, kind: Kind, whose: Literal["player", "address"]) -> list[RateLimitItem]:
        return (self._address if whose == "address" else self._player)[kind]

    def _refusal(self, kind: Kind, whose: Literal["player", "address"],
                 name: str) -> RateLimitedError | None:
        """The refusal of one more ``kind`` from ``name`` (a player or an address) if
        one of its rates is full, else ``None``; nothing is counted."""
        waits = [self._wait(item, kind, whose, name) for item in self._items(kind, whose)
                 if not self._limiter.test(item, kind, whose, name)]
        return RateLimitedError(kind, max(waits), whose) if waits else None

    def _wait(self, item: RateLimitItem, *keys: str) -> int:
        reset = self._limiter.get_window_stats(item, *keys).reset_time
        return max(1, math.ceil(reset - time.time()))


def _rates(app: Any) -> Rates:
    rates: Rates = app.state.rates
    return rates


def _player(scope: Mapping[str, Any]) -> str | None:
    """The caller's id as :class:`~quads.web.middleware.identity.PlayerMiddleware` found it."""
    player: str | None = scope.get("state", {}).get("player")
    return player


def charge(request: Request, kind: Kind) -> None:
    """Count one ``kind`` for the request's caller and client address.

    :raises RateLimitedError: if either is over its rate (answered ``429``).
    """
    _rates(request.app).charge(kind, client_address(request.scope), _player(request.scope))


async def refused(scope: Scope, receive: Receive, send: Send, kind: Kind) -> bool:
    """For a middleware: count one ``kind`` for the caller and client of ``scope``; over
    a rate, answer ``429 rate_limited`` and return true."""
    try:
        _rates(scope["app"]).charge(kind, client_address(scope), _player(scope))
    except RateLimitedError as exc:
        await exc.response()(scope, receive, send)
        return True
    return False


async def _rate_limited(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RateLimitedError)
    return exc.response()


def install(app: FastAPI, settings: Settings) -> None:
    """Keep the rates of ``settings`` for ``app`` and answer its :class:`RateLimitedError`."""
    app.state.rates = Rates(settings)
    app.add_exception_handler(RateLimitedError, _rate_limited)
