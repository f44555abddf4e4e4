"""Exceptions raised by the game store."""

from __future__ import annotations

__all__ = ["DeviceGameExistsError", "GameNotFoundError", "StaleGameError", "StorageError",
           "StorageUnavailableError"]


class StorageError(Exception):
    """Base class of the store's errors."""


class GameNotFoundError(StorageError, LookupError):
    """No game is stored under the id asked for."""


class DeviceGameExistsError(StorageError):
    """The owner has a game of this device id already (stored meanwhile by another
    upload of it); the new one was not stored."""


class StaleGameError(StorageError):
    """The game changed in the store since it was loaded; the save was refused."""


class StorageUnavailableError(StorageError):
    """The database cannot be reached now (a server down, a file locked for too long);
    the same request may succeed later."""
