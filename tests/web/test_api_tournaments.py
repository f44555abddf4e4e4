"""Arenas over the API (``/api/tournaments``), as accounts, a player without one, and
another site's page meet them: made within bounds, listed, joined, paired by the
server's keeper into games the players then play, standings by names (never a
player's id), a pause, refusals that change nothing, and a rate for making them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from quads.site.tournaments.schedule import SLOTS
from web.conftest import Player

SOURCE = Path(__file__).resolve().parents[2] / "src" / "quads"
STATIC = SOURCE / "web" / "static"
CATALOGUE = SOURCE / "catalogue"
GOOD = "a quiet heron by the lake"
ARENA = {"rules": "quads", "clock": "180+2", "minutes": 30}

pytestmark = pytest.mark.settings(tournament_tick=0.0)  # the keeper's rounds by hand


def _account(player: Player, name: str) -> Player:
    made = player.client.post("/api/account", json={"name": name, "password": GOOD})
    assert made.status_code == 201, made.text
    return player


def _post(player: Player, path: str, body: Any = None, expect: int = 200) -> Any:
    return player._check(player.client.post(path, json=body), expect)


def _get(player: Player, path: str, expect: int = 200) -> Any:
    return player._check(player.client.get(path), expect)


def _keep(player: Player) -> list[Any]:
    """One round of the server's tournaments' keeper."""
    return player.client.app.state.tournaments.keep()  # type: ignore[attr-defined, no-any-return]


def test_an_arena_made_joined_paired_and_scored(host: Player, guest: Player,
                                                 stranger: Player) -> None:
    _account(host, "Ada")
    _account(guest, "Bea")
    made = _post(host, "/api/tournaments", ARENA, 201)
    arena = made["id"]
    assert (made["kind"], made["status"], made["rules"], made["clock"]) == (
        "arena", "created", "quads", "180+2")
    assert made["standings"] == []
    assert not made["joined"]
    assert not made["by_site"]
    listed = _get(stranger, "/api/tournaments")
    assert [event["id"] for event in listed["created"]] == [arena]
    assert listed["started"] == listed["finished"] == []

    for player in (host, guest):
        view = _post(player, f"/api/tournaments/{arena}/join")
        assert view["joined"]
    assert [e["players"] for e in _get(stranger, "/api/tournaments")["created"]] == [2]
    assert _keep(host)  # started and paired at once
    view = _get(host, f"/api/tournaments/{arena}")
    assert view["status"] == "started"
    assert sorted(s["name"] for s in view["standings"]) == ["Ada", "Bea"]
    assert [s["you"] for s in view["standings"] if s["name"] == "Ada"] == [True]
    (game,) = view["games"]
    assert {game["first"], game["second"]} == {"Ada", "Bea"}
    assert game["result"] is None
    # No player's id shows anywhere, to anybody.
    seen = host.client.get(f"/api/tournaments/{arena}").text + stranger.client.get(
        "/api/tournaments").text
    assert host.id() not in seen
    assert guest.id() not in seen

    # The game is theirs: in both lists, and played like any online game.
    for player in (host, guest):
        assert game["id"] in {g["id"] for g in player.games()}
    played = host.get(game["id"])
    loser = host if game["first"] == "Ada" else guest
    loser.resign(loser.get(game["id"]))
    assert played["rated"] is False
    table = {s["name"]: s for s in _get(stranger, f"/api/tournaments/{arena}")["standings"]}
    winner = "Bea" if loser is host else "Ada"
    assert (table[winner]["points"], table[winner]["sheet"], table[winner]["rank"]) == (2, [2], 1)
    assert table["Ada" if winner == "Bea" else "Bea"]["games"] == 1

    # A pause: no more pairings until the player joins again.
    paused = _post(host, f"/api/tournaments/{arena}/withdraw")
    assert not paused["joined"]
    assert _keep(host) == []
    assert [s["paused"] for s in paused["standings"] if s["you"]] == [True]


def test_refusals_change_nothing(host: Player, guest: Player, stranger: Player) -> None:
    refused = _post(stranger, "/api/tournaments", ARENA, 403)
    assert refused["error"]["code"] == "account_needed"
    _account(host, "Ada")
    for wrong, status, code in (
            ({**ARENA, "clock": "3d"}, 422, "invalid_clock"),
            ({**ARENA, "minutes": 3}, 422, "invalid_tournament"),
            ({**ARENA, "rules": "lines:color:auto", "rated": True}, 422, "cannot_be_rated"),
            ({**ARENA, "rules": "no such rules"}, 400, "invalid_rules"),
            ({**ARENA, "minutes": "ten"}, 400, "bad_request"),
            ({**ARENA, "extra": 1}, 400, "bad_request")):
        assert _post(host, "/api/tournaments", wrong, status)["error"]["code"] == code, wrong
    assert _get(host, "/api/tournaments")["created"] == []
    far = _post(host, "/api/tournaments", {**ARENA, "starts": "2099-01-01T00:00:00"}, 422)
    assert far["error"]["code"] == "invalid_tournament"  # a moment without a zone is UTC
    arena = _post(host, "/api/tournaments", ARENA, 201)["id"]
    assert _post(stranger, f"/api/tournaments/{arena}/join", None, 403)[
        "error"]["code"] == "account_needed"
    assert _post(guest, f"/api/tournaments/{arena}/withdraw", None, 409)[
        "error"]["code"] == "not_in_tournament"
    assert _get(host, "/api/tournaments/no-such-arena", 404)["error"]["code"] == "not_found"
    assert _post(host, "/api/tournaments/no-such-arena/join", None, 404)[
        "error"]["code"] == "not_found"
    assert host.client.get("/api/tournaments/" + "x" * 40).status_code == 400
    assert _get(host, f"/api/tournaments/{arena}")["standings"] == []


def test_another_site_s_page_neither_makes_nor_joins(host: Player) -> None:
    _account(host, "Ada")
    arena = _post(host, "/api/tournaments", ARENA, 201)["id"]
    for path in ("/api/tournaments", f"/api/tournaments/{arena}/join"):
        answer = host.client.post(path, json=ARENA if path.endswith("s") else None,
                                  headers={"Origin": "http://evil.example"})
        assert answer.status_code == 403, answer.text
        assert answer.json()["error"]["code"] == "cross_site"
    assert len(_get(host, "/api/tournaments")["created"]) == 1
    assert not _get(host, f"/api/tournaments/{arena}")["joined"]


@pytest.mark.settings(tournament_tick=0.0, rate_tournaments="2/hour")
def test_making_arenas_is_counted(host: Player) -> None:
    _account(host, "Ada")
    for _ in range(2):
        _post(host, "/api/tournaments", ARENA, 201)
    refused = host.client.post("/api/tournaments", json=ARENA)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert len(_get(host, "/api/tournaments")["created"]) == 2


@pytest.mark.settings(tournament_tick=0.0, scheduled_arenas=True)
def test_the_site_announces_its_own_arenas(stranger: Player) -> None:
    assert _get(stranger, "/api/tournaments")["created"] == []
    _keep(stranger)
    listed = _get(stranger, "/api/tournaments")
    by_site = [e for e in listed["created"] + listed["started"] if e["by_site"]]
    assert {e["name"] for e in by_site} >= {"hourly-quads", "daily-classic"}
    assert all(e["rated"] for e in by_site)
    _keep(stranger)  # a second round announces nothing twice
    again = _get(stranger, "/api/tournaments")
    assert sorted(e["id"] for e in again["created"] + again["started"]) == sorted(
        e["id"] for e in listed["created"] + listed["started"])


def test_the_page_words_every_slot_of_the_schedule() -> None:
    """The page names the site's arenas by their slots (tournaments/words.js): each slot
    of the schedule is among its slots, with a name in every language."""
    words = (STATIC / "js" / "tournaments" / "words.js").read_text(encoding="utf-8")
    listed = re.search(r"export const SLOTS = \[(.*?)\];", words)
    assert listed is not None
    assert set(re.findall(r'"([\w-]+)"', listed.group(1))) == {slot.key for slot in SLOTS}
    for language in ("en", "de"):
        catalogue = json.loads((CATALOGUE / f"{language}.json").read_text(encoding="utf-8"))
        for slot in SLOTS:
            assert catalogue[f"tournaments.slot.{slot.key}"], (language, slot.key)


def test_a_swiss_event_over_the_api(host: Player, guest: Player, stranger: Player) -> None:
    _account(host, "Ada")
    _account(guest, "Bea")
    _account(stranger, "Cai")
    made = _post(host, "/api/tournaments", {**ARENA, "kind": "swiss", "rounds": 2}, 201)
    swiss = made["id"]
    assert (made["kind"], made["rounds"], made["round"]) == ("swiss", 2, 0)
    assert made["ends"] > made["starts"]  # its longest
    refused = _post(host, "/api/tournaments", {**ARENA, "kind": "swiss", "rounds": 1}, 422)
    assert refused["error"]["code"] == "invalid_tournament"
    for player in (host, guest, stranger):
        _post(player, f"/api/tournaments/{swiss}/join")
    started = _keep(host)
    assert len(started) == 1  # one game and a bye
    view = _get(host, f"/api/tournaments/{swiss}")
    assert view["round"] == 1
    assert [game["round"] for game in view["games"]] == [1]
    table = {line["name"]: line for line in view["standings"]}
    byed = next(name for name, line in table.items() if line["points"] == 1)
    assert table[byed]["sheet"] == [1]
    assert all(line["buchholz"] is not None for line in table.values())
    (game,) = view["games"]
    players = {"Ada": host, "Bea": guest, "Cai": stranger}
    loser = players[game["first"]]
    loser.resign(loser.get(game["id"]))
    assert len(_keep(host)) == 1  # round two: the bye's player plays now
    view = _get(stranger, f"/api/tournaments/{swiss}")
    assert view["round"] == 2
    assert {line["name"]: line["points"] for line in view["standings"]}[game["second"]] == 1
