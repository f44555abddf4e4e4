"""The lobby's hub of this process: a mirror of the open seeks in memory, so that a
lobby socket's first list and every change cost the database nothing, and the lobby
sockets of this process (:mod:`quads.web.lobby_live` holds the socket itself).

Changes reach it in two ways: on SQLite (one process) the routes tell it directly;
on PostgreSQL every change is announced on :data:`~quads.storage.lobby.LOBBY_CHANNEL`
and each process's :class:`~quads.web.notify.ChangeListener` hands it over (a new
seek is read once per process).  A socket whose messages pile up (a slow reader) is
sent the whole list once it reads again, instead of every change; the hub never
waits on a socket.  A player's seeks stay open while the player has any live socket
(lobby or game) on some process (:meth:`LobbyHub.players_here`,
:mod:`quads.web.timekeeper`).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from quads.clock import parse_time_control
from quads.rules import Rules
from quads.storage import GameStore, StorageError
from quads.storage.lobby import Lobby, Paired, Seek
from quads.web.clock_views import spec_of
from quads.web.lane import lane_for
from quads.web.live_hub import LiveHub
from quads.web.middleware.identity import CLOSE_UNAVAILABLE
from quads.web.schemas.lobby import (
    PairedMessage,
    SeekGoneMessage,
    SeekMessage,
    SeeksMessage,
    SeekView,
)
from quads.web.settings import Settings
from quads.web.socket_gate import heard

__all__ = ["LOBBY_KEY", "LobbyHub", "seek_view"]

_BACKLOG = 256
"""Messages waiting for one socket at most; past it, the socket gets the whole list."""

LOBBY_KEY = " lobby"
"""What the live hub counts lobby sockets under (no game has this id)."""

_SEEKS_SHOWN = 500
"""Seeks in a list at most (the oldest)."""


def seek_view(seek: Seek, viewer: str | None) -> SeekView:
    """``seek`` as ``viewer`` sees it."""
    return SeekView(id=seek.id, rules=seek.rules,
                    calling=Rules.parse(seek.rules).calling.value,
                    clock=spec_of(parse_time_control(seek.clock)), side=seek.side,
                    name=seek.name, created=seek.created, mine=seek.player == viewer,
                    bot=seek.bot, rated=seek.rated, rating=seek.rating,
                    provisional=seek.provisional, rating_min=seek.rating_min,
                    rating_max=seek.rating_max)


@dataclass(eq=False)
class _LobbySocket:
    player: str | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    outbox: list[str] = field(default_factory=list)
    resync: bool = True


class LobbyHub:
    """The open seeks and the lobby sockets of this process."""

    def __init__(self, store: GameStore, hub: LiveHub, settings: Settings) -> None:
        self.lobby = Lobby(store)
        self.store = store
        self.hub = hub
        self.settings = settings
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sockets: set[_LobbySocket] = set()
        self._players: dict[str, int] = {}
        self._seeks: dict[str, Seek] | None = None
        """The mirror of the open seeks, once read."""

    # -- what the routes and the listener tell -----------------------------------------

    def opened(self, seek: Seek) -> None:
        """A seek was opened (or renamed) by a route of this process."""
        if not self.store.postgres:
            self._soon(self._add, seek)

    def dropped(self, ids: list[str] | tuple[str, ...]) -> None:
        """Seeks went (withdrawn, left, taken) by a route or the upkeep of this process."""
        if not self.store.postgres and ids:
            self._soon(self._drop, list(ids))

    def paired(self, paired: Paired) -> None:
        """A seek started a game by a route of this process."""
        if not self.store.postgres:
            self.hub.publish(paired.game.id, paired.game)  # its players' bots hear of it
            players = (paired.seek.player, self._other(paired))
            self._soon(self._drop, list(paired.dropped))
            self._soon(self._pair, paired.seek.id, paired.game.id, players)

    @staticmethod
    def _other(paired: Paired) -> str:
        game = paired.game
        return str(game.second_player if game.first_player == paired.seek.player
                   else game.first_player)

    def announced(self, payload: str) -> None:
        """A change announced by some process on PostgreSQL (from the listener's thread)."""
        what, _, rest = payload.partition(" ")
        if what == "add":
            seek = self.lobby.seek(rest)  # read here, in the listener's thread
            if seek is not None:
                self._soon(self._add, seek)
        elif what == "drop":
            self._soon(self._drop, [rest])
        elif what == "paired":
            seek_id, game_id, *players = rest.split()
            self.hub.publish(game_id, players=tuple(players))  # its players' bots hear of it
            self._soon(self._pair, seek_id, game_id, tuple(players))

    def resync(self) -> None:
        """Read every seek again and send each socket the whole list (changes may have
        been missed).  From any thread."""
        self._soon(self._forget)

    # -- the mirror, on the event loop -------------------------------------------------

    def _soon(self, callback: Any, *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(callback, *args)

    def _forget(self) -> None:
        self._seeks = None
        for socket in self._sockets:
            socket.resync = True
            socket.outbox.clear()
            socket.wake.set()

    def _add(self, seek: Seek) -> None:
        if self._seeks is None:
            return  # read whole when next wanted
        self._seeks[seek.id] = seek
        texts: dict[bool, str] = {}
        for socket in self._sockets:
            mine = seek.player == socket.player
            if mine not in texts:
                texts[mine] = SeekMessage(type="seek", seek=seek_view(
                    seek, socket.player if mine else None)).model_dump_json()
            self._post(socket, texts[mine])

    def _drop(self, ids: list[str]) -> None:
        if self._seeks is None:
            return
        for seek_id in ids:
            if self._seeks.pop(seek_id, None) is None:
                continue
            text = SeekGoneMessage(type="unseek", id=seek_id).model_dump_json()
            for socket in self._sockets:
                self._post(socket, text)

    def _pair(self, seek_id: str, game_id: str, players: tuple[str, ...]) -> None:
        text = PairedMessage(type="paired", game=game_id, seek=seek_id).model_dump_json()
        for socket in self._sockets:
            if socket.player is not None and socket.player in players:
                self._post(socket, text)

    @staticmethod
    def _post(socket: _LobbySocket, text: str) -> None:
        if socket.resync:
            return  # the whole list goes out next, then the changes after it
        if len(socket.outbox) >= _BACKLOG:
            socket.outbox.clear()
            socket.resync = True
        else:
            socket.outbox.append(text)
        socket.wake.set()

    async def _mirror(self) -> dict[str, Seek]:
        if self._seeks is None:
            seeks = await lane_for(self.store).run(self.lobby.seeks, _SEEKS_SHOWN)
            if self._seeks is None:
                self._seeks = {seek.id: seek for seek in seeks}
        return self._seeks

    # -- who is here -----------------------------------------------------------------------

    def players_here(self) -> set[str]:
        """The players with a live socket (lobby or game) on this process."""
        return set(self._players) | self.hub.players()

    def arrive(self, player: str) -> None:
        """``player`` holds one more live connection here (a lobby socket, a bot's
        stream): their seeks stay open meanwhile."""
        self._players[player] = self._players.get(player, 0) + 1

    def leave(self, player: str) -> None:
        """One of ``player``'s connections counted by :meth:`arrive` closed."""
        left = self._players[player] - 1
        if left:
            self._players[player] = left
        else:
            del self._players[player]

    def held(self) -> int:
        """Lobby sockets open on this process."""
        return len(self._sockets)

    # -- one socket --------------------------------------------------------------------------

    async def serve(self, websocket: WebSocket, player: str | None) -> None:
        """Follow the lobby on ``websocket`` until it closes."""
        self._loop = asyncio.get_running_loop()
        socket = _LobbySocket(player)
        try:
            await self._mirror()
        except StorageError:
            await websocket.accept()
            await websocket.close(code=CLOSE_UNAVAILABLE, reason="the database cannot be "
                                                                 "reached now")
            return
        await websocket.accept()
        self._sockets.add(socket)
        if player is not None:
            self.arrive(player)
        receiver = asyncio.ensure_future(websocket.receive_text())
        waiter: asyncio.Future[Any] | None = None
        again: asyncio.Future[None] | None = None
        """While the seeks could not be read: done when it is time to read them again."""
        try:
            while True:
                socket.wake.clear()
                if again is not None and again.done():
                    again = None
                if socket.resync and again is None:
                    try:
                        seeks = await self._mirror()
                    except StorageError:
                        # Changes may have been missed: the whole list goes out once the
                        # database answers again, whether or not anything else wakes
                        # this socket.
                        again = lane_for(self.store).try_again()
                    else:
                        socket.resync = False
                        socket.outbox.clear()
                        shown = sorted(seeks.values(), key=lambda s: (s.created, s.id))
                        await websocket.send_text(SeeksMessage(type="seeks", seeks=[
                            seek_view(s, player) for s in shown[:_SEEKS_SHOWN]
                        ]).model_dump_json())
                while socket.outbox and not socket.resync:
                    await websocket.send_text(socket.outbox.pop(0))
                if socket.resync and again is None:
                    continue
                if waiter is None or waiter.done():
                    waiter = asyncio.ensure_future(socket.wake.wait())
                waiting: set[asyncio.Future[Any]] = {receiver, waiter}
                if again is not None:
                    waiting.add(again)
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if receiver in done:
                    if not await heard(websocket, receiver):
                        return
                    receiver = asyncio.ensure_future(websocket.receive_text())
        except (WebSocketDisconnect, RuntimeError, StorageError):
            return
        finally:
            receiver.cancel()
            if waiter is not None:
                waiter.cancel()
            if again is not None:
                again.cancel()
            self._sockets.discard(socket)
            if player is not None:
                self.leave(player)
