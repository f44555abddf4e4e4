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

import asyncio
import datetime
import threading
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from quads.puzzles import Puzzle, line_solves, streak_of_newest
from quads.site.errors import SiteError
from quads.storage import GameStore, PuzzleResult
from quads.storage.stored import now
from quads.turn import Turn
from quads.web import cores, rates
from quads.web.dispatch import quick
from quads.web.fields import DATE_PATTERN
from quads.web.identity import acting, anonymous, caller
from quads.web.lane import lane_of
from quads.web.openapi import refusals
from quads.web.puzzles import (
    ARCHIVE_DAYS,
    PuzzleCache,
    ahead_dates,
    check,
    history_view,
    puzzle_date,
    puzzle_view,
    result_answer,
)
from quads.web.schemas import (
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
    assert player is not None  # every acting route has a caller
    return player


async def _puzzle(request: Request, date: datetime.date) -> Puzzle:
    """The puzzle of ``date``: at once if it is generated already, else generated in
    the engine's ``study`` lane."""
    cache = _cache(request)
    known = cache.known(date)
    if known is not None:
        return known
    return await thinking(request, "study", lambda: cache.get(date))


def _history(request: Request, days: int) -> PuzzleHistory:
    player = caller(request)
    results = _store(request).results(player) if player is not None else []
    return history_view(results, _today(request), days)


class PuzzleWarmer:
    """Generates the puzzles of coming dates in the background, one run at a time per
    process, each puzzle once (a worker thread; never on the event loop)."""

    def __init__(self, cache: PuzzleCache) -> None:
        self.cache = cache
        self.stopping = threading.Event()
        self._task: asyncio.Task[None] | None = None

    def warm(self, dates: list[datetime.date]) -> None:
        """Start generating ``dates`` unless a run is under way."""
        if self.stopping.is_set() or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(self._warm, dates))

    def _warm(self, dates: list[datetime.date]) -> None:
        cores.leave()  # generating puzzles is thinking: it may use every core
        self.cache.warm(dates, self.stopping)

    async def stop(self) -> None:
        """Stop after the puzzle being generated, and wait for it."""
        self.stopping.set()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)


@router.get("/ahead")
@anonymous
async def get_puzzles_ahead(request: Request) -> PuzzlesAhead:
    """The puzzles of today and the 14 days after it that are generated already; the
    others start being generated (``complete`` is false until they are)."""
    today = _today(request)
    cache = _cache(request)
    known = [(date, cache.known(date)) for date in ahead_dates(today)]
    missing = [date for date, puzzle in known if puzzle is None]
    if missing:
        warmer: PuzzleWarmer = request.app.state.puzzle_warmer
        warmer.warm(missing)
    return PuzzlesAhead(today=today, complete=not missing,
                        puzzles=[puzzle_view(puzzle, today) for _, puzzle in known if puzzle])


@router.get("/history")
@quick
def get_history(request: Request, days: Days = ARCHIVE_DAYS) -> PuzzleHistory:
    """The caller's results and streak, and the archive of recent dates."""
    return _history(request, days)


@router.post("/adopt")
@acting
@quick
def adopt_results(request: Request, body: AdoptRequest) -> PuzzleHistory:
    """Take over the results that this browser stored under the id it made up itself
    (before the server knew its players), so that an old streak goes on."""
    _store(request).adopt_results(body.player, _player(request))
    return _history(request, ARCHIVE_DAYS)


@router.get("/{day}", responses=refusals(404, 422, 429, s404=_NO_PUZZLE, s422=_NO_DAY))
@anonymous
async def get_puzzle(request: Request, day: PuzzleDate) -> PuzzleView:
    """The puzzle of a date, without its solution."""
    today = _today(request)
    return puzzle_view(await _puzzle(request, puzzle_date(day, today)), today)


@router.post("/{day}/check",
             responses=refusals(404, 422, 429, s404=_NO_PUZZLE, s422=_NO_DAY))
@acting
async def check_puzzle_turn(request: Request, day: PuzzleDate,
                            body: CheckRequest) -> VerdictView:
    """Judge the player's next turn; answer the opponent's reply."""
    rates.charge(request, "puzzles")
    date = puzzle_date(day, _today(request))
    puzzle = await _puzzle(request, date)
    verdict = await thinking(request, "play", lambda: check(puzzle, body.played, body.turn))
    if verdict.solved:
        await lane_of(request.app).run(_store(request).add_solve, _player(request), date)
    return verdict


@router.post("/{day}/result", status_code=201, responses=refusals(
    404, 409, 422, 429, s404=_NO_PUZZLE,
    s422="A date that does not exist, or a `line` with a turn the rules forbid where it is "
         "played",
    s409="A result posted as solved that the caller's checked turns, or the `line` it "
         "carries, did not solve"))
@acting
async def add_result(request: Request, day: PuzzleDate,
                     body: ResultRequest) -> PuzzleResultAnswer:
    """Store one attempt of the caller at a puzzle, solved or failed; answer what it
    changed: that date's entry, the streak and the dates solved.

    An attempt counts as solved only if the caller's checked turns (``check``) reached
    the goal of that date, or if the ``line`` it carries (played without the server)
    forces the win within the goal, turn by turn; otherwise ``solved: true`` is
    refused.  An attempt sent again under the same ``attempt`` id is stored once.
    """
    rates.charge(request, "puzzles")
    date = puzzle_date(day, _today(request))
    proven = False
    if body.solved and body.line is not None:
        puzzle = await _puzzle(request, date)
        line = [Turn.parse(token) for token in body.line]
        proven = await thinking(request, "play", lambda: line_solves(puzzle, line))
        if not proven:
            raise _not_solved("the line played does not force the win within the goal")
    return await lane_of(request.app).run(_add_result, request, date, body, proven)


def _not_solved(message: str) -> SiteError:
    return SiteError("not_solved", message)


def _add_result(request: Request, date: datetime.date, body: ResultRequest,
                proven: bool) -> PuzzleResultAnswer:
    """Store the attempt (``proven``: its line solved the puzzle, now also counted)."""
    store = _store(request)
    player = _player(request)
    if body.attempt is not None:
        known = store.result_of(player, body.attempt)
        if known is not None:
            return _answer(store, player, known.date, known, _today(request))
    if body.solved and not proven and not store.has_solve(player, date):
        raise _not_solved("your checked turns have not solved this puzzle: a result counts "
                          "as solved only after the winning turn was checked")
    stored = PuzzleResult(player=player, date=date, tries=body.tries, seconds=body.seconds,
                          solved=body.solved, recorded=now(), attempt=body.attempt)
    if not store.add_result(stored, solve=proven):
        # The same attempt, stored meanwhile by a request sent twice at once.
        known = store.result_of(player, body.attempt or "")
        assert known is not None
        stored = known
    return _answer(store, player, date, stored, _today(request))


def _answer(store: GameStore, player: str, date: datetime.date, stored: PuzzleResult,
            today: datetime.date) -> PuzzleResultAnswer:
    """What storing ``stored`` changed; only what the answer needs is read, never the
    player's whole history."""
    attempts, first_solve = store.puzzle_day(player, date)
    return result_answer(stored, today, solved=store.solved_count(player),
                         streak=streak_of_newest(store.solved_dates(player, today), today),
                         attempts=attempts, first_solve=first_solve)
