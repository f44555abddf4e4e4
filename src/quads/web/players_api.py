"""The players' routes: ``POST /api/players`` to start as a new player on purpose, and
``/api/players/me``, the caller's name as others see it.

A name chosen is counted against ``rate_names``: the player stays who they were, so
it is no new identity.  :class:`~quads.web.middleware.identity.PlayerMiddleware`
makes the new player of ``POST /api/players`` and sets its cookie, whatever token the
request brings: it is what the page calls after the server answered
``401 unknown_player`` and the person chose to go on as somebody new.  Nothing else
replaces a player's cookie.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from quads.web.dispatch import quick
from quads.web.middleware import rates
from quads.web.middleware.identity import NEW_PLAYER_ROUTE, acting
from quads.web.openapi import refusals
from quads.web.schemas.lobby import NameRequest, PlayerView
from quads.web.wiring import BotsOf, CallerOf, LobbyOf

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.post("/players", status_code=204, tags=["players"], response_class=Response,
             name=NEW_PLAYER_ROUTE, responses=refusals(429))
async def create_player() -> Response:
    """Become a new player, who owns nothing yet: the answer's ``Set-Cookie`` holds the
    new token (a bot sends it as ``Authorization: Bearer TOKEN`` from then on)."""
    return Response(status_code=204)


@router.get("/players/me", tags=["players"])
@quick
def who_am_i(lobby: LobbyOf, bots: BotsOf, player: CallerOf) -> PlayerView:
    """The caller's name as others see it (one is made up for a player without one);
    null for a caller who is no player yet."""
    if player is None:
        return PlayerView(name=None)
    return PlayerView(name=lobby.name(player), bot=bots.handle(player))


@router.put("/players/me", tags=["players"], responses=refusals(422, 429))
@acting
@quick
def rename(request: Request, body: NameRequest, lobby: LobbyOf, bots: BotsOf,
           player: CallerOf) -> PlayerView:
    """Choose the name others see (in the lobby, on open seeks)."""
    rates.charge(request, "names")  # the same player: no new identity
    assert player is not None  # an acting route always has a caller
    return PlayerView(name=lobby.rename(player, body.name), bot=bots.handle(player))
