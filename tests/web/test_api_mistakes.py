"""A player's exercises over the API (``/api/mistakes``): the caller's own list and
queue with counts, the right turns hidden until an answer, answers judged and
scheduled, and nothing of another player's seen or answered, from another browser or
another site's page."""

from __future__ import annotations

import random
import time
import uuid
from datetime import datetime
from typing import Any

import pytest

from quads import Position, Rules
from quads.game import Game
from quads.mistakes import exercises
from quads.outcome import Player as OutcomePlayer
from quads.site.mistakes.service import keep_found
from quads.storage.stored import now
from quads.turn import Turn
from web.conftest import Player

QUADS = Rules.parse("quads")
WON = Position.from_string("A0../1F.D/27../4.BC 8")


def _seed(player: Player) -> dict[str, Any]:
    """Two exercises of ``player``: a hand-over (after B4, only 6 keeps the win) and a
    whole turn (C1 was no cell for it); their views by kind."""
    found = []
    for played in ("B43", "C16"):
        game = Game(QUADS, WON)
        game.play(Turn.parse(played))
        found.extend(exercises(game))
    store = player.client.app.state.store  # type: ignore[attr-defined]
    assert keep_found(store, player.id(), found, None, now()) == 2
    listed = player._check(player.client.get("/api/mistakes"), 200)
    return {e["kind"]: e for e in listed["exercises"]}


def test_the_caller_s_exercises_and_an_answer(host: Player) -> None:
    mine = _seed(host)
    listed = host._check(host.client.get("/api/mistakes?due=true"), 200)
    assert len(listed["exercises"]) == 2
    assert listed["counts"] == {"learnt": 0, "due": 2, "new": 2}
    assert "answers" not in str(listed)  # nothing gives the answer away
    give = mine["give"]
    assert (give["keep"], give["played"], give["position"]) == ("win", "3", WON.place(
        Turn.parse("B4").place).to_string())  # type: ignore[arg-type]

    right = host._check(host.client.post(f"/api/mistakes/{give['id']}/answer",
                                         json={"turn": "6"}), 200)
    assert right["right"] is True
    assert right["answers"] == ["6"]
    assert datetime.fromisoformat(right["exercise"]["due"]) > datetime.fromisoformat(
        give["due"])
    assert right["exercise"]["tries"] == 1
    turn = mine["turn"]
    wrong = host._check(host.client.post(f"/api/mistakes/{turn['id']}/answer",
                                         json={"turn": "C16"}), 200)
    assert wrong["right"] is False
    assert "B46" in wrong["answers"]
    assert host._check(host.client.get("/api/mistakes"), 200)["counts"]["new"] == 0


def test_nobody_sees_or_answers_another_s_exercises(host: Player, stranger: Player) -> None:
    mine = _seed(host)
    assert stranger._check(stranger.client.get("/api/mistakes"), 200) == {
        "exercises": [], "counts": {"learnt": 0, "due": 0, "new": 0}}
    target = mine["give"]["id"]
    refused = stranger._check(stranger.client.post(f"/api/mistakes/{target}/answer",
                                                   json={"turn": "6"}), 404)
    assert refused["error"]["code"] == "not_found"
    forged = host.client.post(f"/api/mistakes/{target}/answer", json={"turn": "6"},
                              headers={"Origin": "http://evil.example"})
    assert forged.status_code == 403
    assert forged.json()["error"]["code"] == "cross_site"
    for bad in ({"turn": "Z9"}, {"turn": "B4", "extra": 1}, {}):
        assert host.client.post(f"/api/mistakes/{target}/answer", json=bad).status_code == 400
    after = {e["id"]: e for e in host._check(host.client.get("/api/mistakes"), 200)[
        "exercises"]}
    assert after[target]["tries"] == 0  # nothing refused changed anything
    assert after[target]["due"] == mine["give"]["due"]


def _random_game(seed: int) -> Game:
    chooser = random.Random(seed)
    game = Game(QUADS)
    while not game.is_over():
        game.play(chooser.choice(list(game.position.legal_turns(QUADS))))
    return game


@pytest.mark.settings(mistakes_tick=0.1)
def test_a_game_played_on_a_device_leaves_its_exercises_once_uploaded(host: Player) -> None:
    """The server looks at an uploaded game that is over by itself: the person's own
    mistakes come to their list, those the library finds, and nobody else's."""
    game = next(g for g in map(_random_game, range(100))
                if exercises(g, OutcomePlayer.FIRST, seconds=5))
    expected = sorted((e.position.to_string(), e.played.text)
                      for e in exercises(game, OutcomePlayer.FIRST, seconds=5))
    upload = {"mode": "computer", "rules": "quads", "level": 3, "human": "first",
              "actions": [str(action) for action in game.actions], "redo": [],
              "created": "2026-12-01T09:00:00Z", "device_revision": 1}
    host._check(host.client.put(f"/api/games/device/{uuid.uuid4()}", json=upload), 201)
    deadline = time.monotonic() + 60
    listed: dict[str, Any] = {"exercises": []}
    while time.monotonic() < deadline and not listed["exercises"]:
        time.sleep(0.2)
        listed = host._check(host.client.get("/api/mistakes"), 200)
    assert sorted((e["position"], e["played"]) for e in listed["exercises"]) == expected
    assert listed["counts"]["new"] == len(expected)
