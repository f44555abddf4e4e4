"""Tries to sign in that would be refused, refused before they cost anything.

A flood of sign-ins is mostly refused: an address over its rate of tries
(``rate_signins_per_address``, :mod:`~quads.web.middleware.rates`) gets ``429
rate_limited``, and while the lane that hashes passwords is full
(:class:`~quads.web.thinking.Lane`, ``account_queue``) a try gets ``429 busy``.  The
routes answer both, but only after the work of every request: the caller's identity
looked up, the body read and validated, the route's dependencies made.  Under a flood
that work is most of what the server does, and it delays every other player.

:class:`SignInGateMiddleware` stands outside all of that, before the identity: a try
to sign in (or up) whose address is over its rate already, or one that would hash
while the lane or the address's share of it is full, is answered the same ``429``
(with ``Retry-After``) at once, from the request line alone.  It only looks: what it
lets through is counted and judged by its route as before, so a try is never refused
here that its route would have taken.  The player's own rate (a caller with an
identity) stays with the route, which alone knows the caller.

The same judgement (:func:`refusal_of`) runs earlier still, in the server's protocol
(:class:`~quads.web.middleware.connections.GuardedProtocol`): a try that arrives
straight from its client is answered there from its request line, before HTTP
parsing and the whole ASGI stack, so a flood costs the event loop a few lines of
Python a request.  This middleware judges what the protocol could not: a try that
came through a trusted proxy (whose client is in a header) or whose path is spelt
in escapes.
"""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from quads.web.middleware.rates import Kind, RateLimitedError, Rates
from quads.web.settings import client_address
from quads.web.thinking import EngineBusyError, Thinking, busy_response

__all__ = ["GATED", "SignInGateMiddleware", "refusal_of"]

GATED: dict[tuple[str, str], tuple[Kind, bool]] = {
    ("POST", "/api/session"): ("signins", True),
    ("POST", "/api/session/recovery"): ("signins", True),
    ("POST", "/api/session/link"): ("signins", False),
    ("POST", "/api/session/passkey"): ("signins", False),
    ("POST", "/api/passkeys/options"): ("signins", False),
    ("POST", "/api/account"): ("signups", True),
}
"""The requests gated: by method and path, the rate they count against and whether
they hash a password (and so wait in the ``accounts`` lane)."""


def refusal_of(state: Any, method: str, path: str,
               client: str) -> RateLimitedError | EngineBusyError | None:
    """The ``429`` that the route of ``method`` and ``path`` would answer a try from
    the address ``client`` right now for its address's rate or a full ``accounts``
    lane (``state`` is the app's), or ``None`` if it is not gated or would be let
    through.  Nothing is counted but a lane's refusal."""
    gated = GATED.get((method, path))
    if gated is None:
        return None
    kind, hashes = gated
    rates: Rates = state.rates
    over = rates.over(kind, client)
    if over is not None or not hashes:
        return over
    engine: Thinking = state.thinking
    return engine.lanes["accounts"].refusal(client)


class SignInGateMiddleware:
    """Answer ``429`` at once to a try to sign in or up that its route would refuse
    for its address's rate or a full lane."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = refusal_of(scope["app"].state, scope["method"], scope["path"],
                                 client_address(scope))
            if isinstance(refusal, RateLimitedError):
                await refusal.response()(scope, receive, send)
                return
            if refusal is not None:
                await busy_response(refusal)(scope, receive, send)
                return
        await self.app(scope, receive, send)
