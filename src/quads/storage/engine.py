"""Where the store lives: a SQLite file (the default) or a PostgreSQL server.

:func:`database_url` reads what ``--db`` and ``QUADS_DB`` take: a file path, or
a URL (``postgresql://user:password@host:5432/quads``, ``sqlite:///path``);
:func:`open_engine` makes the SQLAlchemy engine for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.exc import ArgumentError

from quads.storage.errors import StorageError

__all__ = ["database_url", "describe", "open_engine"]

_POSTGRES = ("postgresql", "postgres", "postgresql+psycopg")


def database_url(location: str | Path) -> URL:
    """The URL of ``location``: a path is a SQLite file; ``postgresql://`` URLs use
    the psycopg 3 driver.

    :raises StorageError: for a URL that cannot be read or names another database.
    """
    text = str(location)
    if "://" not in text:
        return URL.create("sqlite+pysqlite", database=str(Path(text).expanduser()))
    from sqlalchemy import make_url

    try:
        url = make_url(text)
    except (ArgumentError, ValueError):
        raise StorageError(f"cannot read the database URL {text!r}") from None
    if url.drivername in _POSTGRES:
        return url.set(drivername="postgresql+psycopg")
    if url.drivername in ("sqlite", "sqlite+pysqlite") and url.database:
        return url.set(drivername="sqlite+pysqlite")
    raise StorageError(
        f"unsupported database URL {url.render_as_string(hide_password=True)!r}: "
        "give a file path (SQLite) or a postgresql:// URL"
    )


def describe(url: URL) -> str:
    """``url`` to show to a person: a file's path, or the URL without its password."""
    if url.get_backend_name() == "sqlite":
        return str(url.database)
    return url.render_as_string(hide_password=True)


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    # Write-ahead logging, and full synchronous commits: a save that has returned
    # survives the process being killed.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = FULL")
    cursor.close()


CONNECT_TIMEOUT = 5
"""Seconds a new PostgreSQL connection may take to be made."""
POOL_TIMEOUT = 10
"""Seconds a call waits for a pooled connection when all are in use."""
KEEPALIVE = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
             "keepalives_count": 3, "tcp_user_timeout": 20_000}
"""TCP keepalives of a PostgreSQL connection (libpq's names; seconds, and
milliseconds for ``tcp_user_timeout``): a database host that vanished from the
network is noticed within about 25 s, not after the system's two hours."""


def open_engine(url: URL, statement_timeout: float | None = None) -> Engine:
    """The engine of ``url``, with a pool fit for the web app's thread pool.

    ``statement_timeout`` (seconds; PostgreSQL only) is the longest a statement
    may run before the database cancels it; ``None`` or 0 leaves the server's own.
    SQLite waits up to 10 s for another process's write (its busy timeout).
    """
    if url.get_backend_name() == "sqlite":
        # As many pooled connections as the app's worker threads (anyio's default
        # of 40), so that none is opened and closed again under load.
        engine = create_engine(url, pool_size=40, max_overflow=10, pool_timeout=POOL_TIMEOUT,
                               connect_args={"timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    connect_args: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT, **KEEPALIVE}
    if statement_timeout:
        connect_args["options"] = f"-c statement_timeout={round(statement_timeout * 1000)}"
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=30,
                         pool_timeout=POOL_TIMEOUT, connect_args=connect_args)
