"""The SQLite game store against real files: round trips, stale saves, the schema."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quads import (
    CLASSIC,
    Claim,
    Declare,
    Decline,
    Game,
    Give,
    Place,
    Player,
    Position,
    read_record,
)
from quads.storage import (
    GameNotFoundError,
    GameStore,
    StaleGameError,
    StorageError,
    StoredGame,
)
from quads.storage.schema import SCHEMA_VERSION
from quads.storage.stored import action_text, parse_action, redo_trail

CLAIMED = '[Event "Club night"]\n[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1?3 ! 0-1\n'
START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def stored_game(game_id: str, game: Game, **fields: object) -> StoredGame:
    values: dict[str, object] = {"mode": "local", "level": None, "human": None, "seed": 7,
                                 "created": START, "updated": START}
    values.update(fields)
    return StoredGame(id=game_id, game=game, **values)  # type: ignore[arg-type]


def facts(stored: StoredGame) -> tuple[object, ...]:
    game = stored.game
    return (stored.id, stored.mode, stored.level, stored.human, stored.seed, game.rules,
            game.start, game.headers, game.actions, tuple(redo_trail(game)), game.outcome,
            stored.created)


def test_a_new_file_gets_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "games.sqlite3"
    path.parent.mkdir()
    GameStore(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "games" in tables


def test_a_game_round_trips(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    game = read_record(CLAIMED)
    stored = stored_game("abc", game, mode="computer", level=3, human=Player.SECOND)
    store.create(stored)
    loaded = store.load("abc")
    assert facts(loaded) == facts(stored)
    assert loaded.revision == 0
    assert (loaded.ply, loaded.status) == (10, "over")


def test_the_redo_trail_and_the_start_position_round_trip(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    game = Game(CLASSIC, Position.from_string("F..0/..A./..../.3.. 7"))
    for action in (Place(5), Give(12), Place(8), Give(1)):
        game.apply(action)
    game.undo()
    game.undo()
    game.undo()
    stored = stored_game("xyz", game)
    store.create(stored)
    loaded = store.load("xyz")
    assert facts(loaded) == facts(stored)
    assert redo_trail(loaded.game) == [Give(12), Place(8), Give(1)]


def test_reopening_keeps_the_games(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    stored = stored_game("g1", read_record(CLAIMED))
    GameStore(path).create(stored)
    again = GameStore(path)
    assert facts(again.load("g1")) == facts(stored)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    GameStore(path)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StorageError, match="newer"):
        GameStore(path)


def test_a_file_that_is_no_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, just some text that is long enough " * 20)
    with pytest.raises(StorageError, match="cannot open"):
        GameStore(path)


def test_save_counts_revisions(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    store.create(stored_game("g", Game(CLASSIC)))
    stored = store.load("g")
    stored.game.apply(Give(7))
    store.save(stored)
    assert stored.revision == 1
    assert stored.updated > START
    loaded = store.load("g")
    assert (loaded.revision, loaded.game.actions, loaded.updated) == (1, (Give(7),),
                                                                      stored.updated)


def test_a_stale_save_is_refused(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    store.create(stored_game("g", Game(CLASSIC)))
    tab1, tab2 = store.load("g"), store.load("g")
    tab1.game.apply(Give(7))
    store.save(tab1)
    tab2.game.apply(Give(3))
    with pytest.raises(StaleGameError):
        store.save(tab2)
    assert tab2.revision == 0
    assert store.load("g").game.actions == (Give(7),)


def test_concurrent_saves_from_threads(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    store.create(stored_game("g", Game(CLASSIC)))
    loaded = [store.load("g") for _ in range(8)]
    for piece, stored in enumerate(loaded):
        stored.game.apply(Give(piece))
    barrier = threading.Barrier(len(loaded))
    outcomes: list[str] = []

    def save(stored: StoredGame) -> None:
        barrier.wait()
        try:
            store.save(stored)
            outcomes.append("saved")
        except StaleGameError:
            outcomes.append("stale")

    threads = [threading.Thread(target=save, args=(stored,)) for stored in loaded]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["saved"] + ["stale"] * 7
    winner = next(stored for stored in loaded if stored.revision == 1)
    assert store.load("g").game.actions == winner.game.actions


def test_unknown_games(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    with pytest.raises(GameNotFoundError):
        store.load("nope")
    with pytest.raises(GameNotFoundError):
        store.save(stored_game("nope", Game()))


def test_an_id_is_stored_once(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    store.create(stored_game("g", Game()))
    with pytest.raises(StorageError, match="exists"):
        store.create(stored_game("g", Game(CLASSIC)))
    assert store.load("g").game.rules.name == "quads"


def test_summaries_newest_first(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    for index, game_id in enumerate(("old", "over", "new")):
        moment = START + timedelta(minutes=index)
        game = read_record(CLAIMED) if game_id == "over" else Game()
        store.create(stored_game(game_id, game, created=moment, updated=moment))
    assert [s.id for s in store.summaries()] == ["new", "over", "old"]
    assert [s.id for s in store.summaries("ongoing")] == ["new", "old"]
    (over,) = store.summaries("over")
    assert (over.rules, over.ply, over.status, over.to_move) == ("classic", 10, "over", None)
    old = store.load("old")
    old.game.apply(Give(1))
    store.save(old)
    first = store.summaries()[0]
    assert (first.id, first.ply, first.to_move) == ("old", 1, Player.SECOND)


@pytest.mark.parametrize("action", [Give(0), Give(15), Place(0), Place(15), Declare(),
                                    Claim(), Decline()])
def test_action_texts_round_trip(action: object) -> None:
    assert parse_action(action_text(action)) == action  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "give", "give G", "place E5", "declare now", "pass"])
def test_bad_action_texts(text: str) -> None:
    with pytest.raises(ValueError, match="invalid"):
        parse_action(text)


def test_a_version_1_database_is_upgraded(tmp_path: Path) -> None:
    from quads.storage import PuzzleResult
    from quads.storage.schema import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    game = read_record(CLAIMED)
    # A game as the version-1 code stored it: the same row in the version-1 table.
    scratch = GameStore(tmp_path / "scratch.sqlite3")
    scratch.create(stored_game("old-game", game))
    v1_columns = ("id, rules, mode, level, human, seed, start, headers, actions, redo, ply, "
                  "status, to_move, revision, created, updated")
    with sqlite3.connect(scratch.path) as db:
        row = db.execute(f"SELECT {v1_columns} FROM games").fetchone()
    with sqlite3.connect(path) as db:
        for statement in MIGRATIONS[0]:
            db.execute(statement)
        db.execute(f"INSERT INTO games ({v1_columns}) VALUES ({', '.join('?' * 16)})", row)
        db.execute("PRAGMA user_version = 1")
    upgraded = GameStore(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"games", "puzzle_results", "puzzle_results_by_player", "players",
            "puzzle_solves"} <= tables
    loaded = upgraded.load("old-game")
    assert loaded.owner is None  # adopted by the first player who opens it
    assert facts(upgraded.load("old-game")) == facts(stored_game("old-game", game))
    result = PuzzleResult(player="abcdefgh", date=datetime(2026, 11, 29).date(), tries=2,
                          seconds=61, solved=True, recorded=START)
    upgraded.add_result(result)
    assert GameStore(path).results("abcdefgh") == [result]
    assert upgraded.results("someone") == []
