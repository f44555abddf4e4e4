"""The requests that start a game: a new one, one from a record, one played on a
device and uploaded."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from quads.site.games.seats import Side
from quads.web.fields import (
    MAX_REVISION,
    ActionText,
    Level,
    RulesName,
    TimeText,
    json_choice,
    json_int,
)

__all__ = [
    "DAYS",
    "MAX_ACTIONS",
    "RECORD_MAX",
    "ClockSpec",
    "ComputerGame",
    "CorrespondenceClock",
    "DeviceComputer",
    "DeviceLocal",
    "DeviceUpload",
    "ImportAsRecorded",
    "ImportComputer",
    "ImportGame",
    "ImportLocal",
    "ImportOnline",
    "LocalGame",
    "NewGame",
    "OnlineGame",
    "RealTimeClock",
    "Record",
    "TraitName",
]


TraitName = Literal["height", "color", "shape", "top"]

FalseCallsName = Literal["free-calls", "forfeit-calls", "losing-calls"]
"""What a call with nothing to call costs (:class:`quads.rules.FalseCalls`)."""

FALSE_CALLS_FIELD = Field(
    default=None,
    description="`declare` calling: what a call with nothing to call costs: refused "
                "(`free-calls`), the caller's next chance to call (`forfeit-calls`) or the "
                "game (`losing-calls`). Left out: what the rules' name says, else "
                "`losing-calls` between two people online")


class LocalGame(BaseModel):
    """Two people on one device."""

    mode: Literal["local"]
    rules: RulesName = "quads"


class ComputerGame(BaseModel):
    """A person against the computer."""

    mode: Literal["computer"]
    rules: RulesName = "quads"
    level: Level
    human: Side = Field(description="The side the person plays")


DAYS = (1, 2, 3, 7)
"""The days a correspondence move may have."""


class RealTimeClock(BaseModel):
    """A real-time clock: ``initial`` seconds for the game, ``increment`` more after
    each turn."""

    model_config = ConfigDict(extra="forbid")

    initial: json_int(5, 10_800, "Seconds for the whole game, 5 at least")  # type: ignore[valid-type]
    increment: json_int(0, 180, "Seconds added after each turn")  # type: ignore[valid-type]


class CorrespondenceClock(BaseModel):
    """A correspondence clock: ``days`` for each move."""

    model_config = ConfigDict(extra="forbid")

    days: json_choice(DAYS, "Days for each move")  # type: ignore[valid-type]


ClockSpec = RealTimeClock | CorrespondenceClock
"""A time control: ``{"initial": SECONDS, "increment": SECONDS}`` or ``{"days": N}``."""


class OnlineGame(BaseModel):
    """Two people on two devices: the creator takes a seat and invites the other."""

    mode: Literal["online"]
    rules: RulesName = "quads"
    host: Side | None = Field(
        default=None,
        description="The seat of the creator (`first` hands over first); `first` when left out")
    clock: ClockSpec | None = Field(
        default=None, description="The time control; none for a game without a clock. The "
                                  "clock starts once the second player joins")
    false_calls: FalseCallsName | None = FALSE_CALLS_FIELD
    safe_pieces: bool = Field(default=False, strict=True, description=(
        "Whether both players may show the pieces safe to hand over (the same help for "
        "both: the guest agrees by joining); not in a rated game. Hints and values are "
        "never given in a game between two people"))
    rated: bool = Field(default=False, strict=True,
                        description="Whether the result changes both players' "
                                                   "ratings: the creator and whoever joins "
                                                   "must have accounts, the rules be a preset "
                                                   "and the game have a clock")


NewGame = Annotated[LocalGame | ComputerGame | OnlineGame, Field(discriminator="mode")]
"""A new game from the empty board: who plays (``mode``) decides the other fields."""

RECORD_MAX = 60_000
"""The longest record a request may carry, in characters (the body limit is 64 KiB)."""

Record = Annotated[str, Field(min_length=1, max_length=RECORD_MAX,
                              description="A game record, see `docs/record-format.md`")]


class ImportAsRecorded(BaseModel):
    """Who plays as the record's ``Mode``, ``Level`` and ``Human`` headers say (the record
    download writes them); a record without them opens as a ``local`` game."""

    record: Record
    mode: None = Field(default=None, description="Left out: as the record's headers say")


class ImportLocal(BaseModel):
    """The record's game, on one device."""

    record: Record
    mode: Literal["local"]


class ImportComputer(BaseModel):
    """The record's game, against the computer."""

    record: Record
    mode: Literal["computer"]
    level: Level
    human: Side = Field(description="The side the person plays")


class ImportOnline(BaseModel):
    """The record's game, online: the importer takes the first seat and invites the other."""

    record: Record
    mode: Literal["online"]


def _import_tag(body: Any) -> str:
    mode = body.get("mode") if isinstance(body, dict) else getattr(body, "mode", None)
    return "recorded" if mode is None else str(mode)


ImportGame = Annotated[
    Annotated[ImportAsRecorded, Tag("recorded")] | Annotated[ImportLocal, Tag("local")]
    | Annotated[ImportComputer, Tag("computer")] | Annotated[ImportOnline, Tag("online")],
    Discriminator(_import_tag),
]
"""A game replayed from a record, to go on playing; who plays as ``mode`` says, or as
the record's headers say when ``mode`` is left out."""


MAX_ACTIONS = 33
"""The most actions a game holds: 16 hand-overs, 16 placements and the declaration,
decline or resignation that ends it."""


class _DeviceGame(BaseModel):
    """What every upload of a game played on a device carries."""

    rules: RulesName
    actions: list[ActionText] = Field(
        max_length=MAX_ACTIONS,
        description="The actions played, from the empty board, in order (a resignation "
                    "last, if any)")
    redo: list[ActionText] = Field(
        default_factory=list, max_length=MAX_ACTIONS,
        description="The actions undone that redo would play again, the next one first")
    created: TimeText = Field(
        description="When the game was started on the device (ISO 8601 with its offset); "
                    "a time after the server's now counts as now")
    device_revision: json_int(  # type: ignore[valid-type]
        0, MAX_REVISION,
        "The game's revision on the device, which moves on with every change there: an "
        "upload not newer than the one stored changes nothing")


class DeviceLocal(_DeviceGame):
    """A game of two people on the device."""

    mode: Literal["local"]


class DeviceComputer(_DeviceGame):
    """A game against the computer on the device."""

    mode: Literal["computer"]
    level: Level
    human: Side = Field(description="The side the person plays")


DeviceUpload = Annotated[DeviceLocal | DeviceComputer, Field(discriminator="mode")]
"""A game played on a device, as the device has it now: who plays (``mode``) decides the
other fields."""
