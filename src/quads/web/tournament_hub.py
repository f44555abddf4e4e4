"""Tournaments, live: a page showing an event holds a WebSocket on
``/api/tournaments/{id}/live`` and is sent the event whenever it changed.

The hub of this process looks at each event that has sockets here every
``tournament_refresh`` seconds, with one read of the event, its players and its games
(:func:`~quads.web.tournament_views.read_event`), whichever process paired or scored
it; it sends nothing when nothing changed.  Messages are the models of
:mod:`quads.web.schemas.tournaments`:

* ``{"type": "tournament", "tournament": ...}``: the event as everybody sees it, on
  connecting and after each change (its ``at`` is the server's time, for countdowns);
* ``{"type": "me", "me": {"name", "joined", "playing"}}``: after each of those, the
  socket's player's own part: their name (their line of the standings), whether they
  are in, and the game of the event they play now, which their page opens;
* ``{"type": "pong"}`` to a client's ``{"type": "ping"}``.

A socket only ever holds the latest of these (a slow reader skips what it missed); the
hub never waits on a socket, and an event's read is shared by all its sockets here.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from quads.site.errors import SiteError
from quads.storage import GameStore, StorageError
from quads.web.lane import lane_for
from quads.web.middleware.identity import CLOSE_UNAVAILABLE
from quads.web.periodic import Periodic
from quads.web.schemas.tournaments import TournamentMeMessage, TournamentMessage
from quads.web.settings import Settings
from quads.web.socket_gate import heard
from quads.web.tournament_views import EventData, personal, read_event, view

__all__ = ["CLOSE_NOT_FOUND", "TournamentHub"]

_log = logging.getLogger("quads.web.tournaments")

CLOSE_NOT_FOUND = 4404
"""The close code of a socket on an event that does not exist."""


@dataclass(eq=False)
class _Socket:
    player: str | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pending: tuple[str, str] | None = None
    """The latest messages not yet sent: the shared one and the socket's own."""


@dataclass(eq=False)
class _Event:
    sockets: set[_Socket] = field(default_factory=set)
    shown: str | None = None
    """The shared view last sent (without its time), to tell a change."""
    data: EventData | None = None


class TournamentHub(Periodic):
    """The tournament sockets of this process and the events they follow."""

    failure = "cannot read the tournaments followed live now"

    def __init__(self, store: GameStore, settings: Settings) -> None:
        super().__init__(settings.tournament_refresh, _log)
        self.store = store
        self.settings = settings
        self._events: dict[str, _Event] = {}

    def held(self) -> int:
        """Tournament sockets open on this process."""
        return sum(len(event.sockets) for event in self._events.values())

    # -- looking --------------------------------------------------------------------------

    async def round(self) -> None:
        """Read each followed event once; tell its sockets if it changed."""
        for tournament_id, event in list(self._events.items()):
            if not event.sockets or (event.data is not None and event.data.settled):
                continue
            try:
                data = await lane_for(self.store).run(read_event, self.store, tournament_id)
            except SiteError:
                continue  # gone (pruned): its sockets keep what they have
            self._show(event, data)

    def _show(self, event: _Event, data: EventData) -> None:
        shared = view(data, None)
        text = shared.model_dump_json(exclude={"at", "read"})
        if text == event.shown:
            event.data = data  # the same, read later: a socket connecting gets it so
            return
        event.shown, event.data = text, data
        message = TournamentMessage(type="tournament", tournament=shared).model_dump_json()
        for socket in event.sockets:
            self._post(socket, message, data)

    @staticmethod
    def _post(socket: _Socket, message: str, data: EventData) -> None:
        mine = TournamentMeMessage(type="me", me=personal(data, socket.player))
        socket.pending = (message, mine.model_dump_json())
        socket.wake.set()

    # -- one socket ---------------------------------------------------------------------

    async def serve(self, websocket: WebSocket, tournament_id: str, player: str | None
                    ) -> None:
        """Follow the event ``tournament_id`` on ``websocket`` until it closes."""
        event = self._events.setdefault(tournament_id, _Event())
        socket = _Socket(player)
        event.sockets.add(socket)
        try:
            await self._follow(websocket, tournament_id, event, socket)
        finally:
            event.sockets.discard(socket)
            if not event.sockets and self._events.get(tournament_id) is event:
                del self._events[tournament_id]

    async def _follow(self, websocket: WebSocket, tournament_id: str, event: _Event,
                      socket: _Socket) -> None:
        try:
            data = event.data if event.data is not None else await lane_for(
                self.store).run(read_event, self.store, tournament_id)
        except SiteError:
            await websocket.accept()
            await websocket.close(code=CLOSE_NOT_FOUND, reason="no such tournament")
            return
        except StorageError:
            await websocket.accept()
            await websocket.close(code=CLOSE_UNAVAILABLE,
                                  reason="the database cannot be reached now")
            return
        await websocket.accept()
        if event.data is None:
            self._show(event, data)  # every socket of the event hears of it, this one too
        else:
            self._post(socket, TournamentMessage(
                type="tournament", tournament=view(event.data, None)).model_dump_json(),
                event.data)
        receiver = asyncio.ensure_future(websocket.receive_text())
        waiter: asyncio.Future[Any] | None = None
        try:
            while True:
                socket.wake.clear()
                if socket.pending is not None:
                    shared, mine = socket.pending
                    socket.pending = None
                    await websocket.send_text(shared)
                    await websocket.send_text(mine)
                if waiter is None or waiter.done():
                    waiter = asyncio.ensure_future(socket.wake.wait())
                done, _ = await asyncio.wait({receiver, waiter},
                                             return_when=asyncio.FIRST_COMPLETED)
                if receiver in done:
                    if not await heard(websocket, receiver):
                        return
                    receiver = asyncio.ensure_future(websocket.receive_text())
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            receiver.cancel()
            if waiter is not None:
                waiter.cancel()
