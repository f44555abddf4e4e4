"""The engine's lanes (:mod:`quads.web.thinking`): a client over its share, or a
full lane, is refused with ``429 engine_busy`` while others are served; waiting
jobs are served round robin over clients; the play lane never waits behind the
study lane's work.

Jobs that must stay busy while a test looks are real jobs of the app's own lanes
that wait for the test's signal (for as long as a test needs, and no longer)."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from fastapi import FastAPI

from helpers import run_async
from quads.web.app import create_app
from quads.web.middleware.identity import COOKIE, player_id
from quads.web.settings import Settings
from quads.web.thinking import EngineBusyError, Lane, LaneName, Thinking

ENDGAME = "0F8./71.3/.A.2/59.6 C"
"""A position beyond the book that the solver settles in milliseconds."""


class Hold:
    """Jobs in an app's lane that run until :meth:`release`."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self.running = 0
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def _work(self) -> str:
        with self._lock:
            self.running += 1
        assert self.released.wait(30), "a held job was never released"
        return "held"

    def start(self, engine: Thinking, lane: LaneName, client: str,
              player: str | None = None) -> None:
        """Queue one held job for ``player`` (``None``: a caller without an identity)
        at the address ``client`` and wait until the lane holds it."""
        before = engine.lanes[lane].stats()["queued"]
        thread = threading.Thread(
            target=lambda: run_async(engine.run(lane, client, self._work, player)),
            daemon=True)
        thread.start()
        self._threads.append(thread)
        deadline = time.monotonic() + 5
        while engine.lanes[lane].stats()["queued"] == before:
            assert time.monotonic() < deadline, "the held job was not queued"
            time.sleep(0.01)

    def wait_running(self, count: int) -> None:
        deadline = time.monotonic() + 5
        while self.running < count:
            assert time.monotonic() < deadline, "the held jobs did not start"
            time.sleep(0.01)

    def release(self) -> None:
        self.released.set()
        for thread in self._threads:
            thread.join(10)


@pytest.fixture
def hold() -> Iterator[Hold]:
    held = Hold()
    yield held
    held.release()


def make_app(tmp_path: Path, **limits: Any) -> FastAPI:
    return create_app(tmp_path / "quads.db", static_dir=None, settings=Settings(**limits))


def engine_of(app: FastAPI) -> Thinking:
    engine: Thinking = app.state.thinking
    return engine


def analyse(client: TestClient, position: str = ENDGAME) -> Any:
    return client.get("/api/analysis", params={"position": position})


def test_a_client_over_its_share_is_refused_while_another_is_served(
        tmp_path: Path, hold: Hold) -> None:
    app = make_app(tmp_path, engine_threads=2, engine_per_client=1)
    greedy = TestClient(app, client=("127.0.0.7", 40000))
    other = TestClient(app, client=("127.0.0.8", 40000))
    hold.start(engine_of(app), "study", "127.0.0.7")
    hold.wait_running(1)

    refused = analyse(greedy)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "engine_busy"
    assert int(refused.headers["Retry-After"]) >= 1

    served = analyse(other)  # on the lane's second thread, while the first is held
    assert served.status_code == 200
    assert served.json()["complete"] is True
    assert not hold.released.is_set()
    assert engine_of(app).stats()["study"]["refused"] == 1


def test_a_full_lane_is_refused_for_everyone(tmp_path: Path, hold: Hold) -> None:
    app = make_app(tmp_path, engine_threads=1, engine_queue=2, engine_per_client=2)
    hold.start(engine_of(app), "study", "10.0.0.1")
    hold.start(engine_of(app), "study", "10.0.0.2")  # waits behind the first
    newcomer = TestClient(app, client=("127.0.0.9", 40000))
    refused = analyse(newcomer)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "engine_busy"
    assert "busy" in refused.json()["error"]["message"]
    assert refused.headers["Retry-After"].isdigit()
    hold.release()
    assert analyse(newcomer).status_code == 200


def test_a_computer_move_and_a_game_are_answered_while_the_study_lane_is_full(
        tmp_path: Path, hold: Hold) -> None:
    app = make_app(tmp_path, engine_threads=1, engine_queue=2, engine_per_client=2)
    player = TestClient(app)
    game = player.post("/api/games", json={"mode": "computer", "level": 3,
                                           "human": "second"}).json()
    for _ in range(2):
        hold.start(engine_of(app), "study", "127.0.0.2")
    assert analyse(player).status_code == 429  # the study lane is full ...
    began = time.monotonic()
    seen = player.get(f"/api/games/{game['id']}")
    assert seen.status_code == 200
    moved = player.post(f"/api/games/{game['id']}/computer",
                        json={"revision": game["revision"]})
    assert moved.status_code == 200  # ... and the play lane is not
    assert moved.json()["ply"] > game["ply"]
    assert time.monotonic() - began < 10
    assert not hold.released.is_set()


def test_a_hint_over_the_share_of_the_play_lane_is_refused(tmp_path: Path, hold: Hold) -> None:
    app = make_app(tmp_path, engine_threads=1, engine_per_client=1)
    player = TestClient(app)
    game = player.post("/api/games", json={"mode": "local"}).json()
    hold.start(engine_of(app), "play", "testclient", player_id(player.cookies[COOKIE]))
    refused = player.get(f"/api/games/{game['id']}/hint")
    assert (refused.status_code, refused.json()["error"]["code"]) == (429, "engine_busy")
    assert "Retry-After" in refused.headers
    hold.release()
    assert player.get(f"/api/games/{game['id']}/hint").status_code == 200


def test_waiting_jobs_are_served_round_robin_over_clients() -> None:
    lane = Lane("study", threads=1, capacity=16, per_client=8)
    order: list[str] = []
    started, gate = threading.Event(), threading.Event()

    def job(name: str) -> Any:
        def work() -> None:
            if name == "gate":
                started.set()
                gate.wait(10)
            order.append(name)
        return work

    async def scenario() -> None:
        waits = [lane.submit("x", job("gate"))]
        while not started.is_set():
            await asyncio.sleep(0.01)
        waits += [lane.submit("a", job(f"a{i}")) for i in range(3)]
        waits += [lane.submit("b", job(f"b{i}")) for i in range(2)]
        waits.append(lane.submit("c", job("c0")))
        gate.set()
        await asyncio.wait_for(asyncio.gather(*waits), 10)

    run_async(scenario())
    lane.close()
    assert order == ["gate", "a0", "b0", "c0", "a1", "b1", "a2"]


def test_a_lane_with_a_share_of_a_core_rests_after_each_job() -> None:
    """At ``share`` 0.2 a thread that worked 20 ms of processor time rests 80 ms
    before its next job."""
    lane = Lane("accounts", threads=1, capacity=4, per_client=4, share=0.2)
    spans: list[tuple[float, float]] = []

    def burn() -> None:
        began, used = time.monotonic(), time.thread_time()
        while time.thread_time() - used < 0.02:
            pass
        spans.append((began, time.monotonic()))

    async def scenario() -> None:
        await asyncio.wait_for(asyncio.gather(*(lane.submit("a", burn) for _ in range(3))),
                               10)

    run_async(scenario())
    lane.close()
    assert len(spans) == 3
    for (_, ended), (began, _) in itertools.pairwise(spans):
        assert began - ended >= 0.08 * 0.95  # 20 ms of work, four times as long at rest


def test_the_players_of_one_address_each_have_their_share_within_its_budget() -> None:
    """A room behind one address: each player holds their own jobs, those without an
    identity share one allowance, and all of them together no more than the
    address's budget; another address is not touched by it."""
    lane = Lane("play", threads=1, capacity=16, per_client=1, per_address=3)
    gate = threading.Event()

    async def scenario() -> None:
        held = [lane.submit("room", lambda: gate.wait(10), player)
                for player in ("ann", "bob", None)]
        for player in ("ann", None):  # each share is full
            with pytest.raises(EngineBusyError, match="of your engine jobs"):
                lane.submit("room", lambda: None, player)
        with pytest.raises(EngineBusyError, match="of your address"):
            lane.submit("room", lambda: None, "cid")  # a new player: the budget is full
        held.append(lane.submit("elsewhere", lambda: None, "cid"))
        gate.set()
        await asyncio.wait_for(asyncio.gather(*held), 10)
        assert lane.stats()["queued"] == 0
        await asyncio.wait_for(lane.submit("room", lambda: None, "cid"), 10)

    run_async(scenario())
    lane.close()


def test_the_edge_hears_the_refusal_a_job_would_get_without_queueing_one() -> None:
    """:meth:`Lane.refusal` says what a new job of an address would be answered now
    (the address's budget full, the lane full), queues nothing, and says nothing once
    there is room again."""
    lane = Lane("accounts", threads=1, capacity=3, per_client=1, per_address=2)
    gate = threading.Event()

    async def scenario() -> None:
        assert lane.refusal("room") is None
        held = [lane.submit("room", lambda: gate.wait(10), player) for player in ("a", "b")]
        refused = lane.refusal("room")
        assert refused is not None
        assert refused.code == "busy"
        assert "of your address" in refused.message
        assert lane.refusal("elsewhere") is None
        held.append(lane.submit("elsewhere", lambda: gate.wait(10), "c"))
        full = lane.refusal("another")
        assert full is not None
        assert "lane is busy" in full.message
        assert lane.stats()["queued"] == 3  # asking queued nothing
        gate.set()
        await asyncio.wait_for(asyncio.gather(*held), 10)
        assert lane.refusal("room") is None
        assert lane.refusal("another") is None

    run_async(scenario())
    lane.close()


def test_a_room_behind_one_address_asks_the_engine_at_once(tmp_path: Path,
                                                           hold: Hold) -> None:
    """Two of the room's players hold their whole shares; a third player of the same
    address still gets a hint, and a newcomer of the address past its budget is told so."""
    app = make_app(tmp_path, engine_threads=4, engine_per_client=1, engine_per_address=3)
    players = [TestClient(app, client=("127.0.0.7", 40000 + n)) for n in range(4)]
    games = [player.post("/api/games", json={"mode": "local"}).json() for player in players]
    for player in players[:2]:
        hold.start(engine_of(app), "play", "127.0.0.7", player_id(player.cookies[COOKIE]))
    served = players[2].get(f"/api/games/{games[2]['id']}/hint")
    assert served.status_code == 200, served.text
    hold.start(engine_of(app), "play", "127.0.0.7", player_id(players[2].cookies[COOKIE]))
    refused = players[3].get(f"/api/games/{games[3]['id']}/hint")
    assert (refused.status_code, refused.json()["error"]["code"]) == (429, "engine_busy")
    assert "address" in refused.json()["error"]["message"]


def test_a_request_that_goes_away_gives_its_place_up() -> None:
    lane = Lane("study", threads=1, capacity=4, per_client=1)
    gate = threading.Event()
    ran: list[str] = []

    async def scenario() -> None:
        first = lane.submit("x", lambda: gate.wait(10))
        waiting = lane.submit("y", lambda: ran.append("y"))
        with pytest.raises(EngineBusyError):
            lane.submit("y", lambda: None)  # y's share is held by its waiting job
        waiting.cancel()
        await asyncio.sleep(0)
        assert lane.stats()["queued"] == 1
        again = lane.submit("y", lambda: ran.append("y again"))
        gate.set()
        await asyncio.wait_for(asyncio.gather(first, again), 10)

    run_async(scenario())
    lane.close()
    assert ran == ["y again"]
    assert lane.stats()["abandoned"] == 1


def test_a_puzzle_generated_already_is_served_while_a_new_date_waits_for_its_turn(
        tmp_path: Path, hold: Hold) -> None:
    app = make_app(tmp_path, engine_threads=1, engine_queue=2, engine_per_client=2)
    player = TestClient(app)
    assert player.get("/api/puzzles/today").status_code == 200  # generated once
    for client in ("10.0.0.1", "10.0.0.2"):
        hold.start(engine_of(app), "study", client)
    assert player.get("/api/puzzles/today").status_code == 200
    refused = player.get("/api/puzzles/2024-01-01")  # would be generated now
    assert (refused.status_code, refused.json()["error"]["code"]) == (429, "engine_busy")
    hold.release()
    assert player.get("/api/puzzles/2024-01-01").status_code == 200


def test_a_waiting_analysis_that_another_client_had_answered_is_not_thought_again(
        tmp_path: Path, hold: Hold) -> None:
    app = make_app(tmp_path, engine_threads=1)
    engine = engine_of(app)
    hold.start(engine, "study", "10.0.0.1")
    hold.wait_running(1)
    answers: dict[str, Any] = {}

    def ask(address: str) -> None:
        answers[address] = analyse(TestClient(app, client=(address, 40000)))

    askers = [threading.Thread(target=ask, args=(f"127.0.0.{n}",)) for n in (21, 22, 23)]
    for thread in askers:
        thread.start()
    deadline = time.monotonic() + 5
    while engine.lanes["study"].stats()["queued"] < 4:  # the three wait behind the held job
        assert time.monotonic() < deadline
        time.sleep(0.01)
    hold.release()
    for thread in askers:
        thread.join(30)
    assert {a.status_code for a in answers.values()} == {200}
    assert len({a.text for a in answers.values()}) == 1
    assert engine.stats()["analyses"]["hits"] == 2  # the second and third found the first's
