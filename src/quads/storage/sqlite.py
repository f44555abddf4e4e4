"""The game store on SQLite (the standard library's :mod:`sqlite3`).

Every operation opens its own short connection, so the store can be used from
any thread.  The database runs in WAL mode with full synchronous commits: a
save that has returned survives the process being killed.

A save is *optimistic*: it names the revision it loaded, and the single
``UPDATE ... WHERE id = ? AND revision = ?`` statement that writes it fails
when another save came first.  Two requests that both loaded revision ``n``
can therefore never both be stored.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quads.outcome import Player
from quads.position import Position
from quads.rules import Rules
from quads.storage.errors import GameNotFoundError, StaleGameError, StorageError
from quads.storage.results import PuzzleResult
from quads.storage.schema import migrate
from quads.storage.stored import (
    GameSummary,
    Status,
    StoredGame,
    action_text,
    now,
    parse_action,
    rebuild_game,
    redo_trail,
)

__all__ = ["GameStore"]

_COLUMNS = ("id, rules, mode, level, human, seed, start, headers, actions, redo, ply, status, "
            "to_move, revision, created, updated, owner, first_player, second_player, invite, "
            "undo_request, resigned, rematch")
_SUMMARY = ("id, rules, mode, level, human, ply, status, to_move, created, updated, owner, "
            "first_player, second_player, resigned")


def _time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _player(value: str | None) -> Player | None:
    return None if value is None else Player[value.upper()]


def _identifier(player: Player | None) -> str | None:
    return None if player is None else player.identifier


class GameStore:
    """The games and puzzle results in one SQLite file, created with its schema when
    missing (and brought up to the current schema when older).

    :raises StorageError: if the file is not a Quads database or is newer
        than this version of Quads.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            with self._connect() as db:
                db.execute("PRAGMA journal_mode = WAL")
                migrate(db)
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"cannot open the database {str(self.path)!r}: {exc}") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=10, isolation_level=None)) as db:
            db.execute("PRAGMA synchronous = FULL")
            yield db

    # -- writing ---------------------------------------------------------------

    def create(self, stored: StoredGame) -> None:
        """Store a new game.

        :raises StorageError: if a game with its id exists already.
        """
        game = stored.game
        row = {
            "id": stored.id,
            "rules": game.rules.name,
            "mode": stored.mode,
            "level": stored.level,
            "human": _identifier(stored.human),
            "seed": stored.seed,
            "start": game.start.to_string(),
            "headers": json.dumps(game.headers),
            "created": _time(stored.created),
            "owner": stored.owner,
            **self._progress(stored),
            "updated": _time(stored.updated),
        }
        names = ", ".join(row)
        marks = ", ".join(f":{name}" for name in row)
        try:
            with self._connect() as db:
                db.execute(f"INSERT INTO games ({names}) VALUES ({marks})", row)
        except sqlite3.IntegrityError:
            raise StorageError(f"a game with id {stored.id!r} exists already") from None

    def save(self, stored: StoredGame) -> None:
        """Write the game's actions, redo trail and status; count a new revision.

        The save succeeds only if the stored revision is still the one ``stored``
        was loaded at; on success ``stored.revision`` and ``stored.updated`` are
        brought up to date.

        :raises StaleGameError: if the game was saved by someone else meanwhile.
        :raises GameNotFoundError: if there is no such game.
        """
        row = {**self._progress(stored), "revision": stored.revision + 1,
               "id": stored.id, "loaded": stored.revision}
        columns = ("actions", "redo", "ply", "status", "to_move", "revision", "updated",
                   "first_player", "second_player", "invite", "undo_request", "resigned",
                   "rematch")
        assignments = ", ".join(f"{name} = :{name}" for name in columns)
        with self._connect() as db:
            cursor = db.execute(
                f"UPDATE games SET {assignments} WHERE id = :id AND revision = :loaded", row
            )
            if cursor.rowcount == 0:
                if db.execute("SELECT 1 FROM games WHERE id = ?", (stored.id,)).fetchone():
                    raise StaleGameError(f"game {stored.id!r} has changed since it was loaded")
                raise GameNotFoundError(f"no game with id {stored.id!r}")
        stored.revision += 1
        stored.updated = datetime.fromisoformat(row["updated"])

    def add_result(self, result: PuzzleResult) -> None:
        """Store one attempt at a puzzle."""
        row = {
            "player": result.player,
            "date": result.date.isoformat(),
            "tries": result.tries,
            "seconds": result.seconds,
            "solved": int(result.solved),
            "recorded": _time(result.recorded),
        }
        with self._connect() as db:
            db.execute(
                "INSERT INTO puzzle_results (player, date, tries, seconds, solved, recorded) "
                "VALUES (:player, :date, :tries, :seconds, :solved, :recorded)", row
            )

    @staticmethod
    def _progress(stored: StoredGame) -> dict[str, Any]:
        game = stored.game
        return {
            "actions": json.dumps([action_text(a) for a in game.actions]),
            "redo": json.dumps([action_text(a) for a in redo_trail(game)]),
            "ply": stored.ply,
            "status": stored.status,
            "to_move": _identifier(game.to_move),
            "revision": stored.revision,
            "updated": _time(now()),
            "first_player": stored.first_player,
            "second_player": stored.second_player,
            "invite": stored.invite,
            "undo_request": _identifier(stored.undo_request),
            "resigned": _identifier(stored.resigned),
            "rematch": stored.rematch,
        }

    # -- reading ---------------------------------------------------------------

    def load(self, game_id: str) -> StoredGame:
        """The game stored under ``game_id``, replayed.

        :raises GameNotFoundError: if there is no such game.
        """
        with self._connect() as db:
            db.row_factory = sqlite3.Row
            row = db.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game with id {game_id!r}")
        game = rebuild_game(
            Rules.parse(row["rules"]),
            Position.from_string(row["start"]),
            json.loads(row["headers"]),
            [parse_action(text) for text in json.loads(row["actions"])],
            [parse_action(text) for text in json.loads(row["redo"])],
        )
        return StoredGame(
            id=row["id"],
            mode=row["mode"],
            level=row["level"],
            human=_player(row["human"]),
            seed=row["seed"],
            game=game,
            created=datetime.fromisoformat(row["created"]),
            updated=datetime.fromisoformat(row["updated"]),
            revision=row["revision"],
            owner=row["owner"],
            first_player=row["first_player"],
            second_player=row["second_player"],
            invite=row["invite"],
            undo_request=_player(row["undo_request"]),
            resigned=_player(row["resigned"]),
            rematch=row["rematch"],
        )

    def summaries(self, status: Status | None = None, *,
                  player: str | None = None) -> list[GameSummary]:
        """The games, most recently changed first; only those of ``status`` if given.

        With ``player``, only that player's games (created or seated) in which
        somebody has acted (a game that was never saved is left out), and the
        online games they created that wait for the other player to join.
        """
        query = f"SELECT {_SUMMARY} FROM games"
        conditions: list[str] = []
        parameters: dict[str, str] = {}
        if player is not None:
            conditions.append("(owner = :player OR first_player = :player "
                              "OR second_player = :player) "
                              "AND (revision > 0 OR (mode = 'online' AND owner = :player))")
            parameters["player"] = player
        if status is not None:
            conditions.append("status = :status")
            parameters["status"] = status
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        query += " ORDER BY updated DESC, rowid DESC"
        with self._connect() as db:
            db.row_factory = sqlite3.Row
            rows = db.execute(query, parameters).fetchall()
        return [
            GameSummary(
                id=row["id"],
                rules=row["rules"],
                mode=row["mode"],
                level=row["level"],
                human=_player(row["human"]),
                ply=row["ply"],
                status=row["status"],
                to_move=_player(row["to_move"]),
                created=datetime.fromisoformat(row["created"]),
                updated=datetime.fromisoformat(row["updated"]),
                owner=row["owner"],
                first_player=row["first_player"],
                second_player=row["second_player"],
                resigned=_player(row["resigned"]),
            )
            for row in rows
        ]

    def find_invite(self, token: str) -> str | None:
        """The id of the game whose invitation is ``token``, if any."""
        with self._connect() as db:
            row = db.execute("SELECT id FROM games WHERE invite = ?", (token,)).fetchone()
        return None if row is None else str(row[0])

    def delete(self, game_id: str, revision: int) -> None:
        """Delete a game, if it is still at ``revision``.

        :raises StaleGameError: if the game was saved meanwhile.
        :raises GameNotFoundError: if there is no such game.
        """
        with self._connect() as db:
            cursor = db.execute("DELETE FROM games WHERE id = ? AND revision = ?",
                                (game_id, revision))
            if cursor.rowcount == 0:
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                    raise StaleGameError(f"game {game_id!r} has changed since it was loaded")
                raise GameNotFoundError(f"no game with id {game_id!r}")

    def adopt(self, game_id: str, player: str) -> None:
        """Give a game stored before games had owners to ``player`` (if it still has none)."""
        with self._connect() as db:
            db.execute("UPDATE games SET owner = ? WHERE id = ? AND owner IS NULL",
                       (player, game_id))

    # -- players -----------------------------------------------------------------

    def add_player(self, player: str) -> None:
        """Record a new player id (the hash of a token just issued)."""
        with self._connect() as db:
            db.execute("INSERT OR IGNORE INTO players (id, created) VALUES (?, ?)",
                       (player, _time(now())))

    def has_player(self, player: str) -> bool:
        """Whether ``player`` was issued by this server."""
        with self._connect() as db:
            row = db.execute("SELECT 1 FROM players WHERE id = ?", (player,)).fetchone()
        return row is not None

    def adopt_results(self, legacy: str, player: str) -> int:
        """Give the puzzle results stored under ``legacy`` (an id that a page made up
        itself, before players were known by the server) to ``player``; return how many.

        Ids of the server's own players (64 hex digits) are never taken this way.
        """
        if len(legacy) == 64 and all(c in "0123456789abcdef" for c in legacy):
            return 0
        with self._connect() as db:
            cursor = db.execute("UPDATE puzzle_results SET player = ? WHERE player = ?",
                                (player, legacy))
            count = cursor.rowcount
            db.execute("INSERT OR IGNORE INTO puzzle_solves (player, date, solved) "
                       "SELECT ?, date, MIN(recorded) FROM puzzle_results "
                       "WHERE player = ? AND solved = 1 GROUP BY date", (player, player))
        return count

    def add_solve(self, player: str, date: dt.date) -> None:
        """Record that ``player``'s checked turns solved the puzzle of ``date``."""
        with self._connect() as db:
            db.execute("INSERT OR IGNORE INTO puzzle_solves (player, date, solved) "
                       "VALUES (?, ?, ?)", (player, date.isoformat(), _time(now())))

    def has_solve(self, player: str, date: dt.date) -> bool:
        """Whether ``player``'s checked turns solved the puzzle of ``date``."""
        with self._connect() as db:
            row = db.execute("SELECT 1 FROM puzzle_solves WHERE player = ? AND date = ?",
                             (player, date.isoformat())).fetchone()
        return row is not None

    def results(self, player: str) -> list[PuzzleResult]:
        """Every attempt of ``player`` at a puzzle, newest puzzle date first, and within a
        date in the order they were stored."""
        with self._connect() as db:
            db.row_factory = sqlite3.Row
            rows = db.execute(
                "SELECT player, date, tries, seconds, solved, recorded FROM puzzle_results "
                "WHERE player = ? ORDER BY date DESC, rowid", (player,)
            ).fetchall()
        return [
            PuzzleResult(
                player=row["player"],
                date=dt.date.fromisoformat(row["date"]),
                tries=row["tries"],
                seconds=row["seconds"],
                solved=bool(row["solved"]),
                recorded=datetime.fromisoformat(row["recorded"]),
            )
            for row in rows
        ]
