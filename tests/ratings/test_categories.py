"""Rating categories: speeds from time controls, and a category per preset and speed."""

from __future__ import annotations

import pytest

from quads.clock import Correspondence, RealTime, parse_time_control
from quads.ratings import (
    ALL,
    BLITZ_UNDER,
    RAPID_UNDER,
    Category,
    Speed,
    category_of,
    estimate,
    speed_of,
)
from quads.rules import ADVANCED, CLASSIC, PRESETS, QUADS, Calling, Rules, ShapeSet


@pytest.mark.parametrize(("control", "seconds", "speed"), [
    (RealTime(179), 179, Speed.BLITZ),
    (RealTime(180), 180, Speed.RAPID),
    (RealTime(171, 1), 179, Speed.BLITZ),
    (RealTime(172, 1), 180, Speed.RAPID),
    (RealTime(19, 20), 179, Speed.BLITZ),
    (RealTime(20, 20), 180, Speed.RAPID),
    (RealTime(899), 899, Speed.RAPID),
    (RealTime(900), 900, Speed.CLASSICAL),
    (RealTime(859, 5), 899, Speed.RAPID),
    (RealTime(860, 5), 900, Speed.CLASSICAL),
    (RealTime(1, 112), 897, Speed.RAPID),
    (RealTime(1, 113), 905, Speed.CLASSICAL),
])
def test_real_time_speeds_at_their_boundaries(control: RealTime, seconds: int,
                                              speed: Speed) -> None:
    assert estimate(control) == seconds
    assert speed_of(control) is speed


def test_the_boundaries_are_three_and_fifteen_minutes() -> None:
    assert (BLITZ_UNDER, RAPID_UNDER) == (180, 900)


@pytest.mark.parametrize("days", [1, 3, 30])
def test_correspondence(days: int) -> None:
    assert speed_of(Correspondence(days)) is Speed.CORRESPONDENCE
    assert category_of(QUADS, Correspondence(days)) == Category("quads", Speed.CORRESPONDENCE)


def test_a_non_clock_is_refused() -> None:
    with pytest.raises(TypeError, match="not '300"):
        speed_of("300+3")  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "control", "text"), [
    (QUADS, "60+2", "quads-blitz"),
    (CLASSIC, "300+3", "classic-rapid"),
    (ADVANCED, "900+10", "advanced-classical"),
    (CLASSIC, "2d", "classic-correspondence"),
])
def test_the_category_of_a_game(rules: Rules, control: str, text: str) -> None:
    category = category_of(rules, parse_time_control(control))
    assert category is not None
    assert str(category) == text
    assert category.preset == rules


@pytest.mark.parametrize("rules", [
    Rules(ShapeSet.LINES, 0b0011, Calling.DECLARE),
    Rules(ShapeSet.LINES, calling=Calling.AUTO),
    QUADS.with_traits(0b0111),
])
def test_custom_rules_are_not_rated(rules: Rules) -> None:
    assert category_of(rules, RealTime(300, 3)) is None


@pytest.mark.parametrize("rules", list(PRESETS.values()))
def test_games_without_a_clock_are_not_rated(rules: Rules) -> None:
    assert category_of(rules, None) is None


def test_all_categories_in_a_stable_order() -> None:
    assert len(ALL) == len(set(ALL)) == len(PRESETS) * len(Speed) == 12
    assert [str(category) for category in ALL[:4]] == [
        "quads-blitz", "quads-rapid", "quads-classical", "quads-correspondence"]
    assert [category.rules for category in ALL[::4]] == ["quads", "classic", "advanced"]


@pytest.mark.parametrize("category", ALL, ids=str)
def test_text_round_trip(category: Category) -> None:
    assert Category.parse(str(category)) == category
    assert str(category) == f"{category.rules}-{category.speed}"


@pytest.mark.parametrize("text", [
    "", "quads", "blitz", "quads-", "-blitz", "quads-bullet", "custom-blitz", "Quads-Blitz",
    " quads-blitz", "quads-blitz ", "quads_blitz", "quads-blitz-rapid", "lines:color:auto-blitz",
])
def test_parse_errors_quote_the_text(text: str) -> None:
    with pytest.raises(ValueError, match=rf"invalid rating category {text!r}: expected "):
        Category.parse(text)


def test_parse_refuses_what_is_not_text() -> None:
    with pytest.raises(ValueError, match="invalid rating category None"):
        Category.parse(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "speed", "message"), [
    ("custom", Speed.BLITZ, "rules are one of quads, classic, advanced, not 'custom'"),
    ("quads", "blitz", "speed is one of blitz, rapid, classical, correspondence, not 'blitz'"),
])
def test_categories_are_checked(rules: str, speed: Speed, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Category(rules, speed)


def test_speeds_are_text() -> None:
    assert [str(speed) for speed in Speed] == ["blitz", "rapid", "classical", "correspondence"]
    assert Speed("rapid") is Speed.RAPID


def test_speeds_grow_with_time() -> None:
    real = sorted((RealTime(initial, increment)
                   for initial in (1, 60, 179, 180, 600, 899, 900, 3600)
                   for increment in (0, 1, 2, 5, 30)), key=estimate)
    ranks = [list(Speed).index(speed_of(control)) for control in real]
    assert ranks == sorted(ranks)
