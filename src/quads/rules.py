"""Rule sets: which shapes win, which traits count, and how a win is called.

A :class:`Rules` value is three independent choices.  It has a stable text
name (:attr:`Rules.name`) that :meth:`Rules.parse` reads back, so a rule set
can be stored and passed on a command line:

* a preset: ``quads`` (the default), ``classic`` or ``advanced``;
* otherwise ``SHAPES:TRAITS:CALLING``, e.g. ``lines:color,height:auto``.
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


ALL_TRAITS = 0b1111


@dataclass(frozen=True)
class Rules:
    """A rule set.  Immutable and hashable; compare with ``==``."""

    shapes: ShapeSet = ShapeSet.LINES_SQUARES
    traits: int = ALL_TRAITS
    """The counted traits, as a mask of :attr:`Trait.mask` bits (non-empty)."""
    calling: Calling = Calling.AUTO

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

    # -- names --------------------------------------------------------------

    @cached_property
    def name(self) -> str:
        """The stable text name: a preset name where one matches, else ``SHAPES:TRAITS:CALLING``."""
        for preset_name, preset in PRESETS.items():
            if preset == self:
                return preset_name
        traits = ",".join(t.identifier for t in self.counted_traits)
        return f"{self.shapes.value}:{traits}:{self.calling.value}"

    def __str__(self) -> str:
        return self.name

    def with_traits(self, traits: int) -> Rules:
        """Return the same rule set counting only ``traits`` (a trait mask)."""
        return Rules(self.shapes, traits, self.calling)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read a rule-set name: a preset, or ``SHAPES:TRAITS:CALLING``.

        The parts may come in any order and any may be left out; what is
        left out is taken from ``quads`` (lines+squares, all traits, auto).
        Trait lists are comma-separated, e.g. ``lines:color,height``.

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
        shapes: ShapeSet | None = None
        calling: Calling | None = None
        traits: int | None = None
        for part in key.split(":"):
            part = part.strip()
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
                        f"declare) or a trait list ({exc})", "rules", rules=text
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
