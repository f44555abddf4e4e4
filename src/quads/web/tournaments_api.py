"""Tournaments: ``POST /api/tournaments`` makes an arena, ``GET /api/tournaments``
lists the events, ``GET /api/tournaments/{id}`` gives one with its standings and
games (live on the WebSocket ``/api/tournaments/{id}/live``,
:mod:`quads.web.tournament_hub`), ``POST /api/tournaments/{id}/join`` and
``/withdraw`` enter and pause
(:mod:`quads.site.tournaments`).  The server's tournaments' keeper
(:mod:`quads.web.tournament_keeper`) starts, pairs and ends them.  Making one is
counted per account and per address (``rate_tournaments``), joining and withdrawing
as joins (``rate_joins``)."""

from __future__ import annotations

from datetime import UTC
from typing import Annotated

from fastapi import APIRouter, Path, Request, WebSocket

from quads.site.tournaments import service
from quads.storage import GameStore
from quads.storage.stored import now
from quads.web import tournament_views as views
from quads.web.dispatch import quick
from quads.web.middleware import rates
from quads.web.middleware.identity import caller
from quads.web.openapi import refusals
from quads.web.schemas.tournaments import TournamentList, TournamentRequest, TournamentView
from quads.web.socket_gate import admit
from quads.web.wiring import CallerOf, HubOf, SettingsOf, StoreOf, TournamentHubOf

__all__ = ["router"]

router = APIRouter(prefix="/api")

TournamentId = Annotated[str, Path(description="The tournament's id",
                                   pattern=r"^[A-Za-z0-9_-]{1,32}$")]

LISTED = 50
"""Events of each status listed at most."""

S403 = "`account_needed`: tournaments are for accounts; `not_enough_rated_games`"


def _view(store: GameStore, tournament_id: str, caller: str | None) -> TournamentView:
    return views.view(views.read_event(store, tournament_id), caller)


@router.post("/tournaments", status_code=201, tags=["tournaments"],
             responses=refusals(403, 422, 429, s403=S403,
                                s422="`invalid_clock`, `invalid_tournament`, `cannot_be_rated`"))
@quick
def create(request: Request, body: TournamentRequest, store: StoreOf, player: CallerOf,
           settings: SettingsOf) -> TournamentView:
    """Make an event (an account only), starting at `starts` (now if not given): an
    arena runs for `minutes`, players who are free are paired at once and the most
    points win (2 a win, 1 a draw, doubled after two wins in a row); a Swiss event
    plays `rounds` rounds, each paired by the Dutch system once the round before is
    over."""
    rates.charge(request, "tournaments")
    at = now()
    starts = body.starts or at
    if starts.tzinfo is None:
        starts = starts.replace(tzinfo=UTC)  # a moment without a zone is UTC
    if body.kind == "swiss":
        event = service.create_swiss(
            store, player, rules=body.rules, clock=body.clock, rounds=body.rounds,
            rated=body.rated, starts=starts, at=at, grace=settings.clock_grace,
            min_rated=body.min_rated, name=body.name)
    else:
        event = service.create_arena(
            store, player, rules=body.rules, clock=body.clock, minutes=body.minutes,
            rated=body.rated, starts=starts, at=at, min_rated=body.min_rated, name=body.name)
    return _view(store, event.id, player)


@router.get("/tournaments", tags=["tournaments"])
@quick
def listed(store: StoreOf) -> TournamentList:
    """The events to come (the soonest first), running, and over (the latest first)."""
    events = {status: store.tournaments(status, LISTED)
              for status in ("created", "started", "finished")}
    counts = store.player_counts([e.id for listed in events.values() for e in listed])
    return TournamentList(**{status: [views.summary(e, counts.get(e.id, 0)) for e in listed]
                             for status, listed in events.items()})


@router.get("/tournaments/{tournament_id}", tags=["tournaments"], responses=refusals(404))
@quick
def shown(tournament_id: TournamentId, store: StoreOf, player: CallerOf) -> TournamentView:
    """The event, its standings (the leader first; `you` marks the caller's line) and
    its games (the latest first)."""
    return _view(store, tournament_id, player)


@router.post("/tournaments/{tournament_id}/join", tags=["tournaments"],
             responses=refusals(403, 404, 409, 429, s403=S403,
                                s409="`tournament_over`"))
@quick
def join(request: Request, tournament_id: TournamentId, store: StoreOf,
         player: CallerOf) -> TournamentView:
    """Join the event, or come back to it after a pause: while it runs, a free player is
    paired at once."""
    rates.charge(request, "joins")
    service.join(store, tournament_id, player, now())
    return _view(store, tournament_id, player)


@router.post("/tournaments/{tournament_id}/withdraw", tags=["tournaments"],
             responses=refusals(404, 409, 429, s409="`not_in_tournament`"))
@quick
def withdraw(request: Request, tournament_id: TournamentId, store: StoreOf,
             player: CallerOf) -> TournamentView:
    """Pause in the event: no more pairings until one joins again; a game being played
    goes on and counts."""
    rates.charge(request, "joins")
    service.withdraw(store, tournament_id, player)
    return _view(store, tournament_id, player)


@router.websocket("/tournaments/{tournament_id}/live")
async def live(websocket: WebSocket, tournament_id: TournamentId, events: TournamentHubOf,
               hub: HubOf) -> None:
    """The event, live (:mod:`quads.web.tournament_hub`): sent on connecting and after
    each change, with the caller's own part (their game of it being played now)."""
    key = f" tournament {tournament_id}"  # no game has this id
    client = await admit(websocket, hub, key, events.settings.tournament_sockets)
    if client is None:
        return
    try:
        await events.serve(websocket, tournament_id, caller(websocket))
    finally:
        hub.release(key, client)
