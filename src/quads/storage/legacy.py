"""The SQLite schemas of the first releases, counted by ``PRAGMA user_version``.

Those releases kept games in SQLite only and migrated them with the raw steps
below: ``MIGRATIONS[n]`` took a database from version ``n`` to ``n + 1``.
Since then the schema is Alembic's (:mod:`quads.storage.migrate`), for SQLite
and PostgreSQL alike; a database written by an earlier release is brought up
to the first Alembic revision here, without loss, and then handed over.
These steps never change again.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

from quads.storage.errors import StorageError

__all__ = ["BASELINE", "HANDED_OVER", "LEGACY_VERSION", "MIGRATIONS", "upgrade_legacy"]

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: one row per game; the actions and the redo trail as JSON lists of action texts.
    (
        """
        CREATE TABLE games (
            id       TEXT PRIMARY KEY,
            rules    TEXT NOT NULL,
            mode     TEXT NOT NULL CHECK (mode IN ('computer', 'local')),
            level    INTEGER,
            human    TEXT CHECK (human IN ('first', 'second')),
            seed     INTEGER NOT NULL,
            start    TEXT NOT NULL,
            headers  TEXT NOT NULL,
            actions  TEXT NOT NULL,
            redo     TEXT NOT NULL,
            ply      INTEGER NOT NULL,
            status   TEXT NOT NULL CHECK (status IN ('ongoing', 'over')),
            to_move  TEXT CHECK (to_move IN ('first', 'second')),
            revision INTEGER NOT NULL,
            created  TEXT NOT NULL,
            updated  TEXT NOT NULL
        )
        """,
        "CREATE INDEX games_by_status ON games (status, updated)",
    ),
    # 2: one row per attempt at a daily puzzle, by anonymous player id and puzzle date.
    (
        """
        CREATE TABLE puzzle_results (
            player   TEXT NOT NULL,
            date     TEXT NOT NULL,
            tries    INTEGER NOT NULL CHECK (tries >= 1),
            seconds  INTEGER NOT NULL CHECK (seconds >= 0),
            solved   INTEGER NOT NULL CHECK (solved IN (0, 1)),
            recorded TEXT NOT NULL
        )
        """,
        "CREATE INDEX puzzle_results_by_player ON puzzle_results (player, date)",
    ),
    # 3: players (only a hash of each token), games that belong to them, online seats,
    # undo requests, resignations and rematches; puzzle solves that the server checked.
    (
        """
        CREATE TABLE players (
            id       TEXT PRIMARY KEY,
            created  TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE games_new (
            id            TEXT PRIMARY KEY,
            rules         TEXT NOT NULL,
            mode          TEXT NOT NULL CHECK (mode IN ('computer', 'local', 'online')),
            level         INTEGER,
            human         TEXT CHECK (human IN ('first', 'second')),
            seed          INTEGER NOT NULL,
            start         TEXT NOT NULL,
            headers       TEXT NOT NULL,
            actions       TEXT NOT NULL,
            redo          TEXT NOT NULL,
            ply           INTEGER NOT NULL,
            status        TEXT NOT NULL CHECK (status IN ('ongoing', 'over')),
            to_move       TEXT CHECK (to_move IN ('first', 'second')),
            revision      INTEGER NOT NULL,
            created       TEXT NOT NULL,
            updated       TEXT NOT NULL,
            owner         TEXT,
            first_player  TEXT,
            second_player TEXT,
            invite        TEXT UNIQUE,
            undo_request  TEXT CHECK (undo_request IN ('first', 'second')),
            resigned      TEXT CHECK (resigned IN ('first', 'second')),
            rematch       TEXT
        )
        """,
        """
        INSERT INTO games_new (id, rules, mode, level, human, seed, start, headers, actions,
                               redo, ply, status, to_move, revision, created, updated)
        SELECT id, rules, mode, level, human, seed, start, headers, actions, redo, ply,
               status, to_move, revision, created, updated FROM games ORDER BY rowid
        """,
        "DROP TABLE games",
        "ALTER TABLE games_new RENAME TO games",
        "CREATE INDEX games_by_status ON games (status, updated)",
        "CREATE INDEX games_by_owner ON games (owner, updated)",
        "CREATE INDEX games_by_first ON games (first_player, updated)",
        "CREATE INDEX games_by_second ON games (second_player, updated)",
        """
        CREATE TABLE puzzle_solves (
            player   TEXT NOT NULL,
            date     TEXT NOT NULL,
            solved   TEXT NOT NULL,
            PRIMARY KEY (player, date)
        )
        """,
    ),
)
"""The steps from each ``user_version`` to the next, as released."""

LEGACY_VERSION = len(MIGRATIONS)
"""The last version counted by ``PRAGMA user_version``; later ones are Alembic's."""

HANDED_OVER = LEGACY_VERSION + 1
"""The ``user_version`` of a database whose schema Alembic keeps: releases that
count versions by ``user_version`` alone refuse it as newer than they know."""

_TO_ALEMBIC = (
    # The attempts at a puzzle get an explicit id (their rowid), which keeps their order
    # on every engine.
    """
    CREATE TABLE puzzle_results_new (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        player   TEXT NOT NULL,
        date     TEXT NOT NULL,
        tries    INTEGER NOT NULL CHECK (tries >= 1),
        seconds  INTEGER NOT NULL CHECK (seconds >= 0),
        solved   INTEGER NOT NULL CHECK (solved IN (0, 1)),
        recorded TEXT NOT NULL
    )
    """,
    """
    INSERT INTO puzzle_results_new (id, player, date, tries, seconds, solved, recorded)
    SELECT rowid, player, date, tries, seconds, solved, recorded FROM puzzle_results
    ORDER BY rowid
    """,
    "DROP TABLE puzzle_results",
    "ALTER TABLE puzzle_results_new RENAME TO puzzle_results",
    "CREATE INDEX puzzle_results_by_player ON puzzle_results (player, date)",
)
"""From the last ``user_version`` schema to the first Alembic revision (``0001``)."""


BASELINE = "0001"
"""The first Alembic revision: the schema of :data:`LEGACY_VERSION` and ``_TO_ALEMBIC``."""


def upgrade_legacy(path: str) -> bool:
    """Bring the SQLite file ``path``, if an earlier release wrote it (schema versions
    counted by ``PRAGMA user_version``), up to the first Alembic revision and stamp
    it so, in one transaction; ``False`` if it is no such database (a new one, or
    one that Alembic keeps already).

    :raises StorageError: if its ``user_version`` is newer than any such release
        wrote and no Alembic revision is stored.
    :raises sqlite3.DatabaseError: if the file is not a database.
    """
    with closing(sqlite3.connect(path, timeout=10, isolation_level=None)) as db:
        db.execute("BEGIN IMMEDIATE")
        try:
            done = _upgrade(db)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return done


def _upgrade(db: sqlite3.Connection) -> bool:
    found: int = db.execute("PRAGMA user_version").fetchone()[0]
    keeps = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                       "AND name = 'alembic_version'").fetchone()
    if found == 0 or keeps is not None:
        return False
    if found > LEGACY_VERSION:
        raise StorageError(
            f"the database has schema version {found}, newer than this version of "
            f"Quads knows ({LEGACY_VERSION})"
        )
    for version in range(found, LEGACY_VERSION):
        for statement in MIGRATIONS[version]:
            db.execute(statement)
    for statement in _TO_ALEMBIC:
        db.execute(statement)
    db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
               "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))")
    db.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (BASELINE,))
    db.execute(f"PRAGMA user_version = {HANDED_OVER}")
    return True
