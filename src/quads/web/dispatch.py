"""Routes that run on the event loop.

A store call is a short transaction: on SQLite a fraction of a millisecond to a
few on a local file, on PostgreSQL a few round trips to the database server.
Handing it to a worker thread costs more than that: the thread and the event
loop take turns at Python's global lock, and each turn may wait for the other's
switch interval (5 ms), several times a request.  Under load those waits made
most of a move's latency, and on PostgreSQL the threads' extra connections
doubled the database's own work.  So the routes that only use the store and
quick library calls, and the live sockets, call the store directly on the event
loop.

The price: while the database does not answer, this process waits with it.
The engine bounds that wait (a connection attempt gives up after 5 s, and the
request then answers ``503``); a process without its database has nothing to
serve anyway.

The computer's turns, hints and puzzles think for long: their routes stay plain
functions, which FastAPI runs in its thread pool.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

__all__ = ["quick"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def quick(route: Callable[_P, _R]) -> Callable[_P, Awaitable[_R]]:
    """Make FastAPI run the plain function ``route`` on the event loop (it would run a
    plain function in its thread pool).  ``route`` keeps its signature, so its
    parameters and answer are read as before."""

    @functools.wraps(route)
    async def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        return route(*args, **kwargs)

    return run
