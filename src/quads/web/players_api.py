"""``POST /api/players``: start as a new player, on purpose.

:class:`~quads.web.middleware.identity.PlayerMiddleware` makes the new player of this route
and sets its cookie, whatever token the request brings: it is what the page
calls after the server answered ``401 unknown_player`` and the person chose to
go on as somebody new.  Nothing else replaces a player's cookie.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from quads.web.middleware.identity import NEW_PLAYER_ROUTE
from quads.web.openapi import refusals

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.post("/players", status_code=204, tags=["players"], response_class=Response,
             name=NEW_PLAYER_ROUTE, responses=refusals(429))
async def create_player() -> Response:
    """Become a new player, who owns nothing yet: the answer's ``Set-Cookie`` holds the
    new token (a bot sends it as ``Authorization: Bearer TOKEN`` from then on)."""
    return Response(status_code=204)
