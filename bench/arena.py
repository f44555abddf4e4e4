"""Load benchmark of an arena: many players, each an API client playing quick random
legal turns, in one arena on two server processes sharing one PostgreSQL database.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/arena.py [--players 40] [--minutes 1] [--processes 2]
                          [--db postgresql|sqlite] [--poll 1.0] [--think 1.0]
                          [--tick 1.0] [--rules quads] [--clock 180+2] [--lead S]
                          [--concurrency 100] [--seed 1] [--json] [--logs DIR]

The full figure is ``--players 300 --minutes 5``.  The script starts its own
throwaway PostgreSQL cluster (``--db sqlite``: a SQLite file, one process only) and
``--processes`` ``quads serve`` processes on it, with the rates lifted (the whole load
comes from one address), ``scheduled_arenas`` off (the bench's arena is the only
event) and the tournaments' keeper every ``--tick`` seconds on each process.

Setup (not measured): each player makes an account (``POST /api/account``, its own
HTTP client and cookie jar), the first makes an arena (``POST /api/tournaments``,
``--rules`` on the clock ``--clock``) that starts ``--lead`` seconds later, and all
join it (``POST /api/tournaments/{id}/join``).  An arena lasts 5 minutes at least: with
``--minutes`` below its length the players withdraw at the end of ``--minutes``
(``POST /api/tournaments/{id}/withdraw``) instead of the arena ending on its own.

Then each player, on its own, over HTTP only:

* while free, looks for its game every ``--poll`` seconds: ``GET
  /api/games?status=ongoing&limit=2`` (its own list; two games there at once would
  be a player seated twice);
* in a game, reads it (``GET /api/games/{id}``) every ``--poll`` seconds while the
  other player is to move; when it may act, pauses 0 to ``--think`` seconds
  (uniformly) and posts a random legal action (``POST /api/games/{id}/actions``, the
  legal ones from the position, :mod:`quads.position`), going on from the answer: a
  turn is two actions (place, hand over);
* when the arena is over (or it has withdrawn) and a last look finds no game, stops.
  A player whose game was aborted (it is then paused) joins again.

The polling is part of the load: some ``players / poll`` requests a second.  Progress
is printed every 10 s.  Figures, at the end:

* pairing wait, from the server's data (the ``tournament_games``,
  ``tournament_players`` and ``games`` tables): from the moment a player is free (the
  arena's start or its join, else the recorded end of its previous game) to the
  moment its next game was made (the game's ``created``); p50, p95, max; players
  still free when the arena ended are counted apart, with their wait until then.
  The client's own wait (from seeing its game over to seeing its next game, so one
  poll more) besides;
* games started and finished, and finished per minute of the arena;
* results lost or doubled (both must be 0): every game's result as the games table
  holds it (the game replayed) against the event's record of it; the standings
  recomputed from those results (:func:`quads.site.tournaments.arena.arena_score`)
  against those ``GET /api/tournaments/{id}`` shows; a player in two games at once (a
  game made before the end of the player's previous one); games the players played
  that the event does not hold, and the other way round;
* CPU (user + system, /proc) of each server process, of PostgreSQL and of this
  client over the arena, in seconds and as % of one core; the machine's busy share;
* requests of each kind with their latency as the client sees it (p50, p95, max: on
  one machine, the client's own queueing is part of it; the servers' access logs,
  kept with ``--logs``, have their side), and the errors.

The exit status is 0 when nothing was lost or doubled and no request failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import itertools
import json
import math
import os
import random
import resource
import secrets
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from calls import call_wins
from servers import DURABLE, PostgresServer, Server, start_servers, stop_servers

from quads.cells import cell_name
from quads.pieces import piece_name
from quads.position import Position

if importlib.util.find_spec("sniffio") is None:
    # httpcore tries ``import sniffio`` on every request; when it is not installed,
    # each failed import searches sys.path (see bench/live.py).
    sys.modules["sniffio"] = None  # type: ignore[assignment]

ARENA_MINUTES = 5
"""The shortest arena the site makes."""
PROGRESS_SECONDS = 10.0
"""Seconds between two progress lines."""
KEEPALIVE_SECONDS = 4.0
"""How long an idle connection is kept: less than uvicorn's 5 s."""
SIGNUPS_PER_SERVER = 6
"""Sign-ups under way at once on one server (its password lane takes 8 from one
address, ``account_per_address``)."""
JOINS_AT_ONCE = 16
"""Joins under way at once."""
RETRIES = 30
"""Tries of one request refused with ``429``/``503`` or failed on the way."""
GAME_SECONDS = 900.0
"""A game that lasts longer than this is given up (a 180+2 game cannot)."""
TAIL_SECONDS = 600.0
"""How long the players may take to finish their games after the arena's end."""


def settings(tick: float) -> str:
    """The servers' settings besides the lifted rates."""
    return (f"tournament_tick = {tick}\nscheduled_arenas = false\n"
            "db_wait = 10.0\n")


@dataclass
class Figures:
    """What the players saw."""

    requests: Counter[str] = field(default_factory=Counter)
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    refused: Counter[str] = field(default_factory=Counter)
    """Answers ``429``/``503`` (tried again), and the expected ``409`` of an action."""
    errors: Counter[str] = field(default_factory=Counter)
    client_waits: list[float] = field(default_factory=list)
    played: dict[str, set[int]] = field(default_factory=dict)
    """Game id -> the players who played it."""
    results: dict[str, str] = field(default_factory=dict)
    """Game id -> its result as its players' last view said it."""
    seated_twice: int = 0
    """Looks that found two games going on for one player."""
    rejoins: int = 0
    finished: int = 0
    """Games that their players saw end (each counted once)."""


@dataclass(eq=False)
class Player:
    """One player: an account, its own HTTP client and cookie jar."""

    index: int
    name: str
    http: httpx.AsyncClient
    rng: random.Random
    state: str = "idle"
    """``idle`` (before the arena), ``free``, ``playing`` or ``done``."""
    withdrawn: bool = False
    free_at: float = 0.0
    """When it became free (``time.monotonic``)."""


class BenchError(Exception):
    """A failure the bench cannot go on from."""


@dataclass(eq=False)
class Bench:
    args: argparse.Namespace
    figures: Figures = field(default_factory=Figures)
    slots: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(100))
    event: str = ""
    start: float = 0.0
    """When the arena starts (``time.monotonic``)."""
    deadline: float = 0.0
    """When the players stop: the arena's end, or their withdrawal."""
    over: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the arena is seen finished (no pairing can follow)."""

    @property
    def withdraws(self) -> bool:
        """Whether the players withdraw at the end (the arena runs on longer)."""
        return bool(self.args.minutes < self.arena_minutes)

    @property
    def arena_minutes(self) -> int:
        minutes: float = self.args.minutes
        return max(ARENA_MINUTES, math.ceil(minutes))

    async def request(self, player: Player, method: str, path: str, kind: str,
                      body: dict[str, Any] | None = None,
                      params: dict[str, Any] | None = None) -> httpx.Response | None:
        """The answer to a request, tried again after ``429``, ``503`` and failures on
        the way (each counted); ``None`` after :data:`RETRIES` tries."""
        for _ in range(RETRIES):
            answer: httpx.Response | None = None
            async with self.slots:
                began = time.perf_counter()
                try:
                    answer = await player.http.request(method, path, json=body, params=params)
                except httpx.HTTPError as exc:
                    self.figures.errors[f"{kind} {type(exc).__name__}"] += 1
                else:
                    self.figures.latency[kind].append(time.perf_counter() - began)
            self.figures.requests[kind] += 1
            if answer is not None and answer.status_code not in (429, 503):
                return answer
            pause = self.args.poll
            if answer is not None:
                self.figures.refused[f"{kind} {answer.status_code}"] += 1
                with contextlib.suppress(ValueError):
                    pause = min(5.0, float(answer.headers.get("retry-after", pause)))
            await asyncio.sleep(pause)
        self.figures.errors[f"{kind} given up"] += 1
        return None

    def expect(self, answer: httpx.Response | None, kind: str, status: int) -> dict[str, Any]:
        if answer is None or answer.status_code != status:
            detail = "no answer" if answer is None else f"{answer.status_code} {answer.text}"
            raise BenchError(f"{kind}: {detail[:300]}")
        found: dict[str, Any] = answer.json()
        return found

    # -- the players' lives -----------------------------------------------------------

    async def sign_up(self, player: Player, gate: asyncio.Semaphore) -> None:
        async with gate:
            answer = await self.request(player, "POST", "/api/account", "sign-up", {
                "name": player.name, "password": secrets.token_urlsafe(15)})
        self.expect(answer, "sign-up", 201)

    async def join(self, player: Player, gate: asyncio.Semaphore) -> None:
        async with gate:
            answer = await self.request(player, "POST", f"/api/tournaments/{self.event}/join",
                                        "join")
        self.expect(answer, "join", 200)

    async def look(self, player: Player) -> str | None:
        """The game the player plays now, from its list; ``None`` if none."""
        answer = await self.request(player, "GET", "/api/games", "look",
                                    params={"status": "ongoing", "limit": 2})
        if answer is None or answer.status_code != 200:
            if answer is not None:
                self.figures.errors[f"look {answer.status_code}"] += 1
            return None
        games = answer.json()["games"]
        if len(games) > 1:
            self.figures.seated_twice += 1
        return str(games[-1]["id"]) if games else None

    async def view(self, player: Player, game_id: str) -> dict[str, Any] | None:
        answer = await self.request(player, "GET", f"/api/games/{game_id}", "view")
        if answer is None or answer.status_code != 200:
            if answer is not None:
                self.figures.errors[f"view {answer.status_code}"] += 1
            return None
        found: dict[str, Any] = answer.json()
        return found

    async def play(self, player: Player, game_id: str) -> None:
        """Play the game to its end."""
        self.figures.played.setdefault(game_id, set()).add(player.index)
        given_up = time.monotonic() + GAME_SECONDS
        view = await self.view(player, game_id)
        while time.monotonic() < given_up:
            if view is None:
                await asyncio.sleep(self.args.poll)
                view = await self.view(player, game_id)
                continue
            if view["outcome"] is not None:
                self.ended(player, game_id, view)
                return
            if not view["can_act"]:
                await asyncio.sleep(self.args.poll)
                view = await self.view(player, game_id)
                continue
            await asyncio.sleep(player.rng.uniform(0, self.args.think))
            answer = await self.request(player, "POST", f"/api/games/{game_id}/actions",
                                        "act", random_action(view, player.rng))
            if answer is not None and answer.status_code == 200:
                view = answer.json()
                continue
            if answer is not None and answer.status_code == 409:
                self.figures.refused[f"act 409 {answer.json()['error']['code']}"] += 1
            elif answer is not None:
                self.figures.errors[f"act {answer.status_code}"] += 1
            view = await self.view(player, game_id)
        self.figures.errors["game given up"] += 1

    def ended(self, player: Player, game_id: str, view: dict[str, Any]) -> None:
        outcome = view["outcome"]
        winner = outcome["winner"]
        result = ("aborted" if outcome["reason"] == "aborted"
                  else "draw" if winner is None else str(winner))
        if game_id not in self.figures.results:
            self.figures.finished += 1
        elif self.figures.results[game_id] != result:
            self.figures.errors["players saw different results"] += 1
        self.figures.results[game_id] = result

    async def life(self, player: Player) -> None:
        """Look for games and play them until the arena is over for this player."""
        await asyncio.sleep(max(0.0, self.start - time.monotonic()))
        player.state, player.free_at = "free", time.monotonic()
        while True:
            if self.withdraws and time.monotonic() >= self.deadline and not player.withdrawn:
                answer = await self.request(
                    player, "POST", f"/api/tournaments/{self.event}/withdraw", "withdraw")
                if answer is None or answer.status_code != 200:
                    self.figures.errors["withdraw failed"] += 1
                player.withdrawn = True
            closing = player.withdrawn or self.over.is_set()
            game_id = await self.look(player)
            if game_id is not None:
                self.figures.client_waits.append(time.monotonic() - player.free_at)
                player.state = "playing"
                await self.play(player, game_id)
                player.state, player.free_at = "free", time.monotonic()
                result = self.figures.results.get(game_id)
                if result == "aborted" and not closing:
                    await self.rejoin(player)
                continue
            if closing:
                break
            await asyncio.sleep(self.args.poll)
        player.state = "done"

    async def rejoin(self, player: Player) -> None:
        """Join again after an aborted game, which may have paused the player."""
        self.figures.rejoins += 1
        answer = await self.request(player, "POST", f"/api/tournaments/{self.event}/join",
                                    "join")
        if answer is None or answer.status_code not in (200, 409):
            self.figures.errors["rejoin failed"] += 1

    async def watch_end(self, player: Player) -> None:
        """Once the arena's time is up, read the events' list until it is finished."""
        if self.withdraws:
            return
        await asyncio.sleep(max(0.0, self.deadline - time.monotonic()))
        while not self.over.is_set():
            answer = await self.request(player, "GET", "/api/tournaments", "events")
            if answer is not None and answer.status_code == 200 and any(
                    e["id"] == self.event for e in answer.json()["finished"]):
                self.over.set()
                return
            await asyncio.sleep(0.5)

    async def progress(self, players: list[Player], stop: asyncio.Event) -> None:
        last_requests, last = 0, time.monotonic()
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), PROGRESS_SECONDS)
            now = time.monotonic()
            states = Counter(p.state for p in players)
            requests = sum(self.figures.requests.values())
            rate = (requests - last_requests) / max(now - last, 1e-9)
            last_requests, last = requests, now
            print(f"[{now - self.start:6.0f} s] free {states['free']:4d}  playing "
                  f"{states['playing']:4d}  done {states['done']:4d}  games "
                  f"{len(self.figures.played):5d} (over {self.figures.finished:5d})  "
                  f"requests/s {rate:6.1f}  errors {sum(self.figures.errors.values())}",
                  file=sys.stderr, flush=True)


def random_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal action for the player to move in ``view``: the
    placements or hand-overs of its position, and a call that wins."""
    position = Position.from_string(view["position"])
    choices: list[dict[str, Any]] = []
    if view["step"] == "place":
        choices += [{"action": "place", "cell": cell_name(cell)}
                    for cell in position.legal_placements()]
        if call_wins(view):
            choices.append({"action": "claim"})
    elif view["step"] == "give":
        choices += [{"action": "give", "piece": piece_name(piece)}
                    for piece in position.legal_handovers()]
        if call_wins(view):
            choices.append({"action": "declare"})
        if view["can_decline"]:
            choices.append({"action": "decline"})
    if not choices:
        raise BenchError(f"no legal action at step {view['step']}")
    return {"revision": view["revision"], **rng.choice(choices)}


# -- CPU -------------------------------------------------------------------------------


def _ticks() -> dict[int, tuple[int, int]]:
    """Every process: pid -> (parent, user + system ticks of it and its reaped children)."""
    found: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[int(entry.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    return found


def cpu_seconds(pids: Sequence[int | None]) -> list[float | None]:
    """CPU time (user + system) of each process ``pid`` and its descendants so far."""
    ticks = _ticks()
    totals: list[float | None] = []
    for pid in pids:
        if pid is None or pid not in ticks:
            totals.append(None)
            continue
        tree = {pid}
        for _ in range(8):  # a few generations are enough
            tree |= {child for child, (parent, _) in ticks.items() if parent in tree}
        totals.append(sum(ticks[member][1] for member in tree) / os.sysconf("SC_CLK_TCK"))
    return totals


def machine_busy() -> float:
    """CPU time the whole machine has been busy so far (all cores), from /proc/stat."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[:7])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def database_pid(database: PostgresServer | None) -> int | None:
    """The PostgreSQL postmaster's process id (its backends are its children)."""
    if database is None:
        return None
    try:
        return int((database.data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


@dataclass
class Cpu:
    """CPU seconds at one moment: each server, PostgreSQL, this client, the machine."""

    servers: list[float | None]
    database: float | None
    client: float
    machine: float
    at: float

    @classmethod
    def now(cls, servers: list[Server], database: PostgresServer | None) -> Cpu:
        pids: list[int | None] = [s.pid for s in servers]
        found = cpu_seconds([*pids, database_pid(database)])
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return cls(found[:-1], found[-1], usage.ru_utime + usage.ru_stime, machine_busy(),
                   time.monotonic())


def cpu_figures(before: Cpu, after: Cpu) -> dict[str, Any]:
    wall = max(after.at - before.at, 1e-9)
    cores = os.cpu_count() or 1

    def share(start: float | None, end: float | None) -> str:
        if start is None or end is None:
            return "?"
        return f"{end - start:.1f} s ({100 * (end - start) / wall:.0f}% of a core)"

    return {
        "window_s": round(wall, 1),
        "servers": [share(a, b) for a, b in zip(before.servers, after.servers, strict=True)],
        "postgresql": share(before.database, after.database),
        "client": share(before.client, after.client),
        "machine_busy": f"{100 * (after.machine - before.machine) / wall / cores:.0f}% "
                        f"of {cores} cores",
    }


# -- the run ---------------------------------------------------------------------------


def _client(base: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=base, timeout=30, trust_env=False,
        limits=httpx.Limits(max_connections=4, max_keepalive_connections=2,
                            keepalive_expiry=KEEPALIVE_SECONDS))


async def run(args: argparse.Namespace, servers: list[Server],
              database: PostgresServer | None) -> dict[str, Any]:
    """Set the arena up, play it, and read its view at the end."""
    bench = Bench(args, slots=asyncio.Semaphore(args.concurrency))
    rng = random.Random(args.seed)
    tag = secrets.token_hex(2)
    players = [Player(i, f"arena{tag}{i:04d}", _client(servers[i % len(servers)].base),
                      random.Random(rng.random())) for i in range(args.players)]
    timing: dict[str, float] = {}
    try:
        began = time.monotonic()
        gates = [asyncio.Semaphore(SIGNUPS_PER_SERVER) for _ in servers]
        await asyncio.gather(*(bench.sign_up(p, gates[p.index % len(servers)])
                               for p in players))
        timing["sign_ups_s"] = time.monotonic() - began
        print(f"{len(players)} accounts made in {timing['sign_ups_s']:.1f} s",
              file=sys.stderr, flush=True)
        lead = args.lead if args.lead is not None else 5 + args.players / 10
        starts = datetime.now(UTC) + timedelta(seconds=lead)
        made = bench.expect(await bench.request(players[0], "POST", "/api/tournaments", "create", {
            "name": "bench arena", "rules": args.rules, "clock": args.clock,
            "minutes": bench.arena_minutes, "starts": starts.isoformat()}), "create", 201)
        bench.event = made["id"]
        starts = datetime.fromisoformat(made["starts"])
        bench.start = time.monotonic() + (starts - datetime.now(UTC)).total_seconds()
        bench.deadline = bench.start + args.minutes * 60
        began = time.monotonic()
        gate = asyncio.Semaphore(JOINS_AT_ONCE)
        await asyncio.gather(*(bench.join(p, gate) for p in players))
        timing["joins_s"] = time.monotonic() - began
        timing["joined_after_start_s"] = max(0.0, time.monotonic() - bench.start)
        print(f"{len(players)} players joined in {timing['joins_s']:.1f} s; the arena "
              f"starts in {bench.start - time.monotonic():.1f} s", file=sys.stderr, flush=True)
        await asyncio.sleep(max(0.0, bench.start - time.monotonic()))
        before = Cpu.now(servers, database)
        stop = asyncio.Event()
        reporter = asyncio.ensure_future(bench.progress(players, stop))
        watcher = asyncio.ensure_future(bench.watch_end(players[0]))
        lives = asyncio.gather(*(bench.life(p) for p in players))
        try:
            await asyncio.wait_for(lives, args.minutes * 60 + TAIL_SECONDS)
        except TimeoutError:
            bench.figures.errors["players still playing at the end"] += sum(
                p.state != "done" for p in players)
        after = Cpu.now(servers, database)
        stop.set()
        await reporter
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        ended = time.monotonic()
        timing["arena_s"] = min(ended, bench.deadline) - bench.start
        timing["tail_s"] = max(0.0, ended - bench.deadline)
        shown = bench.expect(await bench.request(
            players[0], "GET", f"/api/tournaments/{bench.event}", "event"), "event", 200)
    finally:
        await asyncio.gather(*(p.http.aclose() for p in players))
    return {"bench": bench, "timing": timing, "cpu": cpu_figures(before, after),
            "shown": shown, "cutoff": starts + timedelta(minutes=args.minutes),
            "names": {p.name: p.index for p in players}}


# -- the checks ------------------------------------------------------------------------


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": math.nan, "p95": math.nan, "max": math.nan}
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]

    return {"p50": round(at(0.5), 3), "p95": round(at(0.95), 3), "max": round(ordered[-1], 3)}


def verify(url: str, event_id: str, shown: dict[str, Any], cutoff: datetime,
           figures: Figures) -> dict[str, Any]:
    """The store's records of the arena against each other and against its view."""
    from quads.outcome import Player as Side
    from quads.site.accounts.rated import account_name
    from quads.site.tournaments import arena
    from quads.storage import GameNotFoundError, GameStore
    from quads.storage.tournaments import TournamentGame

    store = GameStore(url)
    try:
        event = store.tournament(event_id)
        assert event is not None
        entries = store.entries(event_id)
        records = store.event_games(event_id)
        names = {e.player: account_name(store, e.player) or "?" for e in entries}
        table: dict[str, str | None] = {}  # game -> its result from the games table
        created: dict[str, datetime] = {}  # game -> when the games table got it
        missing = 0
        for record in records:
            try:
                stored = store.load(record.game)
            except GameNotFoundError:
                missing += 1
                continue
            created[record.game] = stored.created
            outcome = stored.game.outcome
            if outcome is None:
                table[record.game] = None
            elif outcome.termination.value == "aborted":
                table[record.game] = "aborted"
            else:
                table[record.game] = ("draw" if outcome.winner is None
                                      else "first" if outcome.winner is Side.FIRST
                                      else "second")
            if (stored.first_player, stored.second_player) != (record.first, record.second):
                figures.errors["a game's seats differ from the event's record"] += 1
        online = {s.id for s in store.summaries() if s.mode == "online"}
    finally:
        store.close()

    recorded = {r.game for r in records}
    uncounted = sum(1 for r in records if table.get(r.game) is not None and r.result is None)
    counted_unended = sum(1 for r in records if r.result is not None and r.game in table
                          and table[r.game] is None)
    differ = sum(1 for r in records if r.result is not None and table.get(r.game) is not None
                 and r.result != table[r.game])
    unfinished = sum(1 for r in records if table.get(r.game) is None)
    duplicates = len(records) - len(recorded)

    # A player in two games at once: a game made before the previous one ended.  (The
    # event's ``started`` is the moment its keeper's round began, which may come before
    # the end of a game that the round's read then found over: counted apart.)
    by_player: dict[str, list[TournamentGame]] = defaultdict(list)
    for record in records:
        by_player[record.first].append(record)
        by_player[record.second].append(record)
    made = {r.game: created.get(r.game, r.started) for r in records}
    overlaps = sum(1 for games in by_player.values() for a, b in itertools.pairwise(games)
                   if a.ended is None or made[b.game] < a.ended)
    early = [(a.ended - b.started).total_seconds() for games in by_player.values()
             for a, b in itertools.pairwise(games)
             if a.ended is not None and b.started < a.ended]

    # The standings recomputed from the games table's results.
    expected: dict[str, tuple[int, tuple[int, ...]]] = {}
    for entry in entries:
        mine = sorted((r for r in by_player.get(entry.player, [])
                       if table.get(r.game) is not None),
                      key=lambda r: (r.ended or r.started, r.game))
        results = []
        for r in mine:
            ending = table[r.game]
            side = "first" if r.first == entry.player else "second"
            if r.no_show == entry.player:
                results.append(arena.Result.NO_SHOW)
            elif ending == "draw":
                results.append(arena.Result.DRAW)
            elif ending == side:
                results.append(arena.Result.WIN)
            elif ending != "aborted":
                results.append(arena.Result.LOSS)
        score = arena.arena_score(results)
        expected[names[entry.player]] = (score.total, score.sheet)
    lines = {s["name"]: s for s in shown["standings"]}
    lost = doubled = points_differ = 0
    for name, (points, sheet) in expected.items():
        line = lines.get(name)
        if line is None:
            lost += len(sheet)
            continue
        lost += max(0, len(sheet) - len(line["sheet"]))
        doubled += max(0, len(line["sheet"]) - len(sheet))
        points_differ += int(line["points"] != points or tuple(line["sheet"]) != sheet)
    lost += uncounted + missing
    doubled += duplicates + counted_unended

    # Pairing waits from the server's data.
    waits: list[float] = []
    free_at_end: list[float] = []
    after_no_show = 0
    for entry in entries:
        mine = by_player.get(entry.player, [])
        free = max(entry.joined, event.starts)
        paused = False
        for record in mine:
            if paused:
                after_no_show += 1
            else:
                waits.append((made[record.game] - free).total_seconds())
            free = record.ended or cutoff
            paused = record.no_show == entry.player
        if free < cutoff and not paused:
            free_at_end.append((cutoff - free).total_seconds())

    seen = set(figures.played)
    return {
        "pairing_wait_s": _percentiles(waits), "waits": len(waits),
        "free_at_end": len(free_at_end),
        "free_at_end_wait_s": round(max(free_at_end), 3) if free_at_end else None,
        "after_no_show": after_no_show,
        "games_started": len(records), "games_finished": len(records) - unfinished,
        "aborted": sum(1 for r in records if r.result == "aborted"),
        "draws": sum(1 for r in records if r.result == "draw"),
        "no_shows": sum(1 for r in records if r.no_show is not None),
        "lost": lost, "doubled": doubled, "results_differ": differ,
        "standings_differ": points_differ, "in_two_games": overlaps,
        "unfinished": unfinished,
        "started_before_previous_end": len(early),
        "started_before_previous_end_max_s": round(max(early), 3) if early else None,
        "played_not_in_event": len(seen - recorded),
        "in_event_not_played": len(recorded - seen),
        "online_games_not_in_event": len(online - recorded),
        "player_results_differ": sum(1 for g, r in figures.results.items()
                                     if g in table and table[g] != r),
    }


def _log_problems(directory: Path) -> dict[str, Any]:
    """What the servers' logs tell of trouble: records of level WARNING or above, and
    tracebacks (but the one of the interrupt that stops a server), with a few samples."""
    records = tracebacks = 0
    samples: list[str] = []
    for log in sorted(directory.glob("server-*.log")):
        block: list[str] = []
        for line in [*log.read_text(errors="replace").splitlines(), "-"]:
            if block and (line[:1].isdigit() or line == "-"):  # a record after it
                ending = [b for b in block if b.strip()][-1]
                if not ending.startswith("KeyboardInterrupt"):
                    tracebacks += 1
                    samples.append(f"{log.name}: {ending.strip()[:200]}")
                block = []
            if line.startswith("Traceback") or block:
                block.append(line)
            elif line.split(" ", 2)[1:2] in (["WARNING"], ["ERROR"], ["CRITICAL"]):
                records += 1
                samples.append(f"{log.name}: {line[:200]}")
    return {"warnings_or_errors": records, "tracebacks": tracebacks,
            "samples": sorted(set(samples))[:5]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=1.0,
                        help="how long the players play (an arena lasts 5 at least)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--db", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--poll", type=float, default=1.0,
                        help="seconds between two looks of a player waiting")
    parser.add_argument("--think", type=float, default=1.0,
                        help="most seconds a player pauses before an action")
    parser.add_argument("--tick", type=float, default=1.0,
                        help="the servers' tournament_tick")
    parser.add_argument("--rules", default="quads")
    parser.add_argument("--clock", default="180+2")
    parser.add_argument("--lead", type=float,
                        help="seconds from making the arena to its start (default: "
                             "5 + players/10)")
    parser.add_argument("--concurrency", type=int, default=100,
                        help="requests under way at once, all players together")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--logs", type=Path, help="copy the servers' logs here")
    args = parser.parse_args(argv)
    if args.db == "sqlite" and args.processes != 1:
        parser.error("--db sqlite takes one process (--processes 1)")
    if args.players < 2:
        parser.error("an arena needs two players at least")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="quads-arena-") as directory, \
            contextlib.ExitStack() as stack:
        database: PostgresServer | None = None
        if args.db == "postgresql":
            database = stack.enter_context(PostgresServer(settings=DURABLE))
            url = database.url(database.create_database("arena"))
        else:
            url = str(Path(directory) / "arena.db")
        servers = start_servers(url, args.processes, 1, Path(directory), settings(args.tick))
        try:
            played = asyncio.run(run(args, servers, database))
        finally:
            stop_servers(servers)
            if args.logs:
                args.logs.mkdir(parents=True, exist_ok=True)
                for log in Path(directory).glob("server-*.log"):
                    (args.logs / log.name).write_bytes(log.read_bytes())
        bench: Bench = played["bench"]
        checks = verify(url, bench.event, played["shown"], played["cutoff"], bench.figures)
        log_problems = _log_problems(Path(directory))
    figures = bench.figures
    minutes = played["timing"]["arena_s"] / 60
    result = {
        "players": args.players, "minutes": args.minutes, "processes": args.processes,
        "db": args.db, "poll_s": args.poll, "think_s": args.think, "tick_s": args.tick,
        "pairing_wait_s": {**checks["pairing_wait_s"], "n": checks["waits"]},
        "client_wait_s": {**_percentiles(figures.client_waits),
                          "n": len(figures.client_waits)},
        "free_at_end": {"players": checks["free_at_end"],
                        "longest_s": checks["free_at_end_wait_s"],
                        "waits_after_no_show": checks["after_no_show"]},
        "games": {"started": checks["games_started"], "finished": checks["games_finished"],
                  "per_minute": round(checks["games_finished"] / max(minutes, 1e-9), 1),
                  "aborted": checks["aborted"], "draws": checks["draws"],
                  "no_shows": checks["no_shows"], "unfinished": checks["unfinished"]},
        "lost": checks["lost"], "doubled": checks["doubled"],
        "checks": {key: checks[key] for key in (
            "results_differ", "standings_differ", "in_two_games",
            "started_before_previous_end", "started_before_previous_end_max_s",
            "played_not_in_event",
            "in_event_not_played", "online_games_not_in_event", "player_results_differ")}
        | {"seated_twice_seen": figures.seated_twice, "rejoins": figures.rejoins},
        "cpu": played["cpu"],
        "requests_ms": {kind: {"count": count, **{q: round(v * 1000, 1) for q, v in
                                                  _percentiles(figures.latency[kind]).items()}}
                        for kind, count in sorted(figures.requests.items())},
        "refused": dict(figures.refused), "errors": dict(figures.errors),
        "server_logs": log_problems,
        "timing_s": {k: round(v, 1) for k, v in played["timing"].items()},
    }
    if args.json:
        print(json.dumps(result, indent=2, default=str))
    else:
        for key, value in result.items():
            print(f"{key:>15}: {value}")
    bad = (checks["lost"] + checks["doubled"] + checks["results_differ"]
           + checks["standings_differ"] + checks["in_two_games"] + figures.seated_twice
           + sum(figures.errors.values()))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
