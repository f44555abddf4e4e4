"""The counts of the rates forget the clients whose hits all expired, so that a
process seeing many new players does not keep one count for each of them for good;
they count a moving window's hits as the library does, without a thread a hit."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from limits import parse
from limits.storage import memory
from limits.strategies import MovingWindowRateLimiter

from quads.site import windows as windows_module
from quads.site.windows import Windows
from quads.web.live_hub import LiveHub
from quads.web.middleware.rates import Rates
from quads.web.settings import Settings


def test_many_players_counted_once_are_forgotten_once_their_windows_empty() -> None:
    rates = Rates(Settings(rate_games="1/second", rate_games_per_address="100000/minute"))
    for n in range(1500):
        rates.charge("games", "192.0.2.1", f"early-{n}")
    time.sleep(1.1)  # every early player's hit has left its one-second window
    for n in range(1500):
        rates.charge("games", "192.0.2.1", f"late-{n}")
    # 3,001 keys were counted (the address and 3,000 players); the early players'
    # are forgotten on the way, without waiting for the minute's sweep.
    assert rates.windows.held() <= 1501


def test_a_sweep_forgets_the_empty_windows_and_keeps_those_still_counting() -> None:
    windows = Windows(sweep=0.0)
    limiter = MovingWindowRateLimiter(windows)
    short, long = parse("1/second"), parse("1/minute")
    for n in range(20):
        assert limiter.hit(short, "seeks", f"player-{n}")
    assert limiter.hit(long, "seeks", "steady")
    time.sleep(1.1)
    assert limiter.hit(short, "seeks", "newcomer")  # a hit sweeps, the sweep being due
    assert windows.held() == 2  # the steady player's window and the newcomer's
    assert not limiter.hit(long, "seeks", "steady")  # still counted: refused
    assert limiter.hit(short, "seeks", "player-0")  # forgotten and free again


def test_the_live_hub_forgets_the_addresses_that_opened_sockets_long_ago() -> None:
    hub = LiveHub(Settings(socket_rate="1/second"))
    for n in range(1500):
        assert hub.admit("game", f"198.51.100.{n}") is None
        hub.release("game", f"198.51.100.{n}")
    time.sleep(1.1)
    for n in range(1500):
        assert hub.admit("game", f"203.0.113.{n}") is None
        hub.release("game", f"203.0.113.{n}")
    assert hub.held() == (0, 0, 0)
    assert hub.windows.held() <= 1500  # not the 3,000 addresses ever seen


class _Clock:
    """A clock the test moves: the windows' and the library's entries read it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(1, 5), window=st.integers(1, 4),
       steps=st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["a", "b"])),
                      min_size=1, max_size=60))
def test_a_window_counts_as_a_moving_window(monkeypatch: pytest.MonkeyPatch, limit: int,
                                             window: int,
                                             steps: list[tuple[int, str]]) -> None:
    """A hit is let in exactly when fewer than ``limit`` hits let in lie within the
    last ``window`` seconds, whatever the steps of the clock; a key keeps no more
    than ``limit`` hits."""
    clock = _Clock()
    monkeypatch.setattr(memory, "time", clock)
    monkeypatch.setattr(windows_module, "time", clock)
    windows = Windows()
    limiter = MovingWindowRateLimiter(windows)
    item = parse(f"{limit}/{window} second")
    let_in: dict[str, list[float]] = {"a": [], "b": []}
    for seconds, who in steps:
        # A step a little past the half seconds: a hit never lies exactly at the
        # window's edge, where the library's look and its hit disagree.
        clock.now += seconds * 0.5 + (0.001 if seconds else 0.0)
        recent = [t for t in let_in[who] if t >= clock.now - window]
        expected = len(recent) < limit
        assert limiter.test(item, who) == expected
        assert limiter.hit(item, who) == expected
        if expected:
            let_in[who].append(clock.now)
        recent = [t for t in let_in[who] if t > clock.now - window]
        assert limiter.get_window_stats(item, who).remaining == limit - len(recent)
        assert len(windows.events[item.key_for(who)]) <= limit


def test_a_hit_starts_no_thread() -> None:
    windows = Windows()
    limiter = MovingWindowRateLimiter(windows)
    item = parse("1000/minute")
    time.sleep(0.05)  # the library's storage starts one timer when it is made
    for n in range(20):
        assert limiter.hit(item, "seeks", f"player-{n % 3}")
        timers = [thread for thread in threading.enumerate()
                  if isinstance(thread, threading.Timer) and thread.is_alive()]
        assert timers == []
        time.sleep(0.015)  # longer than the library's timer waits
