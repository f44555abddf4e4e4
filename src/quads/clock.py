"""Clocks: real time (a base time plus an increment per move) and correspondence
(days per move).

A :class:`Clock` is an immutable value that says how much time each side had
left when the current turn began, whose time runs, and since when; what is left
at any later moment is computed, never stored.  A *turn* is one side's stretch
of actions, from receiving the move to handing it over (under Quarto's rules:
place the piece received, maybe declare, give the next one); :meth:`Clock.switch`
ends it.

Each side's first turn is a *grace* turn, as on most game servers: its time is
not charged, and a side that does not make it within :attr:`Clock.grace` (real
time) or the days of a correspondence move has the game aborted rather than lost.
From the third turn on, a side whose time runs out loses on time.

Times are milliseconds (integers), moments are aware :class:`~datetime.datetime`.

>>> from datetime import datetime, timedelta, UTC
>>> start = datetime(2026, 12, 2, tzinfo=UTC)
>>> clock = Clock.start(parse_time_control("60+2"), start)
>>> clock = clock.switch(start + timedelta(seconds=5))   # grace: not charged
>>> clock = clock.switch(start + timedelta(seconds=9))
>>> clock = clock.switch(start + timedelta(seconds=19))  # first: 60 - 10 + 2
>>> clock.remaining
(52000, 60000)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from quads.errors import InvalidTimeControlError
from quads.outcome import Player

__all__ = [
    "DEFAULT_GRACE",
    "Clock",
    "Correspondence",
    "Expiry",
    "RealTime",
    "TimeControl",
    "clock_headers",
    "parse_clock_log",
    "parse_time_control",
]

DEFAULT_GRACE = 30_000
"""Milliseconds each side has for its first turn of a real-time game."""

_DAY = 86_400_000

_REAL_TIME = re.compile(r"([0-9]{1,6})\+([0-9]{1,5})")
_DAYS = re.compile(r"([0-9]{1,2})d")


@dataclass(frozen=True, slots=True)
class RealTime:
    """``initial`` seconds for the whole game plus ``increment`` seconds after each
    turn; written ``initial+increment`` (``300+3``)."""

    initial: int
    increment: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.initial <= 86_400 or not 0 <= self.increment <= 3_600:
            raise InvalidTimeControlError(
                f"a real-time clock has 1 to 86400 seconds and an increment of 0 to 3600, "
                f"not {self.initial}+{self.increment}", "time_control")

    def __str__(self) -> str:
        return f"{self.initial}+{self.increment}"


@dataclass(frozen=True, slots=True)
class Correspondence:
    """``days`` for each move; written ``Nd`` (``3d``)."""

    days: int

    def __post_init__(self) -> None:
        if not 1 <= self.days <= 30:
            raise InvalidTimeControlError(
                f"a correspondence clock has 1 to 30 days a move, not {self.days}",
                "time_control")

    def __str__(self) -> str:
        return f"{self.days}d"


TimeControl = RealTime | Correspondence
"""How much time the players have."""


def parse_time_control(text: str) -> TimeControl:
    """Read ``300+3`` (seconds plus increment) or ``3d`` (days a move).

    :raises InvalidTimeControlError: if ``text`` is neither, or out of range.
    """
    match = _REAL_TIME.fullmatch(text)
    if match:
        return RealTime(int(match.group(1)), int(match.group(2)))
    match = _DAYS.fullmatch(text)
    if match:
        return Correspondence(int(match.group(1)))
    raise InvalidTimeControlError(
        f"invalid time control {text!r}: expected SECONDS+INCREMENT (300+3) or DAYSd (3d)",
        "time_control")


Expiry = Literal["abort", "time"]
"""What a clock's deadline passing does: abort the game (a grace turn) or lose it on time."""


@dataclass(frozen=True, slots=True)
class Clock:
    """The clocks of a game as the current turn began (see the module's documentation)."""

    control: TimeControl
    remaining: tuple[int, int]
    """Milliseconds left to the first and the second side when the turn began (the
    running side's time since :attr:`since` is not taken off yet)."""
    running: Player | None
    """The side whose turn it is; ``None`` once stopped (the game is over)."""
    since: datetime
    """When the current turn began (or the clock stopped)."""
    turns: int = 0
    """Turns completed so far."""
    grace: int = DEFAULT_GRACE
    """Milliseconds for each side's first turn (real time)."""
    log: tuple[int, ...] = ()
    """Milliseconds the mover had left after each completed turn, in order."""

    @classmethod
    def start(cls, control: TimeControl, at: datetime, first: Player = Player.FIRST,
              grace: int = DEFAULT_GRACE) -> Clock:
        """A new clock, ``first``'s turn beginning ``at``."""
        full = _full(control)
        return cls(control, (full, full), first, at, 0, grace)

    def in_grace(self) -> bool:
        """Whether the turn under way is a side's first (not charged; missing it aborts)."""
        return self.turns < 2

    def _used(self, at: datetime) -> int:
        return max(0, (at - self.since) // timedelta(milliseconds=1))

    def left(self, side: Player, at: datetime) -> int:
        """Milliseconds ``side`` has left at ``at`` (never below 0).  During a grace
        turn it is the whole time (the grace runs, not the clock)."""
        own = self.remaining[side]
        if side is not self.running or (self.in_grace() and isinstance(self.control, RealTime)):
            return own
        return max(0, own - self._used(at))

    def deadline(self) -> datetime | None:
        """When the running side's time (or grace) runs out; ``None`` once stopped."""
        if self.running is None:
            return None
        if self.in_grace() and isinstance(self.control, RealTime):
            return self.since + timedelta(milliseconds=self.grace)
        return self.since + timedelta(milliseconds=self.remaining[self.running])

    def expired(self, at: datetime) -> Expiry | None:
        """What has happened by ``at`` if the running side has not moved: ``abort``
        (a grace turn missed), ``time`` (lost on time), or ``None``."""
        deadline = self.deadline()
        if deadline is None or at < deadline:
            return None
        return "abort" if self.in_grace() else "time"

    def switch(self, at: datetime) -> Clock:
        """The running side ends its turn at ``at``: its time is taken off (except in a
        grace turn) and the increment added (a correspondence move starts afresh), and
        the other side's turn begins.

        :raises ValueError: if the clock is stopped.
        """
        side = self.running
        if side is None:
            raise ValueError("a stopped clock has no turn to end")
        own = self._charged(side, at)
        if isinstance(self.control, RealTime) and not self.in_grace():
            own += self.control.increment * 1000
        remaining = _set(self.remaining, side, own)
        if isinstance(self.control, Correspondence):
            remaining = _set(remaining, side.other, _full(self.control))
        return replace(self, remaining=remaining, running=side.other, since=at,
                       turns=self.turns + 1, log=(*self.log, own))

    def stop(self, at: datetime) -> Clock:
        """The game ended at ``at``: the running side's time is taken off and nothing runs."""
        side = self.running
        if side is None:
            return self
        return replace(self, remaining=_set(self.remaining, side, self._charged(side, at)),
                       running=None, since=at)

    def _charged(self, side: Player, at: datetime) -> int:
        if isinstance(self.control, Correspondence):
            return max(0, self.remaining[side] - self._used(at))
        if self.in_grace():
            return self.remaining[side]
        return max(0, self.remaining[side] - self._used(at))

    def to_json(self) -> dict[str, Any]:
        """The clock as JSON values (:meth:`from_json` reads it back)."""
        return {"control": str(self.control), "remaining": list(self.remaining),
                "running": None if self.running is None else self.running.identifier,
                "since": self.since.isoformat(timespec="microseconds"), "turns": self.turns,
                "grace": self.grace, "log": list(self.log)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        """Read what :meth:`to_json` wrote.

        :raises InvalidTimeControlError: if its control cannot be read.
        :raises KeyError, ValueError: if it is not such a clock.
        """
        first, second = data["remaining"]
        running = data["running"]
        return cls(parse_time_control(data["control"]), (int(first), int(second)),
                   None if running is None else Player[running.upper()],
                   datetime.fromisoformat(data["since"]), int(data["turns"]),
                   int(data["grace"]), tuple(int(ms) for ms in data["log"]))


def _full(control: TimeControl) -> int:
    if isinstance(control, RealTime):
        return control.initial * 1000
    return control.days * _DAY


def _set(pair: tuple[int, int], side: Player, value: int) -> tuple[int, int]:
    return (value, pair[1]) if side is Player.FIRST else (pair[0], value)


def clock_headers(clock: Clock) -> dict[str, str]:
    """Record headers of a game played with ``clock``: ``TimeControl`` (``300+3``,
    ``3d``) and ``Clocks``, the seconds the mover had left after each turn, one
    number a turn token (``58.2 57.9 ...``)."""
    headers = {"TimeControl": str(clock.control)}
    if clock.log:
        headers["Clocks"] = " ".join(f"{ms / 1000:.1f}" for ms in clock.log)
    return headers


def parse_clock_log(text: str) -> tuple[int, ...]:
    """Read a ``Clocks`` header (:func:`clock_headers`) back into milliseconds.

    :raises InvalidTimeControlError: if it is not seconds separated by spaces.
    """
    try:
        seconds = [float(word) for word in text.split()]
    except ValueError:
        seconds = [-1.0]
    if not all(0 <= value < 10**7 for value in seconds):
        raise InvalidTimeControlError(f"invalid Clocks header {text!r}: expected seconds "
                                      "separated by spaces", "clocks")
    return tuple(round(value * 1000) for value in seconds)
