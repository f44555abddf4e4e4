"""The lobby, live: every page in the lobby holds a WebSocket on ``/api/lobby/live``
and hears of every seek opened and gone, and of its own seek accepted.

The lobby's hub of this process (:class:`~quads.web.lobby_hub.LobbyHub`) keeps a
mirror of the open seeks, which it sends without asking the database.  Messages are
the models of
:mod:`quads.web.schemas.lobby`:

* ``{"type": "seeks", "seeks": [...]}``: every open seek, on connecting (and when
  the socket fell too far behind, or the server lost track);
* ``{"type": "seek", "seek": ...}`` and ``{"type": "unseek", "id": ...}``;
* ``{"type": "paired", "game": ID, "seek": ID}``: to both players' lobby sockets
  when a seek of theirs started a game;
* ``{"type": "pong"}`` to a client's ``{"type": "ping"}``.

A socket whose messages pile up (a slow reader) is sent the whole list once it
reads again, instead of every change.
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from quads.web.lobby_hub import LOBBY_KEY
from quads.web.middleware.identity import caller
from quads.web.socket_gate import admit
from quads.web.wiring import HubOf, LobbyHubOf

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.websocket("/lobby/live")
async def lobby_live(websocket: WebSocket, lobby: LobbyHubOf, hub: HubOf) -> None:
    """The live lobby (see the module's documentation)."""
    client = await admit(websocket, hub, LOBBY_KEY, lobby.settings.lobby_sockets)
    if client is None:
        return
    try:
        await lobby.serve(websocket, caller(websocket))
    finally:
        hub.release(LOBBY_KEY, client)
