"""An analysis of a position, and a finished game's review."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from quads.site.games.seats import Side
from quads.web.schemas.game_views import HintValue

__all__ = [
    "AnalysisView",
    "ReviewView",
    "TurnRef",
    "TurnReviewView",
    "TurnValueView",
]



class TurnValueView(BaseModel):
    """One legal turn and its value for the player making it."""

    place: str | None = Field(description="The cell the piece in hand goes to, if any")
    give: str | None = Field(description="The piece handed over, if any")
    value: HintValue = Field(description="`unknown` when the time ran out before it was known")
    plies: int | None = Field(description="Placements to the end for a win or a loss")


class AnalysisView(BaseModel):
    """Every legal turn of a position with its value, best first."""

    position: str = Field(description="The position, as read")
    rules: str = Field(description="The rule set's name")
    value: HintValue = Field(description="The position's value for the side to move")
    plies: int | None = Field(description="Placements to the end for a win or a loss")
    source: Literal["book", "search"] = Field(
        description="`book`: read from the opening book; `search`: solved now, within a "
                    "few seconds")
    complete: bool = Field(description="Whether every turn's value is known")
    moves: list[TurnValueView]


class TurnRef(BaseModel):
    """A turn: a placement, a hand-over, or both."""

    place: str | None
    give: str | None


class TurnReviewView(BaseModel):
    """One turn of a finished game, judged."""

    ply: int = Field(description="The index of the turn's first action in the game")
    position: str = Field(description="The position before the turn")
    player: Side
    turn: TurnRef
    before: HintValue = Field(description="The position's value for the player, before")
    before_plies: int | None
    after: HintValue = Field(description="The value of the turn played, for the player")
    after_plies: int | None
    best: TurnRef | None = Field(description="A best turn")
    threw_away: Literal["win", "draw"] | None = Field(
        description="`win` or `draw` when the turn left a worse value than the position had")


class ReviewView(BaseModel):
    """Every turn of a finished game with its value before and after."""

    turns: list[TurnReviewView]
