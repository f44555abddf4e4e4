"""``quads serve`` as a real process: killed with SIGKILL and started again, it
has lost nothing."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from helpers import call_wins
from quads.storage import GameStore


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


_JAR = CookieJar()
_OPENER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(_JAR))
"""One player for the whole module: its cookie outlives the server's restarts (a test
on a new database clears it: that database knows no player yet)."""


def call(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with _OPENER.open(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@contextmanager
def serve(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, Any]]:
    """Start ``quads serve`` on a free port; yield its address once it answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "quads.cli.main", "serve", "--port", str(port), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.communicate()
            try:
                call(base, "GET", "/api/games")
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, "quads serve did not start"
                time.sleep(0.05)
        yield base, process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def test_a_killed_server_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with serve("--db", str(db)) as (base, process):
        status, view = call(base, "POST", "/api/games",
                            {"rules": "classic", "mode": "computer", "level": 1,
                             "human": "first"})
        assert status == 201
        game_id = view["id"]
        status, view = call(base, "POST", f"/api/games/{game_id}/actions",
                            {"revision": 0, "action": "give", "piece": "7"})
        assert status == 200
        status, view = call(base, "POST", f"/api/games/{game_id}/computer",
                            {"revision": view["revision"]})
        assert status == 200
        status, view = call(base, "POST", f"/api/games/{game_id}/undo",
                            {"revision": view["revision"]})
        assert (status, view["ply"], view["can_redo"]) == (200, 0, True)
        status, view = call(base, "POST", f"/api/games/{game_id}/redo",
                            {"revision": view["revision"]})
        assert status == 200
        saved = view
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        assert process.returncode == -signal.SIGKILL
    with serve("--db", str(db)) as (base, process):
        status, view = call(base, "GET", f"/api/games/{game_id}")
        assert (status, view) == (200, saved)
        status, listed = call(base, "GET", "/api/games?status=ongoing")
        assert [game["id"] for game in listed["games"]] == [game_id]
        while view["outcome"] is None:
            if view["computer_to_move"]:
                status, view = call(base, "POST", f"/api/games/{game_id}/computer",
                                    {"revision": view["revision"]})
            elif call_wins(view):
                status, view = call(base, "POST", f"/api/games/{game_id}/actions",
                                    {"revision": view["revision"],
                                     "action": "declare" if view["declare_offered"]
                                     else "claim"})
            elif view["step"] == "give":
                status, view = call(base, "POST", f"/api/games/{game_id}/actions",
                                    {"revision": view["revision"], "action": "give",
                                     "piece": view["supply"][0]})
            else:
                cell = view["board"].index(None)
                status, view = call(base, "POST", f"/api/games/{game_id}/actions",
                                    {"revision": view["revision"], "action": "place",
                                     "cell": "ABCD"[cell % 4] + str(cell // 4 + 1)})
            assert status == 200, view
        assert view["moves"][:2] == saved["moves"]
        status, listed = call(base, "GET", "/api/games?status=over")
        assert [game["id"] for game in listed["games"]] == [game_id]


def test_the_database_defaults_to_quads_db(tmp_path: Path) -> None:
    db = tmp_path / "data" / "quads.sqlite3"
    env = {**os.environ, "QUADS_DB": str(db)}
    _JAR.clear()
    with serve(env=env) as (base, process):
        assert call(base, "POST", "/api/games", {"mode": "local"})[0] == 201
        process.terminate()
        out, _ = process.communicate(timeout=10)
    assert "Quads is running at http://127.0.0.1:" in out
    assert str(db) in out
    assert db.exists()


def test_without_the_web_extra(tmp_path: Path) -> None:
    # Hide uvicorn from the process: importing it then fails as if it were missing.
    code = ("import sys; sys.modules['uvicorn'] = None; from quads.cli.main import main; "
            f"sys.exit(main(['serve', '--db', {str(tmp_path / 'x.sqlite3')!r}]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 2
    assert "quads[web]" in result.stderr
    assert not (tmp_path / "x.sqlite3").exists()


@pytest.mark.parametrize("args", [["--port", "x"], ["--level"]])
def test_bad_options(args: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", "quads.cli.main", "serve", *args],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2


def test_open_starts_the_browser(tmp_path: Path) -> None:
    opened = tmp_path / "opened.txt"
    opener = tmp_path / "opener.py"
    opener.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    env = {**os.environ, "BROWSER": f"{sys.executable} {opener} %s"}
    with serve("--db", str(tmp_path / "games.sqlite3"), "--open", env=env) as (base, _):
        deadline = time.monotonic() + 20
        while not (opened.exists() and opened.read_text()):
            assert time.monotonic() < deadline, "the browser was not opened"
            time.sleep(0.05)
        assert opened.read_text() == base + "/"


def _serve_fails(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "quads.cli.main", "serve", *args],
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize(("db", "says"), [
    ("postgresql://nobody@127.0.0.1:1/quads", "cannot open the database"),
    ("mysql://127.0.0.1/quads", "unsupported database URL"),
    ("://nothing", "cannot read the database URL"),
    ("postgresql://user@localhost:port/quads", "cannot read the database URL"),
])
def test_a_bad_database_stops_serve_with_one_line(db: str, says: str) -> None:
    result = _serve_fails("--db", db)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("quads: error: ")
    assert says in lines[0]


def test_a_newer_schema_stops_serve(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "games.sqlite3"
    GameStore(db).close()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'ffff'")
    result = _serve_fails("--db", str(db))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "newer than this version of Quads" in result.stderr


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    result = _serve_fails("--db", str(tmp_path / "games.sqlite3"), "--workers", "2")
    assert result.returncode == 2
    assert "PostgreSQL" in result.stderr
    assert _serve_fails("--workers", "0").returncode == 2


@pytest.mark.postgres
def test_several_workers_on_one_port(postgres_url: str) -> None:
    """``--workers 2``: two processes answer on one port and share the games."""
    _JAR.clear()
    with serve("--db", postgres_url, "--workers", "2") as (base, process):
        status, view = call(base, "POST", "/api/games", {"mode": "local"})
        assert status == 201
        for _ in range(20):  # the connections land on either worker
            assert call(base, "GET", f"/api/games/{view['id']}") == (200, view)
        workers = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True,
                                 text=True, check=False).stdout.split()
        assert len(workers) >= 2
        process.terminate()
        out, _ = process.communicate(timeout=20)
    assert "with 2 processes" in out
    assert "postgresql+psycopg://postgres@127.0.0.1" in out
