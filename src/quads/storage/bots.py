"""Bots: players that made themselves programs' players, for good.

A player becomes a bot once (:meth:`Bots.upgrade`) and stays one: the row keeps
a public handle (``players.bot``), by which the bot is marked wherever its name
shows.  What a bot may do is what a player may do, through the same routes; the
web layer adds its event stream (:mod:`quads.web.bot_api`).
"""

from __future__ import annotations

import secrets

from sqlalchemy import select, update

from quads.storage.errors import StorageError
from quads.storage.store import GameStore
from quads.storage.tables import players, seeks

__all__ = ["AlreadyBotError", "Bots"]

HANDLE_BYTES = 8
"""Random bytes of a bot's handle (written in base 64 for URLs)."""


class AlreadyBotError(StorageError):
    """The player is a bot already (the upgrade cannot be undone or repeated)."""


class Bots:
    """The bots among ``store``'s players."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def upgrade(self, player: str) -> str:
        """Make ``player`` a bot (for good); its new handle.  Its open seeks are marked too.

        :raises AlreadyBotError: if it is one already.
        """
        handle = "bot-" + secrets.token_urlsafe(HANDLE_BYTES)
        with self.store._begin(write=True) as connection:
            self.store._keep_players(connection, player)
            changed = connection.execute(
                update(players).where(players.c.id == player, players.c.bot.is_(None))
                .values(bot=handle)).rowcount
            if not changed:
                raise AlreadyBotError(f"{player} is a bot already")
            connection.execute(update(seeks).where(seeks.c.player == player).values(bot=1))
        return handle

    def handle(self, player: str) -> str | None:
        """``player``'s handle if it is a bot, else ``None``."""
        with self.store._begin() as connection:
            found = connection.execute(select(players.c.bot).where(players.c.id == player))
            handle = found.scalar()
        return None if handle is None else str(handle)
