"""Load benchmark of the lobby: many players meeting through seeks, on two server
processes sharing one PostgreSQL database.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/lobby.py [--players 1000] [--seconds 60] [--pace 60] [--seed 1]
                          [--processes 2] [--json]

The script starts its own throwaway PostgreSQL cluster and ``--processes`` ``quads
serve`` processes on it.  Each of ``--players`` players takes an identity and holds
a lobby socket (``/api/lobby/live``) on one of the processes, in turn.  For
``--seconds`` each player acts at a person's pace: after a pause of ``--pace``
seconds on average (exponential), one of

* open a seek (one of four clocks) and withdraw it 10-40 s later if nobody took it;
* accept the oldest open seek of someone else that its socket lists;
* quick pairing (``POST /api/pairing``) on one of the four clocks.

Figures:

* pairing latency: from sending an accept (or a pairing that met a seek) to the
  seeker's socket receiving ``paired`` for that game (the acceptor has its game in
  the answer); p50, p95, max;
* seek-list update: from the answer to ``POST /api/seeks`` to each OTHER player's
  socket receiving the seek; p50, p95, max over every delivery;
* games: started (``201``), and the checks that must be 0: games lost (a game in
  an answer that the database does not hold, or whose seeker never heard
  ``paired``), doubled (two games from one seek, or one game in two answers of
  different players as theirs), errors (failed requests, statuses other than the
  expected ``409 seek_gone``/``too_many_seeks``, closed sockets);
* server CPU per process (user + system seconds during the run).

The exit status is 0 when nothing was lost, doubled or failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import httpx
from servers import DURABLE, PostgresServer, start_servers, stop_servers
from tqdm import tqdm
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

CLOCKS = ({"initial": 60, "increment": 2}, {"initial": 180, "increment": 2},
          {"initial": 300, "increment": 3}, {"days": 3})

SETTINGS = ('sockets_per_client = 100000\nsocket_rate = "1000000/minute"\n'
            'connections_per_client = 100000\nseeks_per_player = 3\n'
            'db_wait = 10.0\n')
"""The servers' limits: the whole load comes from one address."""


@dataclass
class Figures:
    pairing: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    games: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Game id -> (seek id, acceptor) as the answers said."""
    doubled: int = 0
    seek_sent: dict[str, float] = field(default_factory=dict)
    """Seek id -> when its opening was answered."""
    seek_owner: dict[str, int] = field(default_factory=dict)
    pending: dict[str, tuple[float, int]] = field(default_factory=dict)
    """Game id -> (when its accept or pairing was sent, the player who sent it)."""
    heard: dict[str, list[tuple[float, int]]] = field(default_factory=dict)
    """Game id -> (when a player's socket heard ``paired``, that player), each time (it
    may come before the accept's own answer)."""


@dataclass
class Lobbyist:
    index: int
    base: str
    token: str = ""
    open: dict[str, dict[str, Any]] = field(default_factory=dict)
    mine: set[str] = field(default_factory=set)
    socket: ClientConnection | None = None


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def identity(client: httpx.AsyncClient, player: Lobbyist) -> None:
    answer = await client.post(f"{player.base}/api/players")
    answer.raise_for_status()
    cookie: SimpleCookie = SimpleCookie(answer.headers["set-cookie"])
    player.token = cookie["quads_player"].value


async def listen(player: Lobbyist, figures: Figures, stop: asyncio.Event) -> None:
    """Keep the player's view of the lobby, and time what reaches it."""
    assert player.socket is not None
    try:
        async for text in player.socket:
            now = time.monotonic()
            message = json.loads(text)
            kind = message["type"]
            if kind == "seeks":
                player.open = {s["id"]: s for s in message["seeks"]}
            elif kind == "seek":
                seek = message["seek"]
                player.open[seek["id"]] = seek
                sent = figures.seek_sent.get(seek["id"])
                if sent is not None and figures.seek_owner.get(seek["id"]) != player.index:
                    figures.updates.append(now - sent)
            elif kind == "unseek":
                player.open.pop(message["id"], None)
                player.mine.discard(message["id"])
            elif kind == "paired":
                figures.heard.setdefault(message["game"], []).append((now, player.index))
    except ConnectionClosed:
        if not stop.is_set():
            figures.errors["socket closed"] += 1


async def act(client: httpx.AsyncClient, player: Lobbyist, players: list[Lobbyist],
              figures: Figures, rng: random.Random) -> None:
    headers = {"Authorization": f"Bearer {player.token}"}
    choice = rng.random()
    clock = rng.choice(CLOCKS)
    try:
        if choice < 0.4:
            sent = time.monotonic()
            answer = await client.post(f"{player.base}/api/seeks", headers=headers,
                                       json={"clock": clock, "side": "random"})
            figures.statuses[f"seek {answer.status_code}"] += 1
            if answer.status_code == 201:
                seek_id = answer.json()["id"]
                figures.seek_sent[seek_id] = time.monotonic()
                figures.seek_owner[seek_id] = player.index
                player.mine.add(seek_id)
                del sent
                await asyncio.sleep(rng.uniform(10, 40))
                if seek_id in player.mine:
                    gone = await client.delete(f"{player.base}/api/seeks/{seek_id}",
                                               headers=headers)
                    figures.statuses[f"withdraw {gone.status_code}"] += 1
            elif answer.status_code != 409:
                figures.errors[f"seek {answer.status_code}"] += 1
        elif choice < 0.75:
            others = [s for s in player.open.values() if not s["mine"]]
            if not others:
                return
            seek = min(others, key=lambda s: s["created"])
            sent = time.monotonic()
            answer = await client.post(f"{player.base}/api/seeks/{seek['id']}/accept",
                                       headers=headers)
            figures.statuses[f"accept {answer.status_code}"] += 1
            if answer.status_code == 201:
                record(figures, answer.json()["id"], seek["id"], player.index, sent)
            elif answer.status_code != 409:
                figures.errors[f"accept {answer.status_code}"] += 1
        else:
            sent = time.monotonic()
            answer = await client.post(f"{player.base}/api/pairing", headers=headers,
                                       json={"clock": clock})
            figures.statuses[f"pairing {answer.status_code}"] += 1
            if answer.status_code == 201:
                record(figures, answer.json()["game"]["id"], "", player.index, sent)
            elif answer.status_code == 202:
                seek_id = answer.json()["seek"]["id"]
                figures.seek_sent[seek_id] = time.monotonic()
                figures.seek_owner[seek_id] = player.index
                player.mine.add(seek_id)
            elif answer.status_code != 409:
                figures.errors[f"pairing {answer.status_code}"] += 1
    except httpx.HTTPError as exc:
        figures.errors[type(exc).__name__] += 1


def record(figures: Figures, game_id: str, seek_id: str, acceptor: int, sent: float) -> None:
    if game_id in figures.games or (seek_id and any(
            seek == seek_id for seek, _ in figures.games.values())):
        figures.doubled += 1
    figures.games[game_id] = (seek_id, str(acceptor))
    figures.pending[game_id] = (sent, acceptor)


async def life(client: httpx.AsyncClient, player: Lobbyist, players: list[Lobbyist],
               figures: Figures, rng: random.Random, until: float, pace: float) -> None:
    while True:
        pause = rng.expovariate(1 / pace)
        if time.monotonic() + pause >= until:
            return  # its next action would come after the run
        await asyncio.sleep(pause)
        await act(client, player, players, figures, rng)


async def run(args: argparse.Namespace, bases: list[str]) -> Figures:
    figures = Figures()
    rng = random.Random(args.seed)
    players = [Lobbyist(i, bases[i % len(bases)]) for i in range(args.players)]
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(timeout=30, limits=limits, trust_env=False) as client:
        for start in tqdm(range(0, len(players), 50), desc="players", unit="x50"):
            await asyncio.gather(*(identity(client, p) for p in players[start:start + 50]))
        stop = asyncio.Event()
        listeners = []
        for player in tqdm(players, desc="sockets", unit="socket"):
            address = player.base.replace("http://", "ws://") + "/api/lobby/live"
            player.socket = await connect(
                address, additional_headers={"Cookie": f"quads_player={player.token}"},
                open_timeout=30, max_queue=None)
            listeners.append(asyncio.ensure_future(listen(player, figures, stop)))
        until = time.monotonic() + args.seconds
        lives = [asyncio.ensure_future(life(client, p, players, figures, random.Random(
            rng.random()), until, args.pace)) for p in players]
        with tqdm(total=args.seconds, desc="lobby", unit="s") as bar:
            while time.monotonic() < until:
                await asyncio.sleep(1)
                bar.update(1)
                bar.set_postfix(games=len(figures.games), errors=sum(figures.errors.values()))
        await asyncio.gather(*lives)
        await asyncio.sleep(args.settle)  # the last paired messages on their way
        stop.set()
        for player in players:
            if player.socket is not None:
                await player.socket.close()
        for listener in listeners:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
    return figures


def _cpu(pid: int) -> float:
    total = 0.0
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total = (int(fields[11]) + int(fields[12])) / 100  # utime, stime (ticks)
    return total


def verify(figures: Figures, url: str) -> dict[str, int]:
    """The games in the database against the answers: lost and doubled games."""
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "src"))
    from quads.storage import GameStore

    store = GameStore(url)
    try:
        stored = {s.id for s in store.summaries() if s.mode == "online"}
    finally:
        store.close()
    answered = set(figures.games)
    unheard = []
    for game_id, (sent, acceptor) in figures.pending.items():
        seeker = [moment for moment, player in figures.heard.get(game_id, [])
                  if player != acceptor]
        if seeker:
            figures.pairing.append(seeker[0] - sent)
        else:
            unheard.append(game_id)
    return {"lost": len(answered - stored) + len(unheard),
            "unanswered": len(stored - answered), "doubled": figures.doubled}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pace", type=float, default=60.0,
                        help="mean seconds between two actions of one player")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--logs", type=Path, help="copy the servers' logs here")
    args = parser.parse_args(argv)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="quads-lobby-") as directory, \
            PostgresServer(settings=DURABLE) as database:
        url = database.url(database.create_database("lobby"))
        servers = start_servers(url, args.processes, 1, Path(directory), SETTINGS)
        try:
            before = {s.pid: _cpu(s.pid) for s in servers}
            started = time.monotonic()
            figures = asyncio.run(run(args, [s.base for s in servers]))
            wall = time.monotonic() - started
            cpu = {pid: _cpu(pid) - seconds for pid, seconds in before.items()}
        finally:
            stop_servers(servers)
            if args.logs:
                args.logs.mkdir(parents=True, exist_ok=True)
                for log in Path(directory).glob("server-*.log"):
                    (args.logs / log.name).write_bytes(log.read_bytes())
        checks = verify(figures, url)
    result = {
        "players": args.players, "processes": args.processes, "seconds": args.seconds,
        "pace": args.pace, "games": len(figures.games),
        "pairing_ms": {q: round(_percentile(figures.pairing, v) * 1000, 1)
                       for q, v in (("p50", 0.5), ("p95", 0.95), ("max", 1.0))},
        "seek_update_ms": {q: round(_percentile(figures.updates, v) * 1000, 1)
                           for q, v in (("p50", 0.5), ("p95", 0.95), ("max", 1.0))},
        "deliveries": len(figures.updates), **checks,
        "errors": dict(figures.errors), "statuses": dict(figures.statuses),
        "server_cpu_s": [round(c, 1) for c in cpu.values()], "wall_s": round(wall, 1),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:>15}: {value}")
    bad = checks["lost"] + checks["doubled"] + sum(figures.errors.values())
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
