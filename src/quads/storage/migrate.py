"""Bring a database up to the schema of this version of Quads, on opening it.

The schema's history is a chain of Alembic revisions in
``quads/storage/migrations/versions``, the same for SQLite and PostgreSQL.  A
SQLite file written by a release that counted versions by ``PRAGMA
user_version`` is first brought up to the first revision
(:mod:`quads.storage.legacy`).  Several processes may open one PostgreSQL
database at once: they take turns (an advisory lock), and the first one
migrates.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from quads.storage.errors import StorageError
from quads.storage.legacy import HANDED_OVER, upgrade_legacy

__all__ = ["head", "upgrade"]

_LOCK = 0x51_0ad5
"""The PostgreSQL advisory lock held while a process migrates."""


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return config


def head() -> str:
    """The newest revision this version of Quads knows."""
    heads = ScriptDirectory.from_config(_config()).get_heads()
    assert len(heads) == 1, heads
    return heads[0]


def upgrade(engine: Engine) -> None:
    """Create the schema in a new database, or migrate an older one, in one transaction.

    :raises StorageError: if the database was written by a newer version of Quads.
    """
    sqlite = engine.dialect.name == "sqlite"
    if sqlite and engine.url.database not in (None, "", ":memory:"):
        upgrade_legacy(str(engine.url.database))
    config = _config()
    known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": _LOCK})
        current = MigrationContext.configure(connection).get_current_heads()
        newer = [revision for revision in current if revision not in known]
        if newer:
            raise StorageError(
                f"the database has schema revision {newer[0]}, newer than this version of "
                f"Quads knows ({head()})"
            )
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        if sqlite:
            connection.exec_driver_sql(f"PRAGMA user_version = {HANDED_OVER}")
