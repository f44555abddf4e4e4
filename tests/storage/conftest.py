"""The store tests run on both engines: ``store_location`` is a SQLite file, then a
fresh database on the throwaway PostgreSQL server; ``store`` a store there that knows
two players, ``ADA`` and ``BEA``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from quads.storage import GameStore

ADA, BEA = "a" * 64, "b" * 64


@pytest.fixture(params=["sqlite", "postgresql"])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    if request.param == "sqlite":
        return tmp_path / "games.sqlite3"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def store(store_location: str | Path) -> Iterator[GameStore]:
    opened = GameStore(store_location)
    for player in (ADA, BEA):
        opened.add_player(player)
    yield opened
    opened.close()
