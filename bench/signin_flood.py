"""Benchmark of sign-ins under a flood: one player's game while many clients try
passwords.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/signin_flood.py [--flooders 100] [--concurrency 2] [--seconds 20]
                                 [--level 1] [--lifted] [--nice N] [--share S]
                                 [--flood-nice N] [--decoy]
                                 [--json]

The script starts its own ``quads serve`` on a free port of 127.0.0.1 over a new
SQLite file in a temporary directory, and stops it at the end.

A victim player plays games against the computer at ``--level`` (the player of
``bench/engine_flood.py``: its reads ``GET /api/games/{id}`` and the computer's moves
are measured) for ``--seconds`` seconds without a flood, then for ``--seconds`` while
``--flooders`` clients (in a process of their own, so that the victim's times are the
server's and not its own event loop's), each from its own loopback address (127.0.0.10 and up) and
with ``--concurrency`` requests at a time, loop on ``POST /api/session`` with wrong
passwords: half of them at one real account (credential stuffing of one player),
half at names nobody has (each refused after the same work as a wrong password).
Every try costs an Argon2id verification, some 30 ms of a core: the flood is a flood
of CPU, which the ``accounts`` lane bounds.  With ``--lifted`` the per-address and
per-account rates of sign-ins are lifted, so that only the lane holds the flood.
With ``--decoy`` the flood goes to a second server started for it, not to the
victim's: the control that says what the flooders' own work on this machine costs
the victim (on a machine of two cores, the flooders, the victim and the server share
them), which no server could save it.

It prints the victim's p50 and p95 in both phases and their ratios, and what the
flooders were answered (``401 bad_credentials``, ``429 rate_limited``, ``429 busy``).
Everything is bounded: the phases by ``--seconds``, each request by a timeout, and
only 127.0.0.x is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_flood import TIMEOUT, print_phases, start_server, summary, victim

PASSWORD = "a quiet heron by the lake"
LIFTED = ('\nrate_signins = "1000000/minute"\nrate_signins_per_address = "1000000/minute"\n'
          'account_failures = "1000000/minute"\n')


async def flooder(url: str, address: str, name: str, stop: asyncio.Event,
                  answers: Counter[str]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, transport=transport) as client:
        tries = 0
        while not stop.is_set():
            try:
                answer = await client.post("/api/session", json={
                    "name": name, "password": f"guess number {tries}"})
                code = answer.json().get("error", {}).get("code", "")
                answers[f"{answer.status_code} {code}".strip()] += 1
                if answer.status_code == 429:
                    await asyncio.sleep(min(1.0, float(answer.headers.get("Retry-After", 1))))
            except (httpx.HTTPError, ValueError):
                answers["error"] += 1
            tries += 1


async def flood(url: str, flooders: int, concurrency: int, seconds: float) -> Counter[str]:
    """Flood for ``seconds`` from ``flooders`` addresses; what they were answered."""
    stop, answers = asyncio.Event(), Counter[str]()
    tasks = [asyncio.create_task(flooder(url, f"127.0.0.{10 + i}",
                                         "Target" if i % 2 == 0 else f"nobody-{i}",
                                         stop, answers))
             for i in range(flooders) for _ in range(concurrency)]
    await asyncio.sleep(seconds)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return answers


async def measure(url: str, flooders: int, concurrency: int, seconds: float,
                  level: int, flood_nice: int = 0, flooded_url: str = "") -> dict[str, Any]:
    """The victim's figures on ``url``, quiet and while ``flooded_url`` (the same
    server unless a decoy is given) is flooded."""
    flooded_url = flooded_url or url
    async with httpx.AsyncClient(base_url=flooded_url, timeout=TIMEOUT) as owner:
        made = await owner.post("/api/account", json={"name": "Target", "password": PASSWORD})
        made.raise_for_status()
    await victim(url, "quads", level, 1.0)  # warm up
    quiet = summary(await victim(url, "quads", level, seconds))
    # The flood comes from a process of its own, as it would from other machines: the
    # victim's own event loop stays free, so its times are the server's.
    warm = min(2.0, seconds / 4)
    flooding = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--flood-only", flooded_url, "--flooders", str(flooders),
        "--concurrency", str(concurrency), "--seconds", str(warm + seconds + 1),
        stdout=asyncio.subprocess.PIPE, preexec_fn=lambda: os.nice(flood_nice))
    try:
        await asyncio.sleep(warm)
        flooded = summary(await victim(url, "quads", level, seconds))
        out, _ = await asyncio.wait_for(flooding.communicate(), timeout=seconds + 60)
    finally:
        if flooding.returncode is None:
            flooding.kill()
            await flooding.wait()
    ratio = {key: round(flooded[key] / quiet[key], 2) if quiet[key] else None
             for key in ("read_p50_ms", "read_p95_ms", "move_p50_ms", "move_p95_ms")}
    return {"flooders": flooders, "concurrency": concurrency, "seconds": seconds,
            "level": level, "quiet": quiet, "flood": flooded, "ratio": ratio,
            "flood_answers": json.loads(out)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flooders", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--lifted", action="store_true",
                        help="lift the rates of sign-ins: only the accounts lane holds")
    parser.add_argument("--nice", type=int, default=None,
                        help="the hashing threads' account_nice (default: the server's)")
    parser.add_argument("--share", type=float, default=None,
                        help="the hashing threads' account_share, the part of a core "
                             "each takes at most (default: the server's)")
    parser.add_argument("--flood-nice", type=int, default=0,
                        help="the flooders' process's niceness (its CPU, on this machine, "
                             "is the server's: 19 leaves the server what an attacker "
                             "elsewhere would)")
    parser.add_argument("--decoy", action="store_true",
                        help="flood a second server, not the victim's: the control")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--flood-only", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not 1 <= args.flooders <= 240:
        parser.error("--flooders: 1 to 240 (one loopback address each)")
    if args.flood_only:  # the flooders' process (see measure)
        print(json.dumps(asyncio.run(flood(args.flood_only, args.flooders, args.concurrency,
                                           args.seconds))))
        return 0
    with tempfile.TemporaryDirectory() as directory:
        settings = (LIFTED if args.lifted else "") + (
            "" if args.nice is None else f"\naccount_nice = {args.nice}\n") + (
            "" if args.share is None else f"\naccount_share = {args.share}\n")
        process, url = start_server(Path(directory), settings)
        servers = [process]
        try:
            decoy_url = ""
            if args.decoy:
                (Path(directory) / "decoy").mkdir()
                decoy, decoy_url = start_server(Path(directory) / "decoy", settings)
                servers.append(decoy)
            figures = asyncio.run(measure(url, args.flooders, args.concurrency, args.seconds,
                                          args.level, args.flood_nice, decoy_url))
        finally:
            for server in servers:
                server.kill()
                server.wait(timeout=10)
    figures["lifted"], figures["decoy"] = args.lifted, args.decoy
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{figures['flooders']} flooders x {figures['concurrency']} on POST /api/session, "
          f"{figures['seconds']:g} s a phase, level {figures['level']}, "
          f"rates {'lifted' if args.lifted else 'as shipped'}"
          + ("" if args.nice is None else f", account_nice {args.nice}")
          + ("" if args.share is None else f", account_share {args.share:g}")
          + (f", flooders at nice {args.flood_nice}" if args.flood_nice else "")
          + (", the flood at a decoy server (the control)" if args.decoy else ""))
    print_phases(figures)
    print("flooders were answered:", ", ".join(
        f"{count} x {status}" for status, count in sorted(figures["flood_answers"].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
