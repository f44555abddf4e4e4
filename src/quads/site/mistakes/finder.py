"""The mistakes of every game that ends, looked for one game at a time.

Each game that ended on this site is queued by the transaction that ended it
(``game_ends``, :mod:`quads.storage.explorer`).  :func:`find_next` takes the game that
ended first of those still to do (for :data:`LEASE`: a process that dies with it
leaves it to another after that), reviews it once and keeps, for each person who
played it, the exercises of their own turns (:mod:`quads.mistakes`): both seats of a
game between people (not a bot's), the person's side against the computer, and both
sides of a game of two people on one device, whose owner studies it.  A game whose
look failed :data:`MOST_TRIES` times is given up.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from quads.mistakes import exercises
from quads.outcome import Player
from quads.review import review
from quads.site.mistakes.service import found_exercises
from quads.storage import GameNotFoundError, GameStore, StoredGame
from quads.storage.exercises import NewExercise

__all__ = ["LEASE", "MOST_TRIES", "find_next", "learners"]

LEASE = timedelta(minutes=10)
"""How long a game taken to look at is left to the process that took it."""
MOST_TRIES = 3
"""Looks at one game at most."""


def learners(stored: StoredGame) -> list[tuple[str, Player | None]]:
    """Who learns from ``stored``: each person's player id and their side (``None``:
    both)."""
    if stored.mode == "online":
        seats = ((stored.first_player, Player.FIRST, stored.bots[0]),
                 (stored.second_player, Player.SECOND, stored.bots[1]))
        return [(player, side) for player, side, bot in seats if player and not bot]
    if stored.owner is None:
        return []
    if stored.mode == "computer":
        return [(stored.owner, stored.human)] if stored.human is not None else []
    return [(stored.owner, None)]


def find_next(store: GameStore, at: datetime, seconds: float) -> str | None:
    """Look at the next ended game: the id of the game looked at, or ``None`` if none
    waits.  ``seconds`` bounds the solver's time on each position."""
    game_id = store.take_ended(at, LEASE, MOST_TRIES)
    if game_id is None:
        return None
    try:
        stored = store.load(game_id)
    except GameNotFoundError:  # pruned meanwhile: nothing to learn
        store.finish_ended(game_id, {}, at)
        return game_id
    people = learners(stored)
    found: dict[str, list[NewExercise]] = {}
    if people and stored.game.outcome is not None:
        turns = review(stored.game, seconds=seconds)
        for player, side in people:
            found.setdefault(player, []).extend(found_exercises(
                exercises(stored.game, side, seconds=seconds, reviewed=turns),
                stored.id, at))
    store.finish_ended(game_id, found, at)
    return game_id
