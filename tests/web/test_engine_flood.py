"""``quads serve`` as a real process under a flood of analyses from 48 loopback
addresses: another player's game is answered and the computer's move is played
within generous bounds, because a move never waits behind analyses."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from engine_flood import beyond_the_book  # the benchmark's positions, seconds of search each

from quads.rules import Rules

FLOODERS = 48
"""More than the threads of the old, shared pool (40)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "quads.cli.main", "serve", "--port", str(port),
         "--db", str(tmp_path / "quads.db")], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            try:
                with urllib.request.urlopen(f"{base}/api/messages/en", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        yield base
    finally:
        process.kill()  # analyses still queued: no need to wait for them
        process.wait(timeout=10)
        log.close()


def flood(port: int, address: str, positions: list[str], stop: threading.Event,
          answers: list[int]) -> None:
    index = 0
    while not stop.is_set():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                                source_address=(address, 0))
        try:
            query = urllib.parse.urlencode({"position": positions[index % len(positions)]})
            connection.request("GET", f"/api/analysis?{query}")
            answers.append(connection.getresponse().status)
        except OSError:
            answers.append(0)
        finally:
            connection.close()
        index += 1


def test_a_computer_move_is_played_while_analyses_flood(server: str) -> None:
    port = int(server.rsplit(":", 1)[1])
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def call(method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(server + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        began = time.monotonic()
        with opener.open(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read()), time.monotonic() - began

    status, game, _ = call("POST", "/api/games",
                           {"mode": "computer", "level": 3, "human": "second"})
    assert status == 201
    positions = beyond_the_book(Rules.parse("quads"), 4 * FLOODERS, seed=4)
    stop, answers = threading.Event(), list[int]()
    flooders = [threading.Thread(target=flood, daemon=True, args=(
        port, f"127.0.0.{10 + i}", positions[i::FLOODERS], stop, answers))
        for i in range(FLOODERS)]
    for thread in flooders:
        thread.start()
    try:
        time.sleep(2)  # every flooder has an analysis waiting or running
        status, seen, took_get = call("GET", f"/api/games/{game['id']}")
        assert status == 200
        status, moved, took_move = call("POST", f"/api/games/{game['id']}/computer",
                                        {"revision": seen["revision"]})
        assert status == 200
        assert moved["ply"] > game["ply"]
    finally:
        stop.set()  # the flooders end with their current request, or with the server
    assert took_get < 1.0, f"GET of a game took {took_get:.2f} s under the flood"
    assert took_move < 2.0, f"the computer's move took {took_move:.2f} s under the flood"
