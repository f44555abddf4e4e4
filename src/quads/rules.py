"""Rule sets: which shapes win, which traits count, and how a win is called.

A :class:`Rules` value is three independent choices, and under ``declare``
calling a fourth: what a false call costs (:class:`FalseCalls`).  It has a stable
text name (:attr:`Rules.name`) that :meth:`Rules.parse` reads back, so a rule set
can be stored and passed on a command line:

* a preset: ``quads`` (the default), ``classic`` or ``advanced``;
* otherwise ``SHAPES:TRAITS:CALLING``, e.g. ``lines:color,height:auto``;
* either followed by the false calls' part when they are not free, e.g.
  ``classic:losing-calls`` or ``lines:color,height:declare:forfeit-calls``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property

from quads.errors import InvalidRulesError
from quads.pieces import TRAITS, Trait
from quads.shapes import LINES, SHAPES, Shape

__all__ = [
    "ADVANCED",
    "ALL_TRAITS",
    "CLASSIC",
    "PRESETS",
    "QUADS",
    "Calling",
    "FalseCalls",
    "Rules",
    "ShapeSet",
    "parse_traits",
]


class ShapeSet(enum.Enum):
    """Which shapes can win."""

    LINES = "lines"
    """Rows, columns and the two long diagonals (10 shapes)."""
    LINES_SQUARES = "lines+squares"
    """The lines and the nine 2x2 squares (19 shapes)."""


class Calling(enum.Enum):
    """How a completed winning shape turns into a win."""

    AUTO = "auto"
    """The placement that completes a winning shape wins at once."""
    DECLARE = "declare"
    """The placer must declare the win; a missed one may be claimed once."""


class FalseCalls(enum.Enum):
    """What a call with nothing to call costs under ``declare`` calling: a
    declaration after a placement that completed no winning shape, or a claim when
    the opponent missed none.

    A call that costs nothing answers, for free, whether the last placement
    completed a shape: with it, calling after every placement would make noticing a
    win, the skill that ``declare`` calling tests, worth nothing.
    """

    FREE = "free-calls"
    """The false call is refused and changes nothing (teaching, casual games)."""
    FORFEIT = "forfeit-calls"
    """The false call is part of the game and costs the caller their next chance to
    call: after a false claim they may not declare what this turn's placement
    completes, after a false declaration they may not claim on their next turn."""
    LOSING = "losing-calls"
    """The false call loses the game."""


ALL_TRAITS = 0b1111


@dataclass(frozen=True)
class Rules:
    """A rule set.  Immutable and hashable; compare with ``==``."""

    shapes: ShapeSet = ShapeSet.LINES_SQUARES
    traits: int = ALL_TRAITS
    """The counted traits, as a mask of :attr:`Trait.mask` bits (non-empty)."""
    calling: Calling = Calling.AUTO
    false_calls: FalseCalls = FalseCalls.FREE
    """What a false call costs; anything but free only under ``declare`` calling."""

    def __post_init__(self) -> None:
        if isinstance(self.traits, bool) or not isinstance(self.traits, int):
            raise InvalidRulesError(f"invalid trait mask {self.traits!r}", "traits")
        if not 0 < self.traits <= ALL_TRAITS:
            raise InvalidRulesError(
                f"invalid trait mask {self.traits!r}: at least one of the four traits must count",
                "traits"
            )
        if not isinstance(self.shapes, ShapeSet) or not isinstance(self.calling, Calling):
            raise InvalidRulesError(f"invalid rule set {self.shapes!r}, {self.calling!r}", "rules")
        if not isinstance(self.false_calls, FalseCalls):
            raise InvalidRulesError(f"invalid false calls {self.false_calls!r}", "rules")
        if self.false_calls is not FalseCalls.FREE and self.calling is not Calling.DECLARE:
            raise InvalidRulesError(
                f"{self.false_calls.value} needs declare calling: under {self.calling.value} "
                "calling nothing is called", "rules")

    # -- derived data -------------------------------------------------------

    @cached_property
    def winning_shapes(self) -> tuple[Shape, ...]:
        """The shapes that can win under these rules."""
        return LINES if self.shapes is ShapeSet.LINES else SHAPES

    @cached_property
    def shape_masks(self) -> tuple[int, ...]:
        """The cell masks of :attr:`winning_shapes`, in the same order."""
        return tuple(shape.cells for shape in self.winning_shapes)

    @cached_property
    def counted_traits(self) -> tuple[Trait, ...]:
        """The counted traits in their conventional order."""
        return tuple(t for t in TRAITS if self.traits & t.mask)

    @property
    def declare(self) -> bool:
        """Whether wins must be declared (``Calling.DECLARE``)."""
        return self.calling is Calling.DECLARE

    @property
    def free_calls(self) -> bool:
        """Whether a false call is refused and changes nothing (``FalseCalls.FREE``)."""
        return self.false_calls is FalseCalls.FREE

    # -- names --------------------------------------------------------------

    @cached_property
    def name(self) -> str:
        """The stable text name: a preset name where one matches, else
        ``SHAPES:TRAITS:CALLING``; then ``:`` and the false calls' part unless they
        are free."""
        base = self.with_false_calls(FalseCalls.FREE)
        found = next((name for name, preset in PRESETS.items() if preset == base), None)
        if found is None:
            traits = ",".join(t.identifier for t in self.counted_traits)
            found = f"{self.shapes.value}:{traits}:{self.calling.value}"
        return found if self.free_calls else f"{found}:{self.false_calls.value}"

    def __str__(self) -> str:
        return self.name

    def with_traits(self, traits: int) -> Rules:
        """Return the same rule set counting only ``traits`` (a trait mask)."""
        return Rules(self.shapes, traits, self.calling, self.false_calls)

    def with_false_calls(self, false_calls: FalseCalls) -> Rules:
        """Return the same rule set with ``false_calls``.

        :raises InvalidRulesError: for a false call that costs anything without
            ``declare`` calling.
        """
        return Rules(self.shapes, self.traits, self.calling, false_calls)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read a rule-set name: a preset, or ``SHAPES:TRAITS:CALLING``.

        The parts may come in any order and any may be left out; what is
        left out is taken from ``quads`` (lines+squares, all traits, auto).
        Trait lists are comma-separated, e.g. ``lines:color,height``.  The false
        calls' part (``free-calls``, ``forfeit-calls``, ``losing-calls``) may follow
        a preset or come among the parts; left out, false calls are free.

        :raises InvalidRulesError: if the name or one of its parts is not understood.
        """
        if not isinstance(text, str):
            raise InvalidRulesError(f"invalid rule set {text!r}", "rules")
        key = text.strip().lower()
        if key in PRESETS:
            return PRESETS[key]
        if not key:
            raise InvalidRulesError(f"invalid rule set {text!r}: empty name", "rules",
                                        rules=text)
        parts = [part.strip() for part in key.split(":")]
        false_calls: FalseCalls | None = None
        for part in parts:
            if part in _FALSE_CALLS:
                if false_calls is not None:
                    raise InvalidRulesError(
                        f"invalid rule set {text!r}: false calls given twice", "rules",
                        rules=text)
                false_calls = FalseCalls(part)
        parts = [part for part in parts if part not in _FALSE_CALLS]
        if len(parts) == 1 and parts[0] in PRESETS:
            base = PRESETS[parts[0]]
        else:
            base = cls._parts(text, parts)
        try:
            return base.with_false_calls(false_calls or FalseCalls.FREE)
        except InvalidRulesError as exc:
            raise InvalidRulesError(f"invalid rule set {text!r}: {exc}", "rules",
                                    rules=text) from None

    @classmethod
    def _parts(cls, text: str, parts: list[str]) -> Rules:
        """The rule set of the parts of ``text`` other than its false calls'."""
        shapes: ShapeSet | None = None
        calling: Calling | None = None
        traits: int | None = None
        if not parts:
            raise InvalidRulesError(f"invalid rule set {text!r}: no shapes, traits or "
                                    "calling", "rules", rules=text)
        for part in parts:
            if part in ("lines", "lines+squares"):
                if shapes is not None:
                    raise InvalidRulesError(f"invalid rule set {text!r}: shapes given twice",
                                            "rules", rules=text)
                shapes = ShapeSet(part)
            elif part in ("auto", "declare"):
                if calling is not None:
                    raise InvalidRulesError(f"invalid rule set {text!r}: calling given twice",
                                            "rules", rules=text)
                calling = Calling(part)
            else:
                if traits is not None:
                    raise InvalidRulesError(f"invalid rule set {text!r}: traits given twice",
                                            "rules", rules=text)
                try:
                    traits = parse_traits(part)
                except InvalidRulesError as exc:
                    raise InvalidRulesError(
                        f"invalid rule set {text!r}: {part!r} is not a preset (quads, classic, "
                        "advanced), a shape set (lines, lines+squares), a calling (auto, "
                        "declare), false calls (free-calls, forfeit-calls, losing-calls) "
                        f"or a trait list ({exc})", "rules", rules=text
                    ) from None
        return cls(
            shapes if shapes is not None else ShapeSet.LINES_SQUARES,
            traits if traits is not None else ALL_TRAITS,
            calling if calling is not None else Calling.AUTO,
        )


def parse_traits(text: str) -> int:
    """Read a comma-separated list of trait names into a trait mask.

    :raises InvalidRulesError: if a name is unknown, repeated, or the list is empty.
    """
    mask = 0
    names = [name.strip() for name in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise InvalidRulesError(f"invalid trait list {text!r}: expected names separated by commas",
                                "traits", traits=text)
    for name in names:
        trait = Trait.parse(name)
        if mask & trait.mask:
            raise InvalidRulesError(f"invalid trait list {text!r}: {name!r} given twice",
                                    "traits", traits=text)
        mask |= trait.mask
    return mask


QUADS = Rules(ShapeSet.LINES_SQUARES, ALL_TRAITS, Calling.AUTO)
"""Quads: lines and squares, all four traits, wins spotted automatically (the default)."""
CLASSIC = Rules(ShapeSet.LINES, ALL_TRAITS, Calling.DECLARE)
"""Classic Quarto: lines only, all four traits, wins must be declared."""
ADVANCED = Rules(ShapeSet.LINES_SQUARES, ALL_TRAITS, Calling.DECLARE)
"""Quarto with squares: lines and squares, all four traits, wins must be declared."""

PRESETS: dict[str, Rules] = {"quads": QUADS, "classic": CLASSIC, "advanced": ADVANCED}

_FALSE_CALLS = frozenset(item.value for item in FalseCalls)
