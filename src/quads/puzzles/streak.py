"""A player's streak: the run of consecutive puzzle dates solved, up to today.

The run may end today or yesterday: a player who has not yet solved today's
puzzle keeps the streak of the days before until the day is over.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

__all__ = ["streak"]

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
