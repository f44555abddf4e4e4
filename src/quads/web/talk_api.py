"""Quick messages at a game's table: ``POST /api/games/{id}/talk`` says one of the
preset lines, ``GET /api/games/{id}/talk`` reads what was said
(:mod:`quads.site.games.talk`).  The live socket brings each new line to both
players as a ``talk`` message.  Saying is counted per player and per address
(``rate_talk``), refused ``429 rate_limited`` past it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from quads.site.games import talk
from quads.web.dispatch import quick
from quads.web.fields import GAME_ID_PATTERN
from quads.web.middleware import rates
from quads.web.openapi import refusals
from quads.web.schemas.talk import SaidView, TalkRequest, TalkView, said_view
from quads.web.wiring import CallerOf, HubOf, StoreOf

__all__ = ["router"]

router = APIRouter(prefix="/api")

GameId = Annotated[str, Path(description="The game's id", pattern=GAME_ID_PATTERN)]

S403 = ("`not_your_game`: only the two players talk at the table (a spectator reads "
        "nothing); `private_game`")
S409 = "`not_online`: not a game between two people online; `waiting_for_opponent`"


@router.post("/games/{game_id}/talk", status_code=201, tags=["online"],
             responses=refusals(403, 404, 409, 429, s403=S403, s409=S409))
@quick
def say(request: Request, game_id: GameId, body: TalkRequest, store: StoreOf, hub: HubOf,
        player: CallerOf) -> SaidView:
    """Say one of the preset lines at the table, during the game or after it: the other
    player reads it in their own language."""
    rates.charge(request, "talk")
    return said_view(talk.say(store, game_id, player, body.message, hub.talked))


@router.get("/games/{game_id}/talk", tags=["online"],
            responses=refusals(403, 404, 409, s403=S403, s409=S409))
@quick
def heard(game_id: GameId, store: StoreOf, player: CallerOf,
          after: Annotated[int, Query(ge=0, le=2**31 - 1, description=(
              "Only the lines numbered above this one"))] = 0) -> TalkView:
    """What was said at the table after the line numbered ``after``, oldest first (the
    newest 50 at most)."""
    return TalkView(messages=[said_view(s) for s in talk.heard(store, game_id, player, after)])
