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
import contextlib
import logging
from datetime import timedelta

from quads.site.games import clocks
from quads.storage import GameNotFoundError, GameStore, StaleGameError, StorageError
from quads.storage.stored import now
from quads.web.live import LiveHub
from quads.web.lobby_live import LobbyHub
from quads.web.settings import Settings

__all__ = ["KEEP_EVERY", "Timekeeper"]

KEEP_EVERY = 2.0
"""Seconds between two "these players are here" of a process."""

_log = logging.getLogger("quads.web.timekeeper")


class Timekeeper:
    """Ends the games of ``store`` whose time ran out and keeps the lobby's seeks."""

    def __init__(self, store: GameStore, hub: LiveHub, lobby: LobbyHub,
                 settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.lobby = lobby
        self.settings = settings
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin, on the running event loop."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """End, waiting for a round under way."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

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

    async def _run(self) -> None:
        tick = max(0.05, self.settings.clock_tick)
        kept = 0.0
        while True:
            await asyncio.sleep(tick)
            kept += tick
            try:
                await asyncio.to_thread(self.end_due_games)
                if kept >= KEEP_EVERY:
                    kept = 0.0
                    await asyncio.to_thread(self.keep_seeks, self.lobby.players_here())
            except StorageError as exc:
                _log.warning("cannot keep time now: %s", exc)
