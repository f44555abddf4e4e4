"""Attack a real ``quads serve`` and measure how another player fares.

Starts ``quads serve`` on a free loopback port (SQLite, or with ``--postgres`` a
throwaway PostgreSQL cluster and ``--workers 2``), makes a *victim*: a player with
a game against the computer, who keeps reading the game (a cheap request) and
playing it (a computer move at level 1).  Then, for each attack, the victim's
latencies are measured for ``--seconds`` before, during and after the attack: the
p50 and p95 of both requests, the errors (an answer other than 2xx, or none), the
server's memory (resident set of the whole process tree) and how much its log grew.

    python bench/abuse.py [--attacks idle,slow-headers] [--seconds 10] [--scale 1]
                          [--postgres] [--stop-seconds 20] [--config FILE]

Attacks come from addresses 127.1.x.y (loopback: nothing leaves the machine) and
stop by themselves at the end of their phase; ``--scale`` multiplies their sizes
(``--scale 0.01`` for a quick look).  Each attack is a function in
:data:`ATTACKS`: ``async def attack(target: Target, stop: asyncio.Event) -> str``
that attacks until ``stop`` is set and returns a few words on what it did.

- ``idle``: thousands of TCP connections that never send a byte, from 16
  addresses, each opened again whenever the server closes it.
- ``slow-headers``: hundreds of connections that send a request's head a byte
  every 2 s, opened again whenever closed.
- ``analysis-flood``: 50 clients, each from an address of its own, asking
  ``/api/analysis`` for positions beyond the opening book, one after the other
  (after a ``429``, they wait what ``Retry-After`` says, at most 1 s).
- ``socket-flood``: 50 live sockets on a game, each sending a 1 MiB message,
  opened again whenever the server closes them.
- ``reconnect-storm``: 100 clients opening and dropping live sockets on a game as
  fast as they can.
- ``stopped-db`` (``--postgres`` only, and the default there): every process of
  PostgreSQL stopped (``SIGSTOP``) for ``--stop-seconds`` (20; the phase
  "during" lasts as long), as a frozen database host would leave it, then
  continued; the attack's line says how soon after that the API answered again.

``bench/engine_flood.py`` measures the analysis flood alone, as a ratio;
``bench/sockets.py`` the cost of a join at 100 to 1,500 sockets and a stopped
PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import DURABLE, LOAD_RATES, PostgresServer, _free_port

STARTUP_SECONDS = 30.0


@dataclass
class Target:
    """The attacked server: its port, its size knob and where attacks come from (and
    its PostgreSQL, if it has one)."""

    port: int
    scale: float
    postgres: PostgresServer | None = None

    def count(self, base: int) -> int:
        """``base`` connections (or requests...) at this run's scale, at least 1."""
        return max(1, round(base * self.scale))

    @staticmethod
    def source(n: int) -> str:
        """The ``n``-th attacking address: 127.1.x.y."""
        return f"127.1.{n // 250 % 250}.{n % 250 + 1}"


@dataclass
class Samples:
    """One phase's measurements of the victim."""

    cheap: list[float] = field(default_factory=list)
    move: list[float] = field(default_factory=list)
    errors: int = 0
    rss: int = 0
    log: int = 0


Attack = Callable[[Target, asyncio.Event], Awaitable[str]]


async def _hold(target: Target, stop: asyncio.Event, source: str,
                talk: Callable[[asyncio.StreamWriter], Awaitable[None]] | None,
                tally: dict[str, int]) -> None:
    """Keep one connection from ``source`` open (``talk`` on it) until ``stop``."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                "127.0.0.1", target.port, local_addr=(source, 0)), 5)
        except (OSError, TimeoutError):
            tally["refused"] += 1
            await asyncio.sleep(0.5)
            continue
        tally["opened"] += 1
        waiting = asyncio.ensure_future(reader.read(65536))
        talking = asyncio.ensure_future(talk(writer)) if talk else None
        stopping = asyncio.ensure_future(stop.wait())
        await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        for task in (waiting, talking, stopping):
            if task is not None:
                task.cancel()
        if not stop.is_set():
            tally["closed by the server"] += 1
        writer.close()


async def _many(target: Target, stop: asyncio.Event, count: int,
                talk: Callable[[asyncio.StreamWriter], Awaitable[None]] | None) -> str:
    tally = {"opened": 0, "refused": 0, "closed by the server": 0}
    holders = []
    for n in range(count):
        holders.append(asyncio.ensure_future(_hold(target, stop, target.source(n % 16),
                                                   talk, tally)))
        if n % 100 == 99:
            await asyncio.sleep(0.01)  # a flood, not a single burst the backlog drops
    await asyncio.gather(*holders, return_exceptions=True)
    return ", ".join(f"{value} {name}" for name, value in tally.items())


async def idle(target: Target, stop: asyncio.Event) -> str:
    """Thousands of connections that send nothing."""
    return await _many(target, stop, target.count(4000), None)


async def slow_headers(target: Target, stop: asyncio.Event) -> str:
    """Hundreds of connections that send a head a byte every 2 s."""
    port = target.port

    async def drip(writer: asyncio.StreamWriter) -> None:
        writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
        while True:
            await asyncio.sleep(2)
            writer.write(b"X")

    return await _many(target, stop, target.count(500), drip)


def _attacker_game(target: Target) -> tuple[str, str]:
    """A game of the attacker's own, and its cookie: what its sockets open."""
    transport = httpx.HTTPTransport(local_address=target.source(999))
    with httpx.Client(base_url=f"http://127.0.0.1:{target.port}", trust_env=False,
                      timeout=10, transport=transport) as client:
        answer = client.post("/api/games", json={"mode": "local"})
        answer.raise_for_status()
        return answer.json()["id"], client.cookies["quads_player"]


async def analysis_flood(target: Target, stop: asyncio.Event) -> str:
    """Fifty clients asking for analyses beyond the book, none of them cached."""
    from engine_flood import beyond_the_book, flooder

    from quads.rules import Rules

    count = target.count(50)
    positions = beyond_the_book(Rules.parse("quads"), 400)
    answers: Counter[str] = Counter()
    await asyncio.gather(*(
        flooder(f"http://127.0.0.1:{target.port}", target.source(n),
                positions[n::count] or positions, "quads", stop, answers)
        for n in range(count)))
    return ", ".join(f"{value} answered {name}" for name, value in sorted(answers.items()))


async def _sockets(target: Target, stop: asyncio.Event, count: int, big: bool) -> str:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    game, cookie = await asyncio.to_thread(_attacker_game, target)
    url = f"ws://127.0.0.1:{target.port}/api/games/{game}/live"
    ends: Counter[str] = Counter()
    message = '{"type": "ping", "pad": "' + "x" * (1 << 20) + '"}'

    async def client(number: int) -> None:
        while not stop.is_set():
            try:
                async with connect(url, open_timeout=10, max_size=None, compression=None,
                                   additional_headers={"Cookie": f"quads_player={cookie}"},
                                   local_addr=(target.source(number), 0)) as socket:
                    await socket.recv()
                    if big:
                        await socket.send(message)
                        await asyncio.wait_for(socket.recv(), 10)
                        ends["answered"] += 1
                    else:
                        ends["opened"] += 1
            except ConnectionClosed as closed:
                ends[f"closed {closed.rcvd.code if closed.rcvd else None}"] += 1
            except InvalidStatus as refused:
                ends[f"refused {refused.response.status_code}"] += 1
                await asyncio.sleep(0.2)
            except (OSError, TimeoutError) as exc:
                ends[type(exc).__name__] += 1
                await asyncio.sleep(0.2)

    await asyncio.gather(*(client(n) for n in range(count)))
    return ", ".join(f"{value} {name}" for name, value in sorted(ends.items()))


async def socket_flood(target: Target, stop: asyncio.Event) -> str:
    """Fifty live sockets sending 1 MiB messages."""
    return await _sockets(target, stop, target.count(50), big=True)


async def reconnect_storm(target: Target, stop: asyncio.Event) -> str:
    """A hundred clients opening and dropping live sockets without a pause."""
    return await _sockets(target, stop, target.count(100), big=False)


async def stopped_db(target: Target, stop: asyncio.Event) -> str:
    """Every process of PostgreSQL stopped until ``stop``, then continued; how soon the
    API (a route that goes through the database lane) answers again."""
    if target.postgres is None:
        return "skipped: no PostgreSQL (--postgres)"
    processes = target.postgres.processes()
    for pid in processes:
        os.kill(pid, signal.SIGSTOP)
    began = time.monotonic()
    try:
        await stop.wait()
    finally:
        for pid in processes:
            os.kill(pid, signal.SIGCONT)
    stopped = time.monotonic() - began
    resumed = time.monotonic()
    recovered = None
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{target.port}", timeout=5,
                                 trust_env=False) as probe:
        while time.monotonic() - resumed < 30:
            with contextlib.suppress(httpx.HTTPError):
                if (await probe.get("/api/games")).status_code == 200:
                    recovered = time.monotonic() - resumed
                    break
            await asyncio.sleep(0.05)
    after = "never" if recovered is None else f"{recovered:.2f} s after"
    return (f"{len(processes)} processes of PostgreSQL stopped for {stopped:.1f} s; "
            f"the API answered again {after}")


ATTACKS: dict[str, Attack] = {"idle": idle, "slow-headers": slow_headers,
                              "analysis-flood": analysis_flood, "socket-flood": socket_flood,
                              "reconnect-storm": reconnect_storm, "stopped-db": stopped_db}
"""The attacks by name, in the order they run."""

NEEDS_POSTGRES = frozenset({"stopped-db"})
"""The attacks that run only with ``--postgres``."""


class Victim:
    """A player with a game against the computer, who reads it and plays it."""

    def __init__(self, base: str) -> None:
        self.client = httpx.Client(base_url=base, trust_env=False, timeout=10)
        self.view: dict[str, Any] = {}
        self.new_game()

    def new_game(self) -> None:
        answer = self.client.post("/api/games", json={"mode": "computer", "level": 1,
                                                      "human": "first"})
        answer.raise_for_status()
        self.view = answer.json()

    def _human(self) -> None:
        view = self.view
        if view["step"] == "give":
            pieces = view["safe"] or view["supply"]
            action = {"action": "give", "piece": pieces[0]}
        else:
            empty = [n for n, cell in enumerate(view["board"]) if cell is None]
            cell = empty[len(empty) // 2]
            action = {"action": "place", "cell": "ABCD"[cell % 4] + str(cell // 4 + 1)}
        answer = self.client.post(f"/api/games/{view['id']}/actions",
                                  json={"revision": view["revision"], **action})
        answer.raise_for_status()
        self.view = answer.json()

    def sample(self, into: Samples) -> None:
        """One read of the game and, when it is the computer's turn, one computer move."""
        try:
            started = time.perf_counter()
            read = self.client.get(f"/api/games/{self.view['id']}")
            into.cheap.append(time.perf_counter() - started)
            if not read.is_success:
                into.errors += 1
                return
            if self.view["outcome"] is not None:
                self.new_game()
            while not self.view["computer_to_move"] and self.view["outcome"] is None:
                self._human()
            if self.view["outcome"] is not None:
                return
            started = time.perf_counter()
            moved = self.client.post(f"/api/games/{self.view['id']}/computer",
                                     json={"revision": self.view["revision"]})
            into.move.append(time.perf_counter() - started)
            if moved.is_success:
                self.view = moved.json()
            else:
                into.errors += 1
                self.new_game()
        except httpx.HTTPError:
            into.errors += 1
            try:
                self.new_game()
            except httpx.HTTPError:
                time.sleep(0.1)


def _rss(pid: int) -> int:
    """The resident memory of ``pid`` and its children, in bytes."""
    total = 0
    pids = [pid]
    while pids:
        current = pids.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
        pids += [int(child) for child in children]
    return total


def _phase(victim: Victim, seconds: float, pid: int, log: Path) -> Samples:
    samples = Samples()
    size = log.stat().st_size
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        victim.sample(samples)
    samples.rss = _rss(pid)
    samples.log = log.stat().st_size - size
    return samples


def _run_attack(attack: Attack, target: Target) -> tuple[threading.Thread, Callable[[], str]]:
    """Start ``attack`` on an event loop of its own; a function that stops it and
    returns its report."""
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    report: list[str] = []

    def main() -> None:
        asyncio.set_event_loop(loop)
        report.append(loop.run_until_complete(attack(target, stop)))
        loop.close()

    thread = threading.Thread(target=main, daemon=True)
    thread.start()

    def finish() -> str:
        loop.call_soon_threadsafe(stop.set)
        thread.join(60)
        return report[0] if report else "did not stop"

    return thread, finish


def _ms(values: list[float], quantile: float) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0] * 1000:.1f}"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return f"{cuts[round(quantile * 100) - 1] * 1000:.1f}"


def _start(db: str, workers: int, log: Path, config: str | None) -> tuple[subprocess.Popen[bytes],
                                                                          int]:
    port = _free_port()
    command = [sys.executable, "-m", "quads.cli.main", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", db, "--workers", str(workers)]
    if config is None:
        # The victim starts game after game from one address: the rates of creation
        # are lifted (none of these attacks creates much).
        lifted = log.with_suffix(".toml")
        lifted.write_text(LOAD_RATES)
        config = str(lifted)
    command += ["--config", config]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped at once:\n{log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/messages/en", timeout=1,
                         trust_env=False).is_success:
                return process, port
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not answer in {STARTUP_SECONDS:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attacks", default=None,
                        help=f"which attacks, a comma list (default: {','.join(ATTACKS)}, "
                             "the last with --postgres only)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="length of each phase: before, during, after (default 10)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiplies the attacks' sizes (default 1)")
    parser.add_argument("--postgres", action="store_true",
                        help="serve from a throwaway PostgreSQL with --workers 2")
    parser.add_argument("--stop-seconds", type=float, default=20.0,
                        help="how long stopped-db keeps PostgreSQL stopped: the length of "
                             "its phase 'during' (default 20)")
    parser.add_argument("--config", default=None,
                        help="the server's settings file (default: the defaults with the "
                             "rates of creation lifted)")
    args = parser.parse_args(argv)
    if args.attacks is None:
        chosen = [name for name in ATTACKS if args.postgres or name not in NEEDS_POSTGRES]
    else:
        chosen = [name.strip() for name in args.attacks.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in ATTACKS]
    if unknown:
        parser.error(f"unknown attacks {unknown}; known: {', '.join(ATTACKS)}")
    if not args.postgres and NEEDS_POSTGRES.intersection(chosen):
        parser.error(f"{', '.join(sorted(NEEDS_POSTGRES.intersection(chosen)))} needs "
                     "--postgres")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="quads-abuse-") as scratch:
        directory = Path(scratch)
        postgres = PostgresServer(settings=DURABLE) if args.postgres else None
        if postgres is not None:
            postgres.start()
        try:
            if postgres is not None:
                db, workers = postgres.url(postgres.create_database("abuse")), 2
            else:
                db, workers = str(directory / "abuse.sqlite3"), 1
            log = directory / "server.log"
            process, port = _start(db, workers, log, args.config)
            try:
                victim = Victim(f"http://127.0.0.1:{port}")
                target = Target(port, args.scale, postgres)
                rows = []
                for name in chosen:
                    before = _phase(victim, args.seconds, process.pid, log)
                    _, finish = _run_attack(ATTACKS[name], target)
                    length = args.stop_seconds if name == "stopped-db" else args.seconds
                    during = _phase(victim, length, process.pid, log)
                    report = finish()
                    after = _phase(victim, args.seconds, process.pid, log)
                    rows.append((name, report, before, during, after))
            finally:
                process.terminate()
                process.wait(30)
        finally:
            if postgres is not None:
                postgres.close()
    print(f"victim: a cheap read and a computer move (level 1); phases of "
          f"{args.seconds:g} s (stopped-db: during {args.stop_seconds:g} s); "
          f"{'PostgreSQL, 2 workers' if args.postgres else 'SQLite'}; scale {args.scale:g}")
    header = (f"{'attack':<17}{'phase':<8}{'read p50':>9}{'p95':>8}{'move p50':>9}{'p95':>8}"
              f"{'n':>6}{'errors':>8}{'RSS MiB':>9}{'log kB':>8}")
    print(header)
    print("-" * len(header))
    for name, report, *phases in rows:
        for label, samples in zip(("before", "during", "after"), phases, strict=True):
            print(f"{name:<17}{label:<8}{_ms(samples.cheap, 0.5):>9}{_ms(samples.cheap, 0.95):>8}"
                  f"{_ms(samples.move, 0.5):>9}{_ms(samples.move, 0.95):>8}"
                  f"{len(samples.cheap):>6}{samples.errors:>8}{samples.rss / 2**20:>9.0f}"
                  f"{samples.log / 1024:>8.1f}")
        print(f"{'':<17}the attack: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
