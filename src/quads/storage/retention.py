"""What a prune of the store removes (:meth:`quads.storage.GameStore.prune`).

Nobody's games are kept for ever: a game nobody acted in (created, imported or
offered as a rematch, and never saved since) and a player with no game, no
puzzle result and no puzzle solved expire after ``unplayed`` days; a finished
game, and an unfinished one that nobody changed for that long (abandoned),
after ``ended`` days.  A game counts from its last change, a player from the
day its token was issued.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Pruned"]


@dataclass(frozen=True, slots=True)
class Pruned:
    """How many rows of each kind a prune removed (or, in a dry run, would remove)."""

    unplayed_games: int = 0
    """Games in which nobody acted, unchanged for the ``unplayed`` time."""
    ended_games: int = 0
    """Finished games, unchanged for the ``ended`` time."""
    abandoned_games: int = 0
    """Unfinished games somebody acted in, unchanged for the ``ended`` time."""
    players: int = 0
    """Players issued before the ``unplayed`` time who hold no game (after this prune),
    no puzzle result and no puzzle solved."""
    games: tuple[str, ...] = field(default=(), repr=False)
    """The ids of the games removed."""
    dry_run: bool = False
    """Whether nothing was removed (the counts say what would have been)."""
    skipped: bool = False
    """Whether another process was pruning the same database at the time (PostgreSQL):
    nothing was counted."""

    @property
    def total(self) -> int:
        """Every row removed."""
        return self.unplayed_games + self.ended_games + self.abandoned_games + self.players
