"""A player's attempts at the daily puzzles, and what counts as solved.

An attempt counts as solved only if the player's checked turns reached the goal of
that date (:meth:`PuzzleResults.solved` is told by each winning check), or if the
line it carries was proven to force the win (``proven``); otherwise it is refused
``not_solved``.  An attempt sent again under the same ``attempt`` id is stored once.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from quads.puzzles import streak_of_newest
from quads.site.errors import SiteError
from quads.storage import GameStore, PuzzleResult
from quads.storage.stored import now

__all__ = ["Attempt", "PuzzleResults", "Recorded"]


@dataclass(frozen=True)
class Attempt:
    """One attempt of a player at the puzzle of a date, as the player reports it."""

    tries: int
    seconds: int
    solved: bool
    attempt: str | None = None
    """The attempt's own id: the same attempt sent twice is stored once."""


@dataclass(frozen=True)
class Recorded:
    """What storing an attempt changed: the attempt as stored, the player's count of
    dates solved and their streak, and the attempts at its date with the first solve."""

    result: PuzzleResult
    solved: int
    streak: int
    attempts: int
    first_solve: PuzzleResult | None


@dataclass(frozen=True)
class PuzzleResults:
    """The players' puzzle results kept in ``store``."""

    store: GameStore

    def results(self, player: str | None) -> list[PuzzleResult]:
        """Every attempt of ``player``, newest date first (none without a player)."""
        return self.store.results(player) if player is not None else []

    def solved(self, player: str, date: datetime.date) -> None:
        """``player``'s checked turns solved the puzzle of ``date``."""
        self.store.add_solve(player, date)

    def adopt(self, legacy: str, player: str) -> None:
        """Take over the results that a browser stored under ``legacy``, an id it made
        up itself before the server knew its players."""
        self.store.adopt_results(legacy, player)

    def record(self, player: str, date: datetime.date, attempt: Attempt, *,
               proven: bool, today: datetime.date) -> Recorded:
        """Store ``attempt`` of ``player`` at the puzzle of ``date`` (``proven``: its
        line was proven to solve it, which now counts as a solve too).

        :raises SiteError: ``not_solved`` for an attempt reported solved that neither
            the player's checked turns nor a proven line solved.
        """
        store = self.store
        if attempt.attempt is not None:
            known = store.result_of(player, attempt.attempt)
            if known is not None:
                return self._recorded(player, known, today)
        if attempt.solved and not proven and not store.has_solve(player, date):
            raise SiteError("not_solved", "your checked turns have not solved this puzzle: a "
                            "result counts as solved only after the winning turn was checked")
        stored = PuzzleResult(player=player, date=date, tries=attempt.tries,
                              seconds=attempt.seconds, solved=attempt.solved, recorded=now(),
                              attempt=attempt.attempt)
        if not store.add_result(stored, solve=proven):
            # The same attempt, stored meanwhile by a request sent twice at once.
            known = store.result_of(player, attempt.attempt or "")
            assert known is not None
            stored = known
        return self._recorded(player, stored, today)

    def _recorded(self, player: str, stored: PuzzleResult, today: datetime.date) -> Recorded:
        """What storing ``stored`` changed; only what the answer needs is read, never
        the player's whole history."""
        attempts, first_solve = self.store.puzzle_day(player, stored.date)
        return Recorded(stored, self.store.solved_count(player),
                        streak_of_newest(self.store.solved_dates(player, today), today),
                        attempts, first_solve)
