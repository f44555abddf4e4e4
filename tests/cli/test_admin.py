"""``quads admin prune`` and ``quads admin recount-explorer``, run as a real process
on a real SQLite file and on a real PostgreSQL database."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete

from quads import CLASSIC, Game, Give
from quads.explorer import position_key
from quads.outcome import Player
from quads.storage import GameStore
from quads.storage.stored import StoredGame
from quads.storage.tables import explored


def quads(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-m", "quads.cli.main", *args],
                          capture_output=True, text=True, timeout=120, check=False, env=env)


def _add(store: GameStore, game_id: str, age: timedelta, revision: int) -> None:
    game = Game(CLASSIC)
    if revision:
        game.apply(Give(7))
    when = datetime.now(UTC) - age
    store.create(StoredGame(id=game_id, mode="local", level=None, human=None, seed=1,
                            game=game, created=when, updated=when, revision=revision))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


def test_prune_prints_its_counts_and_a_dry_run_deletes_nothing(location: str,
                                                               tmp_path: Path) -> None:
    store = GameStore(location)
    _add(store, "unplayed-old", timedelta(days=8), 0)
    _add(store, "unplayed-new", timedelta(days=6), 0)
    _add(store, "abandoned-old", timedelta(days=400), 1)
    _add(store, "played", timedelta(days=30), 1)
    dry = quads("admin", "prune", "--dry-run", "--db", location)
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.startswith("Would delete: 1 unplayed games (after 7 days), "
                                 "0 finished and 1 abandoned games (after 365 days), "
                                 "0 players")
    assert store.load("unplayed-old").id == "unplayed-old"
    config = tmp_path / "quads.toml"
    config.write_text("unplayed_days = 5\nended_days = 20\n")
    done = quads("admin", "prune", "--db", location, "--config", str(config))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Deleted: 2 unplayed games (after 5 days), 0 finished and "
                                  "2 abandoned games (after 20 days)")
    assert [s.id for s in store.summaries()] == []
    again = quads("admin", "prune", "--db", location)
    assert again.stdout.startswith("Deleted: 0 unplayed games")
    store.close()


def test_a_wrong_config_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "quads.toml"
    config.write_text("unplayed_days = -1\n")
    result = quads("admin", "prune", "--db", str(tmp_path / "x.sqlite3"), "--config",
                   str(config))
    assert result.returncode == 2
    assert "unplayed_days: must not be negative" in result.stderr


def test_recount_explorer_brings_the_counts_back(location: str) -> None:
    store = GameStore(location)
    empty = Game(CLASSIC).position
    for number in range(3):
        game = Game(CLASSIC)
        stored = StoredGame(id=f"g{number}", mode="computer", level=2, human=Player.FIRST,
                            seed=1, game=game, created=datetime.now(UTC),
                            updated=datetime.now(UTC), revision=0)
        store.create(stored)
        stored.game.apply(Give(number))
        stored.game.resign(Player.SECOND)
        store.save(stored)
    key = position_key(empty, CLASSIC)
    counted = store.explorer(CLASSIC.name, key)
    assert sum(c.games for c in counted.values()) == 3
    with store.engine.begin() as connection:
        connection.execute(delete(explored))
    assert store.explorer(CLASSIC.name, key) == {}
    done = quads("admin", "recount-explorer", "--db", location)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Counted the turns of 3 games that ended.\n"
    assert store.explorer(CLASSIC.name, key) == counted
    store.close()
