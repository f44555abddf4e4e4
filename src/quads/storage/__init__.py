"""Saved games and puzzle results: a store in SQLite (the default) or PostgreSQL that
keeps every game after every action, and every attempt at a daily puzzle
(:class:`PuzzleResult`).

:class:`GameStore` opens (and on first use creates) the database;
:class:`StoredGame` is one game with what the web app needs beside the
:class:`~quads.game.Game` itself: its id, mode, level, sides and times.
"""

from quads.storage.errors import (
    DeviceGameExistsError,
    GameNotFoundError,
    StaleGameError,
    StorageError,
    StorageUnavailableError,
)
from quads.storage.results import PuzzleResult
from quads.storage.store import GameStore
from quads.storage.stored import GameSummary, Mode, StoredGame

__all__ = [
    "DeviceGameExistsError",
    "GameNotFoundError",
    "GameStore",
    "GameSummary",
    "Mode",
    "PuzzleResult",
    "StaleGameError",
    "StorageError",
    "StorageUnavailableError",
    "StoredGame",
]
