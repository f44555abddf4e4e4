"""Glicko-2 ratings, one game a rating period, with lichess's settings and bounds.

A rating is three numbers: the estimated strength (:attr:`Rating.rating`), how
uncertain that estimate is (:attr:`Rating.deviation`, the RD), and how erratic
the player's results are (:attr:`Rating.volatility`).  Glicko-2 suits a game
server better than Elo: a newcomer's rating moves fast while its deviation is
high and settles as games come in, and a player back after months away moves
fast again, because the deviation grows with the time since the last game.

The arithmetic follows Mark Glickman's "Example of the Glicko-2 system" step by
step (:func:`rate`, the Illinois algorithm for the volatility).  Like lichess,
every game is a rating period of its own (:func:`game`): each player's deviation
is first grown for the days since their last game (:func:`aged`, 0.21436 periods
a day), then both ratings are updated at once, each from the other's rating
before the game.  lichess's bounds then apply: the deviation stays within 45 to
500, the volatility at most 0.1, and no game moves a rating by more than 700.

The paper's worked example (its ``tau`` is 0.5, ours 0.75 by default) ends with
``mu' = -0.2069``, ``phi' = 0.8722`` and ``sigma' = 0.05999`` on the Glicko-2
scale, hence 1464.06 and 151.52.  Those figures come from values rounded to four
decimals along the way; unrounded, the same steps give 1464.0507, 151.5165 and
0.0599960 (which the paper writes 0.05999, cut rather than rounded):

>>> after = rate(Rating(1500, 200, 0.06),
...              [(Rating(1400, 30, 0.06), 1), (Rating(1550, 100, 0.06), 0),
...               (Rating(1700, 300, 0.06), 0)], tau=0.5)
>>> round((after.rating - 1500) / SCALE, 4), round(after.deviation / SCALE, 4)
(-0.2069, 0.8722)
>>> round(after.rating, 4), round(after.deviation, 4), round(after.volatility, 7)
(1464.0507, 151.5165, 0.059996)

A newcomer who wins a first game against another:

>>> winner, loser = game(NEW, NEW, 1)
>>> str(winner), str(loser), winner.shown + loser.shown
('1742?', '1258?', 3000)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "EPSILON",
    "LEADERBOARD",
    "MAX_CHANGE",
    "MAX_DEVIATION",
    "MAX_VOLATILITY",
    "MIN_DEVIATION",
    "NEW",
    "PERIODS_PER_DAY",
    "PROVISIONAL",
    "SCALE",
    "TAU",
    "Rating",
    "aged",
    "game",
    "rate",
]

SCALE = 173.7178
"""Rating points per unit of the Glicko-2 scale (the paper's step 2 divides by it)."""

_CENTRE = 1500.0

TAU = 0.75
"""The system constant: how far the volatility may move in one period (lichess's;
the paper suggests 0.3 to 1.2, and uses 0.5 in its example)."""

EPSILON = 1e-6
"""Convergence tolerance of the volatility's iteration (the paper's step 5)."""

MIN_DEVIATION = 45.0
"""The lowest deviation: however many games a player plays, a rating keeps some room
to move."""

MAX_DEVIATION = 500.0
"""The highest deviation, a newcomer's: a long absence brings a player back to it,
never past it."""

MAX_VOLATILITY = 0.1
"""The highest volatility: past it the rating might never settle again."""

MAX_CHANGE = 700.0
"""The most points one game may move a rating by (a newcomer's surprising win against
a much stronger, settled player can otherwise be worth over 1000)."""

PROVISIONAL = 110.0
"""A rating whose deviation is at least this is provisional: too uncertain to mean
much, shown with a ``?`` (:attr:`Rating.provisional`) and better left out of pairing
decisions that rely on it."""

LEADERBOARD = 75.0
"""A rating appears on leaderboards only once its deviation is at most this
(:attr:`Rating.ranked`): stricter than :data:`PROVISIONAL`, so that a ranking holds
only players whose rating is both established and recent."""

PERIODS_PER_DAY = 0.21436
"""Rating periods a day without a game (:func:`aged`): chosen by lichess so that a
typical player's deviation goes from 60 to 110 in a year away."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale (1500 for an average newcomer).

    :raises ValueError: if a number is not finite, or the deviation or the volatility
        is not positive.
    """

    rating: float
    deviation: float
    """The rating's standard deviation, in rating points."""
    volatility: float
    """How erratic the player's results are (about 0.06 for a steady player)."""

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"a rating's {name} is a number, not {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"a rating's {name} must be finite, not {value!r}")
        if self.deviation <= 0 or self.volatility <= 0:
            raise ValueError(f"a rating's deviation and volatility must be positive, not "
                             f"{self.deviation!r} and {self.volatility!r}")

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain (deviation at least :data:`PROVISIONAL`)."""
        return self.deviation >= PROVISIONAL

    @property
    def ranked(self) -> bool:
        """Whether the rating may appear on leaderboards (deviation at most
        :data:`LEADERBOARD`)."""
        return self.deviation <= LEADERBOARD

    @property
    def shown(self) -> int:
        """The rating as players see it, rounded to a whole number."""
        return round(self.rating)

    def __str__(self) -> str:
        """The rating as shown, with ``?`` when provisional: ``1500?``, ``1873``."""
        return f"{self.shown}?" if self.provisional else str(self.shown)


NEW = Rating(1500.0, MAX_DEVIATION, 0.09)
"""A newcomer's rating: average strength, as uncertain as a rating gets, and a
volatility above a steady player's so that the first games count for much."""


def _finite(value: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} is a number, not {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{what} must be finite, not {value!r}")
    return float(value)


def _check_score(score: float) -> float:
    if isinstance(score, bool) or not isinstance(score, int | float) or score not in (0, 0.5, 1):
        raise ValueError(f"a score is 0 (a loss), 0.5 (a draw) or 1 (a win), not {score!r}")
    return float(score)


def _check_days(days: float) -> float:
    checked = _finite(days, "the days since the last game")
    if checked < 0:
        raise ValueError(f"the days since the last game cannot be negative, not {days!r}")
    return checked


def _check_tau(tau: float) -> float:
    checked = _finite(tau, "tau")
    if checked <= 0:
        raise ValueError(f"tau must be positive, not {tau!r}")
    return checked


def aged(rating: Rating, days: float) -> Rating:
    """``rating`` after ``days`` without a game: only its deviation grows, by
    ``days * PERIODS_PER_DAY`` rating periods of the paper's step 6
    (``phi' = sqrt(phi^2 + periods * sigma^2)``), up to :data:`MAX_DEVIATION`.  A
    deviation already above that bound is left as it is, never lowered.

    >>> round(aged(Rating(1500, 60, 0.06), 365).deviation)  # a year away
    110

    :raises ValueError: if ``days`` is negative or not finite.
    """
    days = _check_days(days)
    if days == 0 or rating.deviation >= MAX_DEVIATION:
        return rating
    periods = days * PERIODS_PER_DAY
    grown = math.sqrt(rating.deviation**2 + periods * (SCALE * rating.volatility) ** 2)
    return Rating(rating.rating, min(MAX_DEVIATION, grown), rating.volatility)


def _g(phi: float) -> float:
    """The paper's step 3: how much an opponent's uncertainty dampens a result."""
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _expected(mu: float, opponent_mu: float, g: float) -> float:
    """The paper's step 3: the expected score against an opponent."""
    return 1 / (1 + math.exp(-g * (mu - opponent_mu)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """The paper's step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2)
                - (x - a) / tau**2)

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(1000):
        if abs(big_b - big_a) <= EPSILON:
            return math.exp(big_a / 2)
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    raise ArithmeticError("the volatility's iteration does not converge")


def _bounded(before: Rating, rating: float, deviation: float, volatility: float) -> Rating:
    """lichess's bounds on a period's outcome."""
    if abs(rating - before.rating) > MAX_CHANGE:
        rating = before.rating + math.copysign(MAX_CHANGE, rating - before.rating)
        while abs(rating - before.rating) > MAX_CHANGE:  # a rounding over the bound
            rating = math.nextafter(rating, before.rating)
    return Rating(rating, max(MIN_DEVIATION, min(MAX_DEVIATION, deviation)),
                  min(MAX_VOLATILITY, volatility))


def _period(player: Rating, scores: Sequence[tuple[Rating, float]],
            tau: float) -> tuple[float, float, float]:
    """The paper's steps 2 to 8 for a period with games: the new rating (familiar
    scale), deviation (Glicko-2 scale) and volatility, unbounded."""
    mu = (player.rating - _CENTRE) / SCALE
    phi = player.deviation / SCALE
    information = 0.0  # 1 / v
    improvement = 0.0  # delta / v
    for opponent, score in scores:
        g = _g(opponent.deviation / SCALE)
        expected = _expected(mu, (opponent.rating - _CENTRE) / SCALE, g)
        information += g**2 * expected * (1 - expected)
        improvement += g * (score - expected)
    v = 1 / information
    delta = v * improvement
    sigma = _volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    # mu' = mu + phi'^2 * delta / v, kept on the familiar scale so that a change of
    # nothing is exactly nothing.
    return player.rating + SCALE * new_phi**2 * improvement, new_phi, sigma


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period in which they scored ``score``
    (1 a win, 0.5 a draw, 0 a loss) against each ``opponent`` of ``results``, the
    opponents as rated before the period.

    The paper's steps 2 to 8, then lichess's bounds: the deviation is kept within
    :data:`MIN_DEVIATION` and :data:`MAX_DEVIATION`, the volatility at most
    :data:`MAX_VOLATILITY`, and the change at most :data:`MAX_CHANGE` either way.  A
    period without games only grows the deviation by one period (step 6).

    :raises ValueError: if a score is not 0, 0.5 or 1, ``tau`` is not a positive
        number, or the ratings are so far apart (tens of thousands of points) that the
        arithmetic overflows.
    """
    tau = _check_tau(tau)
    scores = [(opponent, _check_score(score)) for opponent, score in results]
    if not scores:
        deviation = math.sqrt(player.deviation**2 + (SCALE * player.volatility) ** 2)
        return _bounded(player, player.rating, deviation, player.volatility)
    try:
        new_rating, new_phi, new_sigma = _period(player, scores, tau)
    except (ArithmeticError, ValueError):
        new_rating = new_phi = new_sigma = math.nan
    if not all(math.isfinite(x) for x in (new_rating, new_phi, new_sigma)):
        raise ValueError(f"cannot rate {player!r} against "
                         f"{[opponent for opponent, _ in scores]!r}: the ratings are too far "
                         "apart")
    return _bounded(player, new_rating, SCALE * new_phi, new_sigma)


def game(first: Rating, second: Rating, score_first: float, days_first: float = 0,
         days_second: float = 0, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them in which ``first`` scored
    ``score_first`` (1, 0.5 or 0; ``second`` scored the rest).

    The game is a rating period of its own.  Each rating is first aged by the days
    since that player's last game (``days_first``, ``days_second``; see
    :func:`aged`), then each is rated against the other's aged rating from before
    the game: the update is simultaneous, so neither player's result depends on
    whose rating is computed first.

    :raises ValueError: if the score is not 0, 0.5 or 1, or a number of days is
        negative or not finite (and as :func:`rate` raises).
    """
    score = _check_score(score_first)
    first, second = aged(first, days_first), aged(second, days_second)
    return rate(first, [(second, score)], tau), rate(second, [(first, 1 - score)], tau)
