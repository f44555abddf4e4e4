"""Load benchmark of online play: many games at once over HTTP and live WebSockets.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/live.py [--games 10] [--think 0] [--seed 1] [--rules quads]
                         [--timeout 10] [--json] [--trace actions.csv]
                         [--url http://127.0.0.1:8000 [--server-pid PID]]
                         [--db PATH_OR_URL] [--workers N] [--setting KEY=VALUE ...]
                         [--moves socket|http]

Without ``--url`` the script starts its own ``quads serve`` on a free port of
127.0.0.1 (a new SQLite file in a temporary directory unless ``--db`` names
another database) and stops it at the end.

Each of the ``--games`` games is played by two independent players: two
identities, each taken from the ``quads_player`` cookie of its first action (A
creating the game, B joining it) and
then sent as ``Authorization: Bearer``, each with its own HTTP connection.
Player A creates an online game, B reads the invitation and joins, and each opens
the game's live socket as a browser does (the cookie, a same-site ``Origin``).
Once every game is set up (not measured), all start at once: the player whose
view says ``can_act`` pauses ``--think`` seconds on average (uniformly 0 to twice
that; 0: at once), sends a random legal action and goes on from the answer; the
other player learns of its turn from its socket only.  An action goes on the live
socket while it is open, as the page sends it (``--moves socket``, the default),
and as an HTTP request when the socket cannot carry it; ``--moves http`` posts
every one.

Figures (docs/performance.md defines them exactly):

* update latency: from sending an action to the first view on the OTHER
  player's socket whose revision is at least the action's;
* lost: actions whose revision the other socket never reached (within
  ``--timeout``), plus players whose last socket view differs from the game as
  finally loaded (presence fields aside);
* duplicated: socket views of a revision already received on that socket, with
  identical content, that the client did not ask for (``sync``);
* presence (same revision, only ``connected``/``opponent_connected`` changed),
  echoes (the revision of the client's own answer), coalesced (a revision skipped
  for a newer one), older, conflicting: the other socket views, counted apart;
* errors by kind: failed requests, refused sockets, stalls (no awaited view for
  ``--timeout`` seconds), wrong presence at the end.

Every loop is bounded (actions per game, ``--timeout`` per wait,
``--max-seconds`` per phase).  The exit status is 0 when every game finished
with nothing lost and no error, else 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import csv
import gc
import importlib.util
import json
import os
import random
import resource
import ssl
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http.cookiejar import Cookie, CookieJar, CookiePolicy
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from calls import call_wins
from servers import DURABLE, PostgresServer, Server, start_servers, stop_servers
from tqdm import tqdm
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from quads.cells import cell_name
from quads.rules import Rules

if importlib.util.find_spec("sniffio") is None:
    # httpcore tries ``import sniffio`` on every request; when it is not installed,
    # each failed import searches sys.path, which took a fifth of this client's time.
    sys.modules["sniffio"] = None  # type: ignore[assignment]

COOKIE = "quads_player"
PRESENCE = ("connected", "opponent_connected")
"""The view fields a presence change alters without a new revision."""
MAX_ACTIONS = 80
"""More actions than any game can take (16 placements, 16 hand-overs, calls)."""
TURN_ACTIONS = 3
"""At least as many actions as one turn takes (a placement and a hand-over, or a
call), each after a pause of up to twice ``--think``."""
SETUP_CONCURRENCY = 32
"""Games set up at the same time (the setup is not measured)."""
RETRY_SECONDS = 60.0
"""How long a player keeps trying servers that cannot be reached or answer ``503``."""
KEEPALIVE_SECONDS = 4.0
"""How long an idle HTTP connection is kept: less than uvicorn's 5 s, so that the
client never sends on a connection that the server is just closing."""


class _NoCookies(CookiePolicy):
    """Keeps a player's HTTP client from storing the cookie: the token goes as bearer."""

    netscape = True
    rfc2965 = False
    hide_cookie2 = False

    def set_ok(self, cookie: Cookie, request: Any) -> bool:
        return False

    def return_ok(self, cookie: Cookie, request: Any) -> bool:
        return False

    def domain_return_ok(self, domain: str, request: Any) -> bool:
        return False

    def path_return_ok(self, path: str, request: Any) -> bool:
        return False


class BenchError(Exception):
    """A failure that ends one game; ``kind`` is how it is counted."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in PRESENCE}


@dataclass(eq=False)
class Client:
    """One player: an identity, a live socket, and what it has seen."""

    label: str
    http: httpx.AsyncClient
    """This player's own HTTP connection, as a browser has (a pool shared by all
    players costs the client time in proportion to their number)."""
    token: str = ""
    """The player's token, from the cookie of its first action's answer."""
    ws: ClientConnection | None = None
    view: dict[str, Any] | None = None
    """The newest view known, from the socket or from an own answer."""
    socket_view: dict[str, Any] | None = None
    """The newest view received on the socket."""
    by_revision: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The last socket view received of each revision."""
    answered: set[int] = field(default_factory=set)
    """The revisions of this client's own answers (actions, join)."""
    arrivals: list[tuple[int, float]] = field(default_factory=list)
    """(revision, time) of each socket view newer than every one before."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    messages: int = 0
    syncs: int = 0
    """Syncs asked for and not yet answered."""
    sync_replies: int = 0
    duplicates: int = 0
    presence: int = 0
    older: int = 0
    conflicting: int = 0
    gone: bool = False
    home: int = 0
    """The index of the server this player talks to (it moves on when one fails)."""
    closing: bool = False
    """Set when the benchmark closes the socket itself (no reconnection then)."""
    acts: dict[int, asyncio.Future[dict[str, Any] | None]] = field(default_factory=dict)
    """The actions sent on the socket and not answered yet, by number."""
    next_act: int = 0

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def offer(self, view: dict[str, Any]) -> None:
        """Take ``view`` as the newest if it is not older than the one held."""
        if self.view is None or view["revision"] >= self.view["revision"]:
            self.view = view
        self.changed.set()

    def receive(self, view: dict[str, Any], at: float) -> None:
        """Account for a view that arrived on the socket at ``at``."""
        self.messages += 1
        revision: int = view["revision"]
        before = self.by_revision.get(revision)
        if before is None:
            if self.socket_view is not None and revision < self.socket_view["revision"]:
                self.older += 1
        elif view == before:
            if self.syncs > 0:
                self.syncs -= 1
                self.sync_replies += 1
            else:
                self.duplicates += 1
        elif _strip(view) == _strip(before):
            self.presence += 1
        else:
            self.conflicting += 1
        self.by_revision[revision] = view
        if self.socket_view is None or revision > self.socket_view["revision"]:
            self.arrivals.append((revision, at))
        if self.socket_view is None or revision >= self.socket_view["revision"]:
            self.socket_view = view
        self.offer(view)

    async def wait_for(self, ready: Callable[[dict[str, Any]], bool], timeout: float,
                       errors: Counter[str]) -> dict[str, Any]:
        """The newest view once ``ready`` holds for it.  After ``timeout`` seconds
        without it, ask the socket for the view again (a stall), once.

        :raises BenchError: when the view does not come even then.
        """
        for attempt in range(2):
            deadline = time.perf_counter() + timeout
            while True:
                self.changed.clear()
                if self.gone:
                    raise BenchError("gone", f"{self.label}: the game was deleted")
                if self.view is not None and ready(self.view):
                    return self.view
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), remaining)
            if attempt == 0:
                errors["stall"] += 1
                if self.ws is not None:
                    self.syncs += 1
                    with contextlib.suppress(ConnectionClosed):
                        await self.ws.send(json.dumps({"type": "sync"}))
        raise BenchError("timeout", f"{self.label}: no awaited view in {2 * timeout:.0f} s")


@dataclass
class Action:
    """One action posted: who, when, and the revision it made."""

    actor: int
    sent: float
    answered: float
    revision: int


@dataclass
class GameRun:
    """One benchmarked game."""

    index: int
    rng: random.Random
    clients: list[Client] = field(default_factory=list)
    game_id: str = ""
    join_revision: int = 0
    actions: list[Action] = field(default_factory=list)
    finished: bool = False
    mismatches: int = 0
    """Players whose last socket view differs from the game as finally loaded."""
    error: str | None = None
    readers: list[asyncio.Task[None]] = field(default_factory=list)


@dataclass
class Bench:
    """Shared settings and counters of a run."""

    bases: list[str]
    """The servers' addresses; the players are spread over them."""
    rules: str
    think: float
    timeout: float
    compression: bool
    moves: str = "socket"
    """How the players send their actions: ``socket`` (on the live socket while it is
    open, as the page does) or ``http`` (every one as a request)."""
    errors: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    """What players met and got over: servers gone, ``503`` answers, reconnections."""
    progress: tqdm[Any] | None = None
    actions_done: int = 0
    tls: ssl.SSLContext = field(default_factory=ssl.create_default_context)
    """One TLS context for every player's client (making one each is slow)."""

    def base(self, client: Client) -> str:
        return self.bases[client.home % len(self.bases)]

    def move_on(self, client: Client, kind: str) -> None:
        """Send ``client`` to the next server (after one failed it: ``kind``)."""
        self.faults[kind] += 1
        client.home += 1

    def new_client(self, label: str) -> Client:
        """A player without identity yet, with its own HTTP connection."""
        http = httpx.AsyncClient(
            limits=httpx.Limits(max_connections=2, max_keepalive_connections=2,
                                keepalive_expiry=KEEPALIVE_SECONDS),
            timeout=self.timeout, trust_env=False, cookies=CookieJar(_NoCookies()),
            verify=self.tls)
        return Client(label, http)

    async def request(self, method: str, path: str, client: Client,
                      body: dict[str, Any] | None = None,
                      expect: tuple[int, ...] = (200,)) -> httpx.Response:
        response, _ = await self.request_retrying(method, path, client, body, expect)
        return response

    async def request_retrying(self, method: str, path: str, client: Client,
                               body: dict[str, Any] | None = None,
                               expect: tuple[int, ...] = (200,),
                               ) -> tuple[httpx.Response, bool]:
        """The answer, and whether the request had to be sent more than once.

        A server that cannot be reached (or drops the connection) is left for the
        next one; a ``503`` answer (the database is away) is retried after its
        ``Retry-After``, as a page does, for up to ``RETRY_SECONDS``.
        """
        deadline = time.perf_counter() + RETRY_SECONDS
        retried = False
        while True:
            try:
                response = await client.http.request(method, self.base(client) + path,
                                                     json=body, headers=client.auth)
            except httpx.TransportError as exc:
                if time.perf_counter() > deadline:
                    raise BenchError(f"http {type(exc).__name__}", f"{method} {path}") from exc
                self.move_on(client, "server unreachable (http)")
                retried = True
                await asyncio.sleep(0.05)
                continue
            except httpx.HTTPError as exc:
                raise BenchError(f"http {type(exc).__name__}", f"{method} {path}") from exc
            if response.status_code == 503 and time.perf_counter() < deadline:
                self.faults["503 unavailable"] += 1
                retried = True
                await asyncio.sleep(min(2.0, float(response.headers.get("retry-after", 1))))
                continue
            break
        if response.status_code not in expect:
            try:
                code = response.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = "?"
            raise BenchError(f"http {response.status_code} {code}", f"{method} {path}")
        return response, retried

    async def connect(self, run: GameRun, client: Client) -> ClientConnection:
        base = urlsplit(self.base(client))
        scheme = "wss" if base.scheme == "https" else "ws"
        return await connect(
            f"{scheme}://{base.netloc}/api/games/{run.game_id}/live",
            additional_headers={"Cookie": f"{COOKIE}={client.token}"},
            origin=f"{base.scheme}://{base.netloc}",  # type: ignore[arg-type]
            compression="deflate" if self.compression else None,
            open_timeout=self.timeout, proxy=None, max_queue=None,
        )

    async def open_socket(self, run: GameRun, client: Client) -> None:
        try:
            client.ws = await self.connect(run, client)
        except (OSError, TimeoutError, ConnectionClosed) as exc:
            raise BenchError("socket refused", str(exc)) from exc
        run.readers.append(asyncio.create_task(self.read(run, client)))

    async def reconnect(self, run: GameRun, client: Client) -> bool:
        """Open the socket again after it was cut, on the next server, as a page does
        (waiting a little longer after each failure); whether it worked."""
        self.move_on(client, "socket cut")
        deadline = time.perf_counter() + RETRY_SECONDS
        pause = 0.05
        while not client.closing and time.perf_counter() < deadline:
            try:
                client.ws = await self.connect(run, client)
            except (OSError, TimeoutError, ConnectionClosed):
                self.move_on(client, "server unreachable (socket)")
                await asyncio.sleep(pause)
                pause = min(1.0, 2 * pause)
            else:
                self.faults["socket reopened"] += 1
                client.syncs += 1  # a new socket starts with the view as it stands
                return True
        return False

    async def read(self, run: GameRun, client: Client) -> None:
        """Receive the socket's messages until the benchmark closes it; reopen it
        when it is cut."""
        while True:
            assert client.ws is not None
            try:
                async for raw in client.ws:
                    at = time.perf_counter()
                    message = json.loads(raw)
                    kind = message.get("type")
                    if kind == "view":
                        client.receive(message["view"], at)
                    elif kind == "gone":
                        client.gone = True
                        client.changed.set()
                    elif kind in ("acted", "refused"):
                        if kind == "acted":  # its view came on the socket too
                            client.receive(message["view"], at)
                        waiting = client.acts.pop(message.get("id"), None)
                        if waiting is None:
                            self.errors["unknown answer"] += 1
                        elif not waiting.done():
                            waiting.set_result(message)
                    elif kind != "pong":
                        self.errors["unknown message"] += 1
            except (ConnectionClosed, OSError):
                pass
            except Exception:  # a bad message is counted, the game then times out
                self.errors["bad message"] += 1
                raise
            finally:
                self.hand_back(client)
            if client.closing or client.gone or not await self.reconnect(run, client):
                return

    @staticmethod
    def hand_back(client: Client) -> None:
        """The socket is cut: the actions under way on it are to be sent as requests."""
        for waiting in client.acts.values():
            if not waiting.done():
                waiting.set_result(None)
        client.acts.clear()

    async def act_on_socket(self, client: Client, body: dict[str, Any]) -> int | None:
        """Send ``body`` on ``client``'s socket, as the page does: the revision it made,
        or ``None`` when the socket cannot carry it (cut, no answer within
        ``--timeout``, the server busy), to be sent as a request.

        :raises BenchError: when the server refuses the action.
        """
        if client.ws is None:
            return None
        number = client.next_act
        client.next_act += 1
        waiting: asyncio.Future[dict[str, Any] | None] = (
            asyncio.get_running_loop().create_future())
        client.acts[number] = waiting
        try:
            await client.ws.send(json.dumps({"type": "act", "id": number, "action": body}))
            answer = await asyncio.wait_for(waiting, self.timeout)
        except (ConnectionClosed, TimeoutError):
            answer = None
        finally:
            client.acts.pop(number, None)
        if answer is None:
            self.faults["action handed back by the socket"] += 1
            return None
        if answer["type"] == "refused":
            if answer["status"] in (429, 500, 502, 503, 504):
                self.faults[f"{answer['status']} on the socket"] += 1
                return None
            raise BenchError(f"socket {answer['status']} {answer['error']['code']}",
                             f"{client.label}: {answer['error']['message']}")
        revision: int = answer["revision"]
        return revision

    async def setup(self, run: GameRun) -> None:
        """A creates the game, B reads the invitation and joins; both open sockets."""
        first, second = self.new_client("A"), self.new_client("B")
        # with several servers the two players of a game talk to different ones
        first.home, second.home = run.index, run.index + 1
        run.clients += [first, second]
        created = await self.request(
            "POST", "/api/games", first,
            {"mode": "online", "rules": self.rules, "host": "first"}, expect=(201,))
        first.token = _issued_token(created)
        view = created.json()
        run.game_id = view["id"]
        invite = view["invite"].rsplit("/", 1)[1]
        await self.open_socket(run, first)
        await self.request("GET", f"/api/invites/{invite}", second)
        joined = await self.request("POST", f"/api/games/{run.game_id}/join", second,
                                    {"invite": invite})
        second.token = _issued_token(joined)  # joining made B a player
        joined_view = joined.json()
        run.join_revision = joined_view["revision"]
        second.answered.add(run.join_revision)
        second.offer(joined_view)
        await self.open_socket(run, second)
        # ready when both sockets show the joined game (presence is checked at the end)
        for client in run.clients:
            def caught_up(_: dict[str, Any], client: Client = client) -> bool:
                return (client.socket_view is not None
                        and client.socket_view["revision"] >= run.join_revision)

            await client.wait_for(caught_up, self.timeout, self.errors)

    async def play(self, run: GameRun, index: int) -> None:
        """Player ``index`` of ``run``: act on every turn until the game ends."""
        client = run.clients[index]
        for _ in range(MAX_ACTIONS):
            # the other player's turn comes first: allow for its pauses too
            view = await client.wait_for(lambda v: v["can_act"] or v["outcome"] is not None,
                                         self.timeout + TURN_ACTIONS * 2 * self.think,
                                         self.errors)
            if view["outcome"] is not None:
                return
            if self.think > 0:
                await asyncio.sleep(run.rng.uniform(0, 2 * self.think))
            body = choose_action(view, run.rng)
            sent = time.perf_counter()
            if self.moves == "socket":
                revision = await self.act_on_socket(client, body)
                if revision is not None:
                    client.answered.add(revision)
                    self.done(run, Action(index, sent, time.perf_counter(), revision))
                    continue
            response, retried = await self.request_retrying(
                "POST", f"/api/games/{run.game_id}/actions", client, body, expect=(200, 409))
            answered = time.perf_counter()
            if response.status_code == 409:
                if not retried:
                    raise BenchError("http 409 " + response.json()["error"]["code"],
                                     f"game {run.game_id}")
                # Sent twice: the first may have been saved by a server that died before
                # answering.  The game as stored says what happened; go on from it.
                self.faults["action answered stale after a retry"] += 1
                fresh = await self.request("GET", f"/api/games/{run.game_id}", client)
                client.offer(fresh.json())
                continue
            new = response.json()
            client.answered.add(new["revision"])
            client.offer(new)
            self.done(run, Action(index, sent, answered, new["revision"]))
        raise BenchError("too many actions", f"game {run.game_id}")

    def done(self, run: GameRun, action: Action) -> None:
        """Count ``action`` of ``run`` as answered."""
        run.actions.append(action)
        self.actions_done += 1
        if self.progress is not None:
            self.progress.set_postfix(actions=self.actions_done, refresh=False)

    async def catch_up(self, run: GameRun) -> None:
        """Wait until both sockets show the last revision."""
        last = max([run.join_revision, *(a.revision for a in run.actions)])
        for client in run.clients:
            def caught_up(_: dict[str, Any], client: Client = client) -> bool:
                return (client.socket_view is not None
                        and client.socket_view["revision"] >= last)

            with contextlib.suppress(BenchError):  # counted as lost below
                await client.wait_for(caught_up, self.timeout, self.errors)

    async def finish(self, run: GameRun) -> None:
        """Check the last view of each socket against the store."""
        for client in run.clients:
            stored = (await self.request("GET", f"/api/games/{run.game_id}", client)).json()
            if client.socket_view is None or _strip(client.socket_view) != _strip(stored):
                run.mismatches += 1
            elif client.socket_view["connected"] != {"first": True, "second": True}:
                # both players have had the game open all along
                self.errors["presence wrong"] += 1
        run.finished = run.error is None and all(
            c.view is not None and c.view["outcome"] is not None for c in run.clients)

    async def close(self, run: GameRun) -> None:
        for client in run.clients:
            client.closing = True
            if client.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(client.ws.close(), self.timeout)
        for task in run.readers:
            task.cancel()
        await asyncio.gather(*run.readers, return_exceptions=True)
        for client in run.clients:
            await client.http.aclose()


def _issued_token(response: httpx.Response) -> str:
    for header in response.headers.get_list("set-cookie"):
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(header)
        if COOKIE in cookie:
            return cookie[COOKIE].value
    raise BenchError("no cookie", "the first action's answer set no player cookie")


def choose_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal action for the player to move in ``view``."""
    revision = view["revision"]
    choices: list[dict[str, Any]] = []
    if view["step"] == "place":
        choices += [{"action": "place", "cell": cell_name(cell)}
                    for cell, piece in enumerate(view["board"]) if piece is None]
        if call_wins(view):
            choices.append({"action": "claim"})
    elif view["step"] == "give":
        choices += [{"action": "give", "piece": piece} for piece in view["supply"]]
        if call_wins(view):
            choices.append({"action": "declare"})
        if view["can_decline"]:
            choices.append({"action": "decline"})
    if not choices:
        raise BenchError("no legal action", f"step {view['step']}")
    return {"revision": revision, **rng.choice(choices)}


async def run_game(bench: Bench, run: GameRun, gate: asyncio.Event,
                   ready: asyncio.Semaphore, setup_done: Callable[[], None],
                   played: Callable[[], Awaitable[None]]) -> None:
    """Set up, play and check ``run``.  ``played()`` returns once every game was
    played: the checks and the closing come after the measured play."""
    set_up = False
    waited = False
    try:
        async with ready:
            await bench.setup(run)
        set_up = True
        setup_done()
        await gate.wait()
        players = [asyncio.create_task(bench.play(run, i)) for i in (0, 1)]
        try:
            await asyncio.gather(*players)
        finally:  # one player's failure ends the other's game too
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
        await bench.catch_up(run)
        waited = True
        await played()
        await bench.finish(run)
    except BenchError as exc:
        bench.errors[exc.kind] += 1
        run.error = str(exc)
        if not set_up:
            setup_done()
        if not waited:
            await played()
    finally:
        await bench.close(run)
        if bench.progress is not None:
            bench.progress.update(1)


# -- figures -------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def measure(runs: list[GameRun], origin: float,
            trace: list[tuple[float, int, str, int, float, float | None]]) -> dict[str, Any]:
    """Latencies and losses of every action, from the arrival logs; one row per
    action is added to ``trace`` (seconds since ``origin``, game, actor, revision,
    answer and update latency in ms)."""
    latencies: list[float] = []
    answers: list[float] = []
    lost = coalesced = mismatches = 0
    for run in runs:
        mismatches += run.mismatches
        for action in run.actions:
            answers.append(action.answered - action.sent)
            other = run.clients[1 - action.actor]
            arrival = next((at for revision, at in other.arrivals
                            if revision >= action.revision), None)
            trace.append((round(action.sent - origin, 4), run.index,
                          run.clients[action.actor].label, action.revision,
                          round(1000 * (action.answered - action.sent), 2),
                          None if arrival is None else round(1000 * (arrival - action.sent), 2)))
            if arrival is None:
                lost += 1
                continue
            latencies.append(max(0.0, arrival - action.sent))
            if action.revision not in other.by_revision:
                coalesced += 1
    clients = [c for run in runs for c in run.clients]

    def ms(values: list[float], q: float) -> float:
        return round(1000 * _percentile(values, q), 1)

    return {
        "latency_ms": {"p50": ms(latencies, 0.5), "p95": ms(latencies, 0.95),
                       "p99": ms(latencies, 0.99),
                       "max": round(1000 * max(latencies), 1) if latencies else None},
        "answer_ms": {"p50": ms(answers, 0.5), "p95": ms(answers, 0.95),
                      "max": round(1000 * max(answers), 1) if answers else None},
        "lost": lost + mismatches,
        "lost_actions": lost,
        "final_mismatches": mismatches,
        "coalesced": coalesced,
        "socket_views": sum(c.messages for c in clients),
        "duplicated": sum(c.duplicates for c in clients),
        "sync_replies": sum(c.sync_replies for c in clients),
        "presence": sum(c.presence for c in clients),
        "echoes": sum(len(c.answered & c.by_revision.keys()) for c in clients),
        "older": sum(c.older for c in clients),
        "conflicting": sum(c.conflicting for c in clients),
    }


async def loop_lag(stop: asyncio.Event, lags: list[float]) -> None:
    """Measure this process's event-loop delay: how late a 10 ms sleep wakes up."""
    for _ in range(10_000_000):
        if stop.is_set():
            return
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - start - 0.01)


def _machine_busy() -> float | None:
    """CPU time the whole machine has spent busy so far (all cores), from /proc/stat."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[:7])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int | None) -> float | None:
    """CPU time (user + system) of process ``pid`` and its descendants (the workers
    of ``quads serve --workers N``) so far, from /proc."""
    if pid is None:
        return None
    ticks: dict[int, tuple[int, int]] = {}  # pid -> (parent, ticks)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks[int(entry.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    if pid not in ticks:
        return None
    tree, total = {pid}, 0
    for _ in range(8):  # a few generations are enough
        tree |= {child for child, (parent, _) in ticks.items() if parent in tree}
    total = sum(ticks[member][1] for member in tree)
    return total / os.sysconf("SC_CLK_TCK")


@dataclass
class Faults:
    """The servers of this run, and what the benchmark does to them during the play."""

    servers: list[Server] = field(default_factory=list)
    """The servers started here (none with ``--url``)."""
    database: PostgresServer | None = None
    """The PostgreSQL cluster started here (``--postgres``)."""
    kill_after: float | None = None
    restart_db_after: float | None = None
    db_down: float = 3.0
    events: list[str] = field(default_factory=list)

    async def run(self, started: float) -> None:
        """Break things at their times (seconds after the play starts)."""
        plan: list[tuple[float, str]] = []
        if self.kill_after is not None:
            plan.append((self.kill_after, "kill"))
        if self.restart_db_after is not None:
            plan.append((self.restart_db_after, "db"))
        for at, what in sorted(plan):
            await asyncio.sleep(max(0.0, started + at - time.perf_counter()))
            if what == "kill":
                victim = self.servers[-1]
                await asyncio.to_thread(victim.kill)
                self._log(started, f"server {victim.base} killed (kill -9)")
            else:
                assert self.database is not None
                await asyncio.to_thread(self.database.stop)
                self._log(started, "PostgreSQL stopped")
                await asyncio.sleep(self.db_down)
                await asyncio.to_thread(self.database.start)
                self._log(started, "PostgreSQL started again")

    def _log(self, started: float, event: str) -> None:
        self.events.append(f"{time.perf_counter() - started:.1f} s: {event}")


def _database_pid(database: PostgresServer | None) -> int | None:
    """The PostgreSQL postmaster's process id (its backends are its children)."""
    if database is None:
        return None
    try:
        return int((database.data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


async def bench_games(args: argparse.Namespace, bases: list[str], server_pids: list[int],
                      faults: Faults) -> dict[str, Any]:
    bench = Bench(bases, args.rules, args.think, args.timeout, not args.no_compression,
                  args.moves)
    runs = [GameRun(i, random.Random(args.seed * 1_000_003 + i)) for i in range(args.games)]
    gate = asyncio.Event()
    ready = asyncio.Semaphore(SETUP_CONCURRENCY)
    remaining = [args.games]
    all_set = asyncio.Event()

    def setup_done() -> None:
        remaining[0] -= 1
        if remaining[0] <= 0:
            all_set.set()

    playing = [args.games]
    all_played = asyncio.Event()
    cpu_played: list[float | None] = []
    played_at: list[float] = []

    async def played() -> None:
        """A game was played (or failed): once all were, the play is measured."""
        playing[0] -= 1
        if playing[0] == 0:
            played_at.append(time.perf_counter())
            cpu_played.extend(_cpu_seconds(pid) for pid in server_pids)
            all_played.set()
        await all_played.wait()

    setup_started = time.perf_counter()
    with tqdm(total=args.games, unit="game", file=sys.stderr, disable=args.quiet,
              desc="games") as bar:
        bench.progress = bar
        tasks = [asyncio.create_task(run_game(bench, run, gate, ready, setup_done, played))
                 for run in runs]
        try:
            await asyncio.wait_for(all_set.wait(), args.max_seconds)
        except TimeoutError:
            bench.errors["setup timeout"] += 1
        setup_seconds = time.perf_counter() - setup_started
        # no collector pauses in this process while it measures (its garbage is freed by
        # reference counting; the cycles it leaves are few and collected at the end)
        gc.collect()
        gc.freeze()
        gc.disable()
        # reading /proc takes a while: not timed
        cpu_before = [_cpu_seconds(pid) for pid in server_pids]
        db_pid = _database_pid(faults.database)
        db_before = _cpu_seconds(db_pid)
        busy_before = _machine_busy()
        own_before = time.process_time()
        stop = asyncio.Event()
        lags: list[float] = []
        lag_task = asyncio.create_task(loop_lag(stop, lags))
        started = time.perf_counter()
        breaking = asyncio.create_task(faults.run(started))
        gate.set()
        done, pending = await asyncio.wait(tasks, timeout=args.max_seconds)
        for task in pending:
            task.cancel()
            bench.errors["run timeout"] += 1
        await asyncio.gather(*pending, return_exceptions=True)
        for task in done:
            if task.exception() is not None:
                bench.errors[f"crash {type(task.exception()).__name__}"] += 1
        elapsed = time.perf_counter() - started
        stop.set()
        await lag_task
        if not breaking.done():
            faults.events.append("(the play ended before the planned fault)")
            breaking.cancel()
        await asyncio.gather(breaking, return_exceptions=True)
    cpu_after = [_cpu_seconds(pid) for pid in server_pids]
    db_after = _cpu_seconds(db_pid) if db_pid == _database_pid(faults.database) else None
    busy_after = _machine_busy()
    own_cpu = time.process_time() - own_before
    gc.enable()
    gc.unfreeze()
    trace: list[tuple[float, int, str, int, float, float | None]] = []
    figures = measure(runs, started, trace)
    if args.trace is not None:
        with args.trace.open("w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["sent_s", "game", "player", "revision", "answer_ms", "update_ms"])
            writer.writerows(sorted(trace))
    actions = sum(len(run.actions) for run in runs)
    # a server killed during the play counts for nothing (its time is then "other")
    spent = [after - before for before, after in zip(cpu_before, cpu_after, strict=True)
             if before is not None and after is not None]
    server_cpu = round(sum(spent), 2) if spent else None
    # The play alone: from the start to the last game's last view on both sockets
    # (without the checks against the store and the closing of the sockets after it).
    play_spent = [after - before for before, after
                  in zip(cpu_before, cpu_played or cpu_after, strict=True)
                  if before is not None and after is not None]
    play_cpu = round(sum(play_spent), 2) if play_spent else None
    db_cpu = (None if db_before is None or db_after is None
              else round(db_after - db_before, 2))
    other_cpu = (None if busy_before is None or busy_after is None or server_cpu is None
                 else round(max(0.0, busy_after - busy_before - server_cpu - own_cpu
                                - (db_cpu or 0.0)), 2))
    return {
        "games": args.games,
        "rules": args.rules,
        "think_s": args.think,
        "compression": not args.no_compression,
        "moves": args.moves,
        "games_finished": sum(run.finished for run in runs),
        "actions": actions,
        "seconds": round(elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1) if elapsed > 0 else None,
        "setup_s": round(setup_seconds, 2),
        **figures,
        "errors": sum(bench.errors.values()),
        "error_kinds": dict(bench.errors),
        "server_cpu_s": server_cpu,
        "server_cpu_share": None if server_cpu is None else round(server_cpu / elapsed, 2),
        "server_play_cpu_s": play_cpu,
        "server_cpu_ms_per_action": (None if play_cpu is None or not actions
                                     else round(1000 * play_cpu / actions / len(bases), 2)),
        "database_cpu_s": db_cpu,
        "servers": len(bases),
        "faults": dict(bench.faults),
        "fault_events": faults.events,
        "bench_cpu_s": round(own_cpu, 2),
        "other_cpu_s": other_cpu,
        "bench_loop_lag_ms": {"p95": round(1000 * _percentile(lags, 0.95), 1),
                              "max": round(1000 * max(lags), 1) if lags else None},
        "cores": os.cpu_count(),
    }


# -- the server ----------------------------------------------------------------


def report(figures: dict[str, Any]) -> str:
    latency = figures["latency_ms"]
    answer = figures["answer_ms"]
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(figures["error_kinds"].items())) or "none"
    share = figures["server_cpu_share"]
    lines = [
        f"games            {figures['games']} x {figures['rules']}, think "
        f"{figures['think_s']} s, compression "
        f"{'offered' if figures['compression'] else 'not offered'}, "
        f"moves over {figures['moves']}; "
        f"server: {figures['server']}",
        f"games finished   {figures['games_finished']} / {figures['games']}",
        f"actions          {figures['actions']} in {figures['seconds']} s "
        f"= {figures['actions_per_s']} actions/s (setup {figures['setup_s']} s)",
        f"update latency   p50 {latency['p50']} ms, p95 {latency['p95']} ms, "
        f"p99 {latency['p99']} ms, max {latency['max']} ms",
        f"action answer    p50 {answer['p50']} ms, p95 {answer['p95']} ms, "
        f"max {answer['max']} ms",
        f"lost             {figures['lost']} ({figures['lost_actions']} actions never seen, "
        f"{figures['final_mismatches']} final views differing)",
        f"duplicated       {figures['duplicated']}",
        f"socket views     {figures['socket_views']} (presence {figures['presence']}, "
        f"echoes {figures['echoes']}, coalesced {figures['coalesced']}, "
        f"older {figures['older']}, conflicting {figures['conflicting']}, "
        f"sync replies {figures['sync_replies']})",
        f"errors           {figures['errors']} ({kinds})",
        f"server CPU       {figures['server_cpu_s']} s"
        + ("" if share is None else f" = {100 * share:.0f}% of one core")
        + ("" if figures["server_cpu_ms_per_action"] is None
           else f"; the play alone {figures['server_play_cpu_s']} s = "
           f"{figures['server_cpu_ms_per_action']} ms per action per server")
        + f"; bench CPU {figures['bench_cpu_s']} s, bench loop lag p95 "
        f"{figures['bench_loop_lag_ms']['p95']} ms, max {figures['bench_loop_lag_ms']['max']} ms",
        f"other processes  {figures['other_cpu_s']} CPU s during the play "
        f"({figures['cores']} cores)"
        + ("" if figures["database_cpu_s"] is None
           else f"; PostgreSQL {figures['database_cpu_s']} CPU s"),
    ]
    if figures["fault_events"] or figures["faults"]:
        met = ", ".join(f"{k} {v}" for k, v in sorted(figures["faults"].items())) or "none"
        lines.append(f"faults           {'; '.join(figures['fault_events']) or 'none made'}")
        lines.append(f"met and overcome {met}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10,
                        help="online games played at once (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves")
    parser.add_argument("--rules", default="quads", type=lambda name: Rules.parse(name).name,
                        help="rule set (default %(default)s)")
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="mean pause before each action, uniform in [0, 2*SECONDS] "
                             "(default 0: act at once)")
    parser.add_argument("--url", action="append",
                        help="benchmark this running server (loopback) instead of starting "
                             "one; given several times, the players are spread over them")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="longest wait for one answer or update (default %(default)s)")
    parser.add_argument("--max-seconds", type=float, default=900.0, metavar="SECONDS",
                        help="longest setup and longest play phase (default %(default)s)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", metavar="PATH_OR_URL",
                       help="the database of the servers started here (default: a new "
                            "SQLite file in a temporary directory); e.g. a postgresql:// URL "
                            "of an empty database")
    where.add_argument("--postgres", action="store_true",
                       help="start a throwaway PostgreSQL cluster (Debian's postgresql "
                            "package, fsync on) for the servers started here")
    parser.add_argument("--servers", type=int, default=1, metavar="N",
                        help="separate quads serve processes started here, on ports of their "
                             "own, sharing the database (PostgreSQL only; default "
                             "%(default)s); the two players of a game use different ones")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="processes of each server started here (PostgreSQL only; "
                             "default %(default)s)")
    parser.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting of the servers started here, as a line of their "
                             "TOML settings file (e.g. share_core=false); repeatable")
    parser.add_argument("--kill-server-after", type=float, metavar="SECONDS",
                        help="kill -9 the last server this many seconds into the play; its "
                             "players move to the others (needs --servers 2 or more)")
    parser.add_argument("--restart-db-after", type=float, metavar="SECONDS",
                        help="stop PostgreSQL this many seconds into the play and start it "
                             "again after --db-down seconds (needs --postgres)")
    parser.add_argument("--db-down", type=float, default=3.0, metavar="SECONDS",
                        help="how long PostgreSQL stays stopped (default %(default)s)")
    parser.add_argument("--server-pid", type=int, action="append", metavar="PID",
                        help="with --url: a server's process id, to report its CPU time")
    parser.add_argument("--moves", choices=("socket", "http"), default="socket",
                        help="send the actions on the live socket while it is open, as the "
                             "page does, or each as an HTTP request (default %(default)s)")
    parser.add_argument("--no-compression", action="store_true",
                        help="open the sockets without permessage-deflate")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--trace", type=Path, metavar="CSV",
                        help="write one line per action (time sent, game, player, revision, "
                             "answer and update latency) to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.games < 1 or args.timeout <= 0 or args.think < 0 or args.servers < 1:
        parser.error("--games and --servers must be positive, --timeout positive, "
                     "--think not negative")
    postgres = args.postgres or (args.db or "").startswith("postgresql")
    if args.url and (args.db or args.postgres or args.servers > 1 or args.kill_server_after
                     is not None or args.restart_db_after is not None):
        parser.error("--url benchmarks running servers: it excludes --db, --postgres, "
                     "--servers and the faults")
    if (args.servers > 1 or args.workers > 1) and not postgres:
        parser.error("several servers or workers need PostgreSQL: --postgres or --db URL")
    if args.kill_server_after is not None and args.servers < 2:
        parser.error("--kill-server-after needs --servers 2 or more")
    if args.restart_db_after is not None and not args.postgres:
        parser.error("--restart-db-after needs --postgres")
    # every socket needs a descriptor in this process (and in the server, if started here)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 8 * args.games + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))

    faults = Faults(kill_after=args.kill_server_after,
                    restart_db_after=args.restart_db_after, db_down=args.db_down)
    with tempfile.TemporaryDirectory(prefix="quads-bench-") as tmp, \
            contextlib.ExitStack() as stack:
        if args.url:
            bases = [url.rstrip("/") for url in args.url]
            pids = list(args.server_pid or [])
        else:
            if args.postgres:
                faults.database = stack.enter_context(
                    PostgresServer(settings=DURABLE))
                db = faults.database.url()
            else:
                db = args.db or str(Path(tmp) / "bench.sqlite3")
            faults.servers = start_servers(db, args.servers, args.workers, Path(tmp),
                                           "".join(f"{line}\n" for line in args.setting))
            stack.callback(stop_servers, faults.servers)
            bases = [server.base for server in faults.servers]
            pids = [server.pid for server in faults.servers]
        figures = asyncio.run(bench_games(args, bases, pids, faults))
        figures["url"] = args.url
        engine = ("PostgreSQL (throwaway cluster, fsync on)" if args.postgres
                  else "SQLite (temporary file)" if not args.db
                  else urlsplit(args.db).scheme or "SQLite")
        figures["server"] = ("given by --url" if args.url else
                             f"{args.servers} x quads serve --workers {args.workers}, {engine}"
                             + "".join(f", {line}" for line in args.setting))
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    ok = (figures["games_finished"] == args.games and figures["lost"] == 0
          and figures["errors"] == 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
