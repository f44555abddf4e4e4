"""Routes whose work is store calls and quick library calls: they run in the
database lane (:mod:`quads.web.lane`), awaited with a deadline, so that a
database that does not answer holds neither the event loop nor the request for
more than ``Settings.db_wait`` (the request then answers ``503`` with
``Retry-After``).

Why a lane of its own and not FastAPI's thread pool: these routes once ran in
that pool and were then moved onto the event loop itself, because a thread hop costs a
store call more than the call (the thread and the event loop take turns at
Python's global lock, and each turn may wait for the other's switch interval of
5 ms), and the pool's forty threads opened as many database connections.  The
lane keeps the hop cheap: a few threads (``Settings.db_threads``, 4) instead of
forty, so no more database connections than threads; one submission to the
lane and one wake-up of the loop a request.  Measured on a shared two-core
machine (SQLite, 2,000 sequential ``GET /api/games/ID`` on one HTTP connection
to ``quads serve``, twice each): a median of 5.3 and 6.9 ms a request with the
store called on the event loop, 4.4 and 5.3 ms through the lane, so the hop is
lost in the noise of a request's own work.  What the lane buys is that a
stalled database costs a request at most the deadline, and the other requests,
the page and the live sockets' pings nothing.

The computer's turns, hints, reviews, puzzles and analyses think for long: their
routes are async, load and save through this lane and hand their thinking to the
engine's lanes (:mod:`quads.web.thinking`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar, cast

from starlette.requests import Request

from quads.web.lane import lane_of

__all__ = ["quick"]

_P = ParamSpec("_P")
_R = TypeVar("_R")

_REQUEST = "_quads_request"
"""The parameter by which the wrapper of a quick route is given the request."""


def quick(route: Callable[_P, _R]) -> Callable[_P, Awaitable[_R]]:
    """Make FastAPI run the plain function ``route`` in the app's database lane (it
    would run a plain function in its thread pool).  ``route`` keeps its signature,
    so its parameters and answer are read as before.

    :raises StorageUnavailableError: if the lane refuses or the deadline passes.
    """

    signature = inspect.signature(route)
    # FastAPI gives the request to one parameter only: the route's own ``request``
    # if it has one, else one added to the wrapper's signature.
    own = "request" in signature.parameters

    @functools.wraps(route)
    async def run(*args: Any, **kwargs: Any) -> _R:
        request: Request = kwargs["request"] if own else kwargs.pop(_REQUEST)
        return await lane_of(request.app).run(route, *args, **kwargs)

    if not own:
        extra = inspect.Parameter(_REQUEST, inspect.Parameter.KEYWORD_ONLY,
                                  annotation=Request)
        run.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*signature.parameters.values(), extra])
    return cast(Callable[_P, Awaitable[_R]], run)
