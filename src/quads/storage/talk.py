"""The quick messages said at a game's table (``table_talk``).

A message is a preset's name, never free text; the store keeps what was said, by
which side and when, numbered from 1 in each game.  Saying something is not a save of
the game (no revision changes, so nobody's next move is made stale by it); on
PostgreSQL it is announced as ``NOTIFY quads_games, 'ID talk'``, so that the sockets
of every process read what is new.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select
from sqlalchemy import text as sql
from sqlalchemy.engine import Connection

from quads.outcome import Player
from quads.storage.database import Database, moment_text
from quads.storage.tables import table_talk

__all__ = ["TALK_KEPT", "Said", "TalkStore"]

TALK_KEPT = 50
"""Messages of one game read at most at once: the newest."""

_SIDES = {Player.FIRST: "first", Player.SECOND: "second"}
"""A side as the table writes it."""



@dataclass(frozen=True, slots=True)
class Said:
    """One message said at a table: its number in the game, the side that said it, the
    preset's name and the moment."""

    seq: int
    side: Player
    message: str
    at: datetime


class TalkStore(Database):
    """The messages of the games' tables."""

    def say(self, game_id: str, side: Player, message: str, at: datetime) -> Said:
        """Keep ``message`` said by ``side`` at ``game_id``'s table at ``at``, with the
        next number of that game, and announce it."""
        with self.begin(write=True) as connection:
            if self.postgres:  # one number at a time in a game (SQLite writes one by one)
                connection.execute(sql("SELECT pg_advisory_xact_lock(hashtextextended("
                                       ":key, 0))"), {"key": f"talk {game_id}"})
            seq = connection.execute(
                select(func.coalesce(func.max(table_talk.c.seq), 0) + 1)
                .where(table_talk.c.game == game_id)).scalar_one()
            connection.execute(insert(table_talk).values(
                game=game_id, seq=seq, side=_SIDES[side], message=message,
                moment=moment_text(at)))
            self.notify(connection, f"{game_id} talk")
        return Said(int(seq), side, message, at)

    def talk(self, game_id: str, after: int = 0, limit: int = TALK_KEPT) -> list[Said]:
        """The messages of ``game_id``'s table numbered above ``after``, oldest first:
        the newest ``limit`` of them."""
        with self.begin() as connection:
            rows = connection.execute(
                select(table_talk.c.seq, table_talk.c.side, table_talk.c.message,
                       table_talk.c.moment)
                .where(table_talk.c.game == game_id, table_talk.c.seq > after)
                .order_by(table_talk.c.seq.desc()).limit(limit)).all()
        return [Said(int(seq), Player.FIRST if side == "first" else Player.SECOND, message,
                     datetime.fromisoformat(moment))
                for seq, side, message, moment in reversed(rows)]


def forget_talk(connection: Connection, game_ids: list[str]) -> None:
    """Delete what was said at the tables of ``game_ids`` (games deleted)."""
    if game_ids:
        connection.execute(delete(table_talk).where(table_talk.c.game.in_(game_ids)))
