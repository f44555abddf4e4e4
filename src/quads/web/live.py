"""Live updates: every page that shows a game holds a WebSocket on
``/api/games/{id}/live`` and receives the game's whole view, as its caller sees
it, after every change and whenever a player connects or leaves.

A route that saves a game calls :meth:`~quads.web.live_hub.LiveHub.publish`; each
socket of that game then sends its own view of the saved game.  Messages (all JSON, the models of
:mod:`quads.web.schemas`: ``ServerMessage`` and ``ClientMessage``):

* ``{"type": "view", "view": GameView}``: the game as it stands; sent once on
  connecting and after every change.  A client applies a view whose revision
  is not older than the one it shows, so a repeat is harmless.
* ``{"type": "gone"}``: the game was deleted; the socket closes.
* ``{"type": "pong"}``: the answer to a client's ``{"type": "ping"}``.
* ``{"type": "watchers", "count": N}``: how many watch the game (callers without a
  seat, on this server process), whenever it changes (after the first view; nothing
  while nobody watches), to a socket opened with ``?watchers=1`` only.
* ``{"type": "talk", "messages": [...]}``: lines said at the table that this
  socket's reader has not had (:mod:`quads.web.talk_api`): on connecting, the
  newest of the game's, then each new one.  Sent to the two seated players of an
  online game only.
* ``{"type": "acted", "id": N, "revision": R, "view": GameView}`` or ``{"type":
  "refused", "id": N, "status": S, "error": {...}}``: the answer to a client's
  ``{"type": "act", "id": N, "action": ActionRequest}``, which plays one action as
  ``POST /api/games/{id}/actions`` does (:func:`quads.site.games.actions.act`, the same
  checks, the same refusals, the same view).  A socket has one action under way at
  most: the next message is read once it is answered.

A socket for a game its caller may not see is closed with code 4404 (no game),
and one opened from another site with 4403.  One over a limit of
:class:`~quads.web.settings.Settings` (sockets on the game, sockets or opens of
its client address) is closed with 4429, and one opened while the database
cannot be reached with 1013: both mean "try again later".  A message larger
than ``Settings.ws_max_message`` closes the socket with 1009 (the HTTP server
enforces it).

The hub of this process's sockets is :class:`~quads.web.live_hub.LiveHub`.  Pings are answered
without the database, whose calls go through the database lane
(:mod:`quads.web.lane`).  A socket whose read of a change fails (the lane's breaker
open, the database gone for a while) reads again by itself as soon as the lane takes
calls again (:meth:`~quads.web.lane.DatabaseLane.try_again`), whether or not the
client or another change wakes it: every change saved reaches every open socket of
its game once the database answers.

An action sent on the socket costs the server less than one posted over HTTP: no
request to parse and route, and the answer carries the view that the socket would
send anyway.  The page sends its actions here while the socket is open,
and over HTTP otherwise.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from quads.site.errors import SiteError
from quads.site.games import actions, talk
from quads.site.games.seats import load_visible
from quads.storage import (
    GameNotFoundError,
    GameStore,
    StorageError,
    StorageUnavailableError,
    StoredGame,
)
from quads.web.errors import Refusal, invalid, refusal
from quads.web.game_requests import action_of
from quads.web.lane import DatabaseLane, lane_for
from quads.web.live_hub import CLOSE_BUSY, CLOSE_TOKEN_CHANGED, LiveHub, LiveSocket
from quads.web.middleware.identity import CLOSE_UNAVAILABLE, caller
from quads.web.middleware.origins import same_origin
from quads.web.schemas.live import (
    ActMessage,
    ClientMessage,
    GoneMessage,
    PingMessage,
    PongMessage,
    RefusedMessage,
    ServerMessage,
    SyncMessage,
    WatchersMessage,
)
from quads.web.schemas.refusals import ErrorDetail
from quads.web.schemas.talk import TalkMessage, said_view
from quads.web.settings import client_address
from quads.web.wiring import HubOf, StoreOf

__all__ = ["CLOSE_UNAVAILABLE", "router"]

router = APIRouter(prefix="/api")

logger = logging.getLogger(__name__)

def _same_origin(websocket: WebSocket) -> bool:
    """Whether the socket's ``Origin`` is this server's own scheme, host and port
    (:func:`quads.web.middleware.origins.same_origin`); a socket without one is no browser's."""
    origin = websocket.headers.get("origin")
    if origin is None:  # not a browser: bots send no Origin
        return True
    return same_origin(origin, websocket.scope)



_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


_MESSAGE_IDS = range(2**31)
"""The numbers an ``act`` message may carry."""


async def _receive(
        websocket: WebSocket) -> ClientMessage | RefusedMessage | Literal[False] | None:
    """The next client message; ``None`` once the socket is closed.  A message that
    fits no schema is ``False`` (ignored), unless it is an ``act``: that is answered
    with its refusal (``400``)."""
    try:
        text = await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError, KeyError):
        return None
    try:
        return _CLIENT.validate_json(text)
    except ValidationError as exc:
        return _malformed(text, exc)


def _malformed(text: str, exc: ValidationError) -> RefusedMessage | Literal[False]:
    try:
        data = json.loads(text)
    except ValueError:
        return False
    if not isinstance(data, dict) or data.get("type") != "act":
        return False
    number = data.get("id")
    known = type(number) is int and number in _MESSAGE_IDS
    # The errors' places start with the message's type: name the field alone.
    errors = [{**error, "loc": error["loc"][1:]} for error in exc.errors()]
    return _refused(number if known else None, invalid(errors))


def _refused(number: int | None, refused: Refusal) -> RefusedMessage:
    return RefusedMessage(type="refused", id=number, status=refused.status,
                          error=ErrorDetail.model_validate(refused.body()))


async def _answer(websocket: WebSocket, hub: LiveHub, socket: LiveSocket, number: int,
                  acted: StoredGame) -> tuple[int, frozenset[str]]:
    """Send the answer to the ``act`` message ``number``, saved as ``acted``: it
    carries the view, which the socket then need not send again (the state sent is
    returned)."""
    hub.seen(acted)
    if socket.latest is None or acted.revision >= socket.latest.revision:
        socket.latest = acted
    latest = socket.latest
    presence = hub.connected(socket.game_id)
    view = hub.view_json(latest, socket.player, presence)
    await websocket.send_text(
        f'{{"type":"acted","id":{number},"revision":{acted.revision},"view":{view}}}')
    return latest.revision, presence


async def _act(message: ActMessage, hub: LiveHub, store: GameStore, lane: DatabaseLane,
               game_id: str, player: str | None) -> StoredGame | RefusedMessage:
    """Play the action of ``message`` (:func:`quads.site.games.actions.act`): the game as saved,
    or the refusal to send."""
    try:
        action = message.action
        return await lane.run(actions.act, store, hub.publish, game_id, player,
                              action_of(action), action.revision)
    except Exception as exc:
        refused = refusal(exc)
        if refused is None:
            logger.exception("an action on the live socket of game %s failed", game_id)
            refused = Refusal(500, "internal_error", "the server failed on this action")
        return _refused(message.id, refused)


async def _send_talk(websocket: WebSocket, store: GameStore, lane: DatabaseLane,
                     game_id: str, heard: int) -> int:
    """Send the lines of talk numbered above ``heard``, if any; the last one sent.  A
    read that fails is left to the next line said (talk is no part of the game)."""
    try:
        said = await lane.run(store.talk, game_id, heard)
    except StorageError:
        return heard
    if not said:
        return heard
    await _send(websocket, TalkMessage(type="talk", messages=[said_view(s) for s in said]))
    return said[-1].seq


async def _send(websocket: WebSocket, message: ServerMessage) -> None:
    # Nothing is null in a message: what a refusal does not say is left out.
    await websocket.send_text(message.model_dump_json(exclude_none=True))


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    # Accepted only to tell the code (nothing is sent), so that a page knows whether
    # and when to try again.
    await websocket.accept()
    await websocket.close(code=code, reason=reason)


@router.websocket("/games/{game_id}/live")
async def live(websocket: WebSocket, game_id: str, store: StoreOf, hub: HubOf) -> None:
    """The live view of a game (see the module's documentation)."""
    player = caller(websocket)
    if not _same_origin(websocket):
        await _refuse(websocket, 4403, "cross-site socket refused")
        return
    client = client_address(websocket.scope)
    refused = hub.admit(game_id, client)
    if refused is not None:
        await _refuse(websocket, CLOSE_BUSY, refused)
        return
    counted = websocket.query_params.get("watchers") == "1"
    try:
        await _follow(websocket, hub, store, lane_for(store), game_id, player, counted)
    finally:
        hub.release(game_id, client)


async def _follow(websocket: WebSocket, hub: LiveHub, store: GameStore, lane: DatabaseLane,
                  game_id: str, player: str | None, counted: bool = False) -> None:
    try:
        stored = await lane.run(load_visible, store, game_id, player)
    except GameNotFoundError:
        # Accepted first, so that a browser sees the code and stops reconnecting.
        await _refuse(websocket, 4404, "no such game")
        return
    except SiteError:  # private_game: another player's game against the computer
        await _refuse(websocket, 4403, "a private game")
        return
    except StorageUnavailableError:
        await _refuse(websocket, CLOSE_UNAVAILABLE, "the database cannot be reached now")
        return
    await websocket.accept()
    # A change saved after the load above but before the hub knows this socket is
    # published to nobody here: the game is read once more after joining.
    socket = LiveSocket(game_id, player, latest=stored, reload=True, counted=counted)
    # The two players of an online game read the table's talk; nobody else does.
    socket.talk = talk.at_table(stored, player)
    heard = 0
    """The number of the last line of talk sent."""
    watchers = 0
    """The number of those who watch last sent (none is said while none watch)."""
    hub._join(socket)
    sent: tuple[int, frozenset[str]] | None = None
    receiver = asyncio.ensure_future(_receive(websocket))
    loader: asyncio.Future[StoredGame] | None = None
    waiter: asyncio.Future[None] | None = None
    again: asyncio.Future[None] | None = None
    """While a read was refused: done when it is time to read again."""
    try:
        while True:
            # Cleared before the game and the presence are read: a change published
            # while this round loads or sends wakes the next round.
            socket.wake.clear()
            if loader is not None and loader.done():
                try:
                    loaded = loader.result()
                except GameNotFoundError:
                    socket.gone = True
                except StorageError:
                    # A change this socket has not sent may be saved: it reads again by
                    # itself once the database lane takes calls again, whether or not
                    # anything else wakes it.
                    socket.reload = True
                    again = lane.try_again()
                else:
                    if socket.latest is None or loaded.revision >= socket.latest.revision:
                        socket.latest = loaded
                    hub.seen(loaded)
                loader = None
            if again is not None and again.done():
                again = None
            # After a finished read, not before: a change published while it was on its
            # way asked for another read, and nothing else would wake this socket for it.
            if socket.reload and not socket.gone and loader is None and again is None:
                socket.reload = False
                loader = asyncio.ensure_future(hub.load(game_id, store, lane))
            if socket.gone:
                await _send(websocket, GoneMessage(type="gone"))
                await websocket.close(code=1000)
                return
            if socket.ended:
                await websocket.close(code=CLOSE_TOKEN_CHANGED, reason="your token changed")
                return
            latest = socket.latest
            assert latest is not None
            if socket.talk and loader is None:
                socket.talk = False
                if talk.at_table(latest, player):
                    heard = await _send_talk(websocket, store, lane, game_id, heard)
            presence = hub.connected(game_id)
            state = (latest.revision, presence)
            if state != sent and loader is None:
                await websocket.send_text(hub.view_message(latest, player, presence))
                sent = state
            if socket.watchers and sent is not None:  # after the first view
                socket.watchers = False
                count = hub.spectators(game_id)
                if count != watchers:
                    await _send(websocket, WatchersMessage(type="watchers", count=count))
                    watchers = count
            waiter = socket.wake.waiter()
            waiting: set[asyncio.Future[Any]] = {receiver, waiter}
            if loader is not None:
                waiting.add(loader)
            if again is not None:
                waiting.add(again)
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if receiver in done and not socket.ended:
                message = receiver.result()
                if message is None:
                    return
                if isinstance(message, PingMessage):
                    await _send(websocket, PongMessage(type="pong"))
                elif isinstance(message, SyncMessage):
                    sent = None  # the client asks for the view again
                elif isinstance(message, RefusedMessage):
                    await _send(websocket, message)
                elif isinstance(message, ActMessage):
                    acted = await _act(message, hub, store, lane, game_id, player)
                    if isinstance(acted, RefusedMessage):
                        await _send(websocket, acted)
                    else:
                        sent = await _answer(websocket, hub, socket, message.id, acted)
                receiver = asyncio.ensure_future(_receive(websocket))
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        receiver.cancel()
        if waiter is not None:
            waiter.cancel()
        if loader is not None:
            loader.cancel()
        if again is not None:
            again.cancel()
        hub._leave(socket)
