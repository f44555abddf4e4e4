"""Which daily puzzles exist on a date, and the cache of those generated.

A puzzle is generated from its date alone (:func:`quads.puzzles.puzzle_for`, 0.1 to
3 seconds), once per date and process, and then kept in memory
(:class:`PuzzleCache`).  There is a puzzle for every date from
:data:`~quads.site.dates.EARLIEST` to today; the page keeps :data:`AHEAD_DAYS` more
to play without a network.
"""

from __future__ import annotations

import datetime
import threading
from collections import OrderedDict
from collections.abc import Sequence

from quads.errors import InvalidDateError
from quads.puzzles import Puzzle, parse_date, puzzle_for
from quads.site.dates import EARLIEST
from quads.site.errors import SiteError

__all__ = ["AHEAD_DAYS", "ARCHIVE_DAYS", "PuzzleCache", "ahead_dates", "puzzle_date"]


ARCHIVE_DAYS = 30
"""The dates the archive lists by default: today and the days before."""

AHEAD_DAYS = 14
"""The days after today whose puzzles the page keeps, to play them without a network."""


def ahead_dates(today: datetime.date) -> list[datetime.date]:
    """Today and the ``AHEAD_DAYS`` dates after it."""
    return [today + datetime.timedelta(days=days) for days in range(AHEAD_DAYS + 1)]


class PuzzleCache:
    """The puzzles of recent dates, each generated once (0.1 to 3 seconds) and then
    kept in memory.  Requests for a date being generated wait for that run rather
    than start another."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._puzzles: OrderedDict[datetime.date, Puzzle] = OrderedDict()
        self._lock = threading.Lock()
        self._generating: dict[datetime.date, threading.Lock] = {}

    def known(self, date: datetime.date) -> Puzzle | None:
        """The puzzle of ``date`` if it is generated already (at once), else ``None``."""
        with self._lock:
            return self._puzzles.get(date)

    def get(self, date: datetime.date) -> Puzzle:
        """The puzzle of ``date``."""
        with self._lock:
            if date in self._puzzles:
                self._puzzles.move_to_end(date)
                return self._puzzles[date]
            busy = self._generating.setdefault(date, threading.Lock())
        with busy:
            with self._lock:
                if date in self._puzzles:
                    return self._puzzles[date]
            puzzle = puzzle_for(date)
            with self._lock:
                self._puzzles[date] = puzzle
                self._generating.pop(date, None)
                while len(self._puzzles) > self.size:
                    self._puzzles.popitem(last=False)
        return puzzle

    def warm(self, dates: Sequence[datetime.date], stop: threading.Event) -> None:
        """Generate the puzzles of ``dates`` not known yet, one after the other, until
        ``stop`` is set (between two puzzles)."""
        for date in dates:
            if stop.is_set():
                return
            self.get(date)


def puzzle_date(text: str, today: datetime.date) -> datetime.date:
    """The date of a puzzle address: ``today`` or ``YYYY-MM-DD``, from
    :data:`~quads.site.dates.EARLIEST` to ``today``.

    :raises InvalidDateError: if ``text`` is not a date, or one before ``EARLIEST``.
    :raises SiteError: ``not_found`` for a date after ``today``.
    """
    date = today if text == "today" else parse_date(text)
    if date < EARLIEST:
        raise InvalidDateError(
            f"invalid date {text!r}: the puzzles start on {EARLIEST.isoformat()}",
            "date_range", date=text, earliest=EARLIEST.isoformat())
    if date > today:
        raise SiteError.not_found(
            f"no puzzle for {date.isoformat()} yet: the puzzles go up to today, "
            f"{today.isoformat()}"
        )
    return date
