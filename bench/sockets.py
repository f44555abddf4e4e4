"""Benchmark of the live sockets under strain: the cost of a join, a socket flood,
a reconnect storm and a stopped database.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/sockets.py [--levels 100,500,1500] [--sample 50]
                            [--flood 50] [--storm-clients 20] [--seconds 5]
                            [--postgres] [--stop-seconds 10] [--json]

The script starts its own ``quads serve`` on a free port of 127.0.0.1 (a new
SQLite file in a temporary directory, or with ``--postgres`` a throwaway
PostgreSQL cluster of ``tests/postgres_server.py``), with a settings file that
raises the socket limits so that they do not stop the benchmark itself, and
stops it at the end.  Everything is on loopback; the clients of the storm each
use an address of their own (127.0.0.2, 127.0.0.3, ...).

Phases and figures:

* **joins**: viewers open sockets on one online game up to each of
  ``--levels``; there, ``--sample`` more open one after the other and close
  again.  The server process's CPU time (``/proc/PID/stat``) per join and per
  leave, in milliseconds: flat when a join costs the same whatever the number
  of sockets already on the game.  Twice: spectators without an identity, then
  viewers who each hold a player's cookie of their own but no seat (the
  identities are made beforehand, and not counted).
* **flood**: ``--flood`` sockets each send a 1 MiB message.  How many the
  server closed with 1009, and its resident memory before, during and after.
* **storm**: ``--storm-clients`` clients open and close sockets as fast as
  they can for ``--seconds``, while a victim reads its game over HTTP: the
  victim's p50/p95 before, during and after, and how the storm's sockets
  ended (views, 4429 refusals, errors).
* **stopped database** (``--postgres`` only): every PostgreSQL process is
  stopped (``SIGSTOP``) for ``--stop-seconds``: the victim's ``GET /``, a
  static file and a socket ping (p50/p95), the times of API calls answered
  ``503``, and how long after ``SIGCONT`` the API answers again.

Every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
CLOCK = os.sysconf("SC_CLK_TCK")

SETTINGS = """\
sockets_per_game = 100000
sockets_per_client = 100000
connections_per_client = 100000
socket_rate = "1000000/minute"
rate_games = "1000000/minute"
rate_games_per_address = "1000000/minute"
rate_identities = "1000000/minute"
"""


# -- the server ---------------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class QuadsServer:
    """``quads serve`` in a subprocess with the benchmark's settings."""

    def __init__(self, db: str, directory: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = directory / "quads.toml"
        config.write_text(SETTINGS)
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        self.log = (directory / "server.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "quads.cli.main", "serve", "--port", str(self.port),
             "--db", db, "--config", str(config)],
            env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/api/messages/en", timeout=2):
                    break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def request(base: str, method: str, path: str, cookie: str = "", body: Any = None,
            timeout: float = 30) -> tuple[int, Any, str]:
    """Status, JSON answer and ``Set-Cookie`` of one request."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json",
                                          "Cookie": cookie})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            raw, status = answer.read(), answer.status
            cookie_set = answer.headers.get("Set-Cookie", "")
    except urllib.error.HTTPError as error:
        raw, status, cookie_set = error.read(), error.code, ""
    try:
        content = json.loads(raw or b"null")
    except ValueError:
        content = None
    return status, content, cookie_set.split(";")[0]


def new_game(server: QuadsServer) -> tuple[dict[str, Any], str]:
    """An online game (which spectators may watch), and its host's cookie."""
    status, game, cookie = request(server.url, "POST", "/api/games", "",
                                   {"mode": "online", "rules": "quads"})
    assert status == 201, (status, game)
    return game, cookie


def live_url(server: QuadsServer, game_id: str) -> str:
    return f"ws://127.0.0.1:{server.port}/api/games/{game_id}/live"


def percentiles(seconds: list[float]) -> dict[str, float | int]:
    """p50 and p95 in milliseconds, and the count."""
    if not seconds:
        return {"n": 0}
    ordered = sorted(seconds)
    return {"n": len(ordered), "p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 2)}


async def victim(server: QuadsServer, game: dict[str, Any], cookie: str,
                 seconds: float) -> list[float]:
    """Times of the victim's ``GET /api/games/ID`` for ``seconds`` (one after another)."""
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        began = time.monotonic()
        await asyncio.to_thread(request, server.url, "GET", f"/api/games/{game['id']}", cookie)
        times.append(time.monotonic() - began)
    return times


async def first_message(socket: ClientConnection) -> str:
    try:
        message = json.loads(await asyncio.wait_for(socket.recv(), 30))
    except ConnectionClosed as closed:
        return f"closed {closed.rcvd.code if closed.rcvd else None}"
    return str(message["type"])


# -- phases ---------------------------------------------------------------------------


async def identities(server: QuadsServer, count: int) -> list[str]:
    """``count`` new players' cookies (``POST /api/players``), twenty at a time."""
    cookies: list[str] = []
    while len(cookies) < count:
        batch = [asyncio.to_thread(request, server.url, "POST", "/api/players")
                 for _ in range(min(20, count - len(cookies)))]
        for status, _, cookie in await asyncio.gather(*batch):
            assert status == 204, status
            assert cookie, "no cookie was set"
            cookies.append(cookie)
    return cookies


async def joins(server: QuadsServer, levels: list[int], sample: int,
                identified: bool = False) -> list[dict[str, Any]]:
    """CPU per join and leave at each level; ``identified``: every viewer holds a
    player's cookie of its own (but no seat)."""
    game, _ = new_game(server)
    url = live_url(server, game["id"])
    cookies = iter(await identities(server, max(levels) + sample * len(levels))
                   if identified else [])

    def viewer() -> Awaitable[ClientConnection]:
        headers = {"Cookie": next(cookies)} if identified else None
        return connect(url, open_timeout=30, compression=None, additional_headers=headers)

    held: list[ClientConnection] = []
    figures = []
    try:
        for level in levels:
            while len(held) < level:
                batch = [viewer() for _ in range(min(50, level - len(held)))]
                for socket in await asyncio.gather(*batch):
                    held.append(socket)
                    await first_message(socket)
            await asyncio.sleep(0.5)
            before = cpu_seconds(server.pid)
            extra = []
            for _ in range(sample):
                socket = await viewer()
                await first_message(socket)
                extra.append(socket)
            await asyncio.sleep(0.3)
            joined = cpu_seconds(server.pid)
            for socket in extra:
                await socket.close()
            await asyncio.sleep(0.3)
            left = cpu_seconds(server.pid)
            figures.append({"sockets": level, "identified": identified,
                            "cpu_ms_per_join": round((joined - before) / sample * 1000, 3),
                            "cpu_ms_per_leave": round((left - joined) / sample * 1000, 3)})
    finally:
        await asyncio.gather(*(socket.close() for socket in held), return_exceptions=True)
    return figures


async def flood(server: QuadsServer, count: int) -> dict[str, Any]:
    game, _ = new_game(server)
    url = live_url(server, game["id"])
    before = rss_mib(server.pid)
    sockets = [await connect(url, open_timeout=30, max_size=None, compression=None)
               for _ in range(count)]
    for socket in sockets:
        await first_message(socket)
    big = json.dumps({"type": "ping", "pad": "x" * (1 << 20)})

    async def send(socket: ClientConnection) -> str:
        try:
            await socket.send(big)
            await asyncio.wait_for(socket.recv(), 10)
        except ConnectionClosed as closed:
            return f"closed {closed.rcvd.code if closed.rcvd else None}"
        except TimeoutError:
            return "open"
        return "answered"

    ends = Counter(await asyncio.gather(*(send(s) for s in sockets)))
    during = rss_mib(server.pid)
    await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
    await asyncio.sleep(1)
    return {"sockets": count, "ends": dict(ends), "rss_mib_before": round(before, 1),
            "rss_mib_during": round(during, 1), "rss_mib_after": round(rss_mib(server.pid), 1)}


async def storm(server: QuadsServer, clients: int, seconds: float) -> dict[str, Any]:
    game, cookie = new_game(server)
    url = live_url(server, game["id"])
    ends: Counter[str] = Counter()

    async def client(number: int) -> None:
        source = (f"127.0.{2 + number // 250}.{1 + number % 250}", 0)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                async with connect(url, open_timeout=10, compression=None,
                                   local_addr=source) as socket:
                    ends[await first_message(socket)] += 1
            except (OSError, TimeoutError, ConnectionClosed) as exc:
                ends[type(exc).__name__] += 1

    before = await victim(server, game, cookie, seconds)
    cpu = cpu_seconds(server.pid)
    during, *_ = await asyncio.gather(victim(server, game, cookie, seconds),
                                      *(client(n) for n in range(clients)))
    cpu = cpu_seconds(server.pid) - cpu
    after = await victim(server, game, cookie, seconds)
    return {"clients": clients, "seconds": seconds, "sockets": dict(ends),
            "server_cpu_s": round(cpu, 2), "victim_before": percentiles(before),
            "victim_during": percentiles(during), "victim_after": percentiles(after)}


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    began = time.monotonic()
    result = await call()
    return time.monotonic() - began, result


async def stopped_database(server: QuadsServer, processes: list[int],
                           seconds: float) -> dict[str, Any]:
    """The page, a static file, a ping and the API while ``processes`` (the
    database's) are stopped for ``seconds``, then how soon a move goes through."""
    game, cookie = new_game(server)
    socket = await connect(live_url(server, game["id"]), open_timeout=30,
                           additional_headers={"Cookie": cookie})
    await first_message(socket)
    page: list[float] = []
    static: list[float] = []
    pings: list[float] = []
    api: list[float] = []
    api_status: Counter[int] = Counter()
    for pid in processes:
        os.kill(pid, signal.SIGSTOP)
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            page.append((await timed(lambda: asyncio.to_thread(
                request, server.url, "GET", "/")))[0])
            static.append((await timed(lambda: asyncio.to_thread(
                request, server.url, "GET", "/js/live.js")))[0])

            async def ping() -> None:
                await socket.send(json.dumps({"type": "ping"}))
                while json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] != "pong":
                    pass

            pings.append((await timed(ping))[0])
            taken, answer = await timed(lambda: asyncio.to_thread(
                request, server.url, "GET", f"/api/games/{game['id']}", cookie))
            api.append(taken)
            api_status[answer[0]] += 1
            await asyncio.sleep(0.1)
    finally:
        for pid in processes:
            os.kill(pid, signal.SIGCONT)
    resumed = time.monotonic()
    while True:
        status, _, _ = await asyncio.to_thread(
            request, server.url, "GET", f"/api/games/{game['id']}", cookie)
        if status == 200 or time.monotonic() - resumed > 60:
            break
        await asyncio.sleep(0.1)
    recovered = time.monotonic() - resumed
    await socket.close()
    return {"stopped_s": seconds, "page": percentiles(page), "static": percentiles(static),
            "ping": percentiles(pings), "api": percentiles(api),
            "api_status": {str(k): v for k, v in api_status.items()},
            "recovered_after_s": round(recovered, 2) if status == 200 else None}


# -- the command ----------------------------------------------------------------------


async def bench(args: argparse.Namespace, directory: Path) -> dict[str, Any]:
    postgres = None
    if args.postgres:
        sys.path.insert(0, str(ROOT / "tests"))
        from postgres_server import PostgresServer

        postgres = PostgresServer()
        postgres.start()
        db = postgres.url(postgres.create_database("bench_sockets"))
    else:
        db = str(directory / "games.sqlite3")
    server = QuadsServer(db, directory)
    try:
        figures: dict[str, Any] = {}
        figures["joins"] = await joins(server, args.levels, args.sample)
        figures["joins"] += await joins(server, args.levels, args.sample, identified=True)
        figures["flood"] = await flood(server, args.flood)
        figures["storm"] = await storm(server, args.storm_clients, args.seconds)
        if postgres is not None:
            figures["stopped_database"] = await stopped_database(
                server, postgres.processes(), args.stop_seconds)
        return figures
    finally:
        server.stop()
        if postgres is not None:
            postgres.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="100,500,1500",
                        type=lambda text: [int(n) for n in text.split(",")],
                        help="sockets on the game at which joins are measured")
    parser.add_argument("--sample", type=int, default=50,
                        help="joins and leaves measured at each level")
    parser.add_argument("--flood", type=int, default=50,
                        help="sockets that each send an oversized message")
    parser.add_argument("--storm-clients", type=int, default=20,
                        help="clients (addresses) of the reconnect storm")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="length of the storm, and of the victim's runs around it")
    parser.add_argument("--postgres", action="store_true",
                        help="on a throwaway PostgreSQL cluster, and stop it for a while")
    parser.add_argument("--stop-seconds", type=float, default=10.0,
                        help="how long PostgreSQL stays stopped")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="quads-bench-sockets-") as directory:
        figures = asyncio.run(bench(args, Path(directory)))
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for row in figures["joins"]:
        kind = "viewers with a cookie" if row["identified"] else "spectators"
        print(f"joins at {row['sockets']:>5} sockets ({kind + '):':<23} "
              f"{row['cpu_ms_per_join']:.3f} ms CPU a join, "
              f"{row['cpu_ms_per_leave']:.3f} ms a leave")
    for name in ("flood", "storm", "stopped_database"):
        if name in figures:
            print(f"{name}: {json.dumps(figures[name])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
