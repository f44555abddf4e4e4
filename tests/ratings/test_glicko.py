"""Glicko-2: Glickman's worked example, lichess's bounds, aging, and the properties of
one game between two players."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from quads.ratings import (
    LEADERBOARD,
    MAX_CHANGE,
    MAX_DEVIATION,
    MAX_VOLATILITY,
    MIN_DEVIATION,
    NEW,
    PROVISIONAL,
    SCALE,
    Rating,
    aged,
    game,
    rate,
)

PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_RESULTS = [(Rating(1400, 30, 0.06), 1.0), (Rating(1550, 100, 0.06), 0.0),
                 (Rating(1700, 300, 0.06), 0.0)]


def test_the_papers_worked_example() -> None:
    after = rate(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    # The paper's own figures, which come from values rounded to four decimals on the
    # Glicko-2 scale along the way: within a hundredth of a point, and of 0.00001.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    # Unrounded.
    assert round(after.rating, 4) == 1464.0507
    assert round(after.deviation, 4) == 151.5165
    assert round(after.volatility, 7) == 0.059996


def test_the_papers_example_is_within_lichess_bounds() -> None:
    """So going through ``rate`` (which bounds) checks the paper's arithmetic alone."""
    after = rate(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    assert MIN_DEVIATION < after.deviation < MAX_DEVIATION
    assert after.volatility < MAX_VOLATILITY
    assert abs(after.rating - PAPER_PLAYER.rating) < MAX_CHANGE


def test_the_order_of_results_does_not_matter() -> None:
    forward = rate(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    backward = rate(PAPER_PLAYER, PAPER_RESULTS[::-1], tau=0.5)
    assert forward.rating == pytest.approx(backward.rating, abs=1e-9)
    assert forward.deviation == pytest.approx(backward.deviation, abs=1e-9)


def test_a_period_without_games_only_grows_the_deviation() -> None:
    after = rate(PAPER_PLAYER, [])
    assert after.rating == PAPER_PLAYER.rating
    assert after.volatility == PAPER_PLAYER.volatility
    # Step 6 on the Glicko-2 scale: sqrt(phi^2 + sigma^2).
    assert after.deviation == pytest.approx(SCALE * math.hypot(200 / SCALE, 0.06))


def test_a_newcomer() -> None:
    assert Rating(1500, 500, 0.09) == NEW
    assert NEW.provisional
    assert not NEW.ranked
    assert str(NEW) == "1500?"
    assert NEW.shown == 1500


def test_provisional_and_leaderboard_thresholds() -> None:
    assert Rating(1500, PROVISIONAL, 0.06).provisional
    assert not Rating(1500, PROVISIONAL - 0.01, 0.06).provisional
    assert Rating(1500, LEADERBOARD, 0.06).ranked
    assert not Rating(1500, LEADERBOARD + 0.01, 0.06).ranked
    assert str(Rating(1873.5, 60, 0.06)) == "1874"
    assert Rating(1873.4, 60, 0.06).shown == 1873


def test_a_year_away_takes_a_typical_deviation_from_60_to_110() -> None:
    assert aged(Rating(1500, 60, 0.06), 365).deviation == pytest.approx(110, abs=0.5)
    assert aged(Rating(1500, 60, 0.06), 0) == Rating(1500, 60, 0.06)
    assert aged(Rating(1500, 60, 0.06), 100_000).deviation == MAX_DEVIATION


def test_a_single_game_moves_a_rating_at_most_700() -> None:
    winner, loser = game(NEW, Rating(3000, 45, 0.06), 1)
    assert winner.rating == NEW.rating + MAX_CHANGE
    assert 2990 < loser.rating < 3000


def test_the_volatility_is_capped() -> None:
    """Ten wins in a period against players 700 points stronger would take a settled
    player's volatility from 0.09 to 0.103."""
    settled = Rating(1500, 50, 0.09)
    after = rate(settled, [(Rating(2200, 45, 0.06), 1)] * 10)
    assert after.volatility == MAX_VOLATILITY
    assert after.rating == pytest.approx(1655.3, abs=0.1)


def test_the_deviation_never_falls_below_45() -> None:
    settled = Rating(1500, 45, 0.03)
    after = rate(settled, [(Rating(1500, 45, 0.03), 0.5)] * 50)
    assert after.deviation == MIN_DEVIATION


def test_a_settled_players_deviation_can_grow_in_a_game() -> None:
    """At the lowest deviations, a game's information is less than the period's
    growth (step 6): a player's deviation hovers just above 45, not at it."""
    settled = Rating(1500, 45, 0.06)
    first, second = game(settled, settled, 0.5)
    assert first.deviation > settled.deviation
    assert first == second


@pytest.mark.parametrize("score", [2, -1, 0.25, 0.49, math.nan, math.inf, True, "1"])
def test_bad_scores_are_refused(score: object) -> None:
    with pytest.raises(ValueError, match=r"a score is 0 \(a loss\), 0.5 \(a draw\) or 1"):
        game(NEW, NEW, score)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not " + re.escape(repr(score))):
        rate(NEW, [(NEW, score)])  # type: ignore[list-item]


@pytest.mark.parametrize("days", [-1, -0.001])
def test_negative_days_are_refused(days: float) -> None:
    with pytest.raises(ValueError, match=rf"cannot be negative, not {days}"):
        aged(NEW, days)
    with pytest.raises(ValueError, match="cannot be negative"):
        game(NEW, NEW, 1, days_second=days)


@pytest.mark.parametrize("days", [math.nan, math.inf, -math.inf])
def test_days_must_be_finite(days: float) -> None:
    with pytest.raises(ValueError, match=rf"must be finite, not {days}"):
        game(NEW, NEW, 1, days_first=days)


@pytest.mark.parametrize(("rating", "deviation", "volatility"), [
    (math.nan, 100, 0.06), (1500, math.inf, 0.06), (1500, 100, -math.inf),
])
def test_ratings_must_be_finite(rating: float, deviation: float, volatility: float) -> None:
    with pytest.raises(ValueError, match="must be finite, not"):
        Rating(rating, deviation, volatility)


@pytest.mark.parametrize(("deviation", "volatility"), [(0, 0.06), (-5, 0.06), (100, 0)])
def test_deviation_and_volatility_must_be_positive(deviation: float, volatility: float) -> None:
    with pytest.raises(ValueError, match=rf"must be positive, not {deviation!r} and"):
        Rating(1500, deviation, volatility)


@pytest.mark.parametrize("tau", [0, -0.5, math.nan])
def test_tau_must_be_positive(tau: float) -> None:
    with pytest.raises(ValueError, match="tau must be"):
        rate(NEW, [(NEW, 1)], tau=tau)


def test_ratings_too_far_apart_are_refused() -> None:
    with pytest.raises(ValueError, match="too far apart"):
        rate(Rating(1500, 45, 0.06), [(Rating(1_000_000, 45, 0.06), 1)])


# -- properties ------------------------------------------------------------------

ratings = st.builds(
    Rating,
    st.floats(400, 3500),
    st.floats(MIN_DEVIATION, MAX_DEVIATION),
    st.floats(0.01, MAX_VOLATILITY),
)
scores = st.sampled_from([0.0, 0.5, 1.0])
days = st.floats(0, 3650)


def bounded(rating: Rating) -> bool:
    return (MIN_DEVIATION <= rating.deviation <= MAX_DEVIATION
            and rating.volatility <= MAX_VOLATILITY)


@given(ratings, ratings, days, days)
def test_a_win_never_lowers_the_winners_rating_nor_raises_the_losers(
        first: Rating, second: Rating, days_first: float, days_second: float) -> None:
    winner, loser = game(first, second, 1, days_first, days_second)
    assert winner.rating >= first.rating
    assert loser.rating <= second.rating
    loser, winner = game(first, second, 0, days_first, days_second)
    assert winner.rating >= second.rating
    assert loser.rating <= first.rating


@given(ratings, ratings, scores, days, days)
def test_bounds_always_hold(first: Rating, second: Rating, score: float, days_first: float,
                           days_second: float) -> None:
    after_first, after_second = game(first, second, score, days_first, days_second)
    assert bounded(after_first)
    assert bounded(after_second)
    assert abs(after_first.rating - first.rating) <= MAX_CHANGE
    assert abs(after_second.rating - second.rating) <= MAX_CHANGE


@given(ratings, ratings, scores, days)
def test_a_game_leaves_the_deviation_below_a_period_without_it(
        player: Rating, opponent: Rating, score: float, days_away: float) -> None:
    """A game informs: the deviation after it is below the aged deviation grown by one
    period at the new volatility (step 6), which is where it would be had the game
    told nothing (or at the lowest bound)."""
    before = aged(player, days_away)
    after, _ = game(player, opponent, score, days_away)
    assume(after.volatility < MAX_VOLATILITY)  # else step 6 used an uncapped one
    grown = math.hypot(before.deviation, SCALE * after.volatility)
    assert after.deviation <= max(MIN_DEVIATION, min(MAX_DEVIATION, grown))


@given(ratings, ratings, scores, days)
def test_a_new_or_returning_players_deviation_falls_in_a_game(
        player: Rating, opponent: Rating, score: float, days_away: float) -> None:
    """Above the provisional threshold, a game against a fairly matched opponent
    always leaves the deviation below the aged one."""
    assume(aged(player, days_away).deviation >= PROVISIONAL)
    assume(abs(player.rating - opponent.rating) <= 400)
    before = aged(player, days_away)
    after, _ = game(player, opponent, score, days_away)
    assert after.deviation < before.deviation


@given(ratings, ratings, scores, days, days)
def test_a_games_changes_are_opposite_in_sign(first: Rating, second: Rating, score: float,
                                              days_first: float, days_second: float) -> None:
    after_first, after_second = game(first, second, score, days_first, days_second)
    change_first = after_first.rating - first.rating
    change_second = after_second.rating - second.rating
    assert change_first * change_second <= 0
    assert (change_first == 0) == (change_second == 0)


@given(ratings, days)
def test_a_draw_between_equals_leaves_them_equal(rating: Rating, days_away: float) -> None:
    first, second = game(rating, rating, 0.5, days_away, days_away)
    assert first == second
    assert first.rating == rating.rating


@given(ratings, days, days)
def test_aging_is_monotone_and_capped(rating: Rating, some: float, more: float) -> None:
    fewer, more = sorted((some, more))
    assert rating.deviation <= aged(rating, fewer).deviation <= aged(rating, more).deviation
    assert aged(rating, more).deviation <= MAX_DEVIATION
    assert aged(rating, more).rating == rating.rating
    assert aged(rating, more).volatility == rating.volatility


@given(st.builds(Rating, st.floats(-1000, 6000), st.floats(1, 1000), st.floats(0.001, 0.5)),
       st.lists(st.tuples(st.builds(Rating, st.floats(-1000, 6000), st.floats(1, 1000),
                                    st.floats(0.001, 0.5)), scores), max_size=20))
def test_any_period_keeps_to_the_bounds(player: Rating,
                                        results: list[tuple[Rating, float]]) -> None:
    after = rate(player, results)
    assert bounded(after)
    assert abs(after.rating - player.rating) <= MAX_CHANGE
