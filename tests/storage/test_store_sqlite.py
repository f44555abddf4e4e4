"""What is the SQLite store's alone: the file, its journal, and the databases that
earlier releases wrote (schema versions counted by ``PRAGMA user_version``),
which open without loss."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from pathlib import Path

import pytest

from quads import Claim, Declare, Decline, Give, Place, Player, Resign, Termination, read_record
from quads.storage import GameStore, StorageError
from quads.storage.legacy import HANDED_OVER, LEGACY_VERSION, MIGRATIONS
from quads.storage.migrate import head
from quads.storage.stored import action_text, parse_action
from storage.store_helpers import CLAIMED, facts, stored_game

DATA = Path(__file__).parent / "data"


def test_a_new_file_gets_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "games.sqlite3"
    path.parent.mkdir()
    GameStore(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == HANDED_OVER
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT version_num FROM alembic_version").fetchone() == (head(),)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"games", "players", "puzzle_results", "puzzle_solves"} <= tables


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    GameStore(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = 'ffff'")
    with pytest.raises(StorageError, match="newer"):
        GameStore(path)


def test_a_newer_legacy_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (id TEXT)")
        db.execute(f"PRAGMA user_version = {LEGACY_VERSION + 1}")
    with pytest.raises(StorageError, match="newer"):
        GameStore(path)


def test_a_file_that_is_no_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, just some text that is long enough " * 20)
    with pytest.raises(StorageError, match="cannot open"):
        GameStore(path)


@pytest.mark.parametrize("action", [Give(0), Give(15), Place(0), Place(15), Declare(),
                                    Claim(), Decline(), Resign(Player.FIRST),
                                    Resign(Player.SECOND)])
def test_action_texts_round_trip(action: object) -> None:
    assert parse_action(action_text(action)) == action  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "give", "give G", "place E5", "declare now", "pass", "resign",
                                  "resign third"])
def test_bad_action_texts(text: str) -> None:
    with pytest.raises(ValueError, match="invalid"):
        parse_action(text)


def _rows(path: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(query).fetchall()


def test_a_database_of_schema_3_opens_without_loss(tmp_path: Path) -> None:
    """``data/schema-3.sqlite3`` was written by the release with online play, whose
    schema was counted by ``PRAGMA user_version``."""
    path = tmp_path / "games.sqlite3"
    shutil.copy(DATA / "schema-3.sqlite3", path)
    games_before = _rows(path, "SELECT * FROM games ORDER BY id")
    results_before = _rows(path, "SELECT player, date, tries, seconds, solved, recorded "
                                 "FROM puzzle_results ORDER BY rowid")
    store = GameStore(path)
    games_after = _rows(path, "SELECT * FROM games ORDER BY id")
    # The columns added since (who asked for a rematch, the device of an uploaded game
    # and its revision there, the clock, its deadline, when each seat left, the bot
    # its free seat is offered to) are empty: not known, or none; no bot declined,
    # no game rated, no draw offered, and no draw offer or undo request counted.
    assert [row[:len(games_before[0])] for row in games_after] == games_before
    assert {row[len(games_before[0]):] for row in games_after} == {
        (None,) * 8 + (0, 0, None, None, None, 0, 0, 0, 0)}
    computer = store.load("computer-game")
    assert (computer.mode, computer.level, computer.human, computer.owner) == (
        "computer", 3, Player.FIRST, "a" * 64)
    assert computer.game.actions == (Give(7), Place(0))
    assert computer.game.can_redo()
    online = store.load("online-game")
    assert (online.first_player, online.second_player) == ("c" * 64, "b" * 64)
    assert online.game.actions == (Give(5),)
    resigned = store.load("resigned-game")
    # Stored when a resignation was a column beside the actions: the game ends by it.
    assert resigned.resigned is not None
    assert resigned.game.outcome is not None
    assert resigned.game.outcome.termination is Termination.RESIGNATION
    assert resigned.game.outcome.winner is resigned.resigned.other
    claimed = store.load("claimed-game").game
    expected = read_record(claimed_record())
    assert (claimed.rules, claimed.actions, claimed.outcome) == (
        expected.rules, expected.actions, expected.outcome)
    assert [(r.date.isoformat(), r.tries, r.solved) for r in store.results("a" * 64)] == [
        (row[1], row[2], bool(row[4])) for row in sorted(
            results_before, key=lambda row: str(row[1]), reverse=True)]
    assert store.has_player("a" * 64)
    assert store.has_solve("a" * 64, dt.date(2026, 11, 29))
    # Opened again, nothing is migrated twice.
    GameStore(path)
    assert _rows(path, "SELECT version_num FROM alembic_version") == [(head(),)]
    assert _rows(path, "PRAGMA user_version") == [(HANDED_OVER,)]


def claimed_record() -> str:
    return '[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1?3 ! 0-1\n'


def test_a_database_of_schema_2_opens_without_loss(tmp_path: Path) -> None:
    """``data/schema-2.sqlite3`` was written by the release before online play."""
    path = tmp_path / "games.sqlite3"
    shutil.copy(DATA / "schema-2.sqlite3", path)
    store = GameStore(path)
    computer = store.load("computer-game")
    assert computer.owner is None  # adopted by the first player who opens it
    assert computer.game.actions == (Give(7), Place(0))
    assert store.load("claimed-game").game.outcome is not None
    results = store.results("page-made-id-1234")
    assert [(r.date.isoformat(), r.tries) for r in results] == [
        ("2026-11-29", 3), ("2026-11-28", 1), ("2026-11-28", 2)]
    assert store.adopt_results("page-made-id-1234", "e" * 64) == 3


def test_a_version_1_database_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    game = read_record(CLAIMED)
    # A game as the version-1 code stored it: the same row in the version-1 table.
    scratch = GameStore(tmp_path / "scratch.sqlite3")
    scratch.create(stored_game("old-game", game))
    v1_columns = ("id, rules, mode, level, human, seed, start, headers, actions, redo, ply, "
                  "status, to_move, revision, created, updated")
    (row,) = _rows(scratch.path, f"SELECT {v1_columns} FROM games")
    with sqlite3.connect(path) as db:
        for statement in MIGRATIONS[0]:
            db.execute(statement)
        db.execute(f"INSERT INTO games ({v1_columns}) VALUES ({', '.join('?' * 16)})", row)
        db.execute("PRAGMA user_version = 1")
    upgraded = GameStore(path)
    assert _rows(path, "PRAGMA user_version") == [(HANDED_OVER,)]
    tables = {name for (name,) in _rows(path, "SELECT name FROM sqlite_master")}
    assert {"games", "puzzle_results", "puzzle_results_by_player", "players",
            "puzzle_solves"} <= tables
    assert facts(upgraded.load("old-game")) == facts(stored_game("old-game", game))
