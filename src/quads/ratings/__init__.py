"""Players' ratings: Glicko-2 after every game, one rating per category.

:mod:`quads.ratings.glicko` rates games with Glicko-2 as lichess runs it (each game
a rating period, the deviation grown with the days between games, lichess's
bounds); :mod:`quads.ratings.categories` says which rating a game counts for: its
preset rule set and its speed, from the time control.  Both are pure: numbers in,
numbers out, nothing stored.
"""

from quads.ratings.categories import (
    ALL,
    BLITZ_UNDER,
    RAPID_UNDER,
    TURNS_A_SIDE,
    Category,
    Speed,
    category_of,
    estimate,
    speed_of,
)
from quads.ratings.glicko import (
    EPSILON,
    LEADERBOARD,
    MAX_CHANGE,
    MAX_DEVIATION,
    MAX_VOLATILITY,
    MIN_DEVIATION,
    NEW,
    PERIODS_PER_DAY,
    PROVISIONAL,
    SCALE,
    TAU,
    Rating,
    aged,
    game,
    rate,
)

__all__ = [
    "ALL",
    "BLITZ_UNDER",
    "EPSILON",
    "LEADERBOARD",
    "MAX_CHANGE",
    "MAX_DEVIATION",
    "MAX_VOLATILITY",
    "MIN_DEVIATION",
    "NEW",
    "PERIODS_PER_DAY",
    "PROVISIONAL",
    "RAPID_UNDER",
    "SCALE",
    "TAU",
    "TURNS_A_SIDE",
    "Category",
    "Rating",
    "Speed",
    "aged",
    "category_of",
    "estimate",
    "game",
    "rate",
    "speed_of",
]
