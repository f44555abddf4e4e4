"""The counts of the rates forget the clients whose hits all expired, so that a
process seeing many new players does not keep one count for each of them for good."""

from __future__ import annotations

import time

from limits import parse
from limits.strategies import MovingWindowRateLimiter

from quads.web.live_hub import LiveHub
from quads.web.middleware.rates import Rates
from quads.web.middleware.windows import Windows
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
