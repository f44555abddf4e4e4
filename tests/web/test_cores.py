"""The event loop and the database lane share one core; the engine's threads and
puzzle warming use every core; with ``share_core = false`` no thread is kept."""

from __future__ import annotations

import os
import threading
import warnings
from pathlib import Path

import pytest

from quads.web import cores
from quads.web.app import create_app
from quads.web.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

pytestmark = pytest.mark.skipif(cores.SHARED is None,
                                reason="threads are kept on one core on Linux with two or more")


def _affinity() -> set[int]:
    return os.sched_getaffinity(0)


async def _loop_affinity() -> set[int]:
    return _affinity()


def test_a_thread_joins_the_shared_core_and_leaves_it() -> None:
    seen: list[set[int]] = []

    def run() -> None:
        cores.join()
        seen.append(_affinity())
        cores.leave()
        seen.append(_affinity())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [{cores.SHARED}, set(cores.ALLOWED)]
    assert _affinity() == set(cores.ALLOWED)  # the calling thread is not touched


@pytest.mark.parametrize("share", [True, False], ids=["shared", "not-shared"])
def test_the_server_keeps_its_loop_and_database_on_one_core_and_thinks_anywhere(
        tmp_path: Path, share: bool) -> None:
    app = create_app(tmp_path / "games.sqlite3", static_dir=None,
                     settings=Settings(share_core=share))
    kept = {cores.SHARED} if share else set(cores.ALLOWED)

    async def in_the_lane() -> set[int]:
        return await app.state.lane.run(_affinity)

    async def thinking() -> set[int]:
        return await app.state.thinking.run("play", "127.0.0.1", _affinity)

    async def warming() -> set[int]:
        seen: list[set[int]] = []
        app.state.puzzle_warmer.cache.warm = lambda *_: seen.append(_affinity())
        app.state.puzzle_warmer.warm([])
        await app.state.puzzle_warmer._task
        return seen[0]

    with TestClient(app) as client:
        assert client.portal is not None
        assert client.portal.call(_loop_affinity) == kept
        assert client.portal.call(in_the_lane) == kept
        assert client.portal.call(thinking) == set(cores.ALLOWED)
        assert client.portal.call(warming) == set(cores.ALLOWED)
