"""Reviews remembered by the game's rules and actions, so that a finished game is
reviewed once however often it is asked (:func:`quads.web.thinking.reviewed`).

A review depends on nothing else: the same actions under the same rules give
the same turns judged, as long as the solver reached every value within its
budget.  A review with an ``unknown`` value depends on the machine's load and is
not kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from quads.game import Game
from quads.review import TurnReview
from quads.solver import Value

__all__ = ["ReviewCache"]


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
