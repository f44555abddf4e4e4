"""The routes under ``/api/puzzles/``: the daily puzzle, checking a turn, and a
player's results (see ``docs/web-api.md``).

Like the game routes they are plain functions run in FastAPI's thread pool:
generating a puzzle (once per date) and judging a turn call the solver.  A
request that is refused stores nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from quads.storage import GameStore, PuzzleResult
from quads.storage.stored import now
from quads.web.puzzles import (
    ARCHIVE_DAYS,
    PuzzleCache,
    check,
    history_view,
    puzzle_date,
    puzzle_view,
)
from quads.web.schemas import (
    PLAYER_PATTERN,
    CheckRequest,
    ErrorView,
    PuzzleHistory,
    PuzzleView,
    ResultRequest,
    VerdictView,
)

__all__ = ["router"]

_ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorView, "description": description}
    for status, description in (
        (400, "The request, the date or a turn in it cannot be read"),
        (404, "No puzzle for this date yet (a date after today)"),
        (422, "A turn the rules forbid where it is played"),
    )
}

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"], responses=_ERRORS)

PuzzleDate = Annotated[str, Path(description="`YYYY-MM-DD`, or `today`")]
Player = Annotated[str, Query(pattern=PLAYER_PATTERN, description="The anonymous player id")]
Days = Annotated[int, Query(ge=1, le=366, description="How many dates the archive lists")]


def _today(request: Request) -> datetime.date:
    today: Callable[[], datetime.date] = request.app.state.today
    return today()


def _cache(request: Request) -> PuzzleCache:
    cache: PuzzleCache = request.app.state.puzzles
    return cache


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def _history(request: Request, player: str, days: int) -> PuzzleHistory:
    return history_view(player, _store(request).results(player), _today(request), days)


@router.get("/history")
def get_history(request: Request, player: Player, days: Days = ARCHIVE_DAYS) -> PuzzleHistory:
    """A player's results and streak, and the archive of recent dates."""
    return _history(request, player, days)


@router.get("/{day}")
def get_puzzle(request: Request, day: PuzzleDate) -> PuzzleView:
    """The puzzle of a date, without its solution."""
    today = _today(request)
    return puzzle_view(_cache(request).get(puzzle_date(day, today)), today)


@router.post("/{day}/check")
def check_puzzle_turn(request: Request, day: PuzzleDate, body: CheckRequest) -> VerdictView:
    """Judge the player's next turn; answer the opponent's reply."""
    puzzle = _cache(request).get(puzzle_date(day, _today(request)))
    return check(puzzle, body.played, body.turn)


@router.post("/{day}/result", status_code=201)
def add_result(request: Request, day: PuzzleDate, body: ResultRequest) -> PuzzleHistory:
    """Store one attempt at a puzzle, solved or failed; answer the player's history."""
    date = puzzle_date(day, _today(request))
    _store(request).add_result(PuzzleResult(
        player=body.player, date=date, tries=body.tries, seconds=body.seconds,
        solved=body.solved, recorded=now(),
    ))
    return _history(request, body.player, ARCHIVE_DAYS)
