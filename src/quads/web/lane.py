"""The database lane: a few threads of their own that run every store call of the
event loop's routes, the identity middleware and the live sockets, so that the
event loop never waits for the database.

:meth:`DatabaseLane.run` hands a call to the lane and waits for it at most
``Settings.db_wait`` seconds.  Past that the caller is told
:class:`~quads.storage.StorageUnavailableError` (the API answers ``503
unavailable`` with ``Retry-After``), and the lane's *breaker* opens: every later
call is refused at once, without a thread, until a probe of its own reaches the
database again; then the lane closes the breaker by itself.  So a stopped
database costs each request at most one deadline, and stuck threads do not pile
up behind it.

A call that missed its deadline is not undone: a save that the database commits
after it is stored, although its caller was answered ``503``.  That is safe with
the API's revisions: the client that retries sends the revision it had, is told
``409 stale`` with the current one and reloads the game, which then shows its own
move.  A call that had not started when its deadline passed never starts.

Whoever was refused and must try again by itself (a live socket that could not
read a change) awaits :meth:`DatabaseLane.healed`: done once the breaker closes,
so that it neither gives up nor knocks on an open breaker.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from quads.storage import GameStore, StorageUnavailableError

__all__ = ["RETRY", "DatabaseLane", "lane_for", "lane_of"]

_P = ParamSpec("_P")
_R = TypeVar("_R")

_PROBE_PAUSE = 0.5
"""Seconds between two probes that failed at once."""

RETRY = 1.0
"""Seconds after which :meth:`DatabaseLane.try_again` has a call that failed with the
breaker closed (a database error that did not open it) tried again."""


class DatabaseLane:
    """``threads`` threads that run store calls, each awaited ``wait`` seconds at most.

    ``probe`` is a call that succeeds once the database answers again (e.g.
    :meth:`GameStore.ping <quads.storage.GameStore.ping>`); without one the breaker
    closes again after ``retry_after`` seconds.  Each thread runs ``initializer``
    first, if given.
    """

    def __init__(self, wait: float = 1.5, threads: int = 4,
                 probe: Callable[[], object] | None = None,
                 retry_after: int = 2, initializer: Callable[[], object] | None = None
                 ) -> None:
        self.wait = wait
        self.retry_after = retry_after
        self._probe = probe
        self._pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="quads-db",
                                        initializer=initializer)
        self._broken = threading.Event()
        self._lock = threading.Lock()
        self._healing: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        """The futures of :meth:`healed` to finish when the breaker closes."""
        self.trips = 0
        """How often the breaker opened (for the logs and the tests)."""
        self.refused = 0
        """How many calls were refused at once while it was open."""

    @property
    def broken(self) -> bool:
        """Whether the breaker is open: database work is refused at once."""
        return self._broken.is_set()

    async def run(self, call: Callable[_P, _R], /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        """``call(*args, **kwargs)`` in the lane, its answer or its exception.

        :raises StorageUnavailableError: while the breaker is open, or if the call
            does not end within the deadline (it may still end later).
        """
        if self._broken.is_set():
            self.refused += 1
            raise StorageUnavailableError("the database cannot be reached now")
        context = contextvars.copy_context()
        future = self._pool.submit(context.run, functools.partial(call, *args, **kwargs))
        try:
            async with asyncio.timeout(self.wait):
                return await asyncio.wrap_future(future)
        except TimeoutError:
            future.cancel()  # if it has not started, it never will
            self.trip()
            raise StorageUnavailableError(
                f"the database did not answer within {self.wait:g} s") from None
        except StorageUnavailableError:
            self.trip()
            raise

    def healed(self) -> asyncio.Future[None]:
        """A future of the running event loop, done once the breaker is closed: at once
        if it is, else when the probe reaches the database again."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if not self._broken.is_set():
                future.set_result(None)
                return future
            # Those whose waiter went (a socket closed meanwhile) are not kept.
            self._healing = [(owner, waiter) for owner, waiter in self._healing
                             if not waiter.done()]
            self._healing.append((loop, future))
        return future

    def try_again(self) -> asyncio.Future[None]:
        """A future done when a caller whose call failed should try it again: once the
        breaker closes if it is open (so that nothing knocks on it meanwhile), else
        after :data:`RETRY` seconds."""
        if self._broken.is_set():
            return self.healed()
        return asyncio.ensure_future(asyncio.sleep(RETRY))

    def _close_breaker(self) -> None:
        with self._lock:
            self._broken.clear()
            healing, self._healing = self._healing, []
        for loop, future in healing:
            with contextlib.suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(_finish, future)

    def trip(self) -> None:
        """Open the breaker (if it is closed) and start probing the database."""
        with self._lock:
            if self._broken.is_set():
                return
            self._broken.set()
            self.trips += 1
        threading.Thread(target=self._heal, name="quads-db-probe", daemon=True).start()

    def _heal(self) -> None:
        if self._probe is None:
            time.sleep(self.retry_after)
            self._close_breaker()
            return
        while True:
            try:
                self._probe()
            except Exception:
                time.sleep(_PROBE_PAUSE)
            else:
                self._close_breaker()
                return

    def close(self) -> None:
        """Let the lane's threads end once their calls have (without waiting)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def _finish(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


_LANES: weakref.WeakKeyDictionary[GameStore, DatabaseLane] = weakref.WeakKeyDictionary()


def lane_for(store: GameStore, lane: DatabaseLane | None = None) -> DatabaseLane:
    """The lane that runs ``store``'s calls: ``lane`` from now on if given, else the
    one given before, else a new one with the defaults."""
    if lane is not None:
        _LANES[store] = lane
        return lane
    found = _LANES.get(store)
    if found is None:
        found = _LANES[store] = DatabaseLane(probe=store.ping)
    return found


def lane_of(app: Any) -> DatabaseLane:
    """The lane of ``app`` (a Starlette app): ``app.state.lane``, made with the
    defaults on first use by an app that has none."""
    lane: DatabaseLane | None = getattr(app.state, "lane", None)
    if lane is None:
        lane = DatabaseLane()
        app.state.lane = lane
    return lane
