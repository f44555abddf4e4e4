"""Live updates: every page that shows a game holds a WebSocket on
``/api/games/{id}/live`` and receives the game's whole view, as its caller sees
it, after every change and whenever a player connects or leaves.

:class:`LiveHub` knows the sockets of this process.  A route that saves a game
calls :meth:`LiveHub.publish` (from any thread); each socket of that game then
sends its own view of the saved game.  Messages (all JSON, the models of
:mod:`quads.web.schemas`: ``ServerMessage`` and ``ClientMessage``):

* ``{"type": "view", "view": GameView}``: the game as it stands; sent once on
  connecting and after every change.  A client applies a view whose revision
  is not older than the one it shows, so a repeat is harmless.
* ``{"type": "gone"}``: the game was deleted; the socket closes.
* ``{"type": "pong"}``: the answer to a client's ``{"type": "ping"}``.

A socket for a game its caller may not see is closed with code 4404 (no game),
and one opened from another site with 4403.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from quads.storage import GameNotFoundError, GameStore, StoredGame
from quads.web.identity import caller
from quads.web.schemas import (
    ClientMessage,
    GoneMessage,
    PingMessage,
    PongMessage,
    ServerMessage,
    SyncMessage,
    ViewMessage,
)
from quads.web.seats import load_visible

__all__ = ["LiveHub", "router"]

router = APIRouter(prefix="/api")


@dataclass(eq=False)
class _Socket:
    """One connection's mailbox: a flag raised on every change, and the newest game."""

    game_id: str
    player: str | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    latest: StoredGame | None = None
    reload: bool = False
    """A change was published without the saved game: read it from the store."""
    gone: bool = False


class LiveHub:
    """The live sockets of this process, by game."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sockets: dict[str, set[_Socket]] = {}
        self._remote: dict[str, frozenset[str]] = {}
        self.on_presence: Callable[[str, str, bool], None] | None = None
        """Called with ``(game_id, player, open)`` when a player opens a game on this
        process (their first socket of it) or closes it (their last), so that other
        processes can be told (:mod:`quads.web.notify`)."""

    def _local(self, game_id: str) -> frozenset[str]:
        return frozenset(s.player for s in self._sockets.get(game_id, ())
                         if s.player is not None)

    def connected(self, game_id: str) -> frozenset[str]:
        """The players who have ``game_id`` open on a socket, of this process or (as
        last heard) of another one."""
        return self._local(game_id) | self._remote.get(game_id, frozenset())

    def games(self) -> list[str]:
        """The games that have a socket on this process."""
        return list(self._sockets)

    def set_remote(self, game_id: str, players: frozenset[str]) -> None:
        """The players who have ``game_id`` open on other processes, as just read.  Safe
        to call from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._set_remote, game_id, players)

    def _set_remote(self, game_id: str, players: frozenset[str]) -> None:
        if game_id not in self._sockets:
            self._remote.pop(game_id, None)
            return
        if self._remote.get(game_id, frozenset()) != players:
            self._remote[game_id] = players
            self._notify(game_id, None, False, presence=True)

    def publish(self, game_id: str, stored: StoredGame | None = None, *,
                gone: bool = False, revision: int | None = None) -> None:
        """Tell the sockets of ``game_id`` that it changed (``stored``: as saved, if
        at hand; else ``revision``, the revision saved, if known) or was deleted
        (``gone``).  Safe to call from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._notify(game_id, stored, gone, revision=revision)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(
                    lambda: self._notify(game_id, stored, gone, revision=revision))

    def reload_all(self) -> None:
        """Have every socket read its game again (changes may have been missed, e.g.
        while the database's notifications were cut off).  Safe from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._reload_all)

    def _reload_all(self) -> None:
        for game_id in list(self._sockets):
            self._notify(game_id, None, False)

    def _notify(self, game_id: str, stored: StoredGame | None, gone: bool,
                presence: bool = False, revision: int | None = None) -> None:
        for socket in self._sockets.get(game_id, ()):
            if stored is not None:
                if socket.latest is None or stored.revision >= socket.latest.revision:
                    socket.latest = stored
            elif presence:
                pass
            elif (revision is not None and socket.latest is not None
                  and socket.latest.revision >= revision):
                continue  # seen already: the echo of this process's own save
            else:
                socket.reload = True
            socket.gone = socket.gone or gone
            socket.wake.set()

    def _join(self, socket: _Socket) -> None:
        self._loop = asyncio.get_running_loop()
        before = self._local(socket.game_id)
        self._sockets.setdefault(socket.game_id, set()).add(socket)
        self._notify(socket.game_id, None, False, presence=True)
        if socket.player is not None and socket.player not in before and self.on_presence:
            self.on_presence(socket.game_id, socket.player, True)

    def _leave(self, socket: _Socket) -> None:
        sockets = self._sockets.get(socket.game_id)
        if sockets is None:
            return
        sockets.discard(socket)
        if not sockets:
            del self._sockets[socket.game_id]
            self._remote.pop(socket.game_id, None)
        else:
            self._notify(socket.game_id, None, False, presence=True)
        if (socket.player is not None and self.on_presence
                and socket.player not in self._local(socket.game_id)):
            self.on_presence(socket.game_id, socket.player, False)


def _same_origin(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    if origin is None:  # not a browser: bots send no Origin
        return True
    hosts = {websocket.headers.get("host", ""), websocket.headers.get("x-forwarded-host", "")}
    return urlsplit(origin).netloc in hosts - {""}


_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


async def _receive(websocket: WebSocket) -> ClientMessage | Literal[False] | None:
    """The next client message (``False`` if it is none that a client may send, which
    is ignored); ``None`` once the socket is closed."""
    try:
        text = await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError, KeyError):
        return None
    try:
        return _CLIENT.validate_json(text)
    except ValidationError:
        return False


async def _send(websocket: WebSocket, message: ServerMessage) -> None:
    await websocket.send_text(message.model_dump_json())


@router.websocket("/games/{game_id}/live")
async def live(websocket: WebSocket, game_id: str) -> None:
    """The live view of a game (see the module's documentation)."""
    from quads.web.views import game_view  # late: views import this module's hub type

    store: GameStore = websocket.app.state.store
    hub: LiveHub = websocket.app.state.hub
    player = caller(websocket)
    if not _same_origin(websocket):
        # Accepted only to tell the code (nothing is sent), so that a page stops retrying.
        await websocket.accept()
        await websocket.close(code=4403, reason="cross-site socket refused")
        return
    try:
        stored = load_visible(store, game_id, player)
    except GameNotFoundError:
        # Accepted first, so that a browser sees the code and stops reconnecting.
        await websocket.accept()
        await websocket.close(code=4404, reason="no such game")
        return
    await websocket.accept()
    # A change saved after the load above but before the hub knows this socket is
    # published to nobody here: the game is read once more after joining.
    socket = _Socket(game_id, player, latest=stored, reload=True)
    hub._join(socket)
    sent: tuple[int, frozenset[str]] | None = None
    receiver = asyncio.ensure_future(_receive(websocket))
    try:
        while True:
            # Cleared before the game and the presence are read: a change published
            # while this round loads or sends wakes the next round.
            socket.wake.clear()
            if socket.reload and not socket.gone:
                socket.reload = False
                try:
                    loaded = store.load(game_id)
                except GameNotFoundError:
                    socket.gone = True
                else:
                    if socket.latest is None or loaded.revision >= socket.latest.revision:
                        socket.latest = loaded
            if socket.gone:
                await _send(websocket, GoneMessage(type="gone"))
                await websocket.close(code=1000)
                return
            latest = socket.latest
            assert latest is not None
            presence = hub.connected(game_id)
            state = (latest.revision, presence)
            if state != sent:
                view = game_view(latest, player, presence)
                await _send(websocket, ViewMessage(type="view", view=view))
                sent = state
            waiter = asyncio.ensure_future(socket.wake.wait())
            done, _ = await asyncio.wait({receiver, waiter},
                                         return_when=asyncio.FIRST_COMPLETED)
            if waiter not in done:
                waiter.cancel()
            if receiver in done:
                message = receiver.result()
                if message is None:
                    return
                if isinstance(message, PingMessage):
                    await _send(websocket, PongMessage(type="pong"))
                elif isinstance(message, SyncMessage):
                    sent = None  # the client asks for the view again
                receiver = asyncio.ensure_future(_receive(websocket))
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        receiver.cancel()
        hub._leave(socket)
