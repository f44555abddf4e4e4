"""Benchmark of sign-ins under a flood: one player's game while many clients try
passwords.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/signin_flood.py [--flooders 100] [--concurrency 2] [--seconds 20]
                                 [--level 1] [--lifted] [--nice N] [--share S]
                                 [--flood-nice N] [--decoy] [--greedy]
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
With ``--greedy`` the flooders ask again at once after a ``429``, whatever its
``Retry-After`` says, as an attacker's client would (the server then holds their
next tries unread: ``edge_hold``).  The flooders speak HTTP/1.1 over bare
sockets, keeping the cookies they are given: a general client (httpx) spends more
CPU a try than the server's refusal, and on this machine the flooders' CPU is the
server's too.
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
from urllib.parse import urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_flood import TIMEOUT, print_phases, start_server, summary, victim

PASSWORD = "a quiet heron by the lake"
LIFTED = ('\nrate_signins = "1000000/minute"\nrate_signins_per_address = "1000000/minute"\n'
          'account_failures = "1000000/minute"\n')


async def flooder(url: str, address: str, name: str, stop: asyncio.Event,
                  answers: Counter[str], greedy: bool = False) -> None:
    """Try passwords at ``name`` from ``address`` until ``stop``, one at a time on a
    kept connection, keeping the cookies the server sets as a browser would.  It
    speaks HTTP/1.1 over a bare socket: a general client (httpx) spends more CPU a
    request than the server's refusal does, and on this machine that CPU is the
    server's too."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    cookies: dict[str, str] = {}
    connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    tries = 0
    try:
        while not stop.is_set():
            tries += 1
            try:
                if connection is None:
                    connection = await asyncio.wait_for(asyncio.open_connection(
                        host, port, local_addr=(address, 0)), TIMEOUT)
                status, headers, body = await asyncio.wait_for(
                    _try(connection, host, port, name, tries, cookies), TIMEOUT)
            except (TimeoutError, OSError, EOFError, ValueError):
                answers["error"] += 1
                _close(connection)
                connection = None
                continue
            code = json.loads(body).get("error", {}).get("code", "") if body else ""
            answers[f"{status} {code}".strip()] += 1
            for value in headers.get("set-cookie", []):
                cookie, _, value = value.partition(";")[0].partition("=")
                cookies[cookie.strip()] = value.strip()
            if "close" in headers.get("connection", [""])[0]:
                _close(connection)
                connection = None
            if status == 429 and not greedy:
                retry = headers.get("retry-after", ["1"])[0]
                await asyncio.sleep(min(1.0, float(retry) if retry.isdigit() else 1.0))
    finally:
        _close(connection)


async def _try(connection: tuple[asyncio.StreamReader, asyncio.StreamWriter], host: str,
               port: int, name: str, tries: int,
               cookies: dict[str, str]) -> tuple[int, dict[str, list[str]], bytes]:
    """One try to sign in on ``connection``: the answer's status, headers and body."""
    reader, writer = connection
    body = json.dumps({"name": name, "password": f"guess number {tries}"}).encode()
    lines = ["POST /api/session HTTP/1.1", f"host: {host}:{port}",
             "content-type: application/json", f"content-length: {len(body)}"]
    if cookies:
        lines.append("cookie: " + "; ".join(f"{key}={value}" for key, value in cookies.items()))
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split(" ")[1])
    headers: dict[str, list[str]] = {}
    for line in head[1:]:
        if line:
            key, _, value = line.partition(":")
            headers.setdefault(key.strip().lower(), []).append(value.strip())
    length = int(headers.get("content-length", ["0"])[0])
    return status, headers, await reader.readexactly(length)


def _close(connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None) -> None:
    """Close ``connection`` if there is one."""
    if connection is not None:
        connection[1].close()


async def flood(url: str, flooders: int, concurrency: int, seconds: float,
                greedy: bool = False) -> Counter[str]:
    """Flood for ``seconds`` from ``flooders`` addresses; what they were answered."""
    stop, answers = asyncio.Event(), Counter[str]()
    tasks = [asyncio.create_task(flooder(url, f"127.0.0.{10 + i}",
                                         "Target" if i % 2 == 0 else f"nobody-{i}",
                                         stop, answers, greedy))
             for i in range(flooders) for _ in range(concurrency)]
    await asyncio.sleep(seconds)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return answers


async def measure(url: str, flooders: int, concurrency: int, seconds: float,
                  level: int, flood_nice: int = 0, flooded_url: str = "",
                  greedy: bool = False) -> dict[str, Any]:
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
        *(["--greedy"] if greedy else []),
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
    parser.add_argument("--greedy", action="store_true",
                        help="the flooders ask again at once after a 429, Retry-After "
                             "or not (an attacker's client, not a browser)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--flood-only", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not 1 <= args.flooders <= 240:
        parser.error("--flooders: 1 to 240 (one loopback address each)")
    if args.flood_only:  # the flooders' process (see measure)
        print(json.dumps(asyncio.run(flood(args.flood_only, args.flooders, args.concurrency,
                                           args.seconds, args.greedy))))
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
                                          args.level, args.flood_nice, decoy_url,
                                          args.greedy))
        finally:
            for server in servers:
                server.kill()
                server.wait(timeout=10)
    figures["lifted"], figures["decoy"], figures["greedy"] = args.lifted, args.decoy, args.greedy
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{figures['flooders']} flooders x {figures['concurrency']} on POST /api/session, "
          f"{figures['seconds']:g} s a phase, level {figures['level']}, "
          f"rates {'lifted' if args.lifted else 'as shipped'}"
          + ("" if args.nice is None else f", account_nice {args.nice}")
          + ("" if args.share is None else f", account_share {args.share:g}")
          + (f", flooders at nice {args.flood_nice}" if args.flood_nice else "")
          + (", the flood at a decoy server (the control)" if args.decoy else "")
          + (", flooders ignoring Retry-After" if args.greedy else ""))
    print_phases(figures)
    print("flooders were answered:", ", ".join(
        f"{count} x {status}" for status, count in sorted(figures["flood_answers"].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
