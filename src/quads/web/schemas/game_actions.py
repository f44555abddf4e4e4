"""The requests that change a game: an action, an undo's answer, a claim, a join."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from quads.web.fields import (
    INVITE_PATTERN,
    Cell,
    Piece,
    Revision,
)

__all__ = [
    "AbandonClaim",
    "ActionRequest",
    "ClaimAction",
    "DeclareAction",
    "DeclineAction",
    "DrawAnswer",
    "GiveAction",
    "JoinRequest",
    "PlaceAction",
    "RevisionRequest",
    "UndoAnswer",
]



class RevisionRequest(BaseModel):
    """The revision of the game the client has seen (``GameView.revision``)."""

    revision: Revision


class PlaceAction(RevisionRequest):
    """Place the piece in hand on ``cell``."""

    action: Literal["place"]
    cell: Cell


class GiveAction(RevisionRequest):
    """Hand ``piece`` over to the opponent."""

    action: Literal["give"]
    piece: Piece


class DeclareAction(RevisionRequest):
    """Declare ("Quarto!") the winning shape one's own placement just completed."""

    action: Literal["declare"]


class ClaimAction(RevisionRequest):
    """Claim, before placing, a winning shape the opponent did not declare."""

    action: Literal["claim"]


class DeclineAction(RevisionRequest):
    """End the game without declaring after the sixteenth piece (a draw)."""

    action: Literal["decline"]


ActionRequest = Annotated[
    PlaceAction | GiveAction | DeclareAction | ClaimAction | DeclineAction,
    Field(discriminator="action"),
]
"""One action of a person: ``cell`` comes with ``place``, ``piece`` with ``give``."""


class AbandonClaim(RevisionRequest):
    """Claim a game the opponent left during their turn: the win, or a draw."""

    draw: bool = Field(default=False, description="Take a draw instead of the win")


class UndoAnswer(RevisionRequest):
    """The other player's answer to an undo request in an online game."""

    accept: bool = Field(strict=True)


class DrawAnswer(RevisionRequest):
    """The other player's answer to a draw offer in an online game."""

    accept: bool = Field(strict=True)


class JoinRequest(BaseModel):
    """The invitation token of an online game (the last part of its `/join/TOKEN` path)."""

    invite: str = Field(pattern=INVITE_PATTERN)
