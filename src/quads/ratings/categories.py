"""Rating categories: one rating per rule set and per speed.

Being good at three-minute games says little about being good at games played a
move a day, and classic Quarto (lines only, wins declared) is not the same game
as ``quads``: as on chess servers, a player has a separate rating in each
:class:`Category`, a preset rule set (``quads``, ``classic``, ``advanced``) with
a :class:`Speed`.  Games under a custom rule set or without a clock fit no
category and cannot be rated (:func:`category_of` gives ``None``).

The speed of a real-time game comes from its estimated duration for one side,
``initial + 8 * increment`` seconds (:func:`estimate`): a Quarto game has at
most eight turns a side, where chess servers count forty moves.  Then:

* ``blitz``: under 180 seconds (3 minutes), about 20 seconds a turn or less:
  played on sight, with no time to read the endgame through;
* ``rapid``: under 900 seconds (15 minutes), up to about two minutes a turn:
  time to check which pieces are safe to give;
* ``classical``: 900 seconds or more, time to count the last placements out;
* ``correspondence``: a :class:`~quads.clock.Correspondence` clock, days a move.

>>> from quads.clock import parse_time_control
>>> [(text, estimate(control), str(speed_of(control)))
...  for text in ("60+2", "180+0", "180+2", "600+30", "900+0")
...  for control in [parse_time_control(text)]]  # doctest: +NORMALIZE_WHITESPACE
[('60+2', 76, 'blitz'), ('180+0', 180, 'rapid'), ('180+2', 196, 'rapid'),
 ('600+30', 840, 'rapid'), ('900+0', 900, 'classical')]
>>> from quads.rules import CLASSIC
>>> str(category_of(CLASSIC, parse_time_control("3d")))
'classic-correspondence'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from quads.clock import Correspondence, RealTime, TimeControl
from quads.rules import PRESETS, FalseCalls, Rules

__all__ = [
    "ALL",
    "BLITZ_UNDER",
    "RAPID_UNDER",
    "TURNS_A_SIDE",
    "Category",
    "Speed",
    "category_of",
    "estimate",
    "speed_of",
]

TURNS_A_SIDE = 8
"""The most turns one side plays in a game (16 pieces, placed in turn): the number of
increments a real-time game's estimate counts."""

BLITZ_UNDER = 180
"""Estimated seconds a side under which a real-time game is ``blitz``."""

RAPID_UNDER = 900
"""Estimated seconds a side under which a real-time game is ``rapid`` (and from which it
is ``classical``)."""


class Speed(enum.StrEnum):
    """How fast a game is played, from its time control (:func:`speed_of`)."""

    BLITZ = "blitz"
    RAPID = "rapid"
    CLASSICAL = "classical"
    CORRESPONDENCE = "correspondence"


def estimate(control: RealTime) -> int:
    """The estimated seconds one side spends on a real-time game: the initial time
    plus an increment for each of the :data:`TURNS_A_SIDE` turns.

    >>> estimate(RealTime(180, 2))
    196
    """
    return control.initial + TURNS_A_SIDE * control.increment


def speed_of(control: TimeControl) -> Speed:
    """The speed of games played with ``control`` (see the module's documentation).

    :raises TypeError: if ``control`` is not a time control.
    """
    if isinstance(control, Correspondence):
        return Speed.CORRESPONDENCE
    if not isinstance(control, RealTime):
        raise TypeError(f"a time control is a RealTime or a Correspondence, not {control!r}")
    seconds = estimate(control)
    if seconds < BLITZ_UNDER:
        return Speed.BLITZ
    if seconds < RAPID_UNDER:
        return Speed.RAPID
    return Speed.CLASSICAL


@dataclass(frozen=True, slots=True)
class Category:
    """A rating category: a preset rule set's name and a speed; written
    ``RULES-SPEED`` (``quads-blitz``, :meth:`parse` reads it back).

    :raises ValueError: if ``rules`` is not a preset's name or ``speed`` not a
        :class:`Speed`.
    """

    rules: str
    """The name of one of the preset rule sets (:data:`quads.rules.PRESETS`)."""
    speed: Speed

    def __post_init__(self) -> None:
        if not isinstance(self.rules, str) or self.rules not in PRESETS:
            raise ValueError(f"a rating category's rules are one of {', '.join(PRESETS)}, "
                             f"not {self.rules!r}")
        if not isinstance(self.speed, Speed):
            raise ValueError(f"a rating category's speed is one of "
                             f"{', '.join(Speed)}, not {self.speed!r}")

    @property
    def preset(self) -> Rules:
        """The rule set itself."""
        return PRESETS[self.rules]

    def __str__(self) -> str:
        return f"{self.rules}-{self.speed.value}"

    @classmethod
    def parse(cls, text: str) -> Category:
        """Read a category written ``RULES-SPEED`` (``quads-blitz``), exactly as
        :func:`str` writes it.

        >>> Category.parse("advanced-rapid")
        Category(rules='advanced', speed=<Speed.RAPID: 'rapid'>)

        :raises ValueError: if ``text`` is not one of the categories of :data:`ALL`.
        """
        category = _BY_NAME.get(text) if isinstance(text, str) else None
        if category is None:
            raise ValueError(
                f"invalid rating category {text!r}: expected RULES-SPEED, RULES one of "
                f"{', '.join(PRESETS)} and SPEED one of {', '.join(Speed)}")
        return category


ALL: tuple[Category, ...] = tuple(Category(rules, speed) for rules in PRESETS for speed in Speed)
"""Every category, rule set by rule set in the order of :data:`quads.rules.PRESETS`, each
from the fastest speed to the slowest."""

_BY_NAME = {str(category): category for category in ALL}


def category_of(rules: Rules, control: TimeControl | None) -> Category | None:
    """The category of a game played under ``rules`` with ``control``, or ``None`` if
    it cannot be rated: the rule set is not a preset (whatever its false calls cost),
    or the game has no clock.

    >>> from quads.rules import CLASSIC
    >>> category_of(CLASSIC, RealTime(60, 1))
    Category(rules='classic', speed=<Speed.BLITZ: 'blitz'>)
    >>> category_of(CLASSIC.with_traits(0b0011), RealTime(60, 1)) is None
    True
    """
    name = rules.with_false_calls(FalseCalls.FREE).name
    if control is None or name not in PRESETS:
        return None
    return Category(name, speed_of(control))
