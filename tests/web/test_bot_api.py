"""Bots through a real server: the upgrade, the marks, the event stream and its limits,
and examples/bot.py playing a whole game against a person (over the API)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from e2e.quads_server import Server, free_port
from helpers import call_wins, example_bot
from quads.cells import cell_name

BLITZ = {"initial": 300, "increment": 5}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("bots")
    running = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                     settings="bot_sweep = 600\nbot_heartbeat = 0.5\nseek_linger = 0.5\n"
                              "clock_tick = 0.1\n")
    running.start()
    yield running
    running.kill()


def newcomer(server: Server) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30)


def bot(server: Server) -> tuple[httpx.Client, dict[str, Any]]:
    """A new bot, calling with its bearer token only."""
    client = newcomer(server)
    made = client.post("/api/bot/upgrade")
    assert made.status_code == 200, made.text
    body = made.json()
    client.cookies.clear()
    client.headers["Authorization"] = f"Bearer {body['token']}"
    return client, body


def person(server: Server) -> httpx.Client:
    client = newcomer(server)
    assert client.post("/api/players").status_code == 204
    return client


def events(client: httpx.Client, until: str, seconds: float = 20) -> list[dict[str, Any]]:
    """The stream's events (heartbeats aside) up to the first of type ``until``."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    with client.stream("GET", "/api/bot/stream") as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("application/x-ndjson")
        for line in stream.iter_lines():
            assert time.monotonic() < deadline, seen
            if line:
                seen.append(json.loads(line))
                if seen[-1]["type"] == until:
                    return seen
    raise AssertionError(f"the stream ended before {until!r}: {seen}")


def test_a_newcomer_becomes_a_bot_for_good(server: Server) -> None:
    client, made = bot(server)
    assert made["bot"].startswith("bot-")
    assert made["name"]
    me = client.get("/api/players/me").json()
    assert me == {"name": made["name"], "bot": made["bot"]}
    again = client.post("/api/bot/upgrade")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_bot"
    assert client.get("/api/players/me").json()["bot"] == made["bot"]


def test_a_person_upgrades_and_gets_no_token_back(server: Server) -> None:
    client = person(server)
    assert client.get("/api/players/me").json()["bot"] is None
    made = client.post("/api/bot/upgrade").json()
    assert made["token"] is None  # the person has it already, in the cookie
    assert client.get("/api/players/me").json()["bot"] == made["bot"]


def test_an_upgrade_from_another_site_is_refused(server: Server) -> None:
    client = person(server)
    refused = client.post("/api/bot/upgrade", headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "cross_site"
    assert client.get("/api/players/me").json()["bot"] is None


def test_only_a_bot_has_a_stream_and_only_one(server: Server) -> None:
    stranger = newcomer(server)
    refused = stranger.get("/api/bot/stream")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "not_a_bot"
    assert person(server).get("/api/bot/stream").status_code == 403
    forged = newcomer(server)
    forged.headers["Authorization"] = "Bearer " + "x" * 43
    assert forged.get("/api/bot/stream").status_code == 401
    client, _ = bot(server)
    with client.stream("GET", "/api/bot/stream") as first:
        assert first.status_code == 200
        second = client.get("/api/bot/stream")
        assert second.status_code == 409
        assert second.json()["error"]["code"] == "stream_open"
    deadline = time.monotonic() + 10
    while True:  # the first stream's end is seen: the bot may open one again
        with client.stream("GET", "/api/bot/stream") as again:
            if again.status_code == 200:
                break
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_a_process_holds_so_many_streams(tmp_path: Path) -> None:
    # A server of its own: no stream of another test may hold a place.
    own = Server(tmp_path / "games.sqlite3", free_port(), tmp_path / "server.log",
                 settings="bot_streams = 3\n")
    own.start()
    try:
        bots = [bot(own)[0] for _ in range(4)]
        streams = [client.stream("GET", "/api/bot/stream") for client in bots[:3]]
        opened = [stream.__enter__() for stream in streams]
        try:
            assert [response.status_code for response in opened] == [200, 200, 200]
            busy = bots[3].get("/api/bot/stream")
            assert busy.status_code == 429
            assert busy.json()["error"]["code"] == "streams_full"
        finally:
            for stream in streams:
                stream.__exit__(None, None, None)
    finally:
        own.kill()


def test_a_bots_seek_is_marked_stays_while_it_streams_and_starts_a_game(server: Server) -> None:
    client, made = bot(server)
    seek = client.post("/api/seeks", json={"rules": "classic", "clock": BLITZ, "side": "second"})
    assert seek.status_code == 201
    assert seek.json()["bot"] is True
    guest = person(server)
    with client.stream("GET", "/api/bot/stream") as stream:
        assert stream.status_code == 200
        time.sleep(1.0)  # twice the linger: the open stream keeps the seek
        listed = guest.get("/api/seeks").json()["seeks"]
        mine = [s for s in listed if s["id"] == seek.json()["id"]]
        assert len(mine) == 1
        assert mine[0]["bot"] is True
        game = guest.post(f"/api/seeks/{seek.json()['id']}/accept").json()
        assert game["names"]["second"] == made["name"]
        assert game["names"]["second_bot"] is True
        assert game["names"]["first_bot"] is False
        lines = stream.iter_lines()
        started = json.loads(next(line for line in lines if line))
        assert started == {"type": "gameStart", "game": game["id"],
                           "rules": "classic:losing-calls", "side": "second"}
        resigned = guest.post(f"/api/games/{game['id']}/resign",
                              json={"revision": game["revision"]})
        assert resigned.status_code == 200, resigned.text
        finished = json.loads(next(line for line in lines if line))
        assert finished == {"type": "gameFinish", "game": game["id"]}


def test_a_game_begun_and_ended_between_two_looks_is_told_whole(tmp_path: Path) -> None:
    # A server of its own whose stream looks every 3 s: the game is over before the next look.
    own = Server(tmp_path / "games.sqlite3", free_port(), tmp_path / "server.log",
                 settings="bot_sweep = 600\nbot_heartbeat = 1\nseek_linger = 30\n")
    own.start()
    try:
        client, _ = bot(own)
        seek = client.post("/api/seeks", json={"rules": "classic", "clock": BLITZ,
                                               "side": "second"})
        assert seek.status_code == 201
        guest = person(own)
        with client.stream("GET", "/api/bot/stream") as stream:
            assert stream.status_code == 200
            time.sleep(0.5)  # the stream's first look is behind it
            game = guest.post(f"/api/seeks/{seek.json()['id']}/accept").json()
            resigned = guest.post(f"/api/games/{game['id']}/resign",
                                  json={"revision": game["revision"]})
            assert resigned.status_code == 200, resigned.text
            told: list[dict[str, Any]] = []
            deadline = time.monotonic() + 15
            for line in stream.iter_lines():  # a heartbeat every second at least
                assert time.monotonic() < deadline, told
                if line:
                    told.append(json.loads(line))
                if len(told) == 2:
                    break
        assert told == [{"type": "gameStart", "game": game["id"],
                         "rules": "classic:losing-calls", "side": "second"},
                        {"type": "gameFinish", "game": game["id"]}]
    finally:
        own.kill()


def test_a_bots_seek_goes_once_its_stream_closes(server: Server) -> None:
    client, _ = bot(server)
    with client.stream("GET", "/api/bot/stream") as stream:
        assert stream.status_code == 200
        seek = client.post("/api/seeks", json={"clock": BLITZ}).json()
    deadline = time.monotonic() + 10
    while any(s["id"] == seek["id"] for s in client.get("/api/seeks").json()["seeks"]):
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_the_example_bot_plays_a_whole_game_against_a_person(server: Server) -> None:
    with example_bot(server.url, "--level", "2", "--games", "1", "--rules", "quads",
                     "--clock", "300+5") as (program, first):
        guest = person(server)
        deadline = time.monotonic() + 30
        offers: list[dict[str, Any]] = []
        while not offers:
            assert time.monotonic() < deadline
            offers = [s for s in guest.get("/api/seeks").json()["seeks"] if s["bot"]
                      and s["name"] in first]
            time.sleep(0.1)
        view = guest.post(f"/api/seeks/{offers[0]['id']}/accept").json()
        game_id = view["id"]
        deadline = time.monotonic() + 120
        while view["outcome"] is None:
            assert time.monotonic() < deadline, view
            if not view["can_act"]:
                time.sleep(0.05)
                view = guest.get(f"/api/games/{game_id}").json()
                continue
            if call_wins(view):
                body: dict[str, Any] = {
                    "action": "declare" if view["declare_offered"] else "claim"}
            elif view["step"] == "place":
                cell = next(i for i, piece in enumerate(view["board"]) if piece is None)
                body = {"action": "place", "cell": cell_name(cell)}
            else:
                body = {"action": "give", "piece": view["supply"][0]}
            answer = guest.post(f"/api/games/{game_id}/actions",
                                json={**body, "revision": view["revision"]})
            view = answer.json() if answer.status_code == 200 else guest.get(
                f"/api/games/{game_id}").json()
        assert view["outcome"] is not None
        assert program.wait(timeout=30) == 0  # it saw the game end and stopped
        assert program.stdout is not None
        output = program.stdout.read()
        assert '"type": "gameStart"' in output
        assert '"type": "gameFinish"' in output


# ---- a seat offered to a bot -----------------------------------------------------------


def hosted(server: Server) -> tuple[httpx.Client, dict[str, Any]]:
    """A person and their new online game (a seat free)."""
    host = person(server)
    game = host.post("/api/games", json={"mode": "online", "rules": "classic",
                                          "clock": BLITZ})
    assert game.status_code == 201, game.text
    return host, game.json()


def next_event(lines: Iterator[str]) -> dict[str, Any]:
    event: dict[str, Any] = json.loads(next(line for line in lines if line))
    return event


def test_a_person_offers_a_seat_to_a_bot_that_takes_it(server: Server) -> None:
    client, made = bot(server)
    host, game = hosted(server)
    with client.stream("GET", "/api/bot/stream") as stream:
        assert stream.status_code == 200
        deadline = time.monotonic() + 10
        while made["bot"] not in [b["bot"] for b in host.get("/api/bots").json()["bots"]]:
            assert time.monotonic() < deadline  # listed once its stream is open
            time.sleep(0.1)
        offered = host.post(f"/api/games/{game['id']}/invite-bot", json={"bot": made["bot"]})
        assert offered.status_code == 200, offered.text
        assert offered.json()["bot_invitation"] == {"bot": made["bot"], "name": made["name"],
                                                     "declined": False}
        lines = stream.iter_lines()
        invitation = next_event(lines)
        assert invitation == {"type": "invitation", "game": game["id"],
                              "rules": "classic:losing-calls",
                              "clock": BLITZ, "side": "second",
                              "host": host.get("/api/players/me").json()["name"]}
        taken = client.post(f"/api/bot/invitations/{game['id']}/accept")
        assert taken.status_code == 200, taken.text
        assert taken.json()["you"] == "second"
        assert taken.json()["names"]["second_bot"] is True
        assert next_event(lines) == {"type": "gameStart", "game": game["id"],
                                     "rules": "classic:losing-calls", "side": "second"}
        seen = host.get(f"/api/games/{game['id']}").json()
        assert seen["seats"] == {"first": "you", "second": "opponent"}
        assert seen["bot_invitation"] is None  # no seat left to offer
        assert seen["clock"]["running"] == "first"
        again = client.post(f"/api/bot/invitations/{game['id']}/accept")
        assert again.status_code == 404


def test_a_bot_declines_and_the_host_sees_it(server: Server) -> None:
    client, made = bot(server)
    host, game = hosted(server)
    host.post(f"/api/games/{game['id']}/invite-bot", json={"bot": made["bot"]})
    with client.stream("GET", "/api/bot/stream") as stream:
        lines = stream.iter_lines()
        assert next_event(lines)["type"] == "invitation"
        assert client.post(f"/api/bot/invitations/{game['id']}/decline").status_code == 204
        view = host.get(f"/api/games/{game['id']}").json()
        assert view["bot_invitation"]["declined"] is True
        assert view["seats"]["second"] == "free"  # anyone with the link may still join
        refused = client.post(f"/api/bot/invitations/{game['id']}/accept")
        assert refused.status_code == 404


def test_who_may_offer_and_take_a_seat(server: Server) -> None:
    client, made = bot(server)
    other, _ = bot(server)
    host, game = hosted(server)
    path = f"/api/games/{game['id']}/invite-bot"
    stranger = person(server)
    refused = stranger.post(path, json={"bot": made["bot"]})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "not_your_game"
    unknown = host.post(path, json={"bot": "bot-nobody"})
    assert unknown.status_code == 422  # the game is there: what the body names is not
    assert unknown.json()["error"]["code"] == "no_such_bot"
    assert host.post(path, json={"bot": "<script>"}).status_code == 400
    cross = host.post(path, json={"bot": made["bot"]}, headers={"Origin": "https://evil.example"})
    assert cross.status_code == 403
    assert cross.json()["error"]["code"] == "cross_site"
    assert host.get(f"/api/games/{game['id']}").json()["bot_invitation"] is None
    assert host.post(path, json={"bot": made["bot"]}).status_code == 200
    for intruder in (other, stranger, host):  # only the bot it is offered to takes it
        answer = intruder.post(f"/api/bot/invitations/{game['id']}/accept")
        assert answer.status_code == 404, answer.text
        assert intruder.post(f"/api/bot/invitations/{game['id']}/decline").status_code == 404
    assert stranger.get(f"/api/games/{game['id']}").json()["bot_invitation"] is None
    assert client.post(f"/api/bot/invitations/{game['id']}/accept").status_code == 200
    full = host.post(path, json={"bot": other.get("/api/players/me").json()["bot"]})
    assert full.status_code == 409
    assert full.json()["error"]["code"] == "seat_taken"


def test_the_example_bot_takes_a_seat_offered_to_it(server: Server) -> None:
    with example_bot(server.url, "--level", "1", "--games", "1") as (program, hello):
        handle = hello.split("(")[1].split(")")[0]
        host, game = hosted(server)
        deadline = time.monotonic() + 30
        while handle not in [b["bot"] for b in host.get("/api/bots").json()["bots"]]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert host.post(f"/api/games/{game['id']}/invite-bot",
                         json={"bot": handle}).status_code == 200
        assert program.stdout is not None
        for line in program.stdout:  # the bot took the seat and its stream saw the game
            if '"type": "gameStart"' in line:
                break
        assert host.get(f"/api/games/{game['id']}").json()["seats"]["second"] == "opponent"
        view = host.post(f"/api/games/{game['id']}/resign",
                         json={"revision": host.get(f"/api/games/{game['id']}").json()[
                             "revision"]}).json()
        assert view["outcome"] is not None
        assert program.wait(timeout=30) == 0  # it saw its one game end
