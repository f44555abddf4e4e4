"""How often one client may create: games, players, joins and puzzle answers.

Each kind of creation has a rate of :class:`~quads.web.settings.Settings`
(``rate_games``, ``rate_identities``, ``rate_joins``, ``rate_puzzles``, ``rate_seeks``),
counted per client address (:func:`~quads.web.settings.client_address`) in a
moving window.  A request over a rate is refused with ``429 rate_limited`` and
a ``Retry-After`` header: the seconds until the window frees a slot.

The counts are kept in the memory of each server process: with ``quads serve
--workers N`` every process counts on its own, so a client may reach N times a
rate.  The site-wide limit is the reverse proxy's (``limit_req``,
``docs/deploy.md``).
"""

from __future__ import annotations

import math
import time
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import Receive, Scope, Send

from quads.web.errors import error_response
from quads.web.settings import Settings, client_address

__all__ = ["Kind", "RateLimitedError", "Rates", "charge", "install", "refused"]

Kind = Literal["games", "identities", "joins", "puzzles", "seeks"]
"""What a rate counts: new games, new players, joins, puzzle checks and results."""

_WHAT: dict[str, str] = {
    "games": "new games",
    "identities": "new players",
    "joins": "joins",
    "puzzles": "puzzle answers",
    "seeks": "seeks",
}


class RateLimitedError(Exception):
    """A client over one of its rates; ``retry_after`` seconds free a slot."""

    def __init__(self, kind: Kind, retry_after: int) -> None:
        super().__init__(f"too many {_WHAT[kind]} from your address: try again in "
                         f"{retry_after} s")
        self.kind = kind
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        """The ``429 rate_limited`` answer, with ``Retry-After``."""
        answer = error_response(429, "rate_limited", str(self))
        answer.headers["Retry-After"] = str(self.retry_after)
        return answer


class Rates:
    """The rates of ``settings``, and what each client address has used of them."""

    def __init__(self, settings: Settings) -> None:
        self._limits: dict[str, list[RateLimitItem]] = {
            kind: parse_many(getattr(settings, f"rate_{kind}")) for kind in _WHAT}
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def charge(self, kind: Kind, client: str) -> None:
        """Count one ``kind`` for ``client``.

        :raises RateLimitedError: if that would go over a rate (nothing is counted).
        """
        limits = self._limits[kind]
        for item in limits:
            if not self._limiter.test(item, kind, client):
                reset = self._limiter.get_window_stats(item, kind, client).reset_time
                raise RateLimitedError(kind, max(1, math.ceil(reset - time.time())))
        for item in limits:
            self._limiter.hit(item, kind, client)


def _rates(app: Any) -> Rates:
    rates: Rates = app.state.rates
    return rates


def charge(request: Request, kind: Kind) -> None:
    """Count one ``kind`` for the request's client address.

    :raises RateLimitedError: if the client is over its rate (answered ``429``).
    """
    _rates(request.app).charge(kind, client_address(request.scope))


async def refused(scope: Scope, receive: Receive, send: Send, kind: Kind) -> bool:
    """For a middleware: count one ``kind`` for the client of ``scope``; over its rate,
    answer ``429 rate_limited`` and return true."""
    try:
        _rates(scope["app"]).charge(kind, client_address(scope))
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

