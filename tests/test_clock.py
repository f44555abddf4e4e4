"""Clocks: real time with an increment, correspondence, grace turns and expiry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quads import InvalidTimeControlError, Player
from quads.clock import (
    Clock,
    Correspondence,
    RealTime,
    clock_headers,
    parse_clock_log,
    parse_time_control,
)

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.mark.parametrize(("text", "control"), [
    ("300+3", RealTime(300, 3)), ("5+0", RealTime(5)), ("3d", Correspondence(3)),
    ("1d", Correspondence(1)),
])
def test_time_controls_read_and_write(text: str, control: object) -> None:
    assert parse_time_control(text) == control
    assert str(control) == text


@pytest.mark.parametrize("text", ["", "300", "+3", "300+", "0+2", "3 d", "0d", "31d", "-5+1",
                                  "300+3600000", "5+2+1", "1e3+0", "\uff13+0"])
def test_bad_time_controls_are_refused(text: str) -> None:
    with pytest.raises(InvalidTimeControlError):
        parse_time_control(text)


def play_turns(clock: Clock, moments: list[float]) -> Clock:
    for moment in moments:
        clock = clock.switch(at(moment))
    return clock


def test_each_sides_first_turn_is_grace_and_not_charged() -> None:
    clock = Clock.start(RealTime(60, 2), T0, grace=20_000)
    assert clock.in_grace()
    assert clock.deadline() == at(20)
    assert clock.left(Player.FIRST, at(15)) == 60_000
    clock = play_turns(clock, [15, 30])  # 15 s each: inside their grace
    assert clock.remaining == (60_000, 60_000)
    assert not clock.in_grace()
    assert clock.running is Player.FIRST
    assert clock.deadline() == at(90)


def test_time_is_charged_and_the_increment_added() -> None:
    clock = play_turns(Clock.start(RealTime(60, 2), T0), [1, 2, 12])
    assert clock.remaining == (52_000, 60_000)
    assert clock.left(Player.SECOND, at(17)) == 55_000
    assert clock.left(Player.FIRST, at(17)) == 52_000  # not running
    assert clock.log == (60_000, 60_000, 52_000)


def test_a_missed_grace_turn_aborts_and_a_late_move_loses_on_time() -> None:
    clock = Clock.start(RealTime(10, 0), T0, grace=5_000)
    assert clock.expired(at(4.9)) is None
    assert clock.expired(at(5)) == "abort"
    clock = play_turns(clock, [1, 2])
    assert clock.expired(at(11.999)) is None
    assert clock.expired(at(12)) == "time"
    assert clock.left(Player.FIRST, at(30)) == 0


def test_correspondence_gives_days_per_move_afresh() -> None:
    clock = Clock.start(Correspondence(2), T0)
    day = 86_400
    assert clock.deadline() == at(2 * day)
    clock = play_turns(clock, [day, 1.5 * day])
    assert clock.deadline() == at(3.5 * day)
    assert clock.expired(at(3.5 * day)) == "time"
    clock = clock.switch(at(2 * day))
    assert clock.remaining == (1.5 * day * 1000, 2 * day * 1000)  # half a day used
    assert clock.deadline() == at(4 * day)


def test_stopping_charges_the_running_side_and_ends_every_deadline() -> None:
    clock = play_turns(Clock.start(RealTime(60, 0), T0), [1, 2]).stop(at(12))
    assert clock.remaining == (50_000, 60_000)
    assert clock.running is None
    assert clock.deadline() is None
    assert clock.expired(at(10_000)) is None
    with pytest.raises(ValueError, match="stopped"):
        clock.switch(at(13))


def test_json_round_trip() -> None:
    clock = play_turns(Clock.start(RealTime(180, 2), T0, Player.SECOND, grace=7_000), [3, 4, 9])
    assert Clock.from_json(clock.to_json()) == clock


def test_record_headers_keep_the_time_control_and_each_turns_clock() -> None:
    clock = play_turns(Clock.start(RealTime(60, 2), T0), [1, 2, 12.25])
    headers = clock_headers(clock)
    assert headers == {"TimeControl": "60+2", "Clocks": "60.0 60.0 51.8"}
    assert parse_clock_log(headers["Clocks"]) == (60_000, 60_000, 51_800)
    with pytest.raises(InvalidTimeControlError):
        parse_clock_log("60.0 -1")
    with pytest.raises(InvalidTimeControlError):
        parse_clock_log("sixty")


@given(st.integers(5, 600), st.integers(0, 30),
       st.lists(st.integers(0, 120_000), min_size=1, max_size=20))
def test_time_left_never_grows_except_by_the_increment(initial: int, increment: int,
                                                      thinking: list[int]) -> None:
    clock = Clock.start(RealTime(initial, increment), T0)
    moment = T0
    for used in thinking:
        side = clock.running
        assert side is not None
        before = clock.remaining[side]
        moment += timedelta(milliseconds=used)
        expiry = clock.expired(moment)
        if expiry is not None:
            assert expiry == ("abort" if clock.in_grace() else "time")
            assert clock.left(side, moment) == (before if clock.in_grace() else 0)
            break
        grace = clock.in_grace()
        clock = clock.switch(moment)
        after = clock.remaining[side]
        assert after >= 0
        assert after == (before if grace else before - used + increment * 1000)
        assert clock.running is side.other
