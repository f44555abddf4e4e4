"""The models of the lobby: seeks, quick pairing, players' names, bots (their upgrade
and tokens) and the lobby socket's messages (``/api/lobby/live``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, Field

from quads.web.fields import RulesName
from quads.web.schemas.game_views import GameView
from quads.web.schemas.new_games import FALSE_CALLS_FIELD, ClockSpec, FalseCallsName

__all__ = [
    "NAME_PATTERN",
    "OWNER_KEY_PATTERN",
    "BotList",
    "BotToken",
    "BotUpgrade",
    "BotView",
    "LobbyClientMessage",
    "LobbyServerMessage",
    "NameRequest",
    "OwnerKeyRequest",
    "PairedMessage",
    "PairingAnswer",
    "PairingRequest",
    "PlayerView",
    "SeekGoneMessage",
    "SeekList",
    "SeekMessage",
    "SeekRequest",
    "SeekView",
    "SeeksMessage",
]

NAME_PATTERN = r"^[\w][\w .'-]{0,22}[\w.]$"
"""A player's name: 2 to 24 letters, digits, spaces, dots, apostrophes, hyphens and
underscores, beginning with a letter, digit or underscore."""


def _a_number(value: object) -> object:
    """Refuse ``true`` and ``false`` where a rating is meant (``88.0`` is one)."""
    if isinstance(value, bool):
        raise ValueError("a rating is a number, not true or false")
    return value


_RATED = Field(default=False, strict=True,
               description="A rated game: between accounts only, of a preset rule set; its "
                           "result changes both ratings")
_LOW = Field(default=None, ge=0, le=4000,
             description="Rated only: the lowest rating of an opponent accepted")
_HIGH = Field(default=None, ge=0, le=4000,
              description="Rated only: the highest rating of an opponent accepted")


class SeekRequest(BaseModel):
    """An offer to play, listed in the lobby until someone accepts it."""

    rules: RulesName = "quads"
    false_calls: FalseCallsName | None = FALSE_CALLS_FIELD
    clock: ClockSpec = Field(description="Every lobby game has a clock")
    side: Literal["first", "second", "random"] = Field(
        default="random", description="The seeker's side: `first` hands over first")
    rated: bool = _RATED
    rating_min: Annotated[int | None, BeforeValidator(_a_number)] = _LOW
    rating_max: Annotated[int | None, BeforeValidator(_a_number)] = _HIGH


class SeekView(BaseModel):
    """An open seek, as the lobby lists it."""

    id: str
    rules: str
    calling: Literal["auto", "declare"]
    clock: ClockSpec
    side: Literal["first", "second", "random"]
    name: str = Field(description="The seeker's name")
    created: datetime
    mine: bool = Field(description="The caller's own seek (withdraw it, never accept it)")
    bot: bool = Field(default=False, description="The seeker is a bot (a program)")
    rated: bool = Field(default=False, description="A rated game: only accounts take it")
    rating: int | None = Field(default=None, description="The seeker's rating in the seek's "
                                                         "category (null: no account)")
    provisional: bool = Field(default=False, description="The seeker's `rating` is still "
                                                         "uncertain: shown with a `?`")
    rating_min: int | None = Field(default=None, description="Rated: the lowest rating of a "
                                                             "taker it accepts")
    rating_max: int | None = Field(default=None, description="Rated: the highest rating of "
                                                             "a taker it accepts")


class SeekList(BaseModel):
    """The open seeks, oldest first."""

    seeks: list[SeekView]


class PairingRequest(BaseModel):
    """Play now: meet the oldest compatible seek (rated: the nearest rating within both
    players' bounds), or wait as a new one."""

    rules: RulesName = "quads"
    false_calls: FalseCallsName | None = FALSE_CALLS_FIELD
    clock: ClockSpec
    rated: bool = _RATED
    rating_min: Annotated[int | None, BeforeValidator(_a_number)] = _LOW
    rating_max: Annotated[int | None, BeforeValidator(_a_number)] = _HIGH


class PairingAnswer(BaseModel):
    """Either the game just started (`201`) or the seek that waits (`202`)."""

    game: GameView | None
    seek: SeekView | None


class PlayerView(BaseModel):
    """The caller as others see them."""

    name: str | None = Field(description="Null for a caller who is no player yet")
    bot: str | None = Field(default=None, description="The caller's handle if it made itself a bot")


class BotView(BaseModel):
    """A bot as people find it."""

    bot: str = Field(description="Its handle (POST /api/games/{id}/invite-bot)")
    name: str


class BotList(BaseModel):
    """The bots whose event stream is open, by name."""

    bots: list[BotView]


class BotUpgrade(BaseModel):
    """A player made a bot."""

    bot: str = Field(description="The bot's handle, shown with its name")
    name: str = Field(description="The bot's name, as others see it (PUT /api/players/me)")
    token: str | None = Field(description="The new player's token, for Authorization: Bearer "
                                          "(given once, when this request made the player)")
    owner_key: str = Field(description="The owner's key, given this once: kept apart from "
                                       "the token, it replaces or revokes the bot's token "
                                       "(POST /api/bots/{handle}/token, .../revoke) "
                                       "whoever else holds it")


class BotToken(BaseModel):
    """A bot's new token."""

    token: str = Field(description="The bot's token from now on, for Authorization: Bearer "
                                   "(given this once); the one before is refused")


OWNER_KEY_PATTERN = r"^[A-Za-z0-9_-]{43}$"
"""An owner's key: 256 random bits in URL-safe base 64."""


class OwnerKeyRequest(BaseModel):
    """The owner's key of a bot, which proves the caller its owner."""

    owner_key: str = Field(pattern=OWNER_KEY_PATTERN,
                           description="The key that POST /api/bot/upgrade gave")


class NameRequest(BaseModel):
    """A new name."""

    name: Annotated[str, Field(pattern=NAME_PATTERN, description="2 to 24 letters, digits, "
                                                                 "spaces and . ' - _")]


class SeeksMessage(BaseModel):
    """Every open seek: sent on connecting, and again after the server lost track."""

    type: Literal["seeks"]
    seeks: list[SeekView]


class SeekMessage(BaseModel):
    """A seek opened (or its player renamed)."""

    type: Literal["seek"]
    seek: SeekView


class SeekGoneMessage(BaseModel):
    """A seek was taken, withdrawn, or left by its player."""

    type: Literal["unseek"]
    id: str


class PairedMessage(BaseModel):
    """The caller's seek was accepted (or the caller's pairing met one): the game."""

    type: Literal["paired"]
    game: str
    seek: str


class LobbyPong(BaseModel):
    type: Literal["pong"]


LobbyServerMessage = Annotated[SeeksMessage | SeekMessage | SeekGoneMessage | PairedMessage
                               | LobbyPong, Field(discriminator="type")]
"""A message the server sends on the lobby socket."""


class LobbyPing(BaseModel):
    type: Literal["ping"]


LobbyClientMessage = LobbyPing
"""A message a client may send on the lobby socket (anything else is ignored)."""
