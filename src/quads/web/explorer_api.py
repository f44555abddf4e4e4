"""What people played: ``GET /api/explorer?rules=…&position=…`` lists the turns played on
this site from a position (up to symmetry) with how those games ended, over the games
between people and against each level, rated or casual, in a range of rating bands
(:mod:`quads.site.explorer`).  Anybody may ask; each ask is counted
(``rate_explorer``)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request

from quads.position import Position
from quads.rules import Rules
from quads.site.explorer.service import explore
from quads.storage.explorer import BAND, Filters
from quads.web.dispatch import quick
from quads.web.fields import PositionText, RulesName
from quads.web.middleware import rates
from quads.web.middleware.identity import anonymous
from quads.web.openapi import refusals
from quads.web.schemas.explorer import ExplorerView, explorer_view
from quads.web.wiring import StoreOf

__all__ = ["router"]

router = APIRouter(prefix="/api")

Source = Literal["people", "level-1", "level-2", "level-3", "level-4", "level-5"]
HIGHEST_BAND = 3000


@router.get("/explorer", tags=["explorer"], responses=refusals(
    422, 429, s422="A position impossible under the rules"))
@anonymous
@quick
def explorer(
    request: Request,
    store: StoreOf,
    position: Annotated[PositionText, Query()],
    rules: Annotated[RulesName, Query()] = "quads",
    source: Annotated[list[Source] | None, Query(
        description="Only games of these kinds: `people` (between people), `level-N` "
                    "(against the computer at level N); repeat for several")] = None,
    rated: Annotated[bool | None, Query(description="Only rated games, or only casual "
                                                    "ones")] = None,
    min_band: Annotated[int | None, Query(
        ge=0, le=HIGHEST_BAND, multiple_of=BAND,
        description="Only rated games whose players' mean rating was at least this band "
                    "(a multiple of 200)")] = None,
    max_band: Annotated[int | None, Query(
        ge=0, le=HIGHEST_BAND, multiple_of=BAND,
        description="Only rated games whose players' mean rating was in this band or "
                    "below")] = None,
) -> ExplorerView:
    """The turns played on this site from ``position`` under ``rules``, the most played
    first, each with how those games ended."""
    rates.charge(request, "explorer")
    game_rules = Rules.parse(rules)
    read = Position.from_string(position)
    read.check(game_rules)
    bands = None
    if min_band is not None or max_band is not None:
        bands = (BAND if min_band is None else max(min_band, BAND),
                 HIGHEST_BAND if max_band is None else max_band)
    filters = Filters(sources=None if not source else tuple(source), rated=rated,
                      bands=bands)
    return explorer_view(explore(store, read, game_rules, filters))
