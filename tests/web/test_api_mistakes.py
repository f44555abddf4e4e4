"""A player's exercises over the API (``/api/mistakes``): the caller's own list and
queue with counts, the right turns hidden until an answer, answers judged and
scheduled, and nothing of another player's seen or answered, from another browser or
another site's page."""

from __future__ import annotations

import random
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from quads import Position, Rules
from quads.game import Game
from quads.mistakes import exercises
from quads.outcome import Player as OutcomePlayer
from quads.site.mistakes.schedule import Memory
from quads.site.mistakes.schedule import answered as answered_memory
from quads.site.mistakes.service import keep_found
from quads.solver.symmetry import (
    board_symmetries,
    trait_transforms,
    transform_position,
    transform_turn,
)
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


@pytest.mark.settings(mistakes_tick=0.1, mistakes_seconds=60.0)
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


# -- answers given offline, sent later ----------------------------------------------


def _late(position: str, kind: str, turn: str, at: str, **more: Any) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), "rules": "quads", "position": position, "kind": kind,
            "turn": turn, "at": at, **more}


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def test_answers_given_offline_count_once_at_their_moment(host: Player) -> None:
    """A late answer finds its exercise by position up to symmetry, is judged, counts at
    the moment the device gave it, and counts once however often it is sent."""
    mine = _seed(host)
    give, turn = mine["give"], mine["turn"]
    mirror = board_symmetries(QUADS.shape_masks)[1]
    same = trait_transforms(QUADS.traits)[0]
    mirrored = transform_position(Position.from_string(turn["position"]), mirror, same)
    wrong = transform_turn(Turn.parse("C16"), mirror, same)
    stored = host.client.app.state.store  # type: ignore[attr-defined]
    before = stored.exercise(host.id(), give["id"])
    given = now() - timedelta(hours=3)
    sent = [_late(give["position"], "give", "6", _iso(given)),
            _late(mirrored.to_string(), "turn", wrong.text, _iso(given + timedelta(minutes=1)))]
    answered = host._check(host.client.post("/api/mistakes/answers",
                                             json={"answers": sent}), 200)["answers"]
    assert [(a["id"], a["state"], a["right"]) for a in answered] == [
        (sent[0]["id"], "kept", True), (sent[1]["id"], "kept", False)]
    first = stored.exercise(host.id(), give["id"])
    expected = answered_memory(Memory(before.due, before.learnt, before.card), True,
                               datetime.fromisoformat(_iso(given)))
    assert first.due == expected.due  # scheduled from the moment it was given
    assert first.answered == datetime.fromisoformat(_iso(given))  # when it was given
    # Sent again (the answer was lost on the way back): counted once.
    again = host._check(host.client.post("/api/mistakes/answers",
                                         json={"answers": sent}), 200)["answers"]
    assert [a["state"] for a in again] == ["kept", "kept"]
    listed = {e["id"]: e for e in host._check(host.client.get("/api/mistakes"), 200)[
        "exercises"]}
    assert (listed[give["id"]]["tries"], listed[turn["id"]]["tries"]) == (1, 1)
    assert stored.exercise(host.id(), give["id"]) == first


@pytest.mark.settings(mistakes_tick=0.1, mistakes_seconds=60.0)
def test_a_late_answer_waits_for_its_game_and_refusals_stand_alone(host: Player,
                                                                   stranger: Player) -> None:
    """An answer to an exercise the device found in its own game waits until the server
    has looked at that game (then it is counted, or gone when the server found no such
    exercise); an answer that cannot be read is refused alone; another player's
    exercise is nobody's business."""
    game = next(g for g in map(_random_game, range(100))
                if exercises(g, OutcomePlayer.FIRST, seconds=5))
    found = exercises(game, OutcomePlayer.FIRST, seconds=5)[0]
    device = str(uuid.uuid4())
    host.token()  # a player of the site (a device gets its cookie as it plays)
    at = _iso(now())
    answer = _late(found.position.to_string(), found.kind, found.right[0].text, at,
                   device=device)
    nothing = _late(WON.to_string(), "turn", "B46", at, device=device)  # no mistake there
    unread = _late(WON.to_string(), "turn", "B46", at, rules="lines:nothing")
    ancient = _late(WON.to_string(), "turn", "B46", "1999-12-31T23:00:00Z")

    def send(*items: dict[str, Any]) -> list[tuple[str, Any]]:
        answered = host._check(host.client.post("/api/mistakes/answers",
                                                json={"answers": list(items)}), 200)
        return [(a["state"], a["error"] and a["error"]["code"]) for a in answered["answers"]]

    assert send(answer, nothing, unread, ancient) == [
        ("waiting", None), ("waiting", None), ("refused", "invalid_rules"),
        ("refused", "invalid_date")]
    upload = {"mode": "computer", "rules": "quads", "level": 3, "human": "first",
              "actions": [str(action) for action in game.actions], "redo": [],
              "created": "2026-12-01T09:00:00Z", "device_revision": 1}
    host._check(host.client.put(f"/api/games/device/{device}", json=upload), 201)
    deadline = time.monotonic() + 60
    states = send(answer, nothing)
    while time.monotonic() < deadline and states[0][0] == "waiting":
        time.sleep(0.2)
        states = send(answer, nothing)
    assert states == [("kept", None), ("gone", None)]
    (kept,) = [e for e in host._check(host.client.get("/api/mistakes"), 200)["exercises"]
               if e["position"] == found.position.to_string() and e["kind"] == found.kind]
    assert kept["tries"] == 1
    # The same answer from a stranger: no exercise of theirs, and the owner's unchanged.
    theirs = stranger._check(stranger.client.post("/api/mistakes/answers", json={
        "answers": [{**answer, "id": str(uuid.uuid4()), "device": None}]}), 200)
    assert theirs["answers"][0]["state"] == "gone"
    forged = host.client.post("/api/mistakes/answers", json={"answers": [answer]},
                              headers={"Origin": "http://evil.example"})
    assert forged.status_code == 403
    for bad in ({"answers": []}, {"answers": [answer] * 51},
                {"answers": [{**answer, "id": "not-a-uuid"}]},
                {"answers": [{**answer, "kind": "place"}]}):
        assert host.client.post("/api/mistakes/answers", json=bad).status_code == 400
    after = [e for e in host._check(host.client.get("/api/mistakes"), 200)["exercises"]
             if e["id"] == kept["id"]]
    assert after == [kept]
