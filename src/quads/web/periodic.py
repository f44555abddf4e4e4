"""Work that a server process does by itself, every so often, on its event loop.

:class:`Periodic` is what the timekeeper (:mod:`quads.web.timekeeper`) and the upkeep
(:mod:`quads.web.upkeep`) share: started once the app runs, a round every
``interval`` seconds, a round that fails on the store (or on a fault of its own,
logged with its traceback) logged and tried again at the next interval, and a stop
that waits for the round under way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from quads.storage import StorageError

__all__ = ["Periodic"]


class Periodic:
    """A round (:meth:`round`, to be given) every :attr:`interval` seconds while
    started; never with an interval of 0."""

    interval: float
    """Seconds between two rounds."""
    failure: str = "cannot do its round now"
    """What the log says when a round fails on the store."""

    def __init__(self, interval: float, log: logging.Logger) -> None:
        self.interval = interval
        self.log = log
        self._task: asyncio.Task[None] | None = None

    async def round(self) -> None:
        """One round of the work (off the event loop where it blocks)."""
        raise NotImplementedError

    def start(self) -> None:
        """Begin, on the running event loop: the first round after one interval."""
        if self.interval > 0:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """End, waiting for a round under way."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.round()
            except StorageError as exc:
                self.log.warning("%s: %s", self.failure, exc)
            except Exception:  # a fault of the round itself: told, and tried again
                self.log.exception("%s: an unexpected error", self.failure)
