"""The lobby's routes: seeks, accepting one, and quick pairing.

What they do is the site's lobby (:class:`quads.site.lobby.service.Lobby`): these
routes read the request, charge the caller's rates (a player opens seeks at
``rate_seeks`` at most, and all players of an address at ``rate_seeks_per_address``)
and draw the answer.  Changes reach the lobby sockets through
:class:`~quads.web.lobby_hub.LobbyHub`.  A name chosen is counted against
``rate_names``: the player stays who they were, so it is no new identity.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response

from quads.storage.lobby import Seek
from quads.web.clock_views import control_of
from quads.web.dispatch import quick
from quads.web.lobby_hub import seek_view
from quads.web.middleware import rates
from quads.web.middleware.identity import acting
from quads.web.openapi import refusals
from quads.web.schemas.game_views import GameView
from quads.web.schemas.lobby import (
    PairingAnswer,
    PairingRequest,
    SeekList,
    SeekRequest,
    SeekView,
)
from quads.web.schemas.new_games import ClockSpec
from quads.web.wiring import CallerOf, LobbyOf, ViewerOf

__all__ = ["router"]

router = APIRouter(prefix="/api")

SeekId = Annotated[str, Path(description="The seek's id", pattern=r"^[A-Za-z0-9_-]{1,64}$")]

def _clock_text(spec: ClockSpec) -> str:
    return str(control_of(spec))


def _player(player: str | None) -> str:
    assert player is not None  # an acting route always has a caller
    return player


@router.get("/seeks", tags=["lobby"])
@quick
def list_seeks(lobby: LobbyOf, player: CallerOf) -> SeekList:
    """The open seeks, oldest first."""
    return SeekList(seeks=[seek_view(s, player) for s in lobby.listed()])


_S403 = "`account_needed`: a rated seek of a player without an account"
_S422 = "`cannot_be_rated`: a rated seek of rules of no preset"


@router.post("/seeks", status_code=201, tags=["lobby"], responses=refusals(
    403, 409, 422, 429, s403=_S403, s422=_S422,
    s409="`too_many_seeks`: the caller has `seeks_per_player` seeks open"))
@acting
@quick
def open_seek(request: Request, body: SeekRequest, lobby: LobbyOf,
              player: CallerOf) -> SeekView:
    """Offer a game in the lobby, until someone accepts it, the caller withdraws it or
    starts another game, or leaves (no live socket for a few seconds)."""
    rates.charge(request, "seeks")
    seek = lobby.open(_player(player), body.rules, _clock_text(body.clock), body.side,
                      rated=body.rated, low=body.rating_min, high=body.rating_max,
                      false_calls=body.false_calls)
    return seek_view(seek, player)


@router.delete("/seeks/{seek_id}", status_code=204, tags=["lobby"], response_class=Response,
               responses=refusals(403, 404))
@quick
def withdraw_seek(seek_id: SeekId, lobby: LobbyOf, player: CallerOf) -> Response:
    """Withdraw one of the caller's seeks."""
    lobby.withdraw(seek_id, player)
    return Response(status_code=204)


@router.post("/seeks/{seek_id}/accept", status_code=201, tags=["lobby"], responses=refusals(
    403, 409, 429, s403="`account_needed`: a rated seek taken without an account",
    s409="`seek_gone`: taken by someone else, withdrawn or left; `own_seek`; "
         "`out_of_range`: a rated seek whose bounds leave the caller's rating out"))
@acting
@quick
def accept_seek(request: Request, seek_id: SeekId, lobby: LobbyOf, player: CallerOf,
                view: ViewerOf) -> GameView:
    """Accept a seek: the game starts for both players at once (the seeker's lobby
    sockets hear `paired`)."""
    rates.charge(request, "games")
    return view(lobby.accept(seek_id, _player(player)))


@router.post("/pairing", tags=["lobby"], responses={
    201: {"model": PairingAnswer, "description": "A seek met: the game (`game`)"},
    202: {"model": PairingAnswer, "description": "No seek met: the caller's seek (`seek`) "
                                                 "waits in the lobby"},
    **refusals(403, 409, 422, 429, s403=_S403, s422=_S422, s409="`too_many_seeks`")})
@acting
@quick
def pairing(request: Request, response: Response, body: PairingRequest, lobby: LobbyOf,
            player: CallerOf, view: ViewerOf) -> PairingAnswer:
    """Play now: pair with the oldest seek of the same rules and clock, or wait as a
    new seek (`202`); the game starts for both at once."""
    rates.charge(request, "seeks")
    met = lobby.pair(_player(player), body.rules, _clock_text(body.clock), rated=body.rated,
                     low=body.rating_min, high=body.rating_max, false_calls=body.false_calls)
    if isinstance(met, Seek):
        response.status_code = 202
        return PairingAnswer(game=None, seek=seek_view(met, player))
    response.status_code = 201
    return PairingAnswer(game=view(met), seek=None)
