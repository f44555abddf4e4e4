"""The quick messages of a game's table (``/api/games/{game_id}/talk``, and the
``talk`` message of its live socket)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from quads.site.games.seats import side_name
from quads.site.games.talk import Preset
from quads.storage.talk import Said

__all__ = ["SaidView", "TalkMessage", "TalkRequest", "TalkView", "said_view"]


class TalkRequest(BaseModel):
    """A line to say at the table: one of the presets, which each reader's page words in
    their own language.  Nothing else: free text has no place here."""

    model_config = ConfigDict(extra="forbid")

    message: Preset = Field(description=(
        "`hello`, `good_luck`, `well_played`, `thanks`, `oops` or `rematch`"))


class SaidView(BaseModel):
    """One line said at the table."""

    seq: int = Field(ge=1, description="Its number in the game, from 1")
    side: Literal["first", "second"] = Field(description="The seat that said it")
    message: Preset
    at: datetime


class TalkView(BaseModel):
    """What was said at the table after a number, oldest first (the newest 50 at
    most)."""

    messages: list[SaidView]


class TalkMessage(BaseModel):
    """Lines said at the table that the socket's reader has not had yet, oldest first:
    on connecting (the newest of the game's), and whenever a player says one.  Sent to
    the two seated players only."""

    type: Literal["talk"]
    messages: list[SaidView]


def said_view(said: Said) -> SaidView:
    """The model of ``said``."""
    return SaidView.model_validate({"seq": said.seq, "side": side_name(said.side),
                                    "message": said.message, "at": said.at})
