"""The dates the site accepts."""

from __future__ import annotations

import datetime

__all__ = ["EARLIEST"]

EARLIEST = datetime.date(2000, 1, 1)
"""The first date a request may name: a daily puzzle's, the start of a game played on a
device.  An earlier one is ``invalid_date``: a device whose clock dates a game before
it has lost the date."""
