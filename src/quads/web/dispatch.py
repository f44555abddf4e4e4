"""Where the store is called: on the event loop for SQLite, in a worker thread for
PostgreSQL.

A SQLite call is a short transaction on a local file (a fraction of a
millisecond to a few).  Handing it to a worker thread costs more than that: the
thread and the event loop take turns at Python's global lock, and each turn may
wait for the other's switch interval (5 ms), several times a request.  Under
load those waits made most of a move's latency.  So with SQLite the quick
routes and the live sockets call the store directly, on the event loop.

A PostgreSQL call goes over the network and may wait for the server, a row
lock or a reconnection: it runs in a worker thread, so that a slow database
never holds up the sockets of other games.

The computer's turns, hints and puzzles think for long: their routes stay plain
functions, which FastAPI always runs in its thread pool.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from quads.storage import GameStore

__all__ = ["call_store", "quick"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


async def call_store(store: GameStore, function: Callable[_P, _R],
                     *args: _P.args, **kwargs: _P.kwargs) -> _R:
    """``function(*args, **kwargs)``, a call of ``store``: at once on a SQLite store, in a
    worker thread on PostgreSQL."""
    if store.local:
        return function(*args, **kwargs)
    return await run_in_threadpool(function, *args, **kwargs)


def quick(route: Callable[_P, _R]) -> Callable[_P, Awaitable[_R]]:
    """Make the plain function ``route`` (which takes ``request`` by keyword, as FastAPI
    passes it, and only uses the store and quick library calls) run where
    :func:`call_store` runs store calls."""

    @functools.wraps(route)
    async def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        request = kwargs["request"]
        assert isinstance(request, Request)
        return await call_store(request.app.state.store, route, *args, **kwargs)

    return run
