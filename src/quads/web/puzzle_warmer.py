"""The puzzles of the coming dates, generated in the background so that the page can
keep them to play without a network."""

from __future__ import annotations

import asyncio
import datetime
import threading

from quads.site.puzzles.days import PuzzleCache
from quads.web import cores

__all__ = ["PuzzleWarmer"]


class PuzzleWarmer:
    """Generates the puzzles of coming dates in the background, one run at a time per
    process, each puzzle once (a worker thread; never on the event loop)."""

    def __init__(self, cache: PuzzleCache) -> None:
        self.cache = cache
        self.stopping = threading.Event()
        self._task: asyncio.Task[None] | None = None

    def warm(self, dates: list[datetime.date]) -> None:
        """Start generating ``dates`` unless a run is under way."""
        if self.stopping.is_set() or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(self._warm, dates))

    def _warm(self, dates: list[datetime.date]) -> None:
        cores.leave()  # generating puzzles is thinking: it may use every core
        self.cache.warm(dates, self.stopping)

    async def stop(self) -> None:
        """Stop after the puzzle being generated, and wait for it."""
        self.stopping.set()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
