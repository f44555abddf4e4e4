"""Reviews remembered by the game's rules and actions, so that a finished game is
reviewed once however often it is asked.

A review depends on nothing else: the same actions under the same rules give
the same turns judged, as long as the solver reached every value within its
budget.  A review with an ``unknown`` value depends on the machine's load and is
not kept.  The review itself runs in the engine's ``study`` lane
(:mod:`quads.web.thinking`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection

from quads.game import Game
from quads.review import TurnReview, review
from quads.solver import Value

if TYPE_CHECKING:
    from quads.web.thinking import Thinking

__all__ = ["ReviewCache", "reviewed"]


class ReviewCache:
    """At most ``size`` complete reviews, the least recently used forgotten first;
    safe to use from several threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._known: OrderedDict[Hashable, list[TurnReview]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(game: Game) -> Hashable:
        return game.rules.name, tuple(game.actions)

    def get(self, game: Game) -> list[TurnReview] | None:
        """The review of ``game`` if it was made completely before."""
        key = self._key(game)
        with self._lock:
            known = self._known.get(key)
            if known is not None:
                self._known.move_to_end(key)
            return known

    def put(self, game: Game, turns: list[TurnReview]) -> None:
        """Remember ``turns``, the review of ``game``, if every value in it is known."""
        if self.size == 0 or any(Value.UNKNOWN in (turn.before, turn.after)
                                 for turn in turns):
            return
        key = self._key(game)
        with self._lock:
            self._known[key] = turns
            self._known.move_to_end(key)
            while len(self._known) > self.size:
                self._known.popitem(last=False)

    def __len__(self) -> int:
        return len(self._known)


async def reviewed(connection: HTTPConnection, game: Game, seconds: float) -> list[TurnReview]:
    """The review of ``game`` (each position searched for at most ``seconds``): from
    the app's cache, else made in the ``study`` lane and remembered.

    :raises EngineBusyError: ``429 engine_busy`` if the lane or the caller's share is full.
    """
    from quads.web.thinking import thinking  # which holds this module's cache

    engine: Thinking = connection.app.state.thinking
    known = engine.reviews.get(game)
    if known is not None:
        return known

    def work() -> list[TurnReview]:
        turns = review(game, seconds=seconds)
        engine.reviews.put(game, turns)
        return turns

    return await thinking(connection, "study", work)
