"""The database of a store: its engine, its schema brought up to date, and the one
transaction helper that every store of :mod:`quads.storage` shares.

Every operation is one short transaction on a pooled connection (:meth:`Database.begin`),
so a store can be used from any thread and by several processes sharing one
PostgreSQL database.  On SQLite, which lets one transaction write at a time, the
threads of one process take turns at writing instead of in SQLite's busy handler.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, Engine
from sqlalchemy import text as sql
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from quads.storage.engine import database_url, describe, open_engine
from quads.storage.errors import StorageError, StorageUnavailableError
from quads.storage.migrate import upgrade
from quads.storage.stored import now
from quads.storage.tables import players

__all__ = ["CHANNEL", "Database", "moment_text"]

CHANNEL = "quads_games"
"""The PostgreSQL channel of changes: payload ``ID REVISION`` (a save), ``ID gone`` (a
deletion) or ``ID presence`` (a player opened or closed it on some process).  The save
of a game with players seated or a bot offered a seat names them after the revision
(``ID REVISION PLAYER...``), so that their bots' streams hear of it
(:mod:`quads.web.bot_streams`)."""


def moment_text(value: datetime) -> str:
    """A moment as the store writes it: ISO 8601 in UTC, to the microsecond."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


class Database:
    """One database, created with its schema when new and brought up to the current
    schema when older.

    ``location`` is a SQLite file's path or a database URL (``postgresql://...``).
    ``statement_timeout`` (seconds, PostgreSQL only) is the longest the database
    may work on one statement (default: the server's own setting).

    :raises StorageError: if the database cannot be reached or read as a Quads
        database, or is newer than this version of Quads.
    """

    def __init__(self, location: str | Path | URL, *,
                 statement_timeout: float | None = None) -> None:
        self.url = location if isinstance(location, URL) else database_url(location)
        self.engine: Engine = open_engine(self.url, statement_timeout)
        self.postgres = self.engine.dialect.name == "postgresql"
        # SQLite lets one transaction write at a time.  The threads of this process
        # take turns here, in order, instead of in SQLite's busy handler, which
        # retries after sleeps of up to 100 ms; PostgreSQL needs no such turns.
        self._writing: AbstractContextManager[Any] = (
            nullcontext() if self.postgres else threading.Lock())
        where = describe(self.url)
        try:
            upgrade(self.engine)
        except DBAPIError as exc:
            self.engine.dispose()
            reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
            raise StorageError(f"cannot open the database {where!r}: {reason}") from None
        except StorageError:
            self.engine.dispose()
            raise
        except Exception as exc:  # e.g. sqlite3.DatabaseError: not a database
            self.engine.dispose()
            raise StorageError(f"cannot open the database {where!r}: {exc}") from None

    @property
    def path(self) -> Path:
        """The SQLite file (only for a SQLite store)."""
        if self.postgres or self.url.database is None:
            raise AttributeError("a PostgreSQL store has no file")
        return Path(self.url.database)

    def close(self) -> None:
        """Close the pooled connections."""
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database for nothing: return once it answers.

        :raises StorageUnavailableError: if it cannot be reached.
        """
        with self.begin() as connection:
            connection.execute(sql("SELECT 1"))

    @contextmanager
    def begin(self, write: bool = False) -> Iterator[Connection]:
        """A transaction on a pooled connection, committed when the block ends (rolled
        back if it raises); ``write``: one that writes (on SQLite, the threads of this
        process take turns at writing).

        :raises StorageUnavailableError: if the database cannot be reached.
        """
        try:
            with self._writing if write else nullcontext(), self.engine.begin() as connection:
                yield connection
        except (OperationalError, DBAPIError) as exc:
            if isinstance(exc, IntegrityError) or not (
                    isinstance(exc, OperationalError) or exc.connection_invalidated):
                raise
            raise StorageUnavailableError(
                f"the database {describe(self.url)!r} cannot be reached now") from exc

    def keep_players(self, connection: Connection, *ids: str | None) -> None:
        """Make sure the players ``ids`` (those of 64 hex digits, the server's own) have
        their row, in the transaction that gives them a game, a seat or a result: a
        player that a prune removed while a server process still knew it comes back,
        instead of owning rows that no token leads to."""
        own = sorted({p for p in ids if p is not None and len(p) == 64
                      and all(c in "0123456789abcdef" for c in p)})
        if not own:
            return
        make = postgresql_insert if self.postgres else sqlite_insert
        created = moment_text(now())
        connection.execute(make(players).values([{"id": p, "created": created} for p in own])
                           .on_conflict_do_nothing(index_elements=["id"]))

    def notify(self, connection: Connection, payload: str) -> None:
        """Announce ``payload`` on :data:`CHANNEL` when ``connection``'s transaction
        commits (PostgreSQL; nothing on SQLite, whose one process hears it directly)."""
        if self.postgres:
            connection.execute(sql("SELECT pg_notify(:channel, :payload)"),
                               {"channel": CHANNEL, "payload": payload})
