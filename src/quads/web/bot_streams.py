"""The bots' event streams of this process, and what wakes them.

A bot's stream (``GET /api/bot/stream``, :mod:`quads.web.bot_api`) sleeps until
something may have changed for it, then looks once at the store.  What wakes it is
a change of a game in which the bot holds a seat or is offered one, as the
process's :class:`~quads.web.live_hub.LiveHub` hears of it (:attr:`LiveHub.on_publish`):

* a save on this process, which hands the hub the game as saved, with its seats and
  the bot it offers a seat to;
* a save on another process (PostgreSQL), whose notification ``'ID REVISION
  PLAYER...'`` names the players seated in the game or offered a seat
  (:mod:`quads.web.notify`); the echo of this process's own save wakes nobody again;
* a game started from the lobby, which the lobby publishes with its two players
  (:mod:`quads.web.lobby_live`).

A stream also looks when the listener of those notifications connects again
(:meth:`LiveHub.reload_all`: what was said meanwhile is lost), and once every
``bot_sweep`` seconds (60) by itself, in case it was told nothing of a change.
Between two looks a stream costs no database call and no timer but its heartbeat.

That a bot's stream is open is written to the store once when it opens, then for
all the streams of the process together every ``bot_heartbeat`` seconds, in one
statement (``GET /api/bots`` lists the bots seen lately).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from quads.storage import GameStore, StorageError, StoredGame
from quads.storage.bots import Bots
from quads.web.lane import lane_for
from quads.web.settings import Settings

__all__ = ["BotStream", "BotStreams"]

_REMEMBERED = 4096
"""Games whose last revision told to the streams here is remembered, to know the echo
of this process's own saves."""

_SHORTEST = 0.05
"""The shortest pause between two writes of the streams' presence."""


@dataclass(eq=False)
class BotStream:
    """One bot's open stream: raised when it should look again."""

    player: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    ended: bool = False
    """The bot's token was replaced: the stream ends."""


class BotStreams:
    """The bots' streams open on this process (one per bot), by player."""

    def __init__(self, store: GameStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self._open: dict[str, BotStream] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._told: OrderedDict[str, int] = OrderedDict()
        """The revision of each game last told to the streams here by a save of this
        process."""
        self._lock = threading.Lock()
        self._presence: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._open)

    def __contains__(self, player: object) -> bool:
        return player in self._open

    # -- on the event loop -------------------------------------------------------------

    def open(self, player: str) -> BotStream:
        """Count ``player``'s new stream (raised at once: it looks first)."""
        self._loop = asyncio.get_running_loop()
        stream = BotStream(player)
        stream.wake.set()
        self._open[player] = stream
        if self._presence is None or self._presence.done():
            self._presence = asyncio.ensure_future(self._keep_presence())
        return stream

    def close(self, stream: BotStream) -> None:
        """Forget ``stream``, closed."""
        if self._open.get(stream.player) is stream:
            del self._open[stream.player]

    async def _keep_presence(self) -> None:
        """Write that the streams here are open, every ``bot_heartbeat`` seconds, all in
        one call, while there is one."""
        bots = Bots(self.store)
        lane = lane_for(self.store)
        while self._open:
            await asyncio.sleep(max(_SHORTEST, self.settings.bot_heartbeat))
            players = list(self._open)
            if players:
                with contextlib.suppress(StorageError):
                    await lane.run(bots.seen, *players)

    def _raise(self, players: Iterable[str]) -> None:
        for player in players:
            stream = self._open.get(player)
            if stream is not None:
                stream.wake.set()

    def _raise_all(self) -> None:
        self._raise(list(self._open))

    def _end(self, player: str) -> None:
        stream = self._open.get(player)
        if stream is not None:
            stream.ended = True
            stream.wake.set()

    # -- from any thread ---------------------------------------------------------------

    def _soon(self, callback: Callable[..., object], *args: object) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(callback, *args)

    def changed(self, game_id: str, stored: StoredGame | None, revision: int | None,
                players: tuple[str, ...]) -> None:
        """A game changed (:attr:`LiveHub.on_publish`): wake the streams of the players
        it concerns, if any is open here.  Costs a few lookups when none is."""
        if stored is not None:
            players = (stored.first_player or "", stored.second_player or "",
                       stored.bot_invited or "")
        here = [player for player in players if player in self._open]
        if not here:
            return
        with self._lock:
            told = self._told.get(game_id)
            if stored is not None:
                self._told[game_id] = stored.revision
                self._told.move_to_end(game_id)
                if len(self._told) > _REMEMBERED:
                    self._told.popitem(last=False)
            elif revision is not None and told is not None and told >= revision:
                return  # the echo of a save of this process: told already
        self._soon(self._raise, here)

    def wake(self, players: Iterable[str]) -> None:
        """Have the streams of ``players`` look once."""
        self._soon(self._raise, list(players))

    def wake_all(self) -> None:
        """Have every stream look once (changes may have been missed)."""
        self._soon(self._raise_all)

    def end(self, player: str) -> None:
        """End ``player``'s stream, if it has one here: its token was replaced."""
        self._soon(self._end, player)
