"""Exceptions raised by the game store."""

from __future__ import annotations

__all__ = ["GameNotFoundError", "StaleGameError", "StorageError"]


class StorageError(Exception):
    """Base class of the store's errors."""


class GameNotFoundError(StorageError, LookupError):
    """No game is stored under the id asked for."""


class StaleGameError(StorageError):
    """The game changed in the store since it was loaded; the save was refused."""
