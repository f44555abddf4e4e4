"""Benchmark of idle bots: what N open bot streams cost a server that has nothing to
tell them, and another player's moves beside them.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/bots_idle.py [--bots 1000] [--idle 20] [--moves 200] [--json]
                              [--db PATH_OR_URL] [--setting KEY=VALUE ...]

The script starts its own ``quads serve`` on a free port of 127.0.0.1 (a new
SQLite file in a temporary directory unless ``--db`` names another database),
with the rates of creation lifted (every client here is one address) and room
for ``--bots`` streams, and stops it at the end.

It measures twice, first with no bot stream open, then with ``--bots`` of them:

* the server's CPU (user + system time of its process, from ``/proc/PID/stat``)
  over ``--idle`` seconds in which nobody does anything (the streams read their
  heartbeats);
* then ``--moves`` actions of one online game between two people (a new game
  whenever one ends), each sent as ``POST /api/games/{id}/actions`` and timed from
  sending to the answer: median and p95.

The bots are made through the API (``POST /api/bot/upgrade`` by newcomers) and
each opens ``GET /api/bot/stream`` on a connection of its own.  Every loop is
bounded; the exit status is 0 when every stream stayed open and every action was
answered 200, else 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from calls import winning_call
from servers import Server

from quads.cells import cell_name

SETUP_CONCURRENCY = 32
"""Bots made at the same time (not measured)."""
TIMEOUT = 30.0
"""Seconds one request may take."""


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far, from ``/proc/PID/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def make_bot(base: str, limits: asyncio.Semaphore) -> str:
    """A new bot's token."""
    async with limits, httpx.AsyncClient(base_url=base, timeout=TIMEOUT,
                                         trust_env=False) as client:
        answer = await client.post("/api/bot/upgrade")
        answer.raise_for_status()
        token: str = answer.json()["token"]
        return token


async def hold_stream(client: httpx.AsyncClient, token: str, opened: asyncio.Event,
                      lost: list[str]) -> None:
    """Keep one bot's stream open, reading its heartbeats, until cancelled."""
    try:
        async with client.stream("GET", "/api/bot/stream",
                                 headers={"Authorization": f"Bearer {token}"}) as stream:
            if stream.status_code != 200:
                lost.append(f"stream refused: {stream.status_code}")
                opened.set()
                return
            opened.set()
            async for _ in stream.aiter_lines():
                pass
            lost.append("stream closed by the server")
    except httpx.HTTPError as exc:
        lost.append(f"stream failed: {exc!r}")
        opened.set()


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action of the player to move (calls first, as a person would)."""
    call = winning_call(view)
    if call is not None:
        return call
    if view["step"] == "place":
        cells = [i for i, piece in enumerate(view["board"]) if piece is None]
        return {"action": "place", "cell": cell_name(rng.choice(cells))}
    return {"action": "give", "piece": rng.choice(view["supply"])}


async def person(base: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=TIMEOUT, trust_env=False)
    (await client.post("/api/players")).raise_for_status()
    return client


async def new_game(host: httpx.AsyncClient, guest: httpx.AsyncClient) -> dict[str, Any]:
    """A new online game, both seats taken, as the host sees it."""
    created = await host.post("/api/games", json={"mode": "online", "rules": "quads"})
    created.raise_for_status()
    view: dict[str, Any] = created.json()
    token = view["invite"].rsplit("/", 1)[1]
    joined = await guest.post(f"/api/games/{view['id']}/join", json={"invite": token})
    joined.raise_for_status()
    seen: dict[str, Any] = (await host.get(f"/api/games/{view['id']}")).json()
    return seen


async def time_moves(base: str, moves: int, rng: random.Random) -> tuple[list[float], int]:
    """Play ``moves`` actions of online games between two people; the seconds each took
    and how many were not answered 200."""
    host, guest = await person(base), await person(base)
    times: list[float] = []
    failed = 0
    try:
        view = await new_game(host, guest)
        players = {True: host, False: guest}
        while len(times) < moves:
            if view["outcome"] is not None:
                view = await new_game(host, guest)
            mover = players[view["can_act"]]
            body = {"revision": view["revision"], **choose(view, rng)}
            start = time.perf_counter()
            answer = await mover.post(f"/api/games/{view['id']}/actions", json=body)
            times.append(time.perf_counter() - start)
            if answer.status_code != 200:
                failed += 1
            # the host's view says whose turn it is (can_act: the host's)
            view = (await host.get(f"/api/games/{view['id']}")).json()
    finally:
        await host.aclose()
        await guest.aclose()
    return times, failed


async def measure(base: str, pid: int, idle: float, moves: int,
                  rng: random.Random) -> dict[str, Any]:
    """The server's CPU over ``idle`` quiet seconds, then the times of ``moves`` actions."""
    before, start = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(idle)
    cpu = (cpu_seconds(pid) - before) / (time.monotonic() - start)
    times, failed = await time_moves(base, moves, rng)
    ordered = sorted(times)
    return {"cpu_percent": round(100 * cpu, 1),
            "move_median_ms": round(1000 * statistics.median(ordered), 2),
            "move_p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 2),
            "moves_failed": failed}


async def run(base: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    figures: dict[str, Any] = {"bots": args.bots, "idle_s": args.idle, "moves": args.moves}
    figures["without_streams"] = await measure(base, pid, args.idle, args.moves, rng)
    limits = asyncio.Semaphore(SETUP_CONCURRENCY)
    tokens = await asyncio.gather(*(make_bot(base, limits) for _ in range(args.bots)))
    lost: list[str] = []
    streams = httpx.AsyncClient(base_url=base, trust_env=False,
                                timeout=httpx.Timeout(TIMEOUT, read=None),
                                limits=httpx.Limits(max_connections=None,
                                                    max_keepalive_connections=0))
    async with streams:
        openings = [asyncio.Event() for _ in tokens]
        holders = [asyncio.ensure_future(hold_stream(streams, token, opened, lost))
                   for token, opened in zip(tokens, openings, strict=True)]
        try:
            await asyncio.wait_for(asyncio.gather(*(o.wait() for o in openings)),
                                   TIMEOUT + args.bots / 10)
            await asyncio.sleep(2.0)  # every stream's first look is behind it
            figures["with_streams"] = await measure(base, pid, args.idle, args.moves, rng)
        finally:
            for holder in holders:
                holder.cancel()
            await asyncio.gather(*holders, return_exceptions=True)
    figures["streams_lost"] = len(lost)
    figures["lost_examples"] = lost[:3]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--bots", type=int, default=1000, help="bot streams open (1000)")
    parser.add_argument("--idle", type=float, default=20.0,
                        help="seconds of quiet over which the server's CPU is measured (20)")
    parser.add_argument("--moves", type=int, default=200, help="actions timed (200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="a SQLite path or database URL (default: a new file)")
    parser.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                        help="another line of the server's settings file (TOML)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.bots < 1 or args.idle <= 0 or args.moves < 1:
        parser.error("--bots and --moves take 1 or more, --idle a positive time")
    # every stream holds a descriptor here and in the server
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * args.bots + 256)),
                                                hard))
    settings = f"bot_streams = {args.bots + 10}\n" + "".join(f"{s}\n" for s in args.setting)
    with tempfile.TemporaryDirectory(prefix="quads-bench-") as tmp:
        db = args.db or str(Path(tmp) / "games.sqlite3")
        server = Server(db, 1, Path(tmp) / "server.log", settings)
        try:
            server.wait_ready()
            figures = asyncio.run(run(server.base, server.pid, args))
        finally:
            server.stop()
    ok = figures["streams_lost"] == 0 and not any(
        figures[phase]["moves_failed"] for phase in ("without_streams", "with_streams"))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{args.bots} idle bot streams, {args.idle:g} s quiet, {args.moves} moves timed")
        for phase in ("without_streams", "with_streams"):
            seen = figures[phase]
            print(f"  {phase.replace('_', ' '):16}  server CPU {seen['cpu_percent']:5.1f} %   "
                  f"move median {seen['move_median_ms']:7.2f} ms  "
                  f"p95 {seen['move_p95_ms']:7.2f} ms  failed {seen['moves_failed']}")
        print(f"  streams lost      {figures['streams_lost']} {figures['lost_examples'] or ''}")
    return 0 if ok else 1


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
