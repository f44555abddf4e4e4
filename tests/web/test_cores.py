"""Each server process claims a core of its own, and keeps its event loop and its
database lane on it; the engine's threads and puzzle warming use every core, and the
threads that hash passwords every other core; with
``share_core = false`` no thread is kept anywhere.

The claims are lock files in the temporary folder: each test has a folder of its
own, so that the servers of other tests do not hold the cores it counts."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from quads.web import cores
from quads.web.app import create_app
from quads.web.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

pytestmark = pytest.mark.skipif(len(cores.ALLOWED) < 2 or not hasattr(os, "sched_setaffinity"),
                                reason="threads are kept on one core on Linux with two or more")

CLAIM = ("from quads.web import cores; print(cores.claim(), flush=True); "
         "import sys; sys.stdin.read()")


@pytest.fixture(autouse=True)
def own_locks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "locks"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    assert cores.claimed() is None  # every claim was given up


def _affinity() -> set[int]:
    return os.sched_getaffinity(0)


async def _loop_affinity() -> set[int]:
    return _affinity()


def test_a_thread_joins_the_claimed_core_and_leaves_it() -> None:
    core = cores.claim()
    assert core == max(cores.ALLOWED)
    assert cores.claim() == core  # the process's claim, counted twice
    seen: list[set[int]] = []

    def run() -> None:
        cores.join()
        seen.append(_affinity())
        cores.leave()
        seen.append(_affinity())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [{core}, set(cores.ALLOWED)]
    assert _affinity() == set(cores.ALLOWED)  # the calling thread is not touched
    cores.release()
    assert cores.claimed() == core
    cores.release()
    assert cores.claimed() is None


def test_each_process_claims_a_core_of_its_own_until_none_is_free(own_locks: Path) -> None:
    def start() -> tuple[subprocess.Popen[str], str]:
        process = subprocess.Popen([sys.executable, "-c", CLAIM], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True,
                                   env={**os.environ, "TMPDIR": str(own_locks)})
        assert process.stdout is not None
        return process, process.stdout.readline().strip()

    running: list[subprocess.Popen[str]] = []
    try:
        claimed = []
        for _ in cores.ALLOWED:
            process, core = start()
            running.append(process)
            claimed.append(core)
        assert sorted(claimed) == sorted(str(core) for core in cores.ALLOWED)
        extra, core = start()
        running.append(extra)
        assert core == "None"  # every core is held
        first = running.pop(0)
        first.communicate("")  # it ends: its core is free again
        process, core = start()
        running.append(process)
        assert core == claimed[0]
    finally:
        for process in running:
            process.communicate("")


@pytest.mark.parametrize("share", [True, False], ids=["shared", "not-shared"])
def test_the_server_keeps_its_loop_and_database_on_its_core_and_thinks_anywhere(
        tmp_path: Path, share: bool) -> None:
    app = create_app(tmp_path / "games.sqlite3", static_dir=None,
                     settings=Settings(share_core=share))

    async def in_the_lane() -> set[int]:
        return await app.state.lane.run(_affinity)

    async def thinking() -> set[int]:
        return await app.state.thinking.run("play", "127.0.0.1", _affinity)

    async def hashing() -> set[int]:
        return await app.state.thinking.run("accounts", "127.0.0.1", _affinity)

    async def warming() -> set[int]:
        seen: list[set[int]] = []
        app.state.puzzle_warmer.cache.warm = lambda *_: seen.append(_affinity())
        app.state.puzzle_warmer.warm([])
        await app.state.puzzle_warmer._task
        return seen[0]

    with TestClient(app) as client:
        assert client.portal is not None
        kept = {max(cores.ALLOWED)} if share else set(cores.ALLOWED)
        assert cores.claimed() == (max(cores.ALLOWED) if share else None)
        assert client.portal.call(_loop_affinity) == kept
        assert client.portal.call(in_the_lane) == kept
        assert client.portal.call(thinking) == set(cores.ALLOWED)
        # Hashing passwords (a flood of sign-ins) never takes the event loop's core.
        assert client.portal.call(hashing) == (set(cores.ALLOWED) - kept if share
                                               else set(cores.ALLOWED))
        assert client.portal.call(warming) == set(cores.ALLOWED)
    assert cores.claimed() is None  # given up when the app stops
