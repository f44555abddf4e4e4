"""Benchmark of fair engine work: one player's game while many clients flood
``GET /api/analysis``.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/engine_flood.py [--flooders 50] [--concurrency 4] [--seconds 20]
                                 [--level 3] [--rules quads] [--json]
                                 [--url http://127.0.0.1:8000]

Without ``--url`` the script starts its own ``quads serve`` on a free port of
127.0.0.1 over a new SQLite file in a temporary directory, and stops it at the end.

A victim player (one cookie, one connection) plays games against the computer at
``--level``: it reads its game (``GET /api/games/{id}``, measured), plays a
person's turn when it is to move (not measured) and asks the computer to move
(``POST .../computer``, measured), for ``--seconds`` seconds without a flood and
then for ``--seconds`` seconds while ``--flooders`` clients, each from its own
loopback address (127.0.0.10 and up) and with ``--concurrency`` requests at a
time (more than a client's share, so some are refused), loop on ``/api/analysis`` with distinct
positions beyond the opening book (twelve empty cells, so the cache does not
hide the work).  It prints the victim's p50 and p95 of both requests in both
phases, the ratio flood / quiet, and what the flooders were answered (200, the
``429 engine_busy`` refusals, errors).  The issue's targets under the flood:
p95 under 100 ms for the reads and under 300 ms for the computer's moves.

Everything is bounded: the phases by ``--seconds``, each request by a timeout,
and only 127.0.0.x is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from calls import winning_call
from servers import LOAD_RATES

from quads.errors import InvalidPositionError
from quads.position import Position
from quads.rules import Rules

TIMEOUT = 60.0
"""Seconds one request may take before it counts as an error."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(directory: Path, settings: str = "") -> tuple[subprocess.Popen[bytes], str]:
    """``quads serve`` over a new SQLite file in ``directory``, with ``settings`` (TOML
    lines) beside the lifted rates of creation; the process and its URL."""
    port = free_port()
    log = (directory / "server.log").open("wb")
    # The victim starts game after game from one address: its rates of creation are
    # lifted (the engine's shares, which this measures, are not).
    config = directory / "quads.toml"
    config.write_text(LOAD_RATES + settings)
    process = subprocess.Popen(
        [sys.executable, "-m", "quads.cli.main", "serve", "--port", str(port),
         "--db", str(directory / "quads.db"), "--config", str(config)],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise SystemExit((directory / "server.log").read_text(errors="replace"))
        try:
            with urllib.request.urlopen(f"{url}/api/messages/en", timeout=2):
                return process, url
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                raise SystemExit("the server did not answer") from None
            time.sleep(0.1)


def beyond_the_book(rules: Rules, count: int, seed: int = 19) -> list[str]:
    """``count`` distinct positions with twelve empty cells and a piece in hand."""
    pick, found = random.Random(seed), set()
    while len(found) < count:
        pieces = pick.sample(range(16), 16)
        board = dict(zip(pick.sample(range(16), 4), pieces, strict=False))
        position = Position.from_pieces(board, pieces[4])
        try:
            position.check(rules)
        except InvalidPositionError:
            continue
        found.add(position.to_string())
    return sorted(found)


def person_action(view: dict[str, Any]) -> dict[str, Any]:
    """A simple person: calls every win, hands over safe pieces, places on the first cell."""
    call = winning_call(view)
    if call is not None:
        return call
    if view["step"] == "give":
        return {"action": "give", "piece": (view["safe"] or view["supply"])[0]}
    empty = view["board"].index(None)
    return {"action": "place", "cell": "ABCD"[empty % 4] + str(empty // 4 + 1)}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def victim(url: str, rules: str, level: int, seconds: float) -> dict[str, Any]:
    """Play against the computer for ``seconds``; the times of reads and moves."""
    reads: list[float] = []
    moves: list[float] = []
    errors = 0
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as client:
        view: dict[str, Any] | None = None
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                if view is None or view["outcome"] is not None:
                    answer = await client.post("/api/games", json={
                        "mode": "computer", "level": level, "human": "first",
                        "rules": rules})
                    view = answer.json()
                    continue
                began = time.monotonic()
                answer = await client.get(f"/api/games/{view['id']}")
                reads.append(time.monotonic() - began)
                view = answer.json()
                if view["computer_to_move"]:
                    began = time.monotonic()
                    answer = await client.post(f"/api/games/{view['id']}/computer",
                                               json={"revision": view["revision"]})
                    if answer.status_code == 200:
                        moves.append(time.monotonic() - began)
                    else:
                        errors += 1
                    view = answer.json() if answer.status_code == 200 else None
                else:
                    answer = await client.post(f"/api/games/{view['id']}/actions", json={
                        "revision": view["revision"], **person_action(view)})
                    view = answer.json() if answer.status_code == 200 else None
            except (httpx.HTTPError, KeyError, ValueError):
                errors += 1
                view = None
    return {"reads": reads, "moves": moves, "errors": errors}


async def flooder(url: str, address: str, positions: list[str], rules: str,
                  stop: asyncio.Event, answers: Counter[str]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, transport=transport) as client:
        index = 0
        while not stop.is_set():
            try:
                answer = await client.get("/api/analysis", params={
                    "position": positions[index % len(positions)], "rules": rules})
                answers[str(answer.status_code)] += 1
                if answer.status_code == 429:
                    await asyncio.sleep(min(1.0, float(answer.headers.get("Retry-After", 1))))
            except httpx.HTTPError:
                answers["error"] += 1
            index += 1


def summary(run: dict[str, Any]) -> dict[str, Any]:
    return {
        "read_p50_ms": round(percentile(run["reads"], 0.5) * 1000, 1),
        "read_p95_ms": round(percentile(run["reads"], 0.95) * 1000, 1),
        "move_p50_ms": round(percentile(run["moves"], 0.5) * 1000, 1),
        "move_p95_ms": round(percentile(run["moves"], 0.95) * 1000, 1),
        "reads": len(run["reads"]), "moves": len(run["moves"]), "errors": run["errors"],
    }


async def measure(url: str, flooders: int, concurrency: int, seconds: float, level: int,
                  rules: str) -> dict[str, Any]:
    await victim(url, rules, level, 1.0)  # warm up: the book and the players are loaded
    quiet = summary(await victim(url, rules, level, seconds))
    positions = beyond_the_book(Rules.parse(rules), 8 * flooders)
    stop, answers = asyncio.Event(), Counter[str]()
    tasks = [asyncio.create_task(flooder(url, f"127.0.0.{10 + i}",
                                         positions[i::flooders][j::concurrency] or positions,
                                         rules, stop, answers))
             for i in range(flooders) for j in range(concurrency)]
    await asyncio.sleep(min(2.0, seconds / 4))  # the lanes fill
    flood = summary(await victim(url, rules, level, seconds))
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    ratio = {key: round(flood[key] / quiet[key], 2) if quiet[key] else None
             for key in ("read_p50_ms", "read_p95_ms", "move_p50_ms", "move_p95_ms")}
    return {"flooders": flooders, "concurrency": concurrency, "seconds": seconds,
            "level": level, "rules": rules, "quiet": quiet, "flood": flood, "ratio": ratio,
            "flood_answers": dict(answers)}


def print_phases(figures: dict[str, Any]) -> None:
    """The victim's figures of both phases and their ratios, as a table."""
    print(f"{'':14}{'quiet':>10}{'flood':>10}{'ratio':>8}")
    for key, label in (("read_p50_ms", "GET p50 ms"), ("read_p95_ms", "GET p95 ms"),
                       ("move_p50_ms", "move p50 ms"), ("move_p95_ms", "move p95 ms")):
        print(f"{label:14}{figures['quiet'][key]:>10}{figures['flood'][key]:>10}"
              f"{figures['ratio'][key] or '-':>8}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flooders", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=4,
                        help="requests at a time of each flooder")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="length of each phase (quiet, flood)")
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--rules", default="quads")
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.flooders <= 240:
        parser.error("--flooders: 1 to 240 (one loopback address each)")
    if not 1 <= args.concurrency <= 16:
        parser.error("--concurrency: 1 to 16")
    with tempfile.TemporaryDirectory() as directory:
        process, url = (None, args.url) if args.url else start_server(Path(directory))
        try:
            figures = asyncio.run(measure(url, args.flooders, args.concurrency, args.seconds,
                                          args.level, args.rules))
        finally:
            if process is not None:
                process.kill()
                process.wait(timeout=10)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{figures['flooders']} flooders x {figures['concurrency']} on /api/analysis, "
          f"{figures['seconds']:g} s a phase, level {figures['level']}, {figures['rules']}")
    print_phases(figures)
    for phase in ("quiet", "flood"):
        counts = figures[phase]
        print(f"{phase}: {counts['reads']} reads, {counts['moves']} moves, "
              f"{counts['errors']} errors")
    print("flooders were answered:", ", ".join(
        f"{count} x {status}" for status, count in sorted(figures["flood_answers"].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
