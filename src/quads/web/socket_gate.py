"""The door of the live sockets that many pages share (the lobby's, a tournament's):
a page of another site is refused (closed with 4403), and so is a socket past the
limits of sockets on one key and from one address (4429, :meth:`LiveHub.admit
<quads.web.live_hub.LiveHub.admit>`); and what such a socket hears from its page,
pings only (:func:`heard`)."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from quads.web.live_hub import CLOSE_BUSY, LiveHub
from quads.web.middleware.origins import same_origin
from quads.web.schemas.lobby import LobbyPing, LobbyPong
from quads.web.settings import client_address

__all__ = ["admit", "heard"]


async def admit(websocket: WebSocket, hub: LiveHub, key: str, most: int) -> str | None:
    """Let ``websocket`` in on ``key`` (``most`` sockets there at most): the client
    address it counts against, to give back with ``hub.release(key, client)``; or
    ``None`` when it was refused (and closed)."""
    origin = websocket.headers.get("origin")
    if origin is not None and not same_origin(origin, websocket.scope):
        await websocket.accept()
        await websocket.close(code=4403, reason="cross-site socket refused")
        return None
    client = client_address(websocket.scope)
    refused = hub.admit(key, client, most=most)
    if refused is not None:
        await websocket.accept()
        await websocket.close(code=CLOSE_BUSY, reason=refused)
        return None
    return client


async def heard(websocket: WebSocket, received: asyncio.Future[str]) -> bool:
    """Answer what the page sent (``received``, done): a ping is answered with a pong,
    anything else is let be; ``False`` when the page has gone."""
    try:
        text = received.result()
    except (WebSocketDisconnect, RuntimeError, KeyError):
        return False
    with contextlib.suppress(ValidationError):
        LobbyPing.model_validate_json(text)
        await websocket.send_text(LobbyPong(type="pong").model_dump_json())
    return True
