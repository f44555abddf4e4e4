"""Games and facts shared by the store tests."""

from __future__ import annotations

from datetime import UTC, datetime

from quads import Game
from quads.storage import StoredGame
from quads.storage.stored import redo_trail

CLAIMED = '[Event "Club night"]\n[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1?3 ! 0-1\n'
START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def stored_game(game_id: str, game: Game, **fields: object) -> StoredGame:
    """A stored game of one device, unless ``fields`` say otherwise."""
    values: dict[str, object] = {"mode": "local", "level": None, "human": None, "seed": 7,
                                 "created": START, "updated": START}
    values.update(fields)
    return StoredGame(id=game_id, game=game, **values)  # type: ignore[arg-type]


def facts(stored: StoredGame) -> tuple[object, ...]:
    """What a round trip must keep of a game."""
    game = stored.game
    return (stored.id, stored.mode, stored.level, stored.human, stored.seed, game.rules,
            game.start, game.headers, game.actions, tuple(redo_trail(game)), game.outcome,
            stored.created, stored.owner, stored.first_player, stored.second_player,
            stored.invite, stored.undo_request, stored.resigned, stored.rematch)
