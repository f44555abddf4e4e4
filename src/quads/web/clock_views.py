"""The clocks as the API shows them: a time control as a request names it, and the
clocks of a game as its view shows them.  What the clocks do is the site's
(:mod:`quads.site.games.clocks`)."""

from __future__ import annotations

from datetime import datetime

from quads.clock import Clock, Correspondence, RealTime, TimeControl
from quads.outcome import Player
from quads.site.games.clocks import time_control
from quads.site.games.seats import side_name
from quads.storage import StoredGame
from quads.web.schemas.game_views import ClockView
from quads.web.schemas.new_games import ClockSpec, CorrespondenceClock, RealTimeClock

__all__ = ["clock_view", "control_of", "spec_of"]


def control_of(spec: ClockSpec) -> TimeControl:
    """The library's time control of an API clock."""
    if isinstance(spec, RealTimeClock):
        return RealTime(spec.initial, spec.increment)
    return Correspondence(spec.days)


def spec_of(control: TimeControl) -> ClockSpec:
    """The API clock of a time control."""
    if isinstance(control, RealTime):
        return RealTimeClock(initial=control.initial, increment=control.increment)
    return CorrespondenceClock(days=control.days)


def clock_view(stored: StoredGame, at: datetime) -> ClockView | None:
    """The clocks of ``stored`` as of ``at`` (before the clock starts: both sides'
    whole time, nothing running)."""
    control = time_control(stored)
    if control is None:
        return None
    clock = stored.clock
    if clock is None:
        full = Clock.start(control, at)
        return ClockView(control=spec_of(control), first_ms=full.remaining[0],
                         second_ms=full.remaining[1], running=None, grace=False,
                         deadline=None, as_of=at)
    return ClockView(control=spec_of(control), first_ms=clock.left(Player.FIRST, at),
                     second_ms=clock.left(Player.SECOND, at),
                     running=side_name(clock.running),
                     grace=clock.running is not None and clock.in_grace(),
                     deadline=clock.deadline(), as_of=at)
