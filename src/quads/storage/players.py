"""The players a server issued: each one a row, made when its token is issued."""

from __future__ import annotations

from sqlalchemy import (
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError

from quads.storage.database import Database, moment_text
from quads.storage.stored import now
from quads.storage.tables import players

__all__ = ["PlayerStore"]


class PlayerStore(Database):
    """The players of the database."""

    def add_player(self, player: str) -> None:
        """Record a new player id (the hash of a token just issued)."""
        try:
            with self.begin(write=True) as connection:
                connection.execute(insert(players), {"id": player, "created": moment_text(now())})
        except IntegrityError:
            pass  # issued already

    def has_player(self, player: str) -> bool:
        """Whether ``player`` was issued by this server."""
        with self.begin() as connection:
            row = connection.execute(select(players.c.id).where(players.c.id == player))
            return row.first() is not None
