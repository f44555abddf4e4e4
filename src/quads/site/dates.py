"""The dates the site accepts."""

from __future__ import annotations

import datetime

from quads.errors import InvalidDateError

__all__ = ["AHEAD", "EARLIEST", "device_moment"]

EARLIEST = datetime.date(2000, 1, 1)
"""The first date a request may name: a daily puzzle's, the start of a game played on a
device.  An earlier one is ``invalid_date``: a device whose clock dates a game before
it has lost the date."""

AHEAD = datetime.timedelta(days=1)
"""How far after the server's now a device's clock may date what it did (it then counts
as now); later is ``invalid_date``."""


def device_moment(text: str, now: datetime.datetime) -> datetime.datetime:
    """The moment ``text`` names, as a device wrote it (ISO 8601 with its offset: when a
    game started there, when an answer was given there), or ``now`` (the server's) if it
    names a later one.

    :raises InvalidDateError: if no calendar has it (``2026-02-30``, ``25:00``), or it is
        before :data:`EARLIEST` or more than :data:`AHEAD` after ``now``.
    """
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise InvalidDateError(f"invalid time {text!r}: no such moment", "time",
                               time=text) from None
    earliest = datetime.datetime.combine(EARLIEST, datetime.time(), datetime.UTC)
    latest = now + AHEAD
    if not earliest <= moment <= latest:
        raise InvalidDateError(
            f"invalid time {text!r}: a device's moment is from {_iso(earliest)} to a "
            f"day after the server's now ({_iso(latest)})", "time_range",
            time=text, earliest=_iso(earliest), latest=_iso(latest))
    return min(moment, now)


def _iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
