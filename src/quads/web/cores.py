"""One core for the threads that take turns at Python's lock: the event loop and
the database lane's threads.

A request's store calls run in the database lane (:mod:`quads.web.lane`), so the
event loop and a lane thread pass Python's global lock back and forth several
times a request: at each hop, and at each database call (which lets go of the
lock while the database works).  Run on two cores, every pass wakes a thread on
the other core, and the objects of the request move from one core's cache to the
other's.  Measured with ``python bench/live.py --games 40`` on a two-core
virtual machine (three alternating runs each), a single server process spent
2.61 to 2.82 s of CPU on the benchmark's 894 actions with ``share_core = false``,
and 1.86 to 2.09 s with these threads kept on one core, while answering faster
(423 to 472 actions a second instead of 301 to 324).  They lose nothing by it:
only one of them runs Python at a time anyway.

The threads that think (the engine's lanes, puzzle warming) are the ones that use
the other cores: they leave the shared core (:func:`leave`) and may run anywhere.
Only one server process may keep its threads so: with several, each would pick
the same core.
"""

from __future__ import annotations

import contextlib
import os

__all__ = ["ALLOWED", "SHARED", "join", "leave"]

ALLOWED: frozenset[int] = frozenset(
    os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else ())
"""The cores this process may run on, as it started (empty where unknown)."""

SHARED: int | None = max(ALLOWED) if len(ALLOWED) > 1 else None
"""The core the event loop and the database lane share: the last of those allowed
(interrupts favour the first), or ``None`` with a single core or where threads
cannot be kept to one (not Linux)."""


def join() -> None:
    """Keep the calling thread on :data:`SHARED` (nothing where there is none)."""
    if SHARED is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {SHARED})


def leave() -> None:
    """Let the calling thread run on every core allowed to the process."""
    if SHARED is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, ALLOWED)
