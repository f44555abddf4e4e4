"""Whom quick pairing meets, and the game that a seek taken starts.

Quick pairing (``POST /api/pairing``) looks at the open seeks of the same rules,
clock and ratedness, oldest first (:data:`CANDIDATES` of them at most), and
:func:`choose` picks the one the caller meets; if it picks none, the caller's own
seek waits in the lobby.  In casual pools the oldest seek of another player wins:
whoever has waited longest plays first.  In rated pools the caller meets the seeker
of the nearest rating among those whose bounds admit each other (the oldest of
equals); a waiting seek's bounds widen by :data:`WIDEN_BY` points every
:data:`WIDEN_EVERY` seconds it waits (at most :data:`WIDEN_MOST`), so that a player
of a rare strength is paired in the end.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from quads.clock import parse_time_control
from quads.site.games import clocks, play
from quads.storage import StoredGame
from quads.storage.lobby import Seek
from quads.storage.stored import now

__all__ = ["CANDIDATES", "WIDEN_BY", "WIDEN_EVERY", "WIDEN_MOST", "GameStarter", "Wanted",
           "admits", "choose", "seek_game"]

CANDIDATES = 50
"""The open seeks that :func:`choose` is shown at most, the oldest."""

WIDEN_BY = 50
"""Points by which a waiting rated seek's bounds widen, each :data:`WIDEN_EVERY`."""
WIDEN_EVERY = 10.0
"""Seconds of waiting that widen a rated seek's bounds by :data:`WIDEN_BY`."""
WIDEN_MOST = 500
"""The most a waiting seek's bounds widen."""


@dataclass(frozen=True)
class Wanted:
    """What the caller of quick pairing brings: their rating in the pool's category
    and the bounds of the opponents' they accept (``None``: no bound)."""

    rating: int
    low: int | None = None
    high: int | None = None


def _widened(seek: Seek, at: datetime) -> int:
    waited = max(0.0, (at - seek.created).total_seconds())
    return min(WIDEN_MOST, int(waited // WIDEN_EVERY) * WIDEN_BY)


def admits(seek: Seek, rating: int, at: datetime | None = None) -> bool:
    """Whether ``seek`` accepts a taker of ``rating`` (its bounds widened by its wait,
    as of ``at``; not widened without ``at``)."""
    widen = 0 if at is None else _widened(seek, at)
    return ((seek.rating_min is None or rating >= seek.rating_min - widen)
            and (seek.rating_max is None or rating <= seek.rating_max + widen))

GameStarter = Callable[[Seek], StoredGame]
"""Makes the game that a seek taken starts (:func:`seek_game` with its taker)."""


def choose(player: str, candidates: Sequence[Seek], wanted: Wanted | None = None,
           at: datetime | None = None) -> Seek | None:
    """The seek that ``player`` meets among ``candidates`` (same rules, clock and
    ratedness, oldest first), or ``None`` to wait: in a casual pool (no ``wanted``)
    the oldest seek of another player; in a rated one the nearest rating that admits
    the caller and that the caller admits, as of ``at``."""
    others = [seek for seek in candidates if seek.player != player]
    if wanted is None:
        return next(iter(others), None)
    moment = now() if at is None else at
    fitting = [seek for seek in others
               if admits(seek, wanted.rating, moment) and seek.rating is not None
               and (wanted.low is None or seek.rating >= wanted.low)
               and (wanted.high is None or seek.rating <= wanted.high)]
    return min(fitting, key=lambda seek: abs((seek.rating or 0) - wanted.rating),
               default=None)


def seek_game(seek: Seek, taker: str, grace: float) -> StoredGame:
    """The online game that ``taker`` starts by taking ``seek``: the seeker in the
    side they asked for (``random``: drawn), the clock started (``grace`` seconds for
    each side's first turn), no invitation."""
    side = seek.side if seek.side != "random" else secrets.choice(("first", "second"))
    stored = play.new_game(seek.rules, "online", None, None, seek.player,
                           "first" if side == "first" else "second",
                           parse_time_control(seek.clock))
    if stored.first_player is None:
        stored.first_player = taker
    else:
        stored.second_player = taker
    stored.invite = None
    stored.rated = seek.rated
    clocks.start(stored, now(), grace)
    return stored
