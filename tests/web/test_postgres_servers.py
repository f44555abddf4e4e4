"""Two ``quads serve`` processes on one PostgreSQL database, as a site runs them.

A change saved through one process reaches the live sockets held by the other
(``LISTEN``/``NOTIFY``); a player's cookie is good on both; a killed process
loses nothing; while PostgreSQL is down the servers answer ``503`` in the API's
JSON shape and recover by themselves when it is back.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import psycopg
import pytest
from websockets.sync.client import ClientConnection, connect

from e2e.quads_server import Server, free_port
from postgres_server import PostgresServer

pytestmark = pytest.mark.postgres


class Person:
    """One browser: its own cookie, good on every process of the site."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.jar = next(h for h in self.opener.handlers
                        if isinstance(h, urllib.request.HTTPCookieProcessor)).cookiejar

    def call(self, base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def ok(self, base: str, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.call(base, method, path, body)
        assert status < 300, (status, answer)
        return answer

    @property
    def token(self) -> str:
        return next(c.value for c in self.jar if c.name == "quads_player")

    def live(self, base: str, game_id: str) -> ClientConnection:
        address = base.replace("http://", "ws://") + f"/api/games/{game_id}/live"
        return connect(address, additional_headers={"Cookie": f"quads_player={self.token}"},
                       open_timeout=10)


def next_view(socket: ClientConnection, revision: int, timeout: float = 10) -> Any:
    """The first view at ``revision`` or later that the socket receives."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no view at revision {revision} arrived"
        message = json.loads(socket.recv(timeout=left))
        if message["type"] == "view" and message["view"]["revision"] >= revision:
            return message["view"]


def next_view_where(socket: ClientConnection, wanted: Any, timeout: float = 20) -> Any:
    """The first view the socket receives for which ``wanted(view)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such view arrived"
        message = json.loads(socket.recv(timeout=left))
        if message["type"] == "view" and wanted(message["view"]):
            return message["view"]


def next_talk(socket: ClientConnection, timeout: float = 10) -> Any:
    """The lines of the first ``talk`` message the socket receives."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no talk arrived"
        message = json.loads(socket.recv(timeout=left))
        if message["type"] == "talk":
            return message["messages"]


@contextmanager
def two_servers(url: str, tmp_path: Path,
                settings: str | None = None) -> Iterator[tuple[Server, Server]]:
    """Two servers of the database ``url``; ``settings``: the TOML of their settings
    file instead of the test servers' own."""
    with ExitStack() as stack:
        servers = []
        for name in ("one", "two"):
            server = Server(url, free_port(), tmp_path / f"{name}.log")
            if settings is not None:
                server.config.write_text(settings)
            server.start()
            stack.callback(server.stop)
            servers.append(server)
        yield servers[0], servers[1]


def test_a_move_on_one_process_reaches_the_other(postgres_url: str, tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path) as (one, two):
        host, guest = Person(), Person()
        view = host.ok(one.url, "POST", "/api/games",
                       {"mode": "online", "rules": "classic", "host": "first"})
        game = view["id"]
        token = view["invite"].rsplit("/", 1)[1]
        # The guest's cookie comes from the other process: both know every player.
        assert guest.ok(two.url, "GET", f"/api/invites/{token}")["game"] == game
        joined = guest.ok(two.url, "POST", f"/api/games/{game}/join", {"invite": token})
        with host.live(one.url, game) as host_socket, guest.live(two.url, game) as guest_socket:
            revision = joined["revision"]
            # Each sees the other seated and connected, though on another process.
            for socket in (host_socket, guest_socket):
                presence = next_view_where(socket, lambda v: v["opponent_connected"])
                assert presence["revision"] == revision
                assert presence["connected"] == {"first": True, "second": True}
                assert set(presence["seats"].values()) == {"you", "opponent"}
            for turn, (person, base, body) in enumerate([
                    (host, one.url, {"action": "give", "piece": "7"}),
                    (guest, two.url, {"action": "place", "cell": "A1"}),
                    (guest, two.url, {"action": "give", "piece": "C"}),
                    (host, one.url, {"action": "place", "cell": "B2"})]):
                after = person.ok(base, "POST", f"/api/games/{game}/actions",
                                  {"revision": revision, **body})
                revision = after["revision"]
                other = guest_socket if person is host else host_socket
                seen = next_view(other, revision)
                assert seen["moves"] == after["moves"], turn
                assert seen["opponent_connected"]
            # A line said at the table on one process reaches the other's socket, and
            # changes no revision there.
            said = guest.ok(two.url, "POST", f"/api/games/{game}/talk",
                            {"message": "good_luck"})
            heard = next_talk(host_socket)
            assert [(line["seq"], line["side"], line["message"]) for line in heard] == [
                (said["seq"], "second", "good_luck")]
            assert host.ok(one.url, "GET", f"/api/games/{game}")["revision"] == revision
            # A stale revision on the other process is refused there too.
            status, refused = host.call(two.url, "POST", f"/api/games/{game}/actions",
                                        {"revision": revision - 1, "action": "give",
                                         "piece": "0"})
            assert (status, refused["error"]["code"]) == (409, "stale")
            # The guest's process dies: the host soon sees the guest gone.
            two.kill()
            gone = next_view_where(host_socket, lambda v: not v["opponent_connected"])
            assert gone["connected"] == {"first": True, "second": False}


def test_a_killed_process_loses_nothing(postgres_url: str, tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path) as (one, two):
        person = Person()
        view = person.ok(one.url, "POST", "/api/games", {"mode": "local", "rules": "quads"})
        for piece, cell in (("7", "A1"), ("3", "B1")):
            view = person.ok(one.url, "POST", f"/api/games/{view['id']}/actions",
                             {"revision": view["revision"], "action": "give", "piece": piece})
            view = person.ok(one.url, "POST", f"/api/games/{view['id']}/actions",
                             {"revision": view["revision"], "action": "place", "cell": cell})
        one.kill()
        assert person.ok(two.url, "GET", f"/api/games/{view['id']}") == view


def test_the_servers_answer_503_while_postgresql_is_down(postgres: PostgresServer,
                                                         postgres_url: str,
                                                         tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path) as (one, _two):
        person = Person()
        view = person.ok(one.url, "POST", "/api/games", {"mode": "local", "rules": "quads"})
        postgres.stop()
        try:
            status, answer = person.call(one.url, "GET", f"/api/games/{view['id']}")
            assert status == 503
            assert answer["error"]["code"] == "unavailable"
            # A newcomer, whom the server must write down, is told the same.
            status, answer = Person().call(one.url, "POST", "/api/players")
            assert (status, answer["error"]["code"]) == (503, "unavailable")
        finally:
            postgres.start()
        deadline = time.monotonic() + 30
        while True:
            status, answer = person.call(one.url, "GET", f"/api/games/{view['id']}")
            if status == 200:
                break
            assert status == 503, (status, answer)
            assert time.monotonic() < deadline, "the server did not recover"
            time.sleep(0.2)
        assert answer == view
        after = person.ok(one.url, "POST", f"/api/games/{view['id']}/actions",
                          {"revision": view["revision"], "action": "give", "piece": "5"})
        assert after["ply"] == 1


def _online_game(one: Server, two: Server) -> tuple[Person, Person, str, int]:
    """An online game between a host on ``one`` and a guest on ``two``, who hands over
    first: the players, the game and its revision."""
    host, guest = Person(), Person()
    view = host.ok(one.url, "POST", "/api/games",
                   {"mode": "online", "rules": "classic", "host": "second"})
    token = view["invite"].rsplit("/", 1)[1]
    joined = guest.ok(two.url, "POST", f"/api/games/{view['id']}/join", {"invite": token})
    return host, guest, view["id"], joined["revision"]


def _listener_backend(url: str, server: Server) -> int:
    """The PostgreSQL backend of ``server``'s listener (named after its process)."""
    assert server.process is not None
    name = f"quads-listen {server.process.pid}"
    with psycopg.connect(url.replace("postgresql+psycopg", "postgresql"),
                         autocommit=True) as connection:
        deadline = time.monotonic() + 20
        while True:
            row = connection.execute("SELECT pid FROM pg_stat_activity "
                                     "WHERE application_name = %s", (name,)).fetchone()
            if row is not None:
                return int(row[0])
            assert time.monotonic() < deadline, "the listener has no connection"
            time.sleep(0.1)


def test_a_listener_whose_connection_stalls_connects_again(postgres_url: str,
                                                          tmp_path: Path) -> None:
    """The backend of one process's listener stops answering without closing (as a
    half-open connection or a stalled backend would): the listener notices within its
    beat's deadline, says so, connects again, and a move made through the other process
    reaches the first one's socket, which sends nothing to be woken."""
    with two_servers(postgres_url, tmp_path) as (one, two):
        host, guest, game, revision = _online_game(one, two)
        backend = _listener_backend(postgres_url, one)
        with host.live(one.url, game) as host_socket:
            next_view(host_socket, revision)
            os.kill(backend, signal.SIGSTOP)
            try:
                after = guest.ok(two.url, "POST", f"/api/games/{game}/actions",
                                 {"revision": revision, "action": "give", "piece": "7"})
                seen = next_view(host_socket, after["revision"], timeout=15)
                assert seen["moves"] == after["moves"]
            finally:
                os.kill(backend, signal.SIGCONT)
        assert _listener_backend(postgres_url, one) != backend
        assert re.search("did not answer within|did not come back", one.log.read_text())


def test_a_move_saved_just_after_an_outage_reaches_every_process(
        postgres: PostgresServer, postgres_url: str, tmp_path: Path) -> None:
    """PostgreSQL stops while a page on one process keeps asking (and is answered 503);
    once it is back, moves are made through the other process at once: each reaches the
    first process's socket within a few seconds, though nothing there pings."""
    with two_servers(postgres_url, tmp_path) as (one, two):
        host, guest, game, revision = _online_game(one, two)
        with host.live(one.url, game) as host_socket:
            next_view(host_socket, revision)
            postgres.stop()
            try:
                for _ in range(5):
                    status, _answer = host.call(one.url, "GET", f"/api/games/{game}")
                    assert status == 503
                    time.sleep(0.2)
            finally:
                postgres.start()
            deadline = time.monotonic() + 30
            while True:  # the first call that reaches the database again
                status, answer = guest.call(two.url, "POST", f"/api/games/{game}/actions",
                                            {"revision": revision, "action": "give",
                                             "piece": "7"})
                if status == 200:
                    break
                assert status == 503, (status, answer)
                assert time.monotonic() < deadline, "the other process did not recover"
                time.sleep(0.05)
            back = time.monotonic()
            # The host's own cookie, on the other process.
            after = host.ok(two.url, "POST", f"/api/games/{game}/actions",
                             {"revision": answer["revision"], "action": "place",
                              "cell": "A1"})
            seen = next_view(host_socket, after["revision"], timeout=10)
            assert seen["moves"] == after["moves"]
            assert time.monotonic() - back < 10


def _until(what: Any, timeout: float = 20.0) -> Any:
    """Wait for ``what()`` to give something true; that."""
    deadline = time.monotonic() + timeout
    while True:
        found = what()
        if found or time.monotonic() > deadline:
            assert found, "not in time"
            return found
        time.sleep(0.2)


def test_an_arena_goes_on_when_a_process_is_killed(postgres_url: str, tmp_path: Path) -> None:
    """Both processes run the arenas' keeper; one at a time pairs an arena.  Killed in the
    middle of the event, one process leaves the other to pair the players freed by the
    games that end there: nobody is ever in two games, and each result counts once."""
    with two_servers(postgres_url, tmp_path) as (one, two):
        people = [Person() for _ in range(4)]
        for index, person in enumerate(people):
            person.ok(one.url, "POST", "/api/account",
                      {"name": f"arena{index}", "password": "a quiet heron by the lake"})
        arena = people[0].ok(one.url, "POST", "/api/tournaments",
                             {"rules": "quads", "clock": "180+2", "minutes": 30})["id"]
        # The event followed live on the process that survives, whichever pairs it.
        live = connect(two.url.replace("http://", "ws://") + f"/api/tournaments/{arena}/live",
                       additional_headers={"Cookie": f"quads_player={people[0].token}"},
                       open_timeout=10)
        for index, person in enumerate(people):
            person.ok((one, two)[index % 2].url, "POST", f"/api/tournaments/{arena}/join")

        def event() -> Any:
            return people[0].ok(two.url, "GET", f"/api/tournaments/{arena}")

        def ongoing(person: Person) -> list[Any]:
            return list(person.ok(two.url, "GET", "/api/games?status=ongoing")["games"])

        first_round = _until(lambda: len(event()["games"]) == 2 and event())
        one.kill()
        # The games of the first round end on the process left: each player resigns
        # the game they are in, if it is still going on.
        for person in people:
            for game in ongoing(person):
                view = person.ok(two.url, "GET", f"/api/games/{game['id']}")
                if view["outcome"] is None:
                    person.ok(two.url, "POST", f"/api/games/{game['id']}/resign",
                              {"revision": view["revision"]})
        # The survivor's keeper pairs the four again, none with their last opponent.
        second = _until(lambda: len(event()["games"]) == 4 and event())
        met = {frozenset((g["first"], g["second"])) for g in first_round["games"]}
        for game in second["games"][:2]:
            assert game["result"] is None
            assert frozenset((game["first"], game["second"])) not in met
        for person in people:
            assert len(ongoing(person)) == 1  # never two games of the event at once
        table = second["standings"]
        assert sorted(line["points"] for line in table) == [0, 0, 2, 2]
        assert sum(line["games"] for line in table) == 4
        with live:
            shown, mine = _live_until(live, lambda shown: len(shown["games"]) == 4)
        assert {g["id"] for g in shown["games"]} == {g["id"] for g in second["games"]}
        assert mine["playing"] in {g["id"] for g in second["games"][:2]}


def _live_until(socket: ClientConnection, wanted: Any, timeout: float = 20) -> Any:
    """The first event (with the socket's own part after it) a tournament's socket
    sends for which ``wanted(event)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such event arrived"
        message = json.loads(socket.recv(timeout=left))
        if message["type"] == "tournament" and wanted(message["tournament"]):
            mine = json.loads(socket.recv(timeout=left))
            assert mine["type"] == "me"
            return message["tournament"], mine["me"]
