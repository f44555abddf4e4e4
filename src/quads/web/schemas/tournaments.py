"""Tournaments (``/api/tournaments``): an arena to make, the lists of events, one
event with its standings and games.  Players are named by their accounts' names only;
no player id is ever shown."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from quads.web.fields import RulesName

__all__ = [
    "EventGameView",
    "StandingView",
    "TournamentList",
    "TournamentRequest",
    "TournamentSummary",
    "TournamentView",
]


class TournamentRequest(BaseModel):
    """An event to make: an arena of `minutes`, or a Swiss event of `rounds`; its
    rules, real-time clock, whether it is rated, when it starts (now when not given)
    and the rated games of its category a player must have played to join (a rated
    event only)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["arena", "swiss"] = "arena"
    name: str = Field("", max_length=60, description="A name of its own (may be empty)")
    rules: RulesName = "quads"
    clock: str = Field("180+2", max_length=16, description="`SECONDS+INCREMENT`, e.g. `180+2`")
    minutes: int = Field(60, ge=1, le=10_000,
                         description="An arena's length: 5 to 720 minutes")
    rounds: int = Field(5, ge=1, le=100, description="A Swiss event's rounds: 2 to 15")
    rated: bool = False
    starts: datetime | None = Field(None, description="When it starts (UTC); now if not given")
    min_rated: int = Field(0, ge=0, le=10_000,
                           description="Rated games of its category needed to join (0 to 500)")


class TournamentSummary(BaseModel):
    """An event as the lists show it."""

    id: str
    kind: Literal["arena", "swiss"]
    name: str
    rules: str
    clock: str
    rated: bool
    min_rated: int
    starts: datetime
    ends: datetime
    status: Literal["created", "started", "finished"]
    players: int = Field(ge=0, description="Players who joined")
    by_site: bool = Field(description="Scheduled by the site, not made by a player")
    rounds: int | None = Field(description="A Swiss event's rounds; null for an arena")
    round: int = Field(ge=0, description="A Swiss event's round being played (0 before "
                                         "the first)")


class TournamentList(BaseModel):
    """The events: to come (the soonest first), running, and over (the latest first);
    50 of each at most."""

    created: list[TournamentSummary]
    started: list[TournamentSummary]
    finished: list[TournamentSummary]


class StandingView(BaseModel):
    """A player's line of the standings."""

    rank: int = Field(ge=1)
    name: str = Field(description="The account's name")
    points: float = Field(ge=0)
    sheet: list[float] = Field(description="The points of each game (a Swiss event's: "
                                           "of each round), oldest first")
    on_fire: bool = Field(description="Two wins in a row: the next game counts double")
    games: int = Field(ge=0)
    performance: int | None = Field(description="The rating the results are worth")
    rating: int = Field(description="The rating when they joined")
    paused: bool
    bot: bool = Field(description="Whether the player is a bot")
    buchholz: float | None = Field(description="A Swiss event's first tie-break: the "
                                               "points of the opponents met")
    sonneborn_berger: float | None = Field(description="A Swiss event's second tie-break: "
                                                       "the points of the opponents beaten, "
                                                       "half of those drawn")
    you: bool = Field(description="Whether this is the caller's line")


class EventGameView(BaseModel):
    """A game of the event: its players by their names, who hands over first, and its
    result once over (`aborted`: counted for nobody)."""

    id: str
    first: str
    second: str
    result: Literal["first", "second", "draw", "aborted"] | None
    round: int | None = Field(description="A Swiss event's round of the game")


class TournamentView(TournamentSummary):
    """An event with its standings (the leader first) and its games (the latest
    first, 100 at most), and whether the caller is in it now."""

    standings: list[StandingView]
    games: list[EventGameView]
    joined: bool = Field(description="Whether the caller is in the event and not paused")
    playing: str | None = Field(description="The id of the caller's game of the event "
                                            "being played now")
    at: datetime = Field(description="The server's time of this view (for countdowns)")
    read: datetime = Field(description="When the event was read for this view: of two "
                                       "views, the one read later is the newer")


class TournamentMe(BaseModel):
    """The caller's own part of an event: their name in its standings (null when they
    never joined), whether they are in it and not paused, and their game of it being
    played now."""

    name: str | None
    joined: bool
    playing: str | None


class TournamentMessage(BaseModel):
    """On the live socket: the event as everybody sees it (`you` false on every line,
    `joined` false, `playing` null), whenever it changed, and on connecting."""

    type: Literal["tournament"]
    tournament: TournamentView


class TournamentMeMessage(BaseModel):
    """On the live socket: the caller's own part, after each `tournament` message."""

    type: Literal["me"]
    me: TournamentMe
