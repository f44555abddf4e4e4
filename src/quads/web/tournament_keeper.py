"""The tournaments' keeper: every ``tournament_tick`` seconds each server process
makes the site's own arenas due to be announced (``scheduled_arenas``), starts the
arenas that are due, pairs their free players and ends those whose time is up
(:func:`quads.site.tournaments.service.tick`).  Of several processes, one at a
time pairs an arena (the store's lock), so a process killed in the middle of a pairing
is replaced by the next tick of another.  The games it starts are told to the live
hub, as a save's are, so that the players' pages and bots hear of them.

All database work runs in a worker thread, never on the event loop; a failure (the
database away) is logged and tried again at the next tick.
"""

from __future__ import annotations

import asyncio
import importlib
import logging

from quads.site.tournaments import service
from quads.storage import GameStore
from quads.storage.stored import now
from quads.storage.tournaments import Paired, Tournament
from quads.web.live_hub import LiveHub
from quads.web.periodic import Periodic
from quads.web.settings import Settings

__all__ = ["TournamentKeeper"]

_log = logging.getLogger("quads.web.tournaments")

# The Dutch pairing engine imports networkx on its first pairing, most of a second
# of the interpreter's lock in a worker thread, which would stall every request of the
# process in the middle of an event's round; the keeper's process pays it at start.
importlib.import_module("networkx")


class TournamentKeeper(Periodic):
    """Runs the tournaments of ``store``: a round every ``settings.tournament_tick``
    seconds (none with 0)."""

    failure = "cannot run the tournaments now"

    def __init__(self, store: GameStore, hub: LiveHub, settings: Settings) -> None:
        super().__init__(settings.tournament_tick, _log)
        self.store = store
        self.hub = hub
        self.settings = settings

    def keep(self) -> list[Paired]:
        """One round: the games it started."""
        started = service.tick(self.store, now(), self.settings.clock_grace,
                               scheduled=self.settings.scheduled_arenas, failed=self._failed)
        for paired in started:
            self.hub.publish(paired.game.id, paired.game)
        return started

    @staticmethod
    def _failed(event: Tournament, error: Exception) -> None:
        _log.error("the tournament %s failed its turn", event.id, exc_info=error)

    async def round(self) -> None:
        await asyncio.to_thread(self.keep)
