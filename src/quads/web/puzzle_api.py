"""The routes under ``/api/puzzles/``: the daily puzzle, checking a turn, and a
player's results (see ``docs/web-api.md``).

Generating a puzzle (once per date, 0.1 to 3 seconds) and judging a turn call
the solver: those routes are coroutines that hand the generation to the
engine's ``study`` lane and the check to its ``play`` lane
(:mod:`quads.web.thinking`), and a puzzle generated already is served at once.
The other routes only use the store: they run in the database lane
(:func:`~quads.web.dispatch.quick`).  A request that is refused stores nothing.
"""

from __future__ import annotations

import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from quads.puzzles import Puzzle, line_solves
from quads.site.errors import SiteError
from quads.site.puzzles.days import ARCHIVE_DAYS, PuzzleCache, ahead_dates, puzzle_date
from quads.site.puzzles.results import Attempt, PuzzleResults
from quads.turn import Turn
from quads.web.dispatch import quick
from quads.web.fields import DATE_PATTERN
from quads.web.lane import lane_of
from quads.web.middleware import rates
from quads.web.middleware.identity import acting, anonymous
from quads.web.openapi import refusals
from quads.web.puzzle_views import check, history_view, puzzle_view, result_answer
from quads.web.schemas.puzzles import (
    AdoptRequest,
    CheckRequest,
    PuzzleHistory,
    PuzzleResultAnswer,
    PuzzlesAhead,
    PuzzleView,
    ResultRequest,
    VerdictView,
)
from quads.web.thinking import thinking
from quads.web.wiring import CallerOf, PuzzleCacheOf, PuzzleResultsOf, PuzzleWarmerOf, TodayOf

__all__ = ["router"]

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])

_NO_PUZZLE = "No puzzle for this date yet (a date after today)"
_NO_DAY = "A date that does not exist, or a turn the rules forbid where it is played"

PuzzleDate = Annotated[str, Path(pattern=DATE_PATTERN, description="`YYYY-MM-DD`, or `today`")]
Days = Annotated[int, Query(ge=1, le=366, description="How many dates the archive lists")]


def _player(player: str | None) -> str:
    assert player is not None  # every acting route has a caller
    return player


async def _puzzle(request: Request, cache: PuzzleCache, date: datetime.date) -> Puzzle:
    """The puzzle of ``date``: at once if it is generated already, else generated in
    the engine's ``study`` lane."""
    known = cache.known(date)
    if known is not None:
        return known
    return await thinking(request, "study", lambda: cache.get(date))


def _history(results: PuzzleResults, player: str | None, today: datetime.date,
             days: int) -> PuzzleHistory:
    return history_view(results.results(player), today, days)


@router.get("/ahead")
@anonymous
async def get_puzzles_ahead(today: TodayOf, cache: PuzzleCacheOf,
                            warmer: PuzzleWarmerOf) -> PuzzlesAhead:
    """The puzzles of today and the 14 days after it that are generated already; the
    others start being generated (``complete`` is false until they are)."""
    known = [(date, cache.known(date)) for date in ahead_dates(today)]
    missing = [date for date, puzzle in known if puzzle is None]
    if missing:
        warmer.warm(missing)
    return PuzzlesAhead(today=today, complete=not missing,
                        puzzles=[puzzle_view(puzzle, today) for _, puzzle in known if puzzle])


@router.get("/history")
@quick
def get_history(results: PuzzleResultsOf, player: CallerOf, today: TodayOf,
                days: Days = ARCHIVE_DAYS) -> PuzzleHistory:
    """The caller's results and streak, and the archive of recent dates."""
    return _history(results, player, today, days)


@router.post("/adopt")
@acting
@quick
def adopt_results(body: AdoptRequest, results: PuzzleResultsOf, player: CallerOf,
                  today: TodayOf) -> PuzzleHistory:
    """Take over the results that this browser stored under the id it made up itself
    (before the server knew its players), so that an old streak goes on."""
    results.adopt(body.player, _player(player))
    return _history(results, player, today, ARCHIVE_DAYS)


@router.get("/{day}", responses=refusals(404, 422, 429, s404=_NO_PUZZLE, s422=_NO_DAY))
@anonymous
async def get_puzzle(request: Request, day: PuzzleDate, today: TodayOf,
                     cache: PuzzleCacheOf) -> PuzzleView:
    """The puzzle of a date, without its solution."""
    return puzzle_view(await _puzzle(request, cache, puzzle_date(day, today)), today)


@router.post("/{day}/check",
             responses=refusals(404, 422, 429, s404=_NO_PUZZLE, s422=_NO_DAY))
@acting
async def check_puzzle_turn(request: Request, day: PuzzleDate, body: CheckRequest,
                            today: TodayOf, cache: PuzzleCacheOf, results: PuzzleResultsOf,
                            player: CallerOf) -> VerdictView:
    """Judge the player's next turn; answer the opponent's reply."""
    rates.charge(request, "puzzles")
    date = puzzle_date(day, today)
    puzzle = await _puzzle(request, cache, date)
    verdict = await thinking(request, "play", lambda: check(puzzle, body.played, body.turn))
    if verdict.solved:
        await lane_of(request.app).run(results.solved, _player(player), date)
    return verdict


@router.post("/{day}/result", status_code=201, responses=refusals(
    404, 409, 422, 429, s404=_NO_PUZZLE,
    s422="A date that does not exist, or a `line` with a turn the rules forbid where it is "
         "played",
    s409="A result posted as solved that the caller's checked turns, or the `line` it "
         "carries, did not solve"))
@acting
async def add_result(request: Request, day: PuzzleDate, body: ResultRequest, today: TodayOf,
                     cache: PuzzleCacheOf, results: PuzzleResultsOf,
                     player: CallerOf) -> PuzzleResultAnswer:
    """Store one attempt of the caller at a puzzle, solved or failed; answer what it
    changed: that date's entry, the streak and the dates solved.

    An attempt counts as solved only if the caller's checked turns (``check``) reached
    the goal of that date, or if the ``line`` it carries (played without the server)
    forces the win within the goal, turn by turn; otherwise ``solved: true`` is
    refused.  An attempt sent again under the same ``attempt`` id is stored once.
    """
    rates.charge(request, "puzzles")
    date = puzzle_date(day, today)
    proven = False
    if body.solved and body.line is not None:
        puzzle = await _puzzle(request, cache, date)
        line = [Turn.parse(token) for token in body.line]
        proven = await thinking(request, "play", lambda: line_solves(puzzle, line))
        if not proven:
            raise SiteError("not_solved", "the line played does not force the win within "
                            "the goal")
    attempt = Attempt(body.tries, body.seconds, body.solved, body.attempt)
    recorded = await lane_of(request.app).run(results.record, _player(player), date, attempt,
                                              proven=proven, today=today)
    return result_answer(recorded, today)
