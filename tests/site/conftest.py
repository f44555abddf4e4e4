"""The site's domains on a real store (a SQLite file), with no web server: what they
tell their followers is recorded as it comes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.site.site_helpers import Told

from quads.storage import GameStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    store = GameStore(tmp_path / "site.sqlite3")
    yield store
    store.close()


@pytest.fixture
def told() -> Told:
    return Told()
