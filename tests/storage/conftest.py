"""The store tests run on both engines: ``store_location`` is a SQLite file, then a
fresh database on the throwaway PostgreSQL server."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    if request.param == "sqlite":
        return tmp_path / "games.sqlite3"
    url: str = request.getfixturevalue("postgres_url")
    return url
