"""The values that requests carry, with exactly the constraints the server enforces.

Each type here is both the check the server makes before a route runs (a value
outside it is refused with ``400``) and what ``/openapi.json`` says of it, so
that a client generated from the document sends only what the server reads.
A value that fits its type but that the rules of the game still refuse (an
impossible position, a record whose moves are illegal, a date that does not
exist) is refused with ``422`` and the code of what was wrong.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, WithJsonSchema

from quads.rules import ALL_TRAITS, Calling, FalseCalls, Rules, ShapeSet
from quads.site.dates import EARLIEST

__all__ = [
    "ACTION_PATTERN",
    "CELL_PATTERN",
    "DATE_PATTERN",
    "EARLIEST",
    "GAME_ID_PATTERN",
    "INVITE_PATTERN",
    "MAX_REVISION",
    "PIECE_PATTERN",
    "POSITION_PATTERN",
    "RULE_SET_NAMES",
    "TIME_PATTERN",
    "TURN_PATTERN",
    "UUID_PATTERN",
    "ActionText",
    "Cell",
    "Level",
    "Piece",
    "PositionText",
    "Revision",
    "RulesName",
    "TimeText",
    "TurnText",
    "json_choice",
    "json_int",
]

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
"""A game's id (the server makes them of 22 URL-safe characters)."""
INVITE_PATTERN = r"^[A-Za-z0-9_-]{1,100}$"
"""An invitation token, the last part of ``/join/TOKEN``."""
CELL_PATTERN = r"^[A-D][1-4]$"
PIECE_PATTERN = r"^[0-9A-F]$"
POSITION_PATTERN = r"^[0-9A-F.]{4}/[0-9A-F.]{4}/[0-9A-F.]{4}/[0-9A-F.]{4} [0-9A-F-]$"
"""A position string (``docs/notation.md``): four rows from row 1, then the piece in hand."""
TURN_PATTERN = r"^(?:[A-D][1-4][0-9A-F]?|[0-9A-F])$"
"""A turn as a record token: ``A1F`` (place, then hand over), ``A1`` or ``F``."""
DATE_PATTERN = r"^(?:today|[0-9]{4}-[0-9]{2}-[0-9]{2})$"
TIME_PATTERN = (r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?"
                r"(?:Z|[+-][0-9]{2}:[0-9]{2})$")
"""A moment in ISO 8601 with its offset, as the browser's ``Date.toISOString()`` writes
it (``2026-11-30T09:12:03.120Z``); one that no calendar has is ``422 invalid_date``."""
UUID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
"""An id a client makes up itself (a game played on a device, a puzzle attempt): a UUID
in lower case, as the browser's ``crypto.randomUUID()`` writes it."""
ACTION_PATTERN = (r"^(?:give [0-9A-F]|place [A-D][1-4]|declare|claim|decline"
                  r"|resign (?:first|second))$")
"""An action as the store writes it (:func:`quads.storage.stored.action_text`)."""
MAX_REVISION = 2**31 - 1
"""The largest revision a request may send, a game's or a device's: the largest that the
store's INTEGER columns hold on every engine (PostgreSQL's are 32 bits), far beyond
what any game reaches one change at a time."""


def _rule_set_names() -> tuple[str, ...]:
    names = {
        Rules(shapes, traits, calling, false_calls).name
        for shapes in ShapeSet for traits in range(1, ALL_TRAITS + 1) for calling in Calling
        for false_calls in FalseCalls
        if calling is Calling.DECLARE or false_calls is FalseCalls.FREE
    }
    presets = ("quads", "classic", "advanced")
    return presets + tuple(sorted(names - set(presets)))


RULE_SET_NAMES = _rule_set_names()
"""Every rule set's name as the API writes it: the presets, then ``SHAPES:TRAITS:CALLING``
with the traits in their fixed order; either followed by ``:forfeit-calls`` or
``:losing-calls`` when false calls cost something."""


def _known_rules(name: str) -> str:
    if name not in RULE_SET_NAMES:
        raise ValueError("unknown rule set: expected a preset (quads, classic, advanced) or "
                         "SHAPES:TRAITS:CALLING as the API writes it, e.g. "
                         "lines:color,height:auto, then :forfeit-calls or :losing-calls if "
                         "false calls cost something")
    return name


def _integral(value: Any) -> Any:
    """Accept a JSON number with no fraction (``3`` or ``3.0``), as JSON Schema's
    ``integer`` does; refuse text and booleans."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("expected an integer")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError("expected an integer")
        return int(value)
    return value


RulesName = Annotated[
    str,
    AfterValidator(_known_rules),
    WithJsonSchema({"type": "string", "enum": list(RULE_SET_NAMES),
                    "description": "A rule set: a preset, or SHAPES:TRAITS:CALLING"}),
]
"""A rule set's name, one of :data:`RULE_SET_NAMES`."""

def json_int(low: int, high: int, description: str | None = None) -> Any:
    """An integer from ``low`` to ``high`` as JSON Schema reads one: ``3`` or ``3.0``,
    never ``"3"`` or ``true``."""
    schema: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": high}
    if description:
        schema["description"] = description

    def in_range(value: int) -> int:
        if not low <= value <= high:
            raise ValueError(f"expected an integer from {low} to {high}")
        return value

    return Annotated[int, BeforeValidator(_integral), AfterValidator(in_range),
                     WithJsonSchema(schema)]


def json_choice(values: tuple[int, ...], description: str | None = None) -> Any:
    """One of the integers ``values``, read as :func:`json_int` reads an integer."""
    schema: dict[str, Any] = {"type": "integer", "enum": list(values)}
    if description:
        schema["description"] = description

    def chosen(value: int) -> int:
        if value not in values:
            raise ValueError(f"expected one of {', '.join(map(str, values))}")
        return value

    return Annotated[int, BeforeValidator(_integral), AfterValidator(chosen),
                     WithJsonSchema(schema)]


Revision = json_int(0, MAX_REVISION, "The game's revision, as the client last saw it")
Level = json_int(1, 5, "The computer's level, 1 to 5")
Cell = Annotated[str, Field(pattern=CELL_PATTERN, description="A cell, `A1` .. `D4`")]
Piece = Annotated[str, Field(pattern=PIECE_PATTERN, description="A piece, `0` .. `F`")]
PositionText = Annotated[str, Field(pattern=POSITION_PATTERN,
                                    description="A position string, e.g. `0.../..../..../.... 5`"
                                                " (`-`: no piece in hand)",
                                    examples=["..../..../..../.... -", "0.../1.../2.../.... 3",
                                              "F..0/..A./..../.3.. 7"])]
ActionText = Annotated[str, Field(
    pattern=ACTION_PATTERN,
    description="An action: `give 7`, `place B2`, `declare`, `claim`, `decline`, "
                "`resign first` or `resign second`")]
TimeText = Annotated[str, Field(
    pattern=TIME_PATTERN,
    description="A moment: `2026-11-30T09:12:03.120Z`, or with an offset such as `+01:00`")]
TurnText = Annotated[str, Field(pattern=TURN_PATTERN,
                                description="A turn as a record token: `A1F`, `A1` or `F`")]
