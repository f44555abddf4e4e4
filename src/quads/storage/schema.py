"""The database schema and its migrations, counted by ``PRAGMA user_version``.

``MIGRATIONS[n]`` takes a database from version ``n`` to ``n + 1``; a new
database (version 0) runs them all.  A later version of Quads adds a step at
the end and never changes a step already released.
"""

from __future__ import annotations

import sqlite3

from quads.storage.errors import StorageError

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate"]

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
"""The steps from each schema version to the next."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The version this code writes."""


def migrate(db: sqlite3.Connection) -> int:
    """Bring the database up to :data:`SCHEMA_VERSION` in one transaction; return
    the version found before.

    ``db`` must be in autocommit mode (``isolation_level=None``).

    :raises StorageError: if the database was written by a newer version of Quads.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        found: int = db.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:
            raise StorageError(
                f"the database has schema version {found}, newer than this version of "
                f"Quads knows ({SCHEMA_VERSION})"
            )
        for version in range(found, SCHEMA_VERSION):
            for statement in MIGRATIONS[version]:
                db.execute(statement)
        if found < SCHEMA_VERSION:
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return found
