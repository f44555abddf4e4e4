"""Watching games: the list of games being played now (``GET /api/watch``) holds the
lobby's games going on, never an invitation's game or its rematch, nor a finished
one; an invitation says who invites, the clock and whether it is rated; a game's
players and spectators hear how many watch it (the live socket's ``watchers``)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from quads.web.settings import Settings
from web.conftest import Player

SETTINGS = Settings(seek_linger=0.5, clock_tick=0.05)
BLITZ = {"initial": 180, "increment": 2}


def _lobby_game(host: Player, guest: Player) -> dict[str, Any]:
    offer = host._check(host.client.post("/api/seeks", json={"rules": "classic",
                                                              "clock": BLITZ}), 201)
    return guest._check(guest.client.post(f"/api/seeks/{offer['id']}/accept"), 201)


def _listed(player: Player) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = player._check(player.client.get("/api/watch"), 200)["games"]
    return games


def test_the_lobby_s_games_are_listed_to_watch_and_invitations_never(
        host: Player, guest: Player, stranger: Player) -> None:
    invited = host.new(mode="online", rules="quads")
    guest.join(invited)
    paired = _lobby_game(host, guest)
    listed = _listed(stranger)
    assert [game["id"] for game in listed] == [paired["id"]]
    line = listed[0]
    assert (line["first"], line["second"]) == (paired["names"]["first"],
                                               paired["names"]["second"])
    assert line["first"]
    assert line["second"]
    assert (line["rules"], line["clock"], line["ply"]) == ("classic:losing-calls", BLITZ, 0)
    assert line["to_move"] == "first"
    # An invitation's game, over, has a rematch that stays the players' own too.
    over = host.resign(host.get(invited["id"]))
    following = guest.rematch(over)
    assert following["id"] not in [game["id"] for game in _listed(stranger)]
    # A lobby game that ended leaves the list.
    mover = host if paired["you"] != "first" else guest
    mover.resign(mover.get(paired["id"]))
    assert _listed(stranger) == []


def test_an_invitation_says_who_invites_the_clock_and_whether_it_is_rated(
        host: Player, guest: Player, stranger: Player) -> None:
    made = host._check(host.client.post("/api/games", json={
        "mode": "online", "rules": "classic", "clock": BLITZ}), 201)
    token = made["invite"].rsplit("/", 1)[1]
    invite = stranger._check(stranger.client.get(f"/api/invites/{token}"), 200)
    assert invite["host"]  # a made-up name at least: never "Player 1"
    assert host.get(made["id"])["names"][made["you"]] == invite["host"]
    assert (invite["clock"], invite["rated"]) == (BLITZ, False)
    joined = guest.join(made)
    # The guest, named on joining, is read by name by the host at once.
    assert all(joined["names"][side] for side in ("first", "second"))
    assert host.get(made["id"])["names"] == joined["names"]
    full = stranger._check(stranger.client.get(f"/api/invites/{token}"), 200)
    assert (full["seat"], full["host"]) == (None, None)


def test_the_players_hear_how_many_watch(client: TestClient, host: Player, guest: Player,
                                         stranger: Player) -> None:
    game = _lobby_game(host, guest)

    def watchers(socket: Any) -> int:
        while True:
            message = socket.receive_json()
            if message["type"] == "watchers":
                return int(message["count"])

    live = f"/api/games/{game['id']}/live?watchers=1"
    with host.client.websocket_connect(live) as mine:
        assert mine.receive_json()["type"] == "view"  # nobody watches: nothing said
        with stranger.client.websocket_connect(live) as theirs:
            assert watchers(mine) == 1
            assert watchers(theirs) == 1
            # A player who comes is no spectator: the number stays, and is not sent again.
            with guest.client.websocket_connect(live) as guests:
                assert watchers(guests) == 1
                mine.send_json({"type": "ping"})
                assert mine.receive_json()["type"] in ("pong", "view")
            # A socket that did not ask hears no count.
            with guest.client.websocket_connect(f"/api/games/{game['id']}/live") as plain:
                plain.send_json({"type": "ping"})
                kinds = [plain.receive_json()["type"] for _ in range(2)]
                assert "watchers" not in kinds
        assert watchers(mine) == 0
