"""The site's own arenas, so that there is always one to join: an hourly Quads blitz
arena and a daily classic one, rated, each announced ahead.

Each scheduled arena has an id made of its slot and start (``hourly-quads-2026120618``),
so that of several server processes making the same one at once, one does and the
others find it made.  The page words a scheduled arena's name (its slot's key) in the
reader's language.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from quads.storage import GameStore
from quads.storage.tournaments import Tournament

__all__ = ["SLOTS", "Slot", "keep_scheduled", "starts_of"]


@dataclass(frozen=True, slots=True)
class Slot:
    """Arenas of ``rules`` on ``clock``, ``minutes`` long, starting every ``every``
    hours at ``hour`` (UTC, of those hours' cycle), announced ``ahead`` arenas in
    advance."""

    key: str
    rules: str
    clock: str
    minutes: int
    every: int
    hour: int = 0
    ahead: int = 1


SLOTS = (
    Slot("hourly-quads", "quads", "180+2", 55, every=1, ahead=2),
    Slot("daily-classic", "classic", "300+3", 120, every=24, hour=18),
)
"""The site's schedule."""


def starts_of(slot: Slot, at: datetime) -> list[datetime]:
    """The starts of ``slot``'s arenas to be announced at ``at``: the one running now
    (if any) and the next ``slot.ahead``."""
    period = timedelta(hours=slot.every)
    anchor = at.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(hours=slot.hour)
    latest = anchor + math.floor((at - anchor) / period) * period  # the last start by now
    running = [latest] if latest + timedelta(minutes=slot.minutes) > at else []
    return running + [latest + step * period for step in range(1, slot.ahead + 1)]


def keep_scheduled(store: GameStore, at: datetime) -> list[Tournament]:
    """Make the site's arenas that should be announced at ``at`` and are not yet; those
    this call made."""
    made = []
    for slot in SLOTS:
        for starts in starts_of(slot, at):
            event_id = f"{slot.key}-{starts:%Y%m%d%H}"
            if store.tournament(event_id) is not None:
                continue
            event = Tournament(id=event_id, kind="arena", name=slot.key, rules=slot.rules,
                               clock=slot.clock, rated=True, min_rated=0, creator=None,
                               created=at, starts=starts, minutes=slot.minutes,
                               status="created")
            if store.create_tournament_once(event):
                made.append(event)
    return made
