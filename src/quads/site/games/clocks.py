"""The clocks of online games, as the server keeps them.

The server's clock is the truth.  A game's time control is its record header
``TimeControl`` (``300+3``, ``3d``) from its creation on; its :class:`Clock`
starts once both seats are taken.  Every change of a game with a clock goes
through :func:`expire` first (a move that comes after the mover's time ran out
is refused, and the game ends on time instead), then :func:`after_change`,
which ends the mover's turn when the move passed to the other side, or stops
the clock when the game ended.  The web layer's timekeeper ends
the games whose deadline passes with nobody acting.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Protocol

from quads.clock import Clock, Correspondence, TimeControl, parse_time_control
from quads.errors import InvalidTimeControlError
from quads.game import Abandon, Abort, Timeout
from quads.outcome import Player
from quads.ratings.categories import estimate
from quads.site.errors import SiteError
from quads.storage import StoredGame

__all__ = [
    "AbandonLimits",
    "abandon_limit",
    "after_change",
    "claim_abandonment",
    "expire",
    "require_no_clock",
    "start",
    "time_control",
]


class AbandonLimits(Protocol):
    """How long a seated player may be away during their turn before the opponent may
    claim the game: what an operator tunes."""

    @property
    def abandon_realtime(self) -> float:
        """Seconds, in a game with a real-time clock."""
        ...

    @property
    def abandon_share(self) -> float:
        """The part of a real-time game's estimated length for one side, if longer."""
        ...

    @property
    def abandon_untimed(self) -> float:
        """Seconds, in a game without a clock, and at most in a real-time game."""
        ...


def time_control(stored: StoredGame) -> TimeControl | None:
    """The time control of ``stored``, from its clock or its ``TimeControl`` header."""
    if stored.clock is not None:
        return stored.clock.control
    text = stored.game.headers.get("TimeControl")
    if text is None or stored.mode != "online":
        return None
    try:
        return parse_time_control(text)
    except InvalidTimeControlError:
        return None


def start(stored: StoredGame, at: datetime, grace: float) -> None:
    """Start the clock of an online game with a time control once both seats are taken
    (``grace``: seconds for each side's first turn of a real-time game)."""
    control = time_control(stored)
    to_move = stored.game.to_move
    if (stored.clock is not None or control is None or to_move is None
            or stored.first_player is None or stored.second_player is None):
        return
    stored.clock = Clock.start(control, at, to_move, round(grace * 1000))


def expire(stored: StoredGame, at: datetime) -> bool:
    """End ``stored`` if its running side's time (or grace) had run out by ``at``:
    lost on time, or aborted in a first turn.  Return whether it ended."""
    clock = stored.clock
    if clock is None or stored.is_over() or clock.running is None:
        return False
    expiry = clock.expired(at)
    if expiry is None:
        return False
    loser = clock.running
    deadline = clock.deadline()
    assert deadline is not None
    stored.game.apply(Abort() if expiry == "abort" else Timeout(loser))
    stored.clock = clock.stop(deadline)
    stored.settle_requests()
    return True


def after_change(stored: StoredGame, mover: Player | None, at: datetime) -> None:
    """Bring the clock up to a change made at ``at`` while ``mover`` was to move: stop
    it if the game ended, end ``mover``'s turn if the move passed to the other side."""
    clock = stored.clock
    if clock is None or clock.running is None:
        return
    if stored.is_over():
        stored.clock = clock.stop(at)
    elif stored.game.to_move is not mover:
        stored.clock = clock.switch(at)


def require_no_clock(stored: StoredGame) -> None:
    """Refuse undo in a game with a clock (``clock_no_undo``)."""
    if time_control(stored) is not None:
        raise SiteError("clock_no_undo", "a game with a clock cannot be taken back")


def abandon_limit(stored: StoredGame, settings: AbandonLimits) -> float | None:
    """Seconds a seated player of ``stored`` must have had it open nowhere during their
    turn before the opponent may claim it; ``None`` where no claim can be made (not an
    online game with both seats taken, or a correspondence game, whose move deadline
    is its limit).

    A real-time game allows ``abandon_share`` of its estimated length for one side
    (:func:`quads.ratings.categories.estimate`), at least ``abandon_realtime`` and at
    most ``abandon_untimed``: a phone whose screen locks for half a minute in a 10+5
    game (64 s) does not lose it, and a bullet game is not held up for minutes."""
    if (stored.mode != "online" or stored.first_player is None
            or stored.second_player is None):
        return None
    control = time_control(stored)
    if isinstance(control, Correspondence):
        return None
    if control is None:
        return settings.abandon_untimed
    scaled = settings.abandon_share * estimate(control)
    return min(max(settings.abandon_realtime, scaled), settings.abandon_untimed)


def claim_abandonment(stored: StoredGame, side: Player, draw: bool,
                      connected: frozenset[str], at: datetime, settings: AbandonLimits) -> None:
    """``side`` claims the win (or with ``draw`` a draw) of a game the opponent left
    during their turn.

    :raises SiteError: ``game_over``; ``no_abandonment`` where no claim can
        be made; ``not_abandoned`` when it is not the opponent's turn, they have
        the game open, have not been away long enough (``retry_after`` says how much
        longer), or have not played their first turn yet (that one is aborted).
    """
    if stored.is_over():
        raise SiteError.game_over()
    limit = abandon_limit(stored, settings)
    if limit is None:
        raise SiteError("no_abandonment",
                       "a correspondence game is decided by its move deadline")
    opponent = side.other
    if stored.game.to_move is not opponent:
        raise SiteError("not_abandoned", "it is your turn")
    if stored.clock is not None and stored.clock.in_grace():
        raise SiteError("not_abandoned",
                       "your opponent's first turn is not over: it aborts by itself")
    if stored.seat(opponent) in connected:
        raise SiteError("not_abandoned", "your opponent has the game open")
    away = stored.away[opponent]
    waited = 0.0 if away is None else (at - away).total_seconds()
    if waited < limit:
        left = math.ceil(limit - waited)
        raise SiteError("not_abandoned",
                       f"your opponent left only a moment ago: wait {left} s more",
                       retry_after=left)
    mover = stored.game.to_move
    stored.game.apply(Abandon(opponent, draw=draw))
    stored.settle_requests()
    after_change(stored, mover, at)
