"""Online games with clocks, through the API: the clock starts when the second player
sits down, each side's first turn is a grace, time is charged and incremented, a
late move loses on time, the server ends a game whose time ran out by itself, undo
is off, and a player who left during their turn can be claimed against."""

from __future__ import annotations

import dataclasses
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from quads.storage import GameStore
from quads.web.settings import Settings
from web.conftest import Player

SETTINGS = Settings(clock_grace=2.0, clock_tick=0.05, abandon_realtime=0.5,
                    abandon_share=0.0, abandon_untimed=0.5)


def timed_game(host: Player, guest: Player, clock: dict[str, int] | None) -> dict[str, Any]:
    body: dict[str, Any] = {"mode": "online", "rules": "classic"}
    if clock is not None:
        body["clock"] = clock
    view = host._check(host.client.post("/api/games", json=body), 201)
    return guest.join(view)


def rewind(path: Path, game_id: str, seconds: float) -> None:
    """Move the running turn's start ``seconds`` back, as if the mover had thought so long."""
    store = GameStore(path)
    stored = store.load(game_id)
    assert stored.clock is not None
    stored.clock = dataclasses.replace(stored.clock,
                                       since=stored.clock.since - timedelta(seconds=seconds))
    store.save(stored)
    store.close()


def test_the_clock_starts_when_both_seats_are_taken(host: Player, guest: Player) -> None:
    view = host._check(host.client.post("/api/games", json={
        "mode": "online", "clock": {"initial": 60, "increment": 2}}), 201)
    assert view["clock"]["running"] is None
    assert view["clock"]["first_ms"] == view["clock"]["second_ms"] == 60_000
    view = guest.join(view)
    clock = view["clock"]
    assert clock["control"] == {"initial": 60, "increment": 2}
    assert clock["running"] == "first"
    assert clock["grace"] is True
    assert view["can_undo"] is False
    record = host.client.get(f"/api/games/{view['id']}/record").text
    assert '[TimeControl "60+2"]' in record


def test_time_is_charged_after_the_grace_turns(host: Player, guest: Player,
                                               db_path: Path) -> None:
    view = timed_game(host, guest, {"initial": 60, "increment": 2})
    view = host.play(view, "7")
    view = guest.play(view, "A1C")
    assert view["clock"]["grace"] is False
    assert view["clock"]["running"] == "first"
    rewind(db_path, view["id"], 10)
    view = host.play(host.get(view["id"]), "B2D")
    first = view["clock"]["first_ms"]
    assert 51_000 <= first <= 52_000  # 60 s - 10 s thought + 2 s increment
    assert 59_000 <= view["clock"]["second_ms"] <= 60_000  # the second side's time runs
    record = host.client.get(f"/api/games/{view['id']}/record").text
    assert '[Clocks "60.0 60.0 5' in record


@pytest.mark.settings(clock_tick=3600.0)  # the server does not look: the move comes first
def test_a_move_after_the_time_ran_out_is_refused_and_the_game_lost(
        host: Player, guest: Player, db_path: Path) -> None:
    view = host.play(timed_game(host, guest, {"initial": 30, "increment": 0}), "7")
    view = guest.play(view, "A1C")
    rewind(db_path, view["id"], 31)
    fresh = host.get(view["id"])
    refusal = host.act(fresh, "place", cell="B2", expect=409)
    assert refusal["error"]["code"] == "out_of_time"
    over = guest.get(view["id"])
    assert over["outcome"]["reason"] == "time"
    assert over["outcome"]["winner"] == "second"
    assert over["clock"]["running"] is None
    assert over["clock"]["first_ms"] == 0
    record = host.client.get(f"/api/games/{view['id']}/record").text
    assert '[Termination "time"]' in record
    assert '[Result "0-1"]' in record


def test_the_server_ends_a_game_whose_time_runs_out_with_nobody_acting(
        host: Player, guest: Player) -> None:
    view = timed_game(host, guest, {"initial": 5, "increment": 0})
    view = host.play(view, "7")
    view = guest.play(view, "A1C")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        view = guest.get(view["id"])
        if view["outcome"] is not None:
            break
        time.sleep(0.2)
    assert view["outcome"]["reason"] == "time"
    assert view["outcome"]["winner"] == "second"


def test_a_first_turn_not_made_within_the_grace_aborts_the_game(host: Player,
                                                                 guest: Player) -> None:
    view = timed_game(host, guest, {"initial": 60, "increment": 0})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and view["outcome"] is None:
        time.sleep(0.2)
        view = guest.get(view["id"])
    assert view["outcome"]["reason"] == "aborted"
    assert view["outcome"]["winner"] is None
    assert '[Result "*"]' in host.client.get(f"/api/games/{view['id']}/record").text


def test_undo_is_refused_with_a_clock(host: Player, guest: Player) -> None:
    view = host.play(timed_game(host, guest, {"days": 3}), "7")
    refusal = host.undo(view, expect=409)
    assert refusal["error"]["code"] == "clock_no_undo"
    deadline = view["clock"]["deadline"]
    assert deadline is not None
    games = guest.games()
    assert games[0]["clock"] == {"days": 3}
    assert games[0]["deadline"] is not None


def test_correspondence_games_cannot_be_claimed_as_abandoned(host: Player,
                                                             guest: Player) -> None:
    view = host.play(timed_game(host, guest, {"days": 1}), "7")
    view = guest.play(view, "A1C")
    assert host.get(view["id"])["abandon_after"] is None
    refusal = guest.post(view["id"], "abandoned", {"revision": view["revision"]}, 409)
    assert refusal["error"]["code"] == "no_abandonment"


def test_a_player_who_left_during_their_turn_can_be_claimed_against(
        client: TestClient, host: Player, guest: Player, stranger: Player) -> None:
    view = host.play(timed_game(host, guest, {"initial": 60, "increment": 0}), "7")
    view = guest.play(view, "A1C")
    assert guest.get(view["id"])["abandon_after"] == 1
    # The host opens the game, then leaves it during their own turn.
    with host.client.websocket_connect(f"/api/games/{view['id']}/live") as socket:
        socket.receive_json()
        early = guest.post(view["id"], "abandoned", {"revision": view["revision"]}, 409)
        assert early["error"]["code"] == "not_abandoned"
    refusal = stranger.post(view["id"], "abandoned", {"revision": view["revision"]}, 403)
    assert refusal["error"]["code"] == "not_your_game"
    mine = host.post(view["id"], "abandoned", {"revision": view["revision"]}, 409)
    assert mine["error"]["code"] == "not_abandoned"  # it is the host's own turn
    deadline = time.monotonic() + 10
    while True:
        answer = guest.client.post(f"/api/games/{view['id']}/abandoned",
                                   json={"revision": view["revision"], "draw": False})
        if answer.status_code == 200 or time.monotonic() > deadline:
            break
        assert answer.json()["error"]["code"] == "not_abandoned"
        time.sleep(0.2)
    assert answer.status_code == 200, answer.text
    over = answer.json()
    assert over["outcome"]["reason"] == "abandonment"
    assert over["outcome"]["winner"] == "second"


def test_an_untimed_game_left_may_be_taken_as_a_draw(client: TestClient, host: Player,
                                                     guest: Player) -> None:
    view = host.play(timed_game(host, guest, None), "7")
    assert view["clock"] is None
    assert view["can_undo"] is True
    with guest.client.websocket_connect(f"/api/games/{view['id']}/live") as socket:
        socket.receive_json()
    deadline = time.monotonic() + 10
    while True:
        answer = host.client.post(f"/api/games/{view['id']}/abandoned",
                                  json={"revision": view["revision"], "draw": True})
        if answer.status_code == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert answer.status_code == 200, answer.text
    assert answer.json()["outcome"] == {"winner": None, "reason": "abandonment", "shapes": [],
                                        "cells": [], "traits": []}


def test_bad_clocks_are_refused(host: Player) -> None:
    for clock in ({"initial": 4, "increment": 0}, {"initial": 60, "increment": -1},
                  {"days": 5}, {"initial": 60}, {"days": 1, "initial": 60, "increment": 0}):
        answer = host.client.post("/api/games", json={"mode": "online", "clock": clock})
        assert answer.status_code == 400, clock


def test_a_rematch_keeps_the_clock_and_starts_it(host: Player, guest: Player) -> None:
    view = timed_game(host, guest, {"initial": 60, "increment": 1})
    view = host.resign(view)
    following = guest.rematch(view)
    assert following["clock"]["control"] == {"initial": 60, "increment": 1}
    assert following["clock"]["running"] == "first"


def test_a_socket_opened_later_gets_the_clock_as_of_then(host: Player, guest: Player) -> None:
    view = host.play(timed_game(host, guest, {"initial": 60, "increment": 0}), "7")
    view = guest.play(view, "A1C")  # the first side's time runs
    with host.client.websocket_connect(f"/api/games/{view['id']}/live") as early:
        before = early.receive_json()["view"]["clock"]
        time.sleep(1.2)
        with host.client.websocket_connect(f"/api/games/{view['id']}/live") as late:
            after = late.receive_json()["view"]["clock"]
    assert before["running"] == after["running"] == "first"
    assert after["first_ms"] <= before["first_ms"] - 1000
    assert after["as_of"] > before["as_of"]
