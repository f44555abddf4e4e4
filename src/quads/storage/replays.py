"""The games a store replayed lately, so that a load replays only what is new.

A stored game is its record: the rule set, the start, the headers, the actions
and the redo trail, as text.  Loading it means parsing and playing every action
again, about half of what a load costs.  A game is loaded once or twice for each
action played in it (by the request that plays, by the live sockets of another
server process), each time with one action more than the last: a copy of the
game as last loaded or saved, with the new actions played on it, is the same
game for a fraction of the work.

Only what the record determines is kept here, so an entry can never be stale in
a way that matters: the record as read is compared with the one remembered,
and anything but the same record or the same one with actions added (and no redo
trail on either) is replayed from the start.  The games kept are never handed
out, only copies of them.

A game is kept while it is played: those not used for ``REPLAYS_IDLE`` seconds are
forgotten (replaying one of them from the start costs a millisecond or two), and
never more than ``REPLAYS_KEPT``, so that what a process keeps follows the games
played lately, not all it ever saw.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

from quads.game import Game
from quads.position import Position
from quads.rules import Rules
from quads.storage.stored import parse_action, rebuild_game

__all__ = ["REPLAYS_IDLE", "REPLAYS_KEPT", "Replays"]

REPLAYS_KEPT = 2048
"""Games kept by default: those played lately, by the last time they were used."""
REPLAYS_IDLE = 600.0
"""Seconds after its last use that a game is forgotten by default."""


@dataclass(frozen=True, slots=True)
class _Replay:
    rules: str
    start: str
    headers: str
    actions: tuple[str, ...]
    redo: tuple[str, ...]
    game: Game
    used: float


class Replays:
    """The games of one store replayed lately, by game id (safe across threads): at
    most ``kept``, each for ``idle`` seconds after its last use on the ``clock``."""

    def __init__(self, kept: int = REPLAYS_KEPT, idle: float = REPLAYS_IDLE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._kept = kept
        self._idle = idle
        self._clock = clock
        self._replays: OrderedDict[str, _Replay] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._replays)

    def game(self, game_id: str, rules: str, start: str, headers: str,
             actions: list[str], redo: list[str]) -> Game:
        """The game of this record (the columns as stored, ``actions`` and ``redo`` as
        action texts): a new object, which the caller may change.

        :raises QuadsError: if the record cannot be played.
        """
        with self._lock:
            known = self._replays.get(game_id)
            if known is not None:  # kept by the last time it was used
                self._replays[game_id] = replace(known, used=self._clock())
                self._replays.move_to_end(game_id)
        game: Game | None = None
        if known is not None and (known.rules, known.start, known.headers) == (
                rules, start, headers):
            if known.actions == tuple(actions) and known.redo == tuple(redo):
                return known.game.copy()
            seen = len(known.actions)
            if not known.redo and not redo and tuple(actions[:seen]) == known.actions:
                game = known.game.copy()
                for text in actions[seen:]:
                    game.apply(parse_action(text))
        if game is None:
            game = rebuild_game(Rules.parse(rules), Position.from_string(start),
                                json.loads(headers), [parse_action(text) for text in actions],
                                [parse_action(text) for text in redo])
        self._keep(game_id, _Replay(rules, start, headers, tuple(actions), tuple(redo),
                                    game.copy(), self._clock()))
        return game

    def saved(self, game_id: str, game: Game, actions: list[str], redo: list[str]) -> None:
        """``game`` was saved with these action texts: remember it, if its game is
        remembered (a save writes no rule set, start or headers: those stay)."""
        with self._lock:
            known = self._replays.get(game_id)
        if known is not None:
            self._keep(game_id, _Replay(known.rules, known.start, known.headers,
                                        tuple(actions), tuple(redo), game.copy(),
                                        self._clock()))

    def forget(self, game_id: str) -> None:
        """Forget the game ``game_id`` (it was deleted)."""
        with self._lock:
            self._replays.pop(game_id, None)

    def _keep(self, game_id: str, replay: _Replay) -> None:
        with self._lock:
            self._replays[game_id] = replay
            self._replays.move_to_end(game_id)
            while len(self._replays) > self._kept:
                self._replays.popitem(last=False)
            # The first game is the one used least lately: forget while it idled too long.
            idle_since = replay.used - self._idle
            while self._replays:
                first = next(iter(self._replays.values()))
                if first.used >= idle_since:
                    break
                self._replays.popitem(last=False)
