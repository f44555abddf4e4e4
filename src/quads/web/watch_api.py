"""The games being played now, to watch: ``GET /api/watch``.

The list holds the online games going on, with both seats taken, that changed in the
last :data:`WATCH_MINUTES` minutes and were made without an invitation (paired in the
lobby); an invitation's game is its players' own, found by its link alone.  Anybody
may read it, as anybody may open a game to watch it.  Each line says the players by
the names they go by, the rules, the clock and how far the game is; the game itself
opens at ``/#/game/{id}``, read-only.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from quads.site.games.seats import side_name
from quads.storage import GameStore
from quads.storage.stored import GameSummary, now
from quads.web.clock_views import spec_of
from quads.web.dispatch import quick
from quads.web.schemas.new_games import ClockSpec
from quads.web.wiring import StoreOf

__all__ = ["WATCHED", "WATCH_MINUTES", "WatchList", "router"]

router = APIRouter(prefix="/api")

WATCH_MINUTES = 30
"""A game listed has changed within so many minutes."""
WATCHED = 30
"""Games listed at most: the most recently changed."""


class WatchedGame(BaseModel):
    """A game being played now."""

    id: str
    rules: str
    first: str | None = Field(description="The name the first seat's player goes by")
    second: str | None = Field(description="The name the second seat's player goes by")
    clock: ClockSpec | None = Field(description="The game's time control")
    ply: int = Field(description="Actions played so far")
    to_move: Literal["first", "second"] | None
    updated: datetime


class WatchList(BaseModel):
    """The games being played now, most recently changed first."""

    games: list[WatchedGame]


def _watched(summary: GameSummary) -> WatchedGame:
    first, second = summary.names
    return WatchedGame(
        id=summary.id, rules=summary.rules, first=first, second=second,
        clock=None if summary.clock is None else spec_of(summary.clock.control),
        ply=summary.ply, updated=summary.updated, to_move=side_name(summary.to_move))


def watchable(store: GameStore, at: datetime | None = None) -> list[GameSummary]:
    """The games to watch as of ``at`` (default: now)."""
    since = (now() if at is None else at) - timedelta(minutes=WATCH_MINUTES)
    return store.summaries(watchable_since=since, limit=WATCHED)


@router.get("/watch", tags=["online"])
@quick
def games_to_watch(store: StoreOf) -> WatchList:
    """The online games being played now that anybody may watch (the module's
    description), most recently changed first."""
    return WatchList(games=[_watched(summary) for summary in watchable(store)])
