"""The server's own upkeep: every ``prune_interval`` seconds it prunes the store
(:meth:`quads.storage.GameStore.prune`) with the retention times of its settings.

The prune runs in a worker thread, never on the event loop.  With several
processes on one PostgreSQL database each one tries, and one at a time prunes
(the others skip); each process hears of the deleted games and closes their
live sockets.  Any failure (the database away) is logged and tried again at the
next interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging

from quads.storage import GameStore, StorageError
from quads.storage.retention import Pruned
from quads.web.live import LiveHub
from quads.web.settings import Settings

__all__ = ["Pruner"]

_log = logging.getLogger("quads.web.upkeep")


class Pruner:
    """Prunes ``store`` every ``settings.prune_interval`` seconds while started
    (never when that interval is 0)."""

    def __init__(self, store: GameStore, hub: LiveHub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin, on the running event loop: the first prune after one interval."""
        if self.settings.prune_interval > 0:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """End, waiting for a prune under way."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def prune_now(self) -> Pruned:
        """Prune once, off the event loop; tell this process's sockets of deleted games."""
        pruned = await asyncio.to_thread(
            self.store.prune, datetime.timedelta(days=self.settings.unplayed_days),
            datetime.timedelta(days=self.settings.ended_days))
        if not self.store.postgres:  # on PostgreSQL the change listener hears of them
            for game_id in pruned.games:
                self.hub.publish(game_id, gone=True)
        if pruned.total:
            _log.info("pruned %d unplayed, %d finished and %d abandoned games, %d players",
                      pruned.unplayed_games, pruned.ended_games, pruned.abandoned_games,
                      pruned.players)
        return pruned

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.prune_interval)
            try:
                await self.prune_now()
            except StorageError as exc:
                _log.warning("cannot prune now: %s", exc)
