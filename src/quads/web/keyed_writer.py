"""Writes that must not be lost to an outage: the newest value of each key, written in a
thread of its own and tried again until the database takes it.

The live hub tells the store what it sees as it happens: who has a game open on
this process (:mod:`quads.web.notify`), since when a seat holder is away (an
abandonment is claimed by that).  Each such fact replaces the one before for the
same game and player, and none may be dropped because the database was away when
it happened: a player who came back during an outage would stay away in the
store, and could lose the game to a claim.  :class:`KeyedWriter` keeps the newest
value of each key until it is written; a write refused by the store
(:class:`~quads.storage.StorageError`) is tried again every :data:`PAUSE` seconds,
unless a newer value of its key replaces it first.  The writes of different keys
keep the order in which their keys were last given a value.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from quads.storage import StorageError

__all__ = ["PAUSE", "KeyedWriter"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

PAUSE = 1.0
"""Seconds between two tries of writes that the store refused."""

_log = logging.getLogger(__name__)


class KeyedWriter(Generic[K, V]):
    """Call ``write(key, value)`` for the newest value given to each key, in a thread
    named ``name`` (which first runs ``initializer``, if given), until it succeeds."""

    def __init__(self, write: Callable[[K, V], None], name: str,
                 initializer: Callable[[], object] | None = None,
                 pause: float = PAUSE) -> None:
        self._write = write
        self._initializer = initializer
        self._pause = pause
        self._pending: dict[K, V] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closed = False
        self._deadline = 0.0
        self._failing = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, key: K, value: V) -> None:
        """Have ``value`` written for ``key``, replacing a value not yet written."""
        with self._lock:
            self._pending.pop(key, None)  # to the end: the order of the latest news
            self._pending[key] = value
        self._wake.set()

    def pending(self) -> int:
        """How many keys have a value not yet written."""
        with self._lock:
            return len(self._pending)

    def close(self, wait: float = 5.0) -> None:
        """Write what is pending (trying for ``wait`` seconds at most), then stop."""
        self._deadline = time.monotonic() + wait
        self._closed = True
        self._wake.set()
        self._thread.join(timeout=wait + self._pause)

    def _run(self) -> None:
        if self._initializer is not None:
            self._initializer()
        while True:
            self._wake.wait(self._pause if self._failing else None)
            self._wake.clear()
            with self._lock:
                batch = list(self._pending.items())
            self._failing = False
            for key, value in batch:
                try:
                    self._write(key, value)
                except StorageError as exc:
                    if not self._failing:
                        _log.warning("quads: a write waits for the database (%s)", exc)
                    self._failing = True
                    break  # the rest after it, in order, once the store takes writes
                with self._lock:
                    if self._pending.get(key) is value:
                        del self._pending[key]
            if self._closed and (not self._failing or time.monotonic() >= self._deadline):
                return
