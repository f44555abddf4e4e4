"""``GET /api/analysis``: every legal turn of any position with its value.

The analysis board of the page and its "Analyse" switch ask it.  It needs no
game and stores nothing: the position comes in the query, as its string (see
``docs/notation.md``).  A position analysed completely before, or one symmetric
to it, is answered from the engine's cache at once; else the work goes to the
``study`` lane of :mod:`quads.web.thinking` (``429 engine_busy`` when the
caller's share or the lane is full).  Near the empty board the opening book
answers; elsewhere the solver searches for at most :data:`SECONDS` seconds, and
turns still open then are ``unknown``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from quads.book import analyse_with_book
from quads.cells import cell_name
from quads.pieces import piece_name
from quads.position import Position
from quads.rules import Rules
from quads.solver.result import Analysis
from quads.web.fields import PositionText, RulesName
from quads.web.middleware.identity import anonymous
from quads.web.openapi import refusals
from quads.web.schemas.analysis import AnalysisView, TurnValueView
from quads.web.thinking import thinking
from quads.web.wiring import ThinkingOf

__all__ = ["SECONDS", "router"]

SECONDS = 3.0
"""The search's time budget for one analysis."""

router = APIRouter(prefix="/api")


@router.get("/analysis", tags=["analysis"], responses=refusals(
    422, 429, s422="A position impossible under the rules"))
@anonymous
async def analysis(
    request: Request,
    position: Annotated[PositionText, Query()],
    engine: ThinkingOf,
    rules: Annotated[RulesName, Query()] = "quads",
) -> AnalysisView:
    """Every legal turn of ``position`` under ``rules`` with its value, best first."""
    game_rules = Rules.parse(rules)
    read = Position.from_string(position)
    read.check(game_rules)
    known = engine.analyses.get(read, game_rules)
    if known is None:
        def work() -> tuple[Analysis, str]:
            # asked again while it waited (another client, a symmetric position)?
            found = engine.analyses.get(read, game_rules, again=True)
            if found is None:
                found = analyse_with_book(read, game_rules, seconds=SECONDS, threads=1)
                engine.analyses.put(*found)
            return found

        known = await thinking(request, "study", work)
    result, source = known
    return AnalysisView(
        position=read.to_string(), rules=game_rules.name, value=result.value.value,
        plies=result.plies, source=source, complete=result.complete,  # type: ignore[arg-type]
        moves=[TurnValueView(
            place=None if m.turn.place is None else cell_name(m.turn.place),
            give=None if m.turn.give is None else piece_name(m.turn.give),
            value=m.value.value, plies=m.plies)
            for m in result.moves],
    )
