"""The mistakes of the games that end, looked for in the background: every
``mistakes_tick`` seconds each server process takes the next ended game of the queue
and looks at it (:func:`quads.site.mistakes.finder.find_next`), then the next, until
the queue is empty or ``mistakes_per_round`` games were looked at.

The look is the engine's work: it runs in the ``study`` lane of
:class:`~quads.web.thinking.Thinking`, at that lane's lower priority and within its
bounds (a look is one job, counted against an address of its own), so that games,
analyses and hints go first; when the lane is full it waits for the next round.  Of
several processes each takes a game of its own (the queue's lease).
"""

from __future__ import annotations

import logging

from quads.site.mistakes.finder import find_next
from quads.storage import GameStore
from quads.storage.stored import now
from quads.web.periodic import Periodic
from quads.web.settings import Settings
from quads.web.thinking import EngineBusyError, Thinking

__all__ = ["CLIENT", "MistakeFinder"]

_log = logging.getLogger("quads.web.mistakes")

CLIENT = "mistakes"
"""The address the looks are counted against in the engine's lane."""


class MistakeFinder(Periodic):
    """Looks for the mistakes of the games that ended, a round every
    ``settings.mistakes_tick`` seconds (none with 0)."""

    failure = "cannot look for mistakes now"

    def __init__(self, store: GameStore, engine: Thinking, settings: Settings) -> None:
        super().__init__(settings.mistakes_tick, _log)
        self.store = store
        self.engine = engine
        self.settings = settings

    def _look(self) -> str | None:
        return find_next(self.store, now(), self.settings.mistakes_seconds)

    async def round(self) -> None:
        for _ in range(self.settings.mistakes_per_round):
            try:
                looked = await self.engine.run("study", CLIENT, self._look)
            except EngineBusyError:
                return  # the lane is full: players first, the queue at the next round
            if looked is None:
                return
