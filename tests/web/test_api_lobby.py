"""The lobby through the API and its live socket: seeks opened, listed, withdrawn,
accepted once; quick pairing; names; seeks that go with their player."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from quads.web.settings import Settings
from web.conftest import Player

SETTINGS = Settings(seek_linger=0.5, clock_tick=0.05)
BLITZ = {"initial": 180, "increment": 2}


def seek(player: Player, expect: int = 201, **body: Any) -> dict[str, Any]:
    body.setdefault("clock", BLITZ)
    return player._check(player.client.post("/api/seeks", json=body), expect)


def seeks(player: Player) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = player._check(player.client.get("/api/seeks"), 200)["seeks"]
    return found


def test_a_seek_is_listed_for_all_and_accepted_once(host: Player, guest: Player,
                                                    stranger: Player) -> None:
    offer = seek(host, rules="classic", side="second", clock={"days": 3})
    assert offer["mine"] is True
    assert offer["clock"] == {"days": 3}
    assert offer["name"]  # made up
    listed = seeks(guest)
    assert [(s["id"], s["mine"], s["name"]) for s in listed] == [
        (offer["id"], False, offer["name"])]
    own = host._check(host.client.post(f"/api/seeks/{offer['id']}/accept"), 409)
    assert own["error"]["code"] == "own_seek"
    game = guest._check(guest.client.post(f"/api/seeks/{offer['id']}/accept"), 201)
    assert game["you"] == "first"  # the seeker asked for the second seat
    assert game["rules"] == "classic:losing-calls"
    assert game["clock"]["control"] == {"days": 3}
    assert game["clock"]["running"] == "first"
    assert game["invite"] is None
    assert game["names"]["second"] == offer["name"]
    assert game["names"]["first"]  # the taker's, made up
    late = stranger._check(stranger.client.post(f"/api/seeks/{offer['id']}/accept"), 409)
    assert late["error"]["code"] == "seek_gone"
    assert seeks(stranger) == []
    assert host.get(game["id"])["you"] == "second"
    watched = stranger.get(game["id"])
    assert watched["spectator"] is True


def test_only_its_player_withdraws_a_seek(host: Player, guest: Player) -> None:
    offer = seek(host)
    refusal = guest._check(guest.client.delete(f"/api/seeks/{offer['id']}"), 403)
    assert refusal["error"]["code"] == "not_your_seek"
    assert host.client.delete(f"/api/seeks/{offer['id']}").status_code == 204
    missing = host._check(host.client.delete(f"/api/seeks/{offer['id']}"), 404)
    assert missing["error"]["code"] == "not_found"
    assert seeks(guest) == []


def test_a_player_has_three_seeks_at_most_and_starting_a_game_withdraws_them(
        host: Player, guest: Player) -> None:
    for initial in (60, 120, 180):
        seek(host, clock={"initial": initial, "increment": 0})
    refusal = seek(host, 409)
    assert refusal["error"]["code"] == "too_many_seeks"
    host._check(host.client.post("/api/games", json={"mode": "online"}), 201)
    assert seeks(guest) == []


def test_quick_pairing_waits_then_meets(host: Player, guest: Player) -> None:
    waiting = host._check(host.client.post("/api/pairing", json={"clock": BLITZ}), 202)
    assert waiting["game"] is None
    assert waiting["seek"]["mine"] is True
    other_clock = guest._check(guest.client.post(
        "/api/pairing", json={"clock": {"initial": 300, "increment": 3}}), 202)
    met = guest._check(guest.client.post("/api/pairing", json={"clock": BLITZ}), 201)
    assert met["seek"] is None
    game = met["game"]
    assert game["seats"] in ({"first": "you", "second": "opponent"},
                             {"first": "opponent", "second": "you"})
    assert seeks(host) == []  # both seeks gone, the guest's other one too
    assert other_clock["seek"]["id"] not in {s["id"] for s in seeks(host)}


def test_the_lobby_socket_tells_seeks_and_the_seeker_of_the_game(host: Player, guest: Player,
                                                                  stranger: Player) -> None:
    host.token()  # a player's socket: a socket opened before one has an identity is nobody's
    with host.client.websocket_connect("/api/lobby/live") as seeker, \
            stranger.client.websocket_connect("/api/lobby/live") as watcher:
        assert seeker.receive_json() == {"type": "seeks", "seeks": []}
        assert watcher.receive_json() == {"type": "seeks", "seeks": []}
        offer = seek(host)
        mine = seeker.receive_json()
        theirs = watcher.receive_json()
        assert mine["type"] == theirs["type"] == "seek"
        assert (mine["seek"]["mine"], theirs["seek"]["mine"]) == (True, False)
        game = guest._check(guest.client.post(f"/api/seeks/{offer['id']}/accept"), 201)
        assert watcher.receive_json() == {"type": "unseek", "id": offer["id"]}
        assert seeker.receive_json() == {"type": "unseek", "id": offer["id"]}
        assert seeker.receive_json() == {"type": "paired", "game": game["id"],
                                         "seek": offer["id"]}
        seeker.send_json({"type": "ping"})
        assert seeker.receive_json() == {"type": "pong"}


def test_a_seek_goes_when_its_player_has_no_socket_left(host: Player, guest: Player) -> None:
    host.token()
    with host.client.websocket_connect("/api/lobby/live") as socket:
        socket.receive_json()
        offer = seek(host)
        time.sleep(2.5)  # kept while the socket is open
        assert [s["id"] for s in seeks(guest)] == [offer["id"]]
    deadline = time.monotonic() + 8
    while seeks(guest) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert seeks(guest) == []


def test_names_are_made_up_and_may_be_chosen(host: Player, guest: Player) -> None:
    assert guest._check(guest.client.get("/api/players/me"), 200) == {"name": None, "bot": None}
    host.token()
    made = host._check(host.client.get("/api/players/me"), 200)["name"]
    assert made == host._check(host.client.get("/api/players/me"), 200)["name"]
    offer = seek(host)
    assert offer["name"] == made
    chosen = host._check(host.client.put("/api/players/me", json={"name": "Ada L."}), 200)
    assert chosen == {"name": "Ada L.", "bot": None}
    assert seeks(guest)[0]["name"] == "Ada L."
    for bad in ("", "A", "x" * 25, "<script>", " Ada", "Ada\n", "a@b"):
        answer = host.client.put("/api/players/me", json={"name": bad})
        assert answer.status_code == 400, bad
    assert host._check(host.client.get("/api/players/me"), 200) == {"name": "Ada L.", "bot": None}


def test_bad_seeks_are_refused(host: Player) -> None:
    for body in ({"clock": {"initial": 2, "increment": 0}}, {}, {"clock": BLITZ, "side": "up"},
                 {"clock": BLITZ, "rules": "chess"}):
        assert host.client.post("/api/seeks", json=body).status_code == 400, body
    assert seeks(host) == []


@pytest.mark.settings(rate_seeks="3/minute")
def test_seeks_are_rate_limited(host: Player) -> None:
    for _ in range(3):
        offer = seek(host)
        assert host.client.delete(f"/api/seeks/{offer['id']}").status_code == 204
    refusal = host.client.post("/api/seeks", json={"clock": BLITZ})
    assert refusal.status_code == 429
    assert refusal.headers["Retry-After"]


@pytest.mark.settings(lobby_sockets=1)
def test_the_lobby_socket_keeps_its_limits(host: Player, guest: Player) -> None:
    elsewhere = {"origin": "https://elsewhere.example"}
    with pytest.raises(WebSocketDisconnect) as refused, \
            host.client.websocket_connect("/api/lobby/live", headers=elsewhere) as socket:
        socket.receive_json()
    assert refused.value.code == 4403
    with host.client.websocket_connect("/api/lobby/live") as first:
        first.receive_json()
        with pytest.raises(WebSocketDisconnect) as busy, \
                guest.client.websocket_connect("/api/lobby/live") as second:
            second.receive_json()
        assert busy.value.code == 4429
