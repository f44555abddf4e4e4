"""Saved games: a SQLite store that keeps every game after every action.

:class:`GameStore` opens (and on first use creates) the database;
:class:`StoredGame` is one game with what the web app needs beside the
:class:`~quads.game.Game` itself: its id, mode, level, sides and times.
"""

from quads.storage.errors import GameNotFoundError, StaleGameError, StorageError
from quads.storage.sqlite import GameStore
from quads.storage.stored import GameSummary, Mode, StoredGame

__all__ = [
    "GameNotFoundError",
    "GameStore",
    "GameSummary",
    "Mode",
    "StaleGameError",
    "StorageError",
    "StoredGame",
]
