"""Group commit: the saves that threads make at the same time, written in one
transaction and made durable by one commit.

On SQLite one transaction writes at a time, and each commit waits for the disk
(``synchronous = FULL``: an ``fsync`` of the write-ahead log), which costs more
than the save's own statements.  While one thread commits, the others that save
queue up; the first of them then writes all that queued in one transaction, and
each save returns once that transaction is on the disk: as durable as alone, for
one ``fsync`` instead of several.  Under no load a save is committed alone, at
once.

A unit of work that refuses (it raises one of the ``refusals`` it was given: a
stale game, a missing one) has written nothing, so the others go on and commit;
any other exception rolls the whole group back, and each unit is then run again
alone, so that each gets its own answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from sqlalchemy import Connection

__all__ = ["GroupCommit"]


@dataclass(eq=False)
class _Unit:
    work: Callable[[Connection], None]
    done: bool = False
    error: BaseException | None = None
    finished: threading.Event = field(default_factory=threading.Event)


class GroupCommit:
    """Run units of work, each in a transaction of ``begin()`` shared with the units
    that other threads run meanwhile.  ``refusals`` are the exceptions by which a unit
    refuses without having written anything."""

    def __init__(self, begin: Callable[[], AbstractContextManager[Connection]],
                 refusals: tuple[type[BaseException], ...]) -> None:
        self._begin = begin
        self._refusals = refusals
        self._lock = threading.Lock()
        self._queued: list[_Unit] = []
        self._leading = False
        self.groups = 0
        """Transactions committed (for the tests and the benchmarks)."""
        self.units = 0
        """Units of work committed or refused in them."""

    def run(self, work: Callable[[Connection], None]) -> None:
        """Run ``work(connection)`` in a transaction; return once it is committed.

        :raises BaseException: what ``work`` raised (nothing of it is then written),
            or what the commit raised.
        """
        unit = _Unit(work)
        with self._lock:
            self._queued.append(unit)
        while True:
            with self._lock:
                if unit.done:
                    break
                if not self._leading:
                    self._leading = True
                    group, self._queued = self._queued, []
                    break
            # Another thread commits: wait for it, then take the lead or be done.
            unit.finished.wait()
            unit.finished.clear()
        if not unit.done:
            try:
                self._commit(group)
            finally:
                with self._lock:
                    self._leading = False
                    waiting = list(self._queued)
                for other in waiting:  # the next one takes the lead
                    other.finished.set()
        if unit.error is not None:
            raise unit.error

    def _commit(self, group: list[_Unit]) -> None:
        try:
            self._transaction(group)
        except Exception as exc:
            if len(group) == 1:
                group[0].error = exc
            else:
                for unit in group:  # each again alone, for an answer of its own
                    unit.error = None
                    try:
                        self._transaction([unit])
                    except Exception as alone:
                        unit.error = alone
        except BaseException as exc:  # nothing was committed
            for unit in group:
                unit.error = unit.error or exc
            raise
        finally:
            for unit in group:
                unit.done = True
                unit.finished.set()

    def _transaction(self, group: list[_Unit]) -> None:
        with self._begin() as connection:
            for unit in group:
                try:
                    unit.work(connection)
                except self._refusals as exc:
                    unit.error = exc
        self.groups += 1
        self.units += len(group)

