"""Soak test: one ``quads serve`` under mixed traffic for a long while, its memory
watched.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/soak.py [--minutes 30] [--clients 4] [--interval 30]
                         [--frames 10] [--postgres postgresql://...] [--seed 1]
                         [--only SCENARIO ...]

The script starts its own ``quads serve`` on a free port of 127.0.0.1 (over a new
SQLite file in a temporary directory, or the empty database ``--postgres`` names)
with ``tracemalloc`` on: a small wrapper (:data:`WRAPPER`) installs a ``SIGUSR1``
handler that writes a snapshot to a file, and a ``SIGUSR2`` handler that writes
what SQLite's own allocator holds (its page caches, which ``tracemalloc`` does not
see), and then runs ``quads serve`` in the same process; nothing of the server
knows of it.  ``--frames 0`` runs it without ``tracemalloc``, for the RSS alone.

``--clients`` tasks then play for ``--minutes`` minutes, each choosing one scenario
after the other at random: a new player's game against the computer (moves, hints,
undo, the review at the end), a game on one device (undo and redo, "Play again"),
an online game (the host's and the guest's live sockets opened and closed, the
invitation, the join, moves, a request to undo, resignation), analyses of varied
positions, the lobby (its socket, seeks offered, withdrawn and accepted, "Play
now"), the daily puzzles of many dates (turns checked, results, the history), and
players who only come, look and choose a name.  Every player is new: a fresh
identity, so that everything kept per player is kept for many.  ``--only`` plays
one scenario (or those named), to find which one makes the memory grow.

Every ``--interval`` seconds it prints the time, the server's RSS (``VmRSS`` of
``/proc/PID/status``), the memory SQLite holds and the requests done.  A snapshot
is taken at a third of the run (at five minutes at most) and at the end; the end
prints the top growth between them (by line, and the largest by traceback), and a
summary: the RSS at the first snapshot and at the end, and the slope in MB/hour
(least squares) over the last two thirds of the run.  The rates of creation are
lifted (``bench/servers.py``), so that nothing the soak sends is refused for its
pace.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import random
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from calls import call_wins
from engine_flood import free_port, person_action
from servers import LOAD_RATES

from quads.errors import InvalidPositionError
from quads.position import Position
from quads.rules import Rules

TIMEOUT = 60.0
"""Seconds one request may take before it counts as an error."""
RULES = ("quads", "classic", "advanced")
COOKIE = "quads_player"
SETTINGS = LOAD_RATES + "engine_per_client = 64\nengine_queue = 256\n"
"""The lifted rates, and an engine share wide enough for the soak's few clients."""

WRAPPER = """\
import ctypes, signal, sys, tracemalloc
from pathlib import Path

target = Path(sys.argv[1])

def dump(signum, frame):
    snapshot = tracemalloc.take_snapshot()
    part = target.with_suffix(".part")
    snapshot.dump(str(part))
    part.rename(target)
    del snapshot
    ctypes.CDLL("libc.so.6").malloc_trim(0)  # give back what the snapshot took

def sqlite_memory(signum, frame):
    import sqlite3  # loaded already: the same library as the store's
    used = ctypes.CDLL("libsqlite3.so.0")
    used.sqlite3_memory_used.restype = ctypes.c_int64
    part = target.with_suffix(".sqlite.part")
    part.write_text(str(used.sqlite3_memory_used()))
    part.rename(target.with_suffix(".sqlite"))

if tracemalloc.is_tracing():
    signal.signal(signal.SIGUSR1, dump)
signal.signal(signal.SIGUSR2, sqlite_memory)
from quads.cli.main import main
sys.exit(main(sys.argv[2:]))
"""
"""Run in the server's process: ``SIGUSR1`` writes a ``tracemalloc`` snapshot (when
tracing) to the file of the first argument, ``SIGUSR2`` the bytes SQLite holds
(``sqlite3_memory_used``: its page caches and statements) beside it; the other
arguments are ``quads``'s."""


class Stats:
    """What the clients did."""

    def __init__(self) -> None:
        self.requests = 0
        self.statuses: Counter[int] = Counter()
        self.errors: Counter[str] = Counter()
        self.scenarios: Counter[str] = Counter()
        self.sockets = 0
        self.faults: list[str] = []
        """The last requests answered 5xx."""


class Player:
    """One person on a device of their own: an HTTP connection and, once the server
    gave one, an identity."""

    def __init__(self, base: str, stats: Stats) -> None:
        self.base = base
        self.stats = stats
        self.http = httpx.AsyncClient(base_url=base, timeout=TIMEOUT, trust_env=False)
        self.token: str | None = None

    async def call(self, method: str, path: str, body: Any = None,
                   params: dict[str, str] | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        answer = await self.http.request(method, path, json=body, params=params,
                                         headers=headers)
        self.stats.requests += 1
        self.stats.statuses[answer.status_code] += 1
        if answer.status_code >= 500:
            self.stats.faults = [*self.stats.faults[-9:],
                                 f"{method} {path} {answer.status_code} {answer.text[:200]}"]
        for header in answer.headers.get_list("set-cookie"):
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(header)
            if COOKIE in cookie:
                self.token = cookie[COOKIE].value
        return answer

    async def view(self, method: str, path: str, body: Any = None) -> dict[str, Any] | None:
        """The JSON answer of a request, or None if it was refused."""
        answer = await self.call(method, path, body)
        return answer.json() if answer.is_success and answer.content else None

    async def socket(self, path: str) -> ClientConnection:
        """A WebSocket opened as the page opens it: the cookie, a same-site Origin."""
        self.stats.sockets += 1
        headers = {"Cookie": f"{COOKIE}={self.token}"} if self.token else {}
        return await connect(f"ws://{self.base.removeprefix('http://')}{path}",
                             additional_headers=headers, origin=self.base,  # type: ignore[arg-type]
                             open_timeout=TIMEOUT, proxy=None)

    async def close(self) -> None:
        await self.http.aclose()


async def drain(socket: ClientConnection) -> None:
    """Read a socket until it closes."""
    with contextlib.suppress(Exception):
        async for _ in socket:
            pass


def random_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action of the player to move in ``view``, with its revision."""
    choices: list[dict[str, Any]] = []
    if view["step"] == "place":
        choices += [{"action": "place", "cell": "ABCD"[cell % 4] + str(cell // 4 + 1)}
                    for cell, piece in enumerate(view["board"]) if piece is None]
        if call_wins(view):
            choices.append({"action": "claim"})
    else:
        choices += [{"action": "give", "piece": piece} for piece in view["supply"]]
        if call_wins(view):
            choices.append({"action": "declare"})
        if view["can_decline"]:
            choices.append({"action": "decline"})
    action = rng.choice(choices) if rng.random() < 0.7 else person_action(view)
    return {"revision": view["revision"], **action}


def random_position(rng: random.Random, rules: Rules) -> str:
    """A position of ``rules`` with 2 to 12 pieces placed, no shape won, a piece in
    hand."""
    while True:
        placed = rng.choice((2, 5, 6, 7, 8, 8, 9, 10, 10, 11, 12))
        pieces = rng.sample(range(16), 16)
        board = dict(zip(rng.sample(range(16), placed), pieces, strict=False))
        position = Position.from_pieces(board, pieces[placed])
        try:
            position.check(rules)
        except InvalidPositionError:
            continue
        return position.to_string()


class Soak:
    """The clients' scenarios, over one server."""

    def __init__(self, base: str, stats: Stats, rng: random.Random) -> None:
        self.base = base
        self.stats = stats
        self.rng = rng

    def player(self) -> Player:
        return Player(self.base, self.stats)

    async def computer_game(self) -> None:
        rng, person = self.rng, self.player()
        try:
            view = await person.view("POST", "/api/games", {
                "mode": "computer", "rules": rng.choice(RULES), "level": rng.choice((1, 2, 3)),
                "human": rng.choice(("first", "second"))})
            while view is not None and view["outcome"] is None:
                game = view["id"]
                if view["computer_to_move"]:
                    view = await person.view("POST", f"/api/games/{game}/computer",
                                             {"revision": view["revision"]})
                    continue
                if rng.random() < 0.15:
                    await person.call("GET", f"/api/games/{game}/hint?lang="
                                      + rng.choice(("en", "de")))
                if view["can_undo"] and rng.random() < 0.08:
                    view = await person.view("POST", f"/api/games/{game}/undo",
                                             {"revision": view["revision"]})
                    continue
                if rng.random() < 0.03:
                    await person.call("DELETE", f"/api/games/{game}?revision={view['revision']}")
                    return
                view = await person.view("POST", f"/api/games/{game}/actions",
                                         random_action(view, rng))
            if view is not None:
                await person.call("GET", f"/api/games/{view['id']}/record")
                if rng.random() < 0.1:
                    await person.call("GET", f"/api/games/{view['id']}/review")
            await person.call("GET", "/api/games?limit=20")
        finally:
            await person.close()

    async def local_game(self) -> None:
        rng, person = self.rng, self.player()
        try:
            view = await person.view("POST", "/api/games",
                                     {"mode": "local", "rules": rng.choice(RULES)})
            for _ in range(2 if rng.random() < 0.3 else 1):
                while view is not None and view["outcome"] is None:
                    game, revision = view["id"], view["revision"]
                    if view["can_undo"] and rng.random() < 0.1:
                        view = await person.view("POST", f"/api/games/{game}/undo",
                                                 {"revision": revision})
                        if view is not None and view["can_redo"] and rng.random() < 0.5:
                            view = await person.view("POST", f"/api/games/{game}/redo",
                                                     {"revision": view["revision"]})
                        continue
                    if rng.random() < 0.02:
                        view = await person.view("POST", f"/api/games/{game}/resign",
                                                 {"revision": revision})
                        continue
                    view = await person.view("POST", f"/api/games/{game}/actions",
                                             random_action(view, rng))
                if view is None:
                    return
                await person.call("GET", f"/api/games/{view['id']}")
                view = await person.view("POST", f"/api/games/{view['id']}/rematch")
        finally:
            await person.close()

    async def online_game(self) -> None:
        rng = self.rng
        host, guest = self.player(), self.player()
        sockets: list[ClientConnection] = []
        readers: list[asyncio.Task[None]] = []
        try:
            view = await host.view("POST", "/api/games", {
                "mode": "online", "rules": rng.choice(RULES),
                "host": rng.choice(("first", "second"))})
            if view is None:
                return
            game, invite = view["id"], view["invite"].rsplit("/", 1)[1]
            sockets.append(await host.socket(f"/api/games/{game}/live"))
            await guest.call("GET", f"/api/invites/{invite}")
            if rng.random() < 0.1:  # the guest never comes
                await host.call("DELETE", f"/api/games/{game}?revision={view['revision']}")
                return
            await guest.view("POST", f"/api/games/{game}/join", {"invite": invite})
            sockets.append(await guest.socket(f"/api/games/{game}/live"))
            if rng.random() < 0.3:  # a spectator looks in
                watcher = self.player()
                sockets.append(await watcher.socket(f"/api/games/{game}/live"))
                await watcher.close()
            readers = [asyncio.create_task(drain(socket)) for socket in sockets]
            seat = {view["you"]: host}
            seat["second" if view["you"] == "first" else "first"] = guest
            current = await host.view("GET", f"/api/games/{game}")
            while current is not None and current["outcome"] is None:
                mover = seat[current["to_move"]]
                other = guest if mover is host else host
                if rng.random() < 0.02:
                    current = await mover.view("POST", f"/api/games/{game}/resign",
                                               {"revision": current["revision"]})
                    break
                mine = await mover.view("GET", f"/api/games/{game}")
                if mine is None:
                    return
                if mine["moves"] and rng.random() < 0.05:
                    asked = await other.view("POST", f"/api/games/{game}/undo",
                                             {"revision": mine["revision"]})
                    if asked is not None:
                        current = await mover.view("POST", f"/api/games/{game}/undo/answer", {
                            "revision": asked["revision"], "accept": rng.random() < 0.5})
                        continue
                current = await mover.view("POST", f"/api/games/{game}/actions",
                                           random_action(mine, rng))
            if current is not None and rng.random() < 0.3:
                await guest.call("POST", f"/api/games/{game}/rematch")
        finally:
            for socket in sockets:
                with contextlib.suppress(Exception):
                    await socket.close()
            await asyncio.gather(*readers, return_exceptions=True)
            await host.close()
            await guest.close()

    async def analyses(self) -> None:
        rng, person = self.rng, self.player()
        try:
            for _ in range(rng.randint(1, 4)):
                rules = rng.choice(RULES)
                position = random_position(rng, Rules.parse(rules))
                await person.call("GET", "/api/analysis",
                                  params={"position": position, "rules": rules})
        finally:
            await person.close()

    async def lobby(self) -> None:
        rng, seeker, taker = self.rng, self.player(), self.player()
        sockets: list[ClientConnection] = []
        try:
            await seeker.call("POST", "/api/players")
            await taker.call("GET", "/api/players/me")
            await taker.call("POST", "/api/players")
            sockets = [await seeker.socket("/api/lobby/live"),
                       await taker.socket("/api/lobby/live")]
            clock = rng.choice(({"initial": 300, "increment": 3}, {"initial": 60, "increment": 0},
                                {"days": 3}))
            if rng.random() < 0.3:
                await seeker.view("POST", "/api/pairing", {"rules": "quads", "clock": clock})
                game = await taker.view("POST", "/api/pairing", {"rules": "quads", "clock": clock})
            else:
                seek = await seeker.view("POST", "/api/seeks", {
                    "rules": rng.choice(RULES), "clock": clock,
                    "side": rng.choice(("first", "second", "random"))})
                await taker.call("GET", "/api/seeks")
                if seek is None:
                    return
                if rng.random() < 0.3:
                    await seeker.call("DELETE", f"/api/seeks/{seek['id']}")
                    return
                game = await taker.view("POST", f"/api/seeks/{seek['id']}/accept")
            view = game["game"] if game is not None and "game" in game else game
            if view:
                await taker.call("POST", f"/api/games/{view['id']}/resign",
                                 {"revision": view["revision"]})
        finally:
            for socket in sockets:
                with contextlib.suppress(Exception):
                    await socket.close()
            await seeker.close()
            await taker.close()

    async def puzzles(self) -> None:
        rng, person = self.rng, self.player()
        try:
            today = dt.date.today()
            for _ in range(rng.randint(1, 3)):
                date = (today - dt.timedelta(days=rng.randint(0, 40))).isoformat()
                puzzle = await person.view("GET", f"/api/puzzles/{date}")
                if puzzle is None:
                    continue
                empty = [cell for cell, piece in enumerate(puzzle["board"]) if piece is None]
                cell = rng.choice(empty)
                turn = "ABCD"[cell % 4] + str(cell // 4 + 1)
                if puzzle["supply"] and rng.random() < 0.7:
                    turn += rng.choice(puzzle["supply"])
                await person.call("POST", f"/api/puzzles/{date}/check",
                                  {"played": [], "turn": turn})
                await person.call("POST", f"/api/puzzles/{date}/result", {
                    "tries": rng.randint(1, 5), "seconds": rng.randint(5, 600),
                    "solved": rng.random() < 0.5})
            await person.call("GET", f"/api/puzzles/history?days={rng.randint(1, 366)}")
            if rng.random() < 0.05:
                await person.call("GET", "/api/puzzles/ahead")
        finally:
            await person.close()

    async def visitor(self) -> None:
        rng, person = self.rng, self.player()
        try:
            await person.call("GET", "/api/players/me")
            await person.call("POST", "/api/players")
            await person.call("GET", "/api/games")
            if rng.random() < 0.5:
                await person.call("PUT", "/api/players/me",
                                  {"name": f"Soak {rng.randrange(10**6)}"})
            await person.call("GET", f"/api/messages/{rng.choice(('en', 'de'))}")
        finally:
            await person.close()

    def scenarios(self) -> list[tuple[float, Callable[[], Awaitable[None]]]]:
        return [(3, self.computer_game), (2, self.local_game), (3, self.online_game),
                (2, self.analyses), (2, self.lobby), (2, self.puzzles), (2, self.visitor)]


SCENARIOS = ("computer_game", "local_game", "online_game", "analyses", "lobby", "puzzles",
             "visitor")
"""The scenarios' names, which ``--only`` chooses from."""


async def client(soak: Soak, stop: float, only: list[str] | None = None) -> None:
    weights, plays = zip(*(pair for pair in soak.scenarios()
                           if only is None or pair[1].__name__ in only), strict=True)
    while time.monotonic() < stop:
        scenario = soak.rng.choices(plays, weights)[0]
        soak.stats.scenarios[scenario.__name__] += 1
        try:
            await asyncio.wait_for(scenario(), TIMEOUT * 5)
        except Exception as exc:  # counted and reported, the soak goes on
            soak.stats.errors[f"{scenario.__name__}: {type(exc).__name__}"] += 1
            await asyncio.sleep(0.5)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no VmRSS for process {pid}")


def sqlite_mb(process: subprocess.Popen[bytes], path: Path) -> float:
    """The memory SQLite holds in the server's process, in MB (``nan`` if it does not
    say within a few seconds)."""
    answer = path.with_suffix(".sqlite")
    answer.unlink(missing_ok=True)
    process.send_signal(signal.SIGUSR2)
    deadline = time.monotonic() + 5
    while not answer.exists():
        if time.monotonic() > deadline or process.poll() is not None:
            return float("nan")
        time.sleep(0.05)
    return int(answer.read_text()) / 2**20


def snapshot(process: subprocess.Popen[bytes], path: Path) -> tracemalloc.Snapshot:
    """Have the server write a snapshot to ``path`` and read it."""
    path.unlink(missing_ok=True)
    process.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 300
    while not path.exists():
        if time.monotonic() > deadline or process.poll() is not None:
            raise SystemExit("the server wrote no snapshot")
        time.sleep(0.2)
    return tracemalloc.Snapshot.load(str(path)).filter_traces((
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap_external>"),
        tracemalloc.Filter(False, "<unknown>")))


def growth(first: tracemalloc.Snapshot, last: tracemalloc.Snapshot, top: int = 15) -> str:
    """The lines whose memory grew most between two snapshots, then the largest
    growths by traceback."""
    sizes = [sum(stat.size for stat in shot.statistics("filename")) / 2**20
             for shot in (first, last)]
    lines = [f"traced: {sizes[0]:.1f} MB at the first snapshot, {sizes[1]:.1f} MB at the "
             f"last ({sizes[1] - sizes[0]:+.1f} MB)", "top growth by line:"]
    for stat in last.compare_to(first, "lineno")[:top]:
        lines.append(f"  {stat}")
    lines.append("top growth by traceback:")
    for stat in last.compare_to(first, "traceback")[:5]:
        lines.append(f"  {stat.size_diff / 1024:+.1f} KiB, {stat.count_diff:+d} blocks")
        lines += [f"      {line}" for line in stat.traceback.format(limit=8)]
    return "\n".join(lines)


def slope(samples: list[tuple[float, float]]) -> float:
    """The least-squares slope of ``(seconds, MB)`` samples, in MB per hour."""
    if len(samples) < 2:
        return 0.0
    mean_t = sum(t for t, _ in samples) / len(samples)
    mean_m = sum(m for _, m in samples) / len(samples)
    spread = sum((t - mean_t) ** 2 for t, _ in samples)
    return 3600 * sum((t - mean_t) * (m - mean_m) for t, m in samples) / spread if spread else 0.0


def start(directory: Path, db: str, frames: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    config = directory / "quads.toml"
    config.write_text(SETTINGS)
    python = [sys.executable, *(["-X", f"tracemalloc={frames}"] if frames else []),
              "-c", WRAPPER, str(directory / "snapshot")]
    log = (directory / "server.log").open("wb")
    process = subprocess.Popen(
        [*python, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db,
         "--config", str(config)], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300  # tracemalloc slows the imports much
    while True:
        if process.poll() is not None:
            raise SystemExit((directory / "server.log").read_text(errors="replace"))
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/messages/en", timeout=2, trust_env=False).is_success:
                return process, base
        if time.monotonic() > deadline:
            process.kill()
            raise SystemExit("the server did not answer")
        time.sleep(0.2)


async def soak(args: argparse.Namespace, process: subprocess.Popen[bytes], base: str,
               directory: Path) -> None:
    stats, rng = Stats(), random.Random(args.seed)
    began = time.monotonic()
    stop = began + args.minutes * 60
    baseline_at = min(300.0, args.minutes * 20)
    clients = [asyncio.create_task(client(Soak(base, stats, random.Random(rng.random())), stop,
                                          args.only))
               for _ in range(args.clients)]
    samples: list[tuple[float, float]] = []
    first: tracemalloc.Snapshot | None = None
    first_rss = 0.0
    print(f"{'minute':>7} {'RSS MB':>8} {'SQLite MB':>9} {'requests':>9} {'req/s':>6} "
          f"{'sockets':>8} {'5xx':>4} {'errors':>6}", flush=True)
    done_before, next_report = 0, began
    while time.monotonic() < stop:
        now = time.monotonic()
        if now >= next_report:
            rss = rss_mb(process.pid)
            samples.append((now - began, rss))
            rate = (stats.requests - done_before) / args.interval if samples[1:] else 0.0
            done_before = stats.requests
            fives = sum(n for status, n in stats.statuses.items() if status >= 500)
            held = await asyncio.to_thread(sqlite_mb, process, directory / "snapshot")
            print(f"{(now - began) / 60:7.1f} {rss:8.1f} {held:9.1f} {stats.requests:9d} "
                  f"{rate:6.1f} {stats.sockets:8d} {fives:4d} "
                  f"{sum(stats.errors.values()):6d}", flush=True)
            next_report += args.interval
        if first is None and args.frames and now - began >= baseline_at:
            first_rss = rss_mb(process.pid)
            first = await asyncio.to_thread(snapshot, process, directory / "snapshot")
            print(f"  first snapshot at {(time.monotonic() - began) / 60:.1f} min, "
                  f"RSS {first_rss:.1f} MB", flush=True)
        await asyncio.sleep(0.5)
    await asyncio.wait(clients, timeout=60)  # the scenarios under way end, or are cut
    for task in clients:
        task.cancel()
    await asyncio.gather(*clients, return_exceptions=True)
    end = time.monotonic() - began
    samples.append((end, rss_mb(process.pid)))
    print(f"{end / 60:7.1f} {samples[-1][1]:8.1f} {stats.requests:9d}  (traffic stopped)",
          flush=True)
    if first is not None:
        last = await asyncio.to_thread(snapshot, process, directory / "snapshot")
        print(growth(first, last), flush=True)
    print("statuses:", dict(sorted(stats.statuses.items())))
    print("scenarios:", dict(stats.scenarios))
    if stats.errors:
        print("errors:", dict(stats.errors))
    if stats.faults:
        print("last 5xx:", *stats.faults, sep="\n  ")
    tail = [sample for sample in samples if sample[0] >= end / 3]
    at = min(samples, key=lambda sample: abs(sample[0] - baseline_at))
    print(f"summary: RSS {at[1]:.1f} MB at minute {at[0] / 60:.1f}, {samples[-1][1]:.1f} MB "
          f"at the end ({end / 60:.1f} min); slope over the last two thirds "
          f"{slope(tail):+.1f} MB/hour; {stats.requests} requests, {stats.sockets} sockets"
          + (f"; first snapshot at RSS {first_rss:.1f} MB" if first is not None else ""),
          flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="length of the traffic")
    parser.add_argument("--clients", type=int, default=4, help="clients at once")
    parser.add_argument("--interval", type=float, default=30.0, help="seconds between lines")
    parser.add_argument("--frames", type=int, default=10,
                        help="frames of tracemalloc's tracebacks (0: no tracemalloc)")
    parser.add_argument("--postgres", metavar="URL", help="an empty PostgreSQL database")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", type=Path, help="keep the server's log in this file")
    parser.add_argument("--only", action="append", choices=SCENARIOS, metavar="SCENARIO",
                        help="play only this scenario (again for more): to find which "
                             "one makes the memory grow")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="quads-soak-") as name:
        directory = Path(name)
        db = args.postgres or str(directory / "quads.db")
        process, base = start(directory, db, args.frames)
        print(f"server {process.pid} at {base}, {db}, tracemalloc frames {args.frames}",
              flush=True)
        try:
            asyncio.run(soak(args, process, base, directory))
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if args.log is not None:
                args.log.write_bytes((directory / "server.log").read_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
