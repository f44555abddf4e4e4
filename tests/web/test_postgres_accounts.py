"""Accounts and ratings on two ``quads serve`` processes over one PostgreSQL database:
a session ended through one process is refused at once by the other, and rated games
whose end races between the processes (a resignation on one, a flag fall seen by
the other's timekeeper) change the ratings exactly once."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from e2e.quads_server import Server, free_port

pytestmark = pytest.mark.postgres

GOOD = "a quiet heron by the lake"


def _servers(url: str, tmp_path: Path, settings: str = "") -> tuple[Server, Server]:
    servers = []
    for name in ("one", "two"):
        server = Server(url, free_port(), tmp_path / f"{name}.log", settings=settings)
        server.start()
        servers.append(server)
    return servers[0], servers[1]


def _account(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    made = client.post("/api/account", json={"name": name, "password": GOOD})
    assert made.status_code == 201, made.text
    return client


def _signed_in(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/session", json={"name": name, "password": GOOD})
    assert answer.status_code == 200, answer.text
    return client


def test_a_session_ended_on_one_process_is_refused_by_the_other(
        postgres_url: str, tmp_path: Path) -> None:
    one, two = _servers(postgres_url, tmp_path)
    try:
        home = _account(one.url, "Ada")
        phone = _signed_in(two.url, "Ada")
        assert phone.get("/api/account").status_code == 200  # known to process two now
        other = next(s for s in home.get("/api/account/sessions").json()["sessions"]
                     if not s["current"])
        assert home.delete(f"/api/account/sessions/{other['id']}").status_code == 204
        deadline = time.monotonic() + 2.0
        while (status := phone.get("/api/account").status_code) != 401:
            assert time.monotonic() < deadline, "the other process still lets the session in"
            time.sleep(0.05)
        assert status == 401
        assert home.get("/api/account").status_code == 200
    finally:
        one.stop()
        two.stop()


def _rated_game(seeker: httpx.Client, taker: httpx.Client) -> dict[str, object]:
    seek = seeker.post("/api/seeks", json={"rated": True, "rules": "quads",
                                           "clock": {"initial": 5, "increment": 0}})
    assert seek.status_code == 201, seek.text
    game = taker.post(f"/api/seeks/{seek.json()['id']}/accept")
    assert game.status_code == 201, game.text
    view: dict[str, object] = game.json()
    return view


def _act(client: httpx.Client, game: str, revision: int, **body: str) -> int:
    answer = client.post(f"/api/games/{game}/actions", json={"revision": revision, **body})
    assert answer.status_code == 200, answer.text
    return int(answer.json()["revision"])


def test_rated_results_racing_between_processes_count_once(
        postgres_url: str, tmp_path: Path) -> None:
    one, two = _servers(postgres_url, tmp_path, "clock_grace = 5.0\nclock_tick = 0.05\n")
    try:
        ada = _account(one.url, "Ada")
        bea = _account(two.url, "Bea")
        ended = []
        for wait in (4.9, 4.98, 5.0, 5.02, 5.1):
            view = _rated_game(ada, bea)
            game, revision = str(view["id"]), int(view["revision"])  # type: ignore[call-overload]
            first = bea if view["you"] == "first" else ada  # the taker's view
            second = bea if first is ada else ada
            # Both grace turns, then the first side's five seconds run out about when
            # it resigns on one process, and the timekeepers of both look.
            revision = _act(first, game, revision, action="give", piece="0")
            revision = _act(second, game, revision, action="place", cell="A1")
            revision = _act(second, game, revision, action="give", piece="1")
            time.sleep(wait)
            resigning = threading.Thread(target=first.post, args=(f"/api/games/{game}/resign",),
                                         kwargs={"json": {"revision": revision}})
            resigning.start()
            resigning.join()
            deadline = time.monotonic() + 10
            while (seen := ada.get(f"/api/games/{game}").json())["outcome"] is None:
                assert time.monotonic() < deadline, "the game did not end"
                time.sleep(0.05)
            ended.append((game, seen["outcome"]["reason"]))
        with psycopg.connect(postgres_url.replace("+psycopg", "")) as connection:
            changes = connection.execute(
                "SELECT game, count(*) FROM rating_changes GROUP BY game").fetchall()
            counted = connection.execute(
                "SELECT sum(games) FROM ratings").fetchone()
        assert sorted(changes) == sorted((game, 2) for game, _ in ended)
        assert counted == (10,)  # five games, two players each, once
        assert {reason for _, reason in ended} <= {"resignation", "time"}, ended
        profile = ada.get(f"/api/games/{ended[-1][0]}").json()
        assert profile["rated"] is True
        assert profile["ratings"]["first"]["change"] is not None
    finally:
        one.stop()
        two.stop()
