"""The lobby and the clocks on two ``quads serve`` processes sharing one PostgreSQL
database: a seek opened on one process is seen and taken on the other, one seek
never starts two games, a game whose time runs out is ended exactly once, and a
player who left on one process can be claimed against on the other."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from quads.storage import GameStore
from web.test_postgres_servers import Person, next_view_where, two_servers

pytestmark = pytest.mark.postgres

SETTINGS = ('rate_games = "100000/minute"\nrate_identities = "100000/minute"\n'
            'rate_joins = "100000/minute"\nrate_seeks = "100000/minute"\n'
            'rate_games_per_address = "100000/minute"\nrate_joins_per_address = '
            '"100000/minute"\nrate_seeks_per_address = "100000/minute"\n'
            'rate_names_per_address = "100000/minute"\n'
            'db_wait = 30.0\nclock_grace = 30.0\nclock_tick = 0.1\nseek_linger = 3.0\n'
            'abandon_realtime = 1.0\nabandon_share = 0.0\n')
BLITZ = {"initial": 180, "increment": 2}


def lobby(person: Person, base: str) -> ClientConnection:
    address = base.replace("http://", "ws://") + "/api/lobby/live"
    cookie = {"Cookie": f"quads_player={person.token}"} if list(person.jar) else {}
    return connect(address, additional_headers=cookie, open_timeout=10)


def receive(socket: ClientConnection, wanted: Any, timeout: float = 10) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such message arrived"
        message = json.loads(socket.recv(timeout=left))
        if wanted(message):
            return message


def test_a_seek_made_on_one_process_is_seen_and_taken_on_the_other(postgres_url: str,
                                                                     tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path, SETTINGS) as (one, two):
        seeker, taker, watcher = Person(), Person(), Person()
        seeker.ok(one.url, "GET", "/api/players/me")
        seeker.ok(one.url, "POST", "/api/players")
        with lobby(seeker, one.url) as mine, lobby(watcher, two.url) as theirs:
            assert receive(theirs, lambda m: m["type"] == "seeks")["seeks"] == []
            receive(mine, lambda m: m["type"] == "seeks")
            offer = seeker.ok(one.url, "POST", "/api/seeks", {"clock": BLITZ})
            seen = receive(theirs, lambda m: m["type"] == "seek")["seek"]
            assert (seen["id"], seen["mine"]) == (offer["id"], False)
            assert [s["id"] for s in taker.ok(two.url, "GET", "/api/seeks")["seeks"]] == [
                offer["id"]]
            game = taker.ok(two.url, "POST", f"/api/seeks/{offer['id']}/accept")
            assert receive(theirs, lambda m: m["type"] == "unseek")["id"] == offer["id"]
            paired = receive(mine, lambda m: m["type"] == "paired")
            assert paired == {"type": "paired", "game": game["id"], "seek": offer["id"]}
            view = seeker.ok(one.url, "GET", f"/api/games/{game['id']}")
            assert view["clock"]["running"] == "first"
            assert {view["you"], game["you"]} == {"first", "second"}


def test_accepts_on_both_processes_start_one_game(postgres_url: str, tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path, SETTINGS) as (one, two):
        seeker = Person()
        takers = [Person() for _ in range(20)]
        for taker in takers:  # each a player already, so that only the accepts race
            taker.ok(one.url, "POST", "/api/players")
        offer = seeker.ok(one.url, "POST", "/api/seeks", {"clock": BLITZ})
        answers: list[tuple[int, Any]] = []
        barrier = threading.Barrier(len(takers))

        def accept(index: int, taker: Person) -> None:
            barrier.wait()
            base = (one, two)[index % 2].url
            answers.append(taker.call(base, "POST", f"/api/seeks/{offer['id']}/accept"))

        threads = [threading.Thread(target=accept, args=pair) for pair in enumerate(takers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        started = [answer for status, answer in answers if status == 201]
        refused = [answer["error"]["code"] for status, answer in answers if status == 409]
        assert len(started) == 1
        assert refused == ["seek_gone"] * 19
        store = GameStore(postgres_url)
        try:
            assert [s.id for s in store.summaries()] == [started[0]["id"]]
        finally:
            store.close()


def test_quick_pairings_at_once_on_both_processes_meet(postgres_url: str,
                                                        tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path, SETTINGS) as (one, two):
        people = [Person() for _ in range(8)]
        for person in people:
            person.ok(one.url, "POST", "/api/players")
        answers: list[tuple[int, Any]] = []
        barrier = threading.Barrier(len(people))

        def pair(index: int, person: Person) -> None:
            barrier.wait()
            answers.append(person.call((one, two)[index % 2].url, "POST", "/api/pairing",
                                       {"clock": BLITZ}))

        threads = [threading.Thread(target=pair, args=p) for p in enumerate(people)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        games = [answer["game"]["id"] for status, answer in answers if status == 201]
        waiting = [answer["seek"]["id"] for status, answer in answers if status == 202]
        # Every pairing either met a waiting seek or waits; none waits while another
        # compatible seek waits too, and no game was started twice.
        assert len(games) == len(set(games)) == 4
        assert len(waiting) == 4
        assert people[0].ok(one.url, "GET", "/api/seeks")["seeks"] == []


def test_a_game_whose_time_runs_out_ends_once(postgres_url: str, tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path, SETTINGS) as (one, two):
        host, guest = Person(), Person()
        games = []
        for _ in range(4):
            view = host.ok(one.url, "POST", "/api/games",
                           {"mode": "online", "clock": {"initial": 5, "increment": 0}})
            token = view["invite"].rsplit("/", 1)[1]
            view = guest.ok(two.url, "POST", f"/api/games/{view['id']}/join",
                            {"invite": token})
            view = host.ok(one.url, "POST", f"/api/games/{view['id']}/actions",
                           {"revision": view["revision"], "action": "give", "piece": "7"})
            for body in ({"action": "place", "cell": "A1"}, {"action": "give", "piece": "3"}):
                view = guest.ok(two.url, "POST", f"/api/games/{view['id']}/actions",
                                {"revision": view["revision"], **body})
            games.append(view)
        time.sleep(5.5)
        deadline = time.monotonic() + 15
        ended: dict[str, Any] = {}
        while len(ended) < len(games) and time.monotonic() < deadline:
            for view in games:
                seen = host.ok((one, two)[len(ended) % 2].url, "GET", f"/api/games/{view['id']}")
                if seen["outcome"] is not None:
                    ended[view["id"]] = seen
            time.sleep(0.2)
        for view in games:
            over = ended[view["id"]]
            assert over["outcome"]["reason"] == "time"
            assert over["outcome"]["winner"] == "second"
            assert over["revision"] == view["revision"] + 1  # one save ended it


def test_a_player_who_left_on_one_process_is_claimed_against_on_the_other(
        postgres_url: str, tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path, SETTINGS) as (one, two):
        host, guest = Person(), Person()
        view = host.ok(one.url, "POST", "/api/games",
                       {"mode": "online", "clock": {"initial": 120, "increment": 0}})
        token = view["invite"].rsplit("/", 1)[1]
        view = guest.ok(two.url, "POST", f"/api/games/{view['id']}/join", {"invite": token})
        view = host.ok(one.url, "POST", f"/api/games/{view['id']}/actions",
                       {"revision": view["revision"], "action": "give", "piece": "7"})
        for body in ({"action": "place", "cell": "A1"}, {"action": "give", "piece": "3"}):
            view = guest.ok(two.url, "POST", f"/api/games/{view['id']}/actions",
                            {"revision": view["revision"], **body})
        with guest.live(two.url, view["id"]) as watching:
            with host.live(one.url, view["id"]):
                next_view_where(watching, lambda v: v["opponent_connected"])
                status, early = guest.call(two.url, "POST", f"/api/games/{view['id']}/abandoned",
                                           {"revision": view["revision"]})
                assert (status, early["error"]["code"]) == (409, "not_abandoned")
            next_view_where(watching, lambda v: not v["opponent_connected"])
            deadline = time.monotonic() + 15
            while True:
                status, answer = guest.call(two.url, "POST",
                                            f"/api/games/{view['id']}/abandoned",
                                            {"revision": view["revision"]})
                if status == 200 or time.monotonic() > deadline:
                    break
                assert answer["error"]["code"] == "not_abandoned"
                time.sleep(0.2)
        assert status == 200, answer
        assert answer["outcome"]["reason"] == "abandonment"
        assert answer["outcome"]["winner"] == "second"
