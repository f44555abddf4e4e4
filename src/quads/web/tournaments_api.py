"""Tournaments: ``POST /api/tournaments`` makes an arena, ``GET /api/tournaments``
lists the events, ``GET /api/tournaments/{id}`` gives one with its standings and
games, ``POST /api/tournaments/{id}/join`` and ``/withdraw`` enter and pause
(:mod:`quads.site.tournaments`).  The server's tournaments' keeper
(:mod:`quads.web.tournament_keeper`) starts, pairs and ends them.  Making one is
counted per account and per address (``rate_tournaments``), joining and withdrawing
as joins (``rate_joins``)."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Annotated

from fastapi import APIRouter, Path, Request

from quads.site.accounts.rated import account_name
from quads.site.errors import SiteError
from quads.site.tournaments import service
from quads.storage import GameStore
from quads.storage.stored import now
from quads.storage.tournaments import Tournament
from quads.web.dispatch import quick
from quads.web.middleware import rates
from quads.web.openapi import refusals
from quads.web.schemas.tournaments import (
    ArenaRequest,
    EventGameView,
    StandingView,
    TournamentList,
    TournamentSummary,
    TournamentView,
)
from quads.web.wiring import CallerOf, StoreOf

__all__ = ["router"]

router = APIRouter(prefix="/api")

TournamentId = Annotated[str, Path(description="The tournament's id",
                                   pattern=r"^[A-Za-z0-9_-]{1,32}$")]

LISTED = 50
"""Events of each status listed at most."""
GAMES_SHOWN = 100
"""Games of one event shown at most, the latest."""

S403 = "`account_needed`: tournaments are for accounts; `not_enough_rated_games`"


def _summary(event: Tournament, players: int) -> TournamentSummary:
    return TournamentSummary(
        id=event.id, kind=event.kind, name=event.name, rules=event.rules, clock=event.clock,
        rated=event.rated, min_rated=event.min_rated, starts=event.starts,
        ends=event.starts + timedelta(minutes=event.minutes), status=event.status,
        players=players,
        by_site=event.creator is None)


def _view(store: GameStore, tournament_id: str, caller: str | None) -> TournamentView:
    event = store.tournament(tournament_id)
    if event is None:
        raise SiteError("not_found", f"no tournament with id {tournament_id!r}")
    entries = store.entries(tournament_id)
    names = {entry.player: account_name(store, entry.player) or "?" for entry in entries}
    every = store.event_games(tournament_id)
    table = service.ranked(entries, every)
    games = every[-GAMES_SHOWN:]
    return TournamentView(
        **_summary(event, len(entries)).model_dump(),
        standings=[StandingView(rank=s.rank, name=names[s.player], points=s.points,
                                sheet=list(s.sheet), on_fire=s.on_fire, games=s.games,
                                performance=s.performance, rating=s.rating, paused=s.paused,
                                you=s.player == caller) for s in table],
        games=[EventGameView(id=g.game, first=names.get(g.first, "?"),
                             second=names.get(g.second, "?"), result=g.result)
               for g in reversed(games)],
        joined=any(e.player == caller and e.active for e in entries))


@router.post("/tournaments", status_code=201, tags=["tournaments"],
             responses=refusals(403, 422, 429, s403=S403,
                                s422="`invalid_clock`, `invalid_tournament`, `cannot_be_rated`"))
@quick
def create(request: Request, body: ArenaRequest, store: StoreOf,
           player: CallerOf) -> TournamentView:
    """Make an arena (an account only): it starts at `starts` (now if not given) and
    runs for `minutes`; players who are free are paired at once, and the most points
    win (2 a win, 1 a draw, doubled after two wins in a row)."""
    rates.charge(request, "tournaments")
    at = now()
    starts = body.starts or at
    if starts.tzinfo is None:
        starts = starts.replace(tzinfo=UTC)  # a moment without a zone is UTC
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
    return TournamentList(**{status: [_summary(e, counts.get(e.id, 0)) for e in listed]
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
