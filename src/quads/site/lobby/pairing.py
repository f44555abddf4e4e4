"""Whom quick pairing meets, and the game that a seek taken starts.

Quick pairing (``POST /api/pairing``) looks at the open seeks of the same rules and
clock, oldest first (:data:`CANDIDATES` of them at most), and :func:`choose` picks
the one the caller meets; if it picks none, the caller's own seek waits in the
lobby.  Today the oldest seek of another player wins: whoever has waited longest
plays first.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from quads.clock import parse_time_control
from quads.site.games import clocks, play
from quads.storage import StoredGame
from quads.storage.lobby import Seek
from quads.storage.stored import now

__all__ = ["CANDIDATES", "GameStarter", "choose", "seek_game"]

CANDIDATES = 50
"""The open seeks that :func:`choose` is shown at most, the oldest."""

GameStarter = Callable[[Seek], StoredGame]
"""Makes the game that a seek taken starts (:func:`seek_game` with its taker)."""


def choose(player: str, candidates: Sequence[Seek]) -> Seek | None:
    """The seek that ``player`` meets among ``candidates`` (same rules and clock,
    oldest first), or ``None`` to wait: the oldest seek of another player."""
    return next((seek for seek in candidates if seek.player != player), None)


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
    clocks.start(stored, now(), grace)
    return stored
