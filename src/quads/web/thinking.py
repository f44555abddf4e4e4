"""The engine's work for the web: every analysis, hint, review, puzzle check and
computer move goes through :class:`Thinking`, bounded and shared fairly.

Work is queued in one of two *lanes*, each with its own threads:

- ``play``: computer moves, hints and puzzle checks, which a player waits for
  at the board (a second at most each);
- ``study``: analyses, reviews and the puzzles of dates not asked before, which
  may think for seconds each.

A computer move therefore never waits behind analyses, however many are
queued.  Each lane holds at most ``settings.engine_queue`` jobs (waiting or
running, all clients together), ``settings.engine_per_client`` of one player
(callers without an identity share one such allowance per address), and
``settings.engine_per_address`` of one client address
(:func:`~quads.web.settings.client_address`): the players of a room behind one
address each have their own share, while a player id, which costs nothing to
make anew, buys no more than the address's budget.  A job over any of them is
refused at once with ``429 engine_busy`` and a ``Retry-After`` estimated from the
lane's recent jobs.  Waiting jobs are served round robin over addresses, one job
of each in turn, so one address's backlog never comes before another's first
job.

Threads and not processes: the compiled kernel releases Python's global lock
for its whole search, and the Python code around it (root groups, the
answer) is a few milliseconds of a search of seconds.  Measured on two cores
with two three-second analyses running in threads, a millisecond of Python on
another thread took 1.15 ms at the median and 1.54 ms at p95, as without them.
What the threads do take is the cores: the study lane's threads run at a
lower priority (``settings.engine_study_nice``, Linux only; the solver's own
threads inherit it), so the event loop and the play lane get the processor
first while analyses flood.  Measured roughly on two cores with 48 addresses
looping on analyses beyond the book: a player's ``GET`` of a game took 32 ms
and a computer move 15 ms, where FastAPI's shared pool of 40 threads took
1.2 s for the ``GET`` alone.

Routes await the job's future (:meth:`Thinking.run`): the event loop never
waits for the engine, and a request whose client went away gives its place up
before its job starts.  Threads are started on demand and end after some idle
seconds, so an app that never thinks holds none.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from quads.game import Game
from quads.review import TurnReview, review
from quads.site.errors import SiteError
from quads.web import cores
from quads.web.analysis_cache import AnalysisCache
from quads.web.errors import error_response, status_of
from quads.web.middleware.identity import caller
from quads.web.reviews import ReviewCache
from quads.web.settings import Settings, client_address

__all__ = ["LANES", "EngineBusyError", "Lane", "LaneName", "Thinking", "busy_response",
           "install", "reviewed", "thinking"]

_T = TypeVar("_T")
_K = TypeVar("_K")

LaneName = Literal["play", "study", "accounts"]

LANES: tuple[LaneName, ...] = ("play", "study")
"""The engine's lanes: ``play`` for the work a player waits for at the board, ``study``
for the long work.  (A third, ``accounts``, hashes passwords: see :class:`Thinking`.)"""

_TYPICAL_SECONDS: dict[LaneName, float] = {"play": 1.0, "study": 3.0, "accounts": 0.1}
"""What a job of each lane takes before any has been measured."""

IDLE_SECONDS = 10.0
"""A lane's thread ends after this long without a job."""


class EngineBusyError(SiteError):
    """``429 engine_busy`` (``429 busy`` in the ``accounts`` lane): the client's share or
    the lane is full; try again after :attr:`retry_after` seconds."""

    def __init__(self, message: str, retry_after: int, code: str = "engine_busy") -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


@dataclass(eq=False)
class _Job:
    client: str
    player: str
    """The player whose share it takes (``""``: the address's callers without one)."""
    work: Callable[[], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    started: bool = False


@dataclass
class _Counters:
    run: int = 0
    refused: int = 0
    abandoned: int = 0
    seconds: float = 0.0


@dataclass(eq=False)
class Lane:
    """One lane: its queue (round robin over client addresses), up to ``threads``
    threads (started on demand, at ``nice`` below the server's priority), and its
    counts.  It holds ``capacity`` jobs at most, ``per_client`` of one player and
    ``per_address`` of one address (``0``: as many as ``per_client``).

    ``share`` is the part of one core that each thread may take (``1.0``: all it
    gets): after a job that took ``t`` seconds of the thread's processor time, the
    thread rests ``t * (1 / share - 1)`` seconds before its next job.  A flood of work
    then costs the machine at most ``threads * share`` cores, and waits longer in
    the queue (whose bound refuses the rest) instead."""

    name: LaneName
    threads: int
    capacity: int
    per_client: int
    nice: int = 0
    per_address: int = 0
    share: float = 1.0
    _lock: threading.Condition = field(default_factory=threading.Condition)
    _waiting: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    _held: dict[str, int] = field(default_factory=dict)
    """Jobs of each address."""
    _held_players: dict[tuple[str, str], int] = field(default_factory=dict)
    """Jobs of each player (by address and player: ``""`` for none)."""
    _total: int = 0
    _workers: int = 0
    _idle: int = 0
    _closed: bool = False
    _mean: float = 0.0
    counters: _Counters = field(default_factory=_Counters)

    def __post_init__(self) -> None:
        self._mean = _TYPICAL_SECONDS[self.name]

    # ---- on the event loop ------------------------------------------------------

    def submit(self, client: str, work: Callable[[], Any],
               player: str | None = None) -> asyncio.Future[Any]:
        """Queue ``work`` for ``player`` (``None``: a caller without an identity) at
        the address ``client``; its future settles with its answer.

        :raises EngineBusyError: if the lane, the player's share or the address's
            budget is full.
        """
        who = player or ""
        loop = asyncio.get_running_loop()
        with self._lock:
            refusal = self._refusal(client, who)
            if refusal is not None:
                raise refusal
            job = _Job(client, who, work, loop, loop.create_future())
            self._held_players[(client, who)] = self._held_players.get((client, who), 0) + 1
            self._held[client] = self._held.get(client, 0) + 1
            self._total += 1
            self._waiting.setdefault(client, deque()).append(job)
            if self._idle == 0 and self._workers < self.threads:
                self._workers += 1
                threading.Thread(target=self._serve, name=f"quads-{self.name}",
                                 daemon=True).start()
            else:
                self._lock.notify()
        job.future.add_done_callback(lambda _: self._forget(job))
        return job.future

    def refusal(self, client: str) -> EngineBusyError | None:
        """What :meth:`submit` would answer a new job of the address ``client`` right
        now if the lane or the address's budget is full (counted as refused), else
        ``None``; nothing is queued.  An edge that refuses before a request costs
        anything asks this (:mod:`quads.web.middleware.gate`)."""
        with self._lock:
            return self._refusal(client, None)

    def _refusal(self, client: str, who: str | None) -> EngineBusyError | None:
        """Under the lock: the refusal of a job of ``who`` (``None``: leave the
        player's share out) at ``client``, counted, or ``None``."""
        code, what = (("busy", "account") if self.name == "accounts"
                      else ("engine_busy", "engine"))
        if self._closed:
            return EngineBusyError("the server is shutting down", 5, code)
        refusal = None
        per_address = max(self.per_address, self.per_client)
        mine = 0 if who is None else self._held_players.get((client, who), 0)
        held = self._held.get(client, 0)
        if self._total >= self.capacity:
            refusal = EngineBusyError(
                f"the {what} lane is busy: {self._total} jobs wait or run; try again soon",
                self._retry_after(self._total), code)
        elif mine >= self.per_client:
            refusal = EngineBusyError(
                f"{mine} of your {what} jobs wait or run already (at most "
                f"{self.per_client}); try again when they are answered",
                self._retry_after(mine), code)
        elif held >= per_address:
            refusal = EngineBusyError(
                f"{held} {what} jobs of your address wait or run already (at most "
                f"{per_address}); try again when they are answered",
                self._retry_after(held), code)
        if refusal is not None:
            self.counters.refused += 1
        return refusal

    def _retry_after(self, jobs: int) -> int:
        each = self._mean / self.share  # a job and the rest after it
        return max(1, math.ceil(each * max(1.0, jobs / max(1, self.threads))))

    def _forget(self, job: _Job) -> None:
        """A waiting job whose request went away gives its place up."""
        if not job.future.cancelled():
            return
        with self._lock:
            if job.started:
                return
            jobs = self._waiting.get(job.client)
            if jobs is None or job not in jobs:
                return
            jobs.remove(job)
            if not jobs:
                del self._waiting[job.client]
            self._release(job)
            self.counters.abandoned += 1

    def _release(self, job: _Job) -> None:
        _count_down(self._held, job.client)
        _count_down(self._held_players, (job.client, job.player))
        self._total -= 1

    # ---- on the lane's threads ----------------------------------------------------

    def _next(self) -> _Job | None:
        """The next job, round robin over clients; ``None`` after idle seconds."""
        with self._lock:
            while not self._waiting:
                if self._closed:
                    self._workers -= 1
                    return None
                self._idle += 1
                woke = self._lock.wait(IDLE_SECONDS)
                self._idle -= 1
                if not woke and not self._waiting:
                    self._workers -= 1
                    return None
            client, jobs = next(iter(self._waiting.items()))
            job = jobs.popleft()
            if jobs:
                self._waiting.move_to_end(client)
            else:
                del self._waiting[client]
            job.started = True
            return job

    def _serve(self) -> None:
        # Started by the event loop: thinking may use every core; hashing passwords,
        # which a flood of sign-ins asks for, never the event loop's.
        cores.leave(aside=self.name == "accounts")
        if self.nice:
            with contextlib.suppress(AttributeError, OSError):  # Linux only
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        while (job := self._next()) is not None:
            began, used = time.monotonic(), time.thread_time()
            try:
                answer, error = job.work(), None
            except BaseException as exc:  # handed to the request that waits for it
                answer, error = None, exc
            took, used = time.monotonic() - began, time.thread_time() - used
            with self._lock:
                self._release(job)
                self.counters.run += 1
                self.counters.seconds += took
                self._mean = 0.8 * self._mean + 0.2 * took
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits now
                job.loop.call_soon_threadsafe(_settle, job.future, answer, error)
            if self.share < 1.0:
                time.sleep(used * (1.0 / self.share - 1.0))

    # ---- anywhere -------------------------------------------------------------------

    def close(self) -> None:
        """Refuse new jobs and let the threads end once the jobs queued are done."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    def stats(self) -> dict[str, Any]:
        """What the lane holds and has done."""
        with self._lock:
            return {"threads": self._workers, "queued": self._total,
                    "clients": len(self._held), "run": self.counters.run,
                    "refused": self.counters.refused, "abandoned": self.counters.abandoned,
                    "seconds": round(self.counters.seconds, 3)}


def _count_down(counts: dict[_K, int], key: _K) -> None:
    """One less of ``key`` in ``counts``, which keeps no key at 0."""
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]


def _settle(future: asyncio.Future[Any], answer: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(answer)


class Thinking:
    """The lanes of one app (``app.state.thinking``), sized by ``settings``, and its
    caches: of analyses (:attr:`analyses`, ``settings.engine_cache`` entries) and of
    reviews (:attr:`reviews`, a sixteenth as many).

    Beside the engine's lanes, an ``accounts`` lane hashes and verifies passwords
    (``settings.account_*``): a hash is tens of milliseconds of a core, so a flood of
    sign-ins is a flood of work like analyses, bounded the same way, at a lower
    priority than the event loop, so that other players' moves keep their pace."""

    def __init__(self, settings: Settings) -> None:
        threads = settings.engine_threads or os.cpu_count() or 1
        self.analyses = AnalysisCache(settings.engine_cache)
        self.reviews = ReviewCache(settings.engine_cache // 16)
        self.lanes: dict[LaneName, Lane] = {
            name: Lane(name, threads, settings.engine_queue, settings.engine_per_client,
                       nice=settings.engine_study_nice if name == "study" else 0,
                       per_address=settings.engine_per_address)
            for name in LANES}
        self.lanes["accounts"] = Lane(
            "accounts", settings.account_threads, settings.account_queue, 1,
            nice=settings.account_nice, per_address=settings.account_per_address,
            share=settings.account_share)

    async def run(self, lane: LaneName, client: str, work: Callable[[], _T],
                  player: str | None = None) -> _T:
        """``work()`` on a thread of ``lane`` for ``player`` at the address ``client``,
        awaited.

        :raises EngineBusyError: at once, if the lane, the player's share or the
            address's budget is full.
        """
        answer: _T = await self.lanes[lane].submit(client, work, player)
        return answer

    def stats(self) -> dict[str, dict[str, Any]]:
        """Each lane's counts (threads, jobs queued and clients holding them, jobs run,
        refused and abandoned, seconds of thinking) and the cache's (``analyses``:
        entries, hits, misses)."""
        counts: dict[str, dict[str, Any]] = {name: lane.stats()
                                             for name, lane in self.lanes.items()}
        counts["analyses"] = dict(self.analyses.stats())
        counts["reviews"] = {"entries": len(self.reviews)}
        return counts


async def thinking(connection: HTTPConnection, lane: LaneName, work: Callable[[], _T]) -> _T:
    """``work()`` on ``lane`` of the app's :class:`Thinking`, counted against the
    calling player and the request's client address.

    :raises EngineBusyError: ``429 engine_busy`` if the lane, the player's share or the
        address's budget is full.
    """
    engine: Thinking = connection.app.state.thinking
    return await engine.run(lane, client_address(connection.scope), work, caller(connection))


async def reviewed(connection: HTTPConnection, game: Game, seconds: float) -> list[TurnReview]:
    """The review of ``game`` (each position searched for at most ``seconds``): from
    the app's cache, else made in the ``study`` lane and remembered.

    :raises EngineBusyError: ``429 engine_busy`` if the lane or the caller's share is full.
    """
    engine: Thinking = connection.app.state.thinking
    known = engine.reviews.get(game)
    if known is not None:
        return known

    def work() -> list[TurnReview]:
        turns = review(game, seconds=seconds)
        engine.reviews.put(game, turns)
        return turns

    return await thinking(connection, "study", work)


def busy_response(exc: EngineBusyError) -> JSONResponse:
    """The ``429`` answer of ``exc``, with ``Retry-After``."""
    response = error_response(status_of(exc), exc.code, exc.message)
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _busy(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EngineBusyError)
    return busy_response(exc)


def install(app: FastAPI, settings: Settings) -> Thinking:
    """Give ``app`` its :class:`Thinking` (``app.state.thinking``) and answer
    :class:`EngineBusyError` as ``429`` with ``Retry-After``."""
    engine = Thinking(settings)
    app.state.thinking = engine
    app.add_exception_handler(EngineBusyError, _busy)
    return engine
