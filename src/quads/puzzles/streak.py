"""A player's streak: the run of consecutive puzzle dates solved, up to today.

The run may end today or yesterday: a player who has not yet solved today's
puzzle keeps the streak of the days before until the day is over.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

__all__ = ["streak", "streak_of_newest"]

_DAY = datetime.timedelta(days=1)


def streak(solved: Iterable[datetime.date], today: datetime.date) -> int:
    """The number of consecutive dates in ``solved`` ending at ``today`` or at the day
    before (0 when neither is solved).  Dates after ``today`` do not count."""
    days = {date for date in solved if date <= today}
    day = today if today in days else today - _DAY
    count = 0
    while day in days:
        count += 1
        day -= _DAY
    return count


def streak_of_newest(solved: Iterable[datetime.date], today: datetime.date) -> int:
    """:func:`streak` of ``solved`` given newest first, each date once: ``solved`` is read
    only as far as the streak's first gap, so that a long history is never read whole."""
    count = 0
    expected: datetime.date | None = None
    for date in solved:
        if date > today:
            continue
        if expected is None:
            if date < today - _DAY:
                return 0
            expected = date
        if date != expected:
            return count
        count += 1
        expected = date - _DAY
    return count
