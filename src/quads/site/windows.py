"""The moving windows of the rates, kept in memory, forgetting the clients who stop.

The ``limits`` library's :class:`~limits.storage.MemoryStorage` empties the window of
a key once its hits are older than the window, but keeps the key, with an empty list,
for good: one key for every player, address and kind of rate ever counted.  A
process that sees many new players (each one counted under their own id) grows
without end.  :class:`Windows` is that storage, which forgets every key whose window
holds no hit still counting: once a minute, and whenever the keys held have doubled
since the last time.  A key lives as long as its client's last hit counts (an hour
at most under the longest rates), and what the storage holds is bounded by the
clients of that while.

It also counts a hit without a thread.  The library's storage, at each hit, starts
a timer thread (to drop expired hits 10 ms later) unless one is still waiting:
under steady traffic a new thread every few hits, each started on the event loop,
which waits until the thread has run (on a busy machine, until it is scheduled).
Under a flood of sign-ins those starts were a tenth of the event loop's work
(``py-spy`` on ``bench/signin_flood.py``).  :class:`Windows` counts a moving
window's hit itself, as the library does, and drops the hits that can no longer
matter there and then: a key's window never needs more than its limit's newest
hits.
"""

from __future__ import annotations

import time

from limits.storage import MemoryStorage
from limits.storage.memory import Entry

__all__ = ["SWEEP_KEYS", "SWEEP_SECONDS", "Windows"]

SWEEP_SECONDS = 60.0
"""How often the keys whose windows are empty are forgotten."""
SWEEP_KEYS = 1024
"""The fewest keys held that call for forgetting before the minute is over (once they
doubled since the last time)."""


class Windows(MemoryStorage):
    """A :class:`~limits.storage.MemoryStorage` for moving windows that forgets the
    keys whose windows are empty, on a hit: every ``sweep`` seconds, and whenever the
    keys held reach twice those left by the last time (``SWEEP_KEYS`` at least)."""

    def __init__(self, sweep: float = SWEEP_SECONDS) -> None:
        super().__init__()
        self._sweep = sweep
        self._next_sweep = time.monotonic() + sweep
        self._next_keys = SWEEP_KEYS

    def held(self) -> int:
        """The keys held: those whose windows count hits, and those not forgotten yet."""
        return len(self.events)

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Count ``amount`` hits of ``key`` if its window of ``expiry`` seconds has
        room for them under ``limit`` (the moving window's hit, as the library counts
        it, without its timer thread), after forgetting the empty windows if that is
        due.  Only the ``limit`` newest hits are kept: an older one can never decide."""
        if amount > limit:
            return False
        if len(self.events) >= self._next_keys or time.monotonic() >= self._next_sweep:
            self.forget_idle()
        with self.locks[key]:
            events = self.events.setdefault(key, [])  # the newest first
            if (len(events) > limit - amount
                    and events[limit - amount].atime >= time.time() - expiry):
                return False
            events[:0] = [Entry(expiry)] * amount
            del events[limit:]
            return True

    def forget_idle(self) -> int:
        """Forget every key whose hits all fell out of their window; the keys
        forgotten."""
        now, forgotten = time.time(), 0
        for key in list(self.events):
            with self.locks[key]:
                events = self.events.get(key)
                # The newest hit comes first: when it expired, all did.
                if events and events[0].expiry > now:
                    continue
                self.events.pop(key, None)
            self.locks.pop(key, None)
            forgotten += 1
        self._next_sweep = time.monotonic() + self._sweep
        self._next_keys = max(SWEEP_KEYS, 2 * len(self.events))
        return forgotten
