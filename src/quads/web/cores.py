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

Each server process :func:`claim`\\ s a core of its own: the last of the cores it
may use that no other Quads server process of the same user holds (a lock file
per core in the temporary folder, held while the process serves, let go when it
ends however it ends).  A process that finds every core held keeps its threads
nowhere.  The threads that think (the engine's lanes, puzzle warming) are the
ones that use the other cores: they :func:`leave` the claimed core.  Those that hash
passwords leave it for good (``aside``): a flood of sign-ins keeps them busy, and
on two cores they would otherwise take turns with the event loop on its own core.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import threading
from pathlib import Path
from typing import IO

__all__ = ["ALLOWED", "claim", "claimed", "join", "leave", "release"]

ALLOWED: frozenset[int] = frozenset(
    os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else ())
"""The cores this process may run on, as it started (empty where unknown)."""

_guard = threading.Lock()
_claim: tuple[int, IO[bytes]] | None = None
_holders = 0
"""How many claims of this process (apps served, each claiming once) hold the core."""


def _lock_path(core: int) -> Path:
    return Path(tempfile.gettempdir()) / f"quads-core-{os.getuid()}-{core}.lock"


def claim() -> int | None:
    """Claim a core for this process (the one it claimed already, if it has): the last
    allowed core that no other Quads server process holds; ``None`` with a single
    core, where threads cannot be kept to one (not Linux), or when every core is held.
    Each claim that got a core is given up by one :func:`release`."""
    global _claim, _holders
    with _guard:
        if _claim is not None:
            _holders += 1
            return _claim[0]
        if len(ALLOWED) < 2 or not hasattr(os, "sched_setaffinity"):
            return None
        for core in sorted(ALLOWED, reverse=True):  # interrupts favour the first cores
            try:
                lock = _lock_path(core).open("ab")
            except OSError:
                continue
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                lock.close()
                continue
            _claim, _holders = (core, lock), 1
            return core
        return None


def claimed() -> int | None:
    """The core this process claimed, if any."""
    claim_ = _claim
    return None if claim_ is None else claim_[0]


def release() -> None:
    """Give up one claim; with the last, the core (the threads kept on it stay there)."""
    global _claim, _holders
    with _guard:
        if _claim is not None:
            _holders -= 1
            if _holders <= 0:
                _claim[1].close()  # lets go of the lock
                _claim, _holders = None, 0


def join() -> None:
    """Keep the calling thread on the claimed core (nothing if none is)."""
    core = claimed()
    if core is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {core})


def leave(*, aside: bool = False) -> None:
    """Let the calling thread run on every core allowed to the process; ``aside``: on
    every one but the claimed core (if any is left), for work that must never take
    the event loop's core from it."""
    if len(ALLOWED) > 1 and hasattr(os, "sched_setaffinity"):
        core = claimed() if aside else None
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, ALLOWED - {core} or ALLOWED)
