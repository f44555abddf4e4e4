"""Exceptions raised by the game store."""

from __future__ import annotations

__all__ = ["GameNotFoundError", "StaleGameError", "StorageError", "StorageUnavailableError"]


class StorageError(Exception):
    """Base class of the store's errors."""


class GameNotFoundError(StorageError, LookupError):
    """No game is stored under the id asked for."""


class StaleGameError(StorageError):
    """The game changed in the store since it was loaded; the save was refused."""


class StorageUnavailableError(StorageError):
    """The database cannot be reached now (a server down, a file locked for too long);
    the same request may succeed later."""
