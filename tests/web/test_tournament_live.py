"""Tournaments, live (``/api/tournaments/{id}/live``): the event on connecting and
after each change made by anybody (a join, the keeper's pairing, a result), each
socket's own part (its player's game of the event, which their page opens), no
player's id to anybody, and the socket's limits: another site's page, an event that
does not exist, too many sockets."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from web.conftest import Player
from web.test_api_tournaments import ARENA, _account, _keep, _post

pytestmark = pytest.mark.settings(tournament_tick=0.0, tournament_refresh=0.05)


def _next(socket: WebSocketTestSession) -> tuple[dict[str, Any], dict[str, Any]]:
    """The next pair of messages: the event as everybody sees it, then one's own part."""
    shared = socket.receive_json()
    assert shared["type"] == "tournament", shared
    mine = socket.receive_json()
    assert mine["type"] == "me", mine
    return shared["tournament"], mine["me"]


def _until(socket: WebSocketTestSession, wanted: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first pair of messages for which ``wanted(event, me)`` holds: a change made
    in steps (an event started, then paired) may be seen between them."""
    for _ in range(20):
        event, me = _next(socket)
        if wanted(event, me):
            return event, me
    raise AssertionError("the socket never showed what was wanted")


def test_the_socket_follows_the_event_and_each_player_s_game(
        host: Player, guest: Player, stranger: Player) -> None:
    _account(host, "Ada")
    _account(guest, "Bea")
    arena = _post(host, "/api/tournaments", ARENA, 201)["id"]
    path = f"/api/tournaments/{arena}/live"
    with host.client.websocket_connect(path) as ada, \
            stranger.client.websocket_connect(path) as watcher:
        event, me = _next(ada)
        first = event
        assert (event["id"], event["status"], event["players"]) == (arena, "created", 0)
        assert me == {"name": None, "joined": False, "playing": None}  # not in it yet
        assert _next(watcher)[1] == {"name": None, "joined": False, "playing": None}

        _post(guest, f"/api/tournaments/{arena}/join")  # by a route, not the socket
        event, me = _until(ada, lambda event, _: event["players"] == 1)
        assert [line["name"] for line in event["standings"]] == ["Bea"]
        assert me["joined"] is False
        joined = _post(host, f"/api/tournaments/{arena}/join")
        # A view read before says so, whichever way it comes: the page keeps the newer.
        assert datetime.fromisoformat(event["read"]) < datetime.fromisoformat(joined["read"])
        event, me = _until(ada, lambda event, _: event["players"] == 2)
        assert datetime.fromisoformat(event["read"]) >= datetime.fromisoformat(
            first["read"])
        assert event["players"] == 2
        assert me == {"name": "Ada", "joined": True, "playing": None}

        (paired,) = _keep(host)
        event, me = _until(ada, lambda event, _: event["games"])
        assert event["status"] == "started"
        assert [game["id"] for game in event["games"]] == [paired.game.id]
        assert me["playing"] == paired.game.id
        shared, theirs = _until(watcher, lambda event, _: event["games"])
        assert theirs["playing"] is None
        # The shared message marks nobody's line and names nobody's id.
        assert not any(line["you"] for line in shared["standings"])
        assert shared["joined"] is False
        assert shared["playing"] is None
        assert host.id() not in str(shared)
        assert guest.id() not in str(shared)

        game = host.get(paired.game.id)
        assert game["tournament"] == {"id": arena, "name": ""}
        host.resign(game)
        event, me = _until(ada, lambda event, _: event["games"][0]["result"])
        assert me["playing"] is None
        assert event["games"][0]["result"] in {"first", "second"}
        ada.send_json({"type": "ping"})
        assert ada.receive_json() == {"type": "pong"}


def test_the_rest_view_names_the_caller_s_game(host: Player, guest: Player,
                                               stranger: Player) -> None:
    _account(host, "Ada")
    _account(guest, "Bea")
    arena = _post(host, "/api/tournaments", ARENA, 201)["id"]
    for player in (host, guest):
        _post(player, f"/api/tournaments/{arena}/join")
    (paired,) = _keep(host)
    for player, expected in ((host, paired.game.id), (guest, paired.game.id),
                             (stranger, None)):
        shown = player._check(player.client.get(f"/api/tournaments/{arena}"), 200)
        assert shown["playing"] == expected
        assert shown["at"]
    assert host.get(paired.game.id)["tournament"]["id"] == arena
    # A game no tournament paired names none.
    assert host.new(rules="classic").get("tournament") is None


@pytest.mark.settings(tournament_tick=0.0, tournament_sockets=1)
def test_the_socket_keeps_its_limits(host: Player, guest: Player) -> None:
    _account(host, "Ada")
    arena = _post(host, "/api/tournaments", ARENA, 201)["id"]
    path = f"/api/tournaments/{arena}/live"
    elsewhere = {"origin": "https://elsewhere.example"}
    with pytest.raises(WebSocketDisconnect) as refused, \
            host.client.websocket_connect(path, headers=elsewhere) as socket:
        socket.receive_json()
    assert refused.value.code == 4403
    with pytest.raises(WebSocketDisconnect) as missing, \
            host.client.websocket_connect("/api/tournaments/nothing-here/live") as socket:
        socket.receive_json()
    assert missing.value.code == 4404
    with host.client.websocket_connect(path) as first:
        _next(first)
        with pytest.raises(WebSocketDisconnect) as busy, \
                guest.client.websocket_connect(path) as second:
            second.receive_json()
        assert busy.value.code == 4429
    with guest.client.websocket_connect(path) as again:  # the first one's place is free
        assert _next(again)[0]["id"] == arena
