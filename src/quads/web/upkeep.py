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
import datetime
import logging

from quads.storage import GameStore
from quads.storage.retention import Pruned
from quads.web.live_hub import LiveHub
from quads.web.periodic import Periodic
from quads.web.settings import Settings

__all__ = ["Pruner"]

_log = logging.getLogger("quads.web.upkeep")


class Pruner(Periodic):
    """Prunes ``store`` every ``settings.prune_interval`` seconds while started
    (never when that interval is 0)."""

    failure = "cannot prune now"

    def __init__(self, store: GameStore, hub: LiveHub, settings: Settings) -> None:
        super().__init__(settings.prune_interval, _log)
        self.store = store
        self.hub = hub
        self.settings = settings

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

    async def round(self) -> None:
        """One prune."""
        await self.prune_now()
