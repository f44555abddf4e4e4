"""The server's timekeeping: games whose time ran out end, and seeks whose player
left go.

Every ``clock_tick`` seconds each server process asks the store for the games
going on whose deadline has passed (:meth:`~quads.storage.GameStore.due_games`,
an indexed read), and ends each one on time, or aborts it in a first turn
(:func:`quads.site.games.clocks.expire`).  The save names the revision it loaded, so of
several processes (or a move arriving at that moment) exactly one changes the
game; the others find it changed and leave it.  Nothing is kept in memory: after
a restart the deadlines stored with the games are read as before, so every clock
resumes from its stored timestamps (time while no process ran is the mover's).

Every :data:`KEEP_EVERY` seconds it marks the seeks of the players with a live
socket on this process as still wanted, and withdraws the seeks whose player
had none anywhere for ``seek_linger`` seconds.

All database work runs in worker threads, never on the event loop; a failure
(the database away) is logged and tried again at the next tick.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from quads.site.games import clocks
from quads.storage import GameNotFoundError, GameStore, StaleGameError
from quads.storage.stored import now
from quads.web.live_hub import LiveHub
from quads.web.lobby_hub import LobbyHub
from quads.web.periodic import Periodic
from quads.web.settings import Settings

__all__ = ["KEEP_EVERY", "Timekeeper"]

KEEP_EVERY = 2.0
"""Seconds between two "these players are here" of a process."""

_log = logging.getLogger("quads.web.timekeeper")


class Timekeeper(Periodic):
    """Ends the games of ``store`` whose time ran out and keeps the lobby's seeks, a
    round every ``settings.clock_tick`` seconds (0.05 at least)."""

    failure = "cannot keep time now"

    def __init__(self, store: GameStore, hub: LiveHub, lobby: LobbyHub,
                 settings: Settings) -> None:
        super().__init__(max(0.05, settings.clock_tick), _log)
        self.store = store
        self.hub = hub
        self.lobby = lobby
        self.settings = settings
        self._kept = 0.0

    def end_due_games(self) -> list[str]:
        """End every game whose time ran out by now; return those this call ended."""
        ended = []
        at = now()
        for game_id in self.store.due_games(at):
            try:
                stored = self.store.load(game_id)
                if not clocks.expire(stored, at):
                    continue
                self.store.save(stored)
            except (StaleGameError, GameNotFoundError):
                continue  # moved, ended or deleted meanwhile: its new deadline counts
            self.hub.publish(stored.id, stored)
            ended.append(game_id)
        return ended

    def keep_seeks(self, here: set[str]) -> list[str]:
        """Keep the seeks of the players ``here`` (with a live socket on this process);
        withdraw those of players gone.  Return the seeks withdrawn."""
        self.lobby.lobby.keep(here)
        gone = self.lobby.lobby.drop_unseen(now() - timedelta(seconds=self.settings.seek_linger))
        self.lobby.dropped(gone)
        return gone

    async def round(self) -> None:
        """End the games due; every :data:`KEEP_EVERY` seconds, keep the seeks too."""
        self._kept += self.interval
        await asyncio.to_thread(self.end_due_games)
        if self._kept >= KEEP_EVERY:
            self._kept = 0.0
            await asyncio.to_thread(self.keep_seeks, self.lobby.players_here())
