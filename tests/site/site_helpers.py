"""What the site's domains tell their followers, recorded; and an operator's limits."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from quads.game import Game
from quads.storage import GameStore, StoredGame
from quads.storage.lobby import Paired, Seek
from quads.storage.stored import now

__all__ = ["Limits", "Told", "online_game"]


def online_game(store: GameStore, first: str, second: str) -> str:
    """Store an online game between ``first`` and ``second``; its id."""
    moment = now()
    game_id = secrets.token_hex(4)
    store.create(StoredGame(id=game_id, mode="online", level=None, human=None, seed=1,
                            game=Game(), created=moment, updated=moment, owner=first,
                            first_player=first, second_player=second))
    return game_id


@dataclass
class Told:
    """The followers of games and of the lobby: what each was told, in order."""

    games: list[tuple[str, int | None, bool]] = field(default_factory=list)
    lobby: list[tuple[str, str]] = field(default_factory=list)
    here: dict[str, frozenset[str]] = field(default_factory=dict)

    def publish(self, game_id: str, stored: StoredGame | None = None, *,
                gone: bool = False) -> None:
        self.games.append((game_id, None if stored is None else stored.revision, gone))

    def connected(self, game_id: str) -> frozenset[str]:
        return self.here.get(game_id, frozenset())

    def opened(self, seek: Seek) -> None:
        self.lobby.append(("opened", seek.id))

    def dropped(self, ids: list[str] | tuple[str, ...]) -> None:
        self.lobby.extend(("dropped", seek_id) for seek_id in ids)

    def paired(self, paired: Paired) -> None:
        self.lobby.append(("paired", paired.seek.id))


@dataclass(frozen=True)
class Limits:
    """What an operator tunes, stated here (the abandonment limit of a real-time game
    is longer than the server's default, 30 s, and not scaled to the time control, so
    that the tests' figures stay plain)."""

    clock_grace: float = 30.0
    abandon_realtime: float = 60.0
    abandon_share: float = 0.0
    abandon_untimed: float = 300.0
    seeks_per_player: int = 3
