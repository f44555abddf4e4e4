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
from quads.web.errors import ApiError
from quads.web.fields import DATE_PATTERN
from quads.web.identity import caller
from quads.web.openapi import refusals
from quads.web.puzzles import (
    ARCHIVE_DAYS,
    PuzzleCache,
    check,
    history_view,
    puzzle_date,
    puzzle_view,
)
from quads.web.schemas import (
    AdoptRequest,
    CheckRequest,
    PuzzleHistory,
    PuzzleView,
    ResultRequest,
    VerdictView,
)

__all__ = ["router"]

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])

_NO_PUZZLE = "No puzzle for this date yet (a date after today)"
_NO_DAY = "A date that does not exist, or a turn the rules forbid where it is played"

PuzzleDate = Annotated[str, Path(pattern=DATE_PATTERN, description="`YYYY-MM-DD`, or `today`")]
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


def _player(request: Request) -> str:
    player = caller(request)
    assert player is not None  # every API request has a caller
    return player


def _history(request: Request, days: int) -> PuzzleHistory:
    results = _store(request).results(_player(request))
    return history_view(results, _today(request), days)


@router.get("/history")
def get_history(request: Request, days: Days = ARCHIVE_DAYS) -> PuzzleHistory:
    """The caller's results and streak, and the archive of recent dates."""
    return _history(request, days)


@router.post("/adopt")
def adopt_results(request: Request, body: AdoptRequest) -> PuzzleHistory:
    """Take over the results that this browser stored under the id it made up itself
    (before the server knew its players), so that an old streak goes on."""
    _store(request).adopt_results(body.player, _player(request))
    return _history(request, ARCHIVE_DAYS)


@router.get("/{day}", responses=refusals(404, 422, s404=_NO_PUZZLE, s422=_NO_DAY))
def get_puzzle(request: Request, day: PuzzleDate) -> PuzzleView:
    """The puzzle of a date, without its solution."""
    today = _today(request)
    return puzzle_view(_cache(request).get(puzzle_date(day, today)), today)


@router.post("/{day}/check", responses=refusals(404, 422, s404=_NO_PUZZLE, s422=_NO_DAY))
def check_puzzle_turn(request: Request, day: PuzzleDate, body: CheckRequest) -> VerdictView:
    """Judge the player's next turn; answer the opponent's reply."""
    date = puzzle_date(day, _today(request))
    verdict = check(_cache(request).get(date), body.played, body.turn)
    if verdict.solved:
        _store(request).add_solve(_player(request), date)
    return verdict


@router.post("/{day}/result", status_code=201, responses=refusals(
    404, 409, 422, s404=_NO_PUZZLE, s422="A date that does not exist",
    s409="A result posted as solved that the caller's checked turns did not solve"))
def add_result(request: Request, day: PuzzleDate, body: ResultRequest) -> PuzzleHistory:
    """Store one attempt of the caller at a puzzle, solved or failed; answer their history.

    An attempt counts as solved only if the caller's checked turns (``check``)
    reached the goal of that date; otherwise ``solved: true`` is refused.
    """
    date = puzzle_date(day, _today(request))
    player = _player(request)
    if body.solved and not _store(request).has_solve(player, date):
        raise ApiError(409, "not_solved",
                       "your checked turns have not solved this puzzle: a result counts as "
                       "solved only after the winning turn was checked")
    _store(request).add_result(PuzzleResult(
        player=player, date=date, tries=body.tries, seconds=body.seconds,
        solved=body.solved, recorded=now(),
    ))
    return _history(request, ARCHIVE_DAYS)
