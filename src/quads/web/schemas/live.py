"""The messages of a game's live socket (``/api/games/{game_id}/live``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from quads.web.fields import Revision
from quads.web.schemas.game_actions import ActionRequest
from quads.web.schemas.game_views import GameView
from quads.web.schemas.refusals import ErrorDetail
from quads.web.schemas.talk import TalkMessage

__all__ = [
    "ActMessage",
    "ActedMessage",
    "ClientMessage",
    "GoneMessage",
    "MessageId",
    "PingMessage",
    "PongMessage",
    "RefusedMessage",
    "ServerMessage",
    "SyncMessage",
    "ViewMessage",
    "WatchersMessage",
]



class ViewMessage(BaseModel):
    """The game as it stands, as the socket's caller sees it: sent on connecting, after
    every saved change, and when a player connects or leaves."""

    type: Literal["view"]
    view: GameView


class GoneMessage(BaseModel):
    """The game was deleted; the server closes the socket."""

    type: Literal["gone"]


class PongMessage(BaseModel):
    """The answer to a ``ping``."""

    type: Literal["pong"]


class PingMessage(BaseModel):
    """Ask for a ``pong`` (to keep a connection alive, or to test it)."""

    type: Literal["ping"]


class SyncMessage(BaseModel):
    """Ask for the view again."""

    type: Literal["sync"]


MessageId = Annotated[int, Field(strict=True, ge=0, le=2**31 - 1, description=(
    "The client's number for an ``act`` message, repeated in its answer"))]


class ActMessage(BaseModel):
    """Play one action, as ``POST /api/games/{id}/actions`` does: answered by
    ``acted`` or ``refused`` with the same ``id``."""

    type: Literal["act"]
    id: MessageId
    action: ActionRequest


class ActedMessage(BaseModel):
    """The action of the ``act`` message ``id`` was saved as ``revision``; ``view`` is
    the game as it stands after it (that revision or a newer one), as the socket's
    caller sees it: the answer ``POST /api/games/{id}/actions`` would have given."""

    type: Literal["acted"]
    id: MessageId
    revision: Revision
    view: GameView


class RefusedMessage(BaseModel):
    """The action of the ``act`` message ``id`` was refused, with the status and
    ``error`` an HTTP request would have been answered; nothing changed.  ``id`` is
    left out for a message too malformed to tell its number."""

    type: Literal["refused"]
    id: MessageId | None = None
    status: int
    error: ErrorDetail


class WatchersMessage(BaseModel):
    """How many watch the game (sockets of callers without a seat in it, on the server
    process of this socket): sent whenever the number changes, after the first view
    (nothing is said while nobody ever watched), to a socket opened with
    ``?watchers=1``."""

    type: Literal["watchers"]
    count: int = Field(ge=0)


ServerMessage = Annotated[
    ViewMessage | GoneMessage | PongMessage | ActedMessage | RefusedMessage | TalkMessage
    | WatchersMessage,
    Field(discriminator="type")]
"""A message the server sends on a live socket."""

ClientMessage = Annotated[PingMessage | SyncMessage | ActMessage, Field(discriminator="type")]
"""A message a client may send on a live socket (anything else is ignored)."""
