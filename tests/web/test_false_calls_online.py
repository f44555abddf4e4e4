"""False calls between two people online: strict by default, chosen when the game is
made, and never given away by a view before a call (see ``docs/web-api.md``)."""

from __future__ import annotations

from typing import Any

import pytest

from quads import read_record

OTHER = {"first": "second", "second": "first"}


def started(host: Any, guest: Any, **body: Any) -> dict[str, Any]:
    """An online game of ``body``, the host first and the guest second, both seated."""
    view = host.new(mode="online", host="first", **body)
    guest.join(view)
    return host.get(view["id"])


def turn(players: dict[str, Any], view: dict[str, Any], *tokens: str) -> dict[str, Any]:
    for token in tokens:
        view = players[view["to_move"]].play(view, token)
    return view


@pytest.mark.parametrize(("body", "rules"), [
    ({"rules": "classic"}, "classic:losing-calls"),
    ({"rules": "advanced", "false_calls": "forfeit-calls"}, "advanced:forfeit-calls"),
    ({"rules": "classic", "false_calls": "free-calls"}, "classic"),
    ({"rules": "classic:forfeit-calls"}, "classic:forfeit-calls"),
    ({"rules": "quads"}, "quads"),
])
def test_an_online_games_false_calls_lose_unless_chosen_otherwise(
        host: Any, body: dict[str, Any], rules: str) -> None:
    view = host.new(mode="online", **body)
    assert view["rules"] == rules
    assert view["false_calls"] == (rules.rsplit(":", 1)[-1] if "calls" in rules
                                   else "free-calls")
    # Games against the computer and on one device keep their rules' own: free.
    assert host.new(mode="computer", level=1, human="first", rules="classic")[
        "false_calls"] == "free-calls"
    assert host.new(rules="classic")["rules"] == "classic"


def test_false_calls_that_cost_need_calls_to_make(host: Any) -> None:
    answer = host.new(mode="online", rules="quads", false_calls="losing-calls", expect=422)
    assert answer["error"]["code"] == "invalid_rules"
    answer = host.new(mode="online", rules="classic", false_calls="lose", expect=400)
    assert answer["error"]["code"] == "bad_request"


def test_a_false_declaration_loses_the_game_online(host: Any, guest: Any) -> None:
    view = started(host, guest, rules="classic")
    players = {"first": host, "second": guest}
    view = turn(players, view, "7", "A1C")
    placed = host.act(view, "place", cell="B1")  # completes nothing
    assert placed["declare_offered"] is True
    called = host.act(placed, "declare")
    assert called["outcome"]["reason"] == "false-call"
    assert called["outcome"]["winner"] == "second"
    seen = guest.get(view["id"])
    assert seen["outcome"] == called["outcome"]
    record = guest.client.get(f"/api/games/{view['id']}/record").text
    assert "B1x 0-1" in record
    assert read_record(record).outcome is not None


def test_a_false_claim_under_forfeit_calls_costs_the_declaration(host: Any,
                                                                   guest: Any) -> None:
    view = started(host, guest, rules="classic", false_calls="forfeit-calls")
    players = {"first": host, "second": guest}
    view = turn(players, view, "7", "A1C", "B1D")
    claimed = guest.act(view, "claim")  # the host's B1 completed nothing
    assert claimed["outcome"] is None
    assert (claimed["calls_forfeited"], claimed["claim_offered"]) == (True, False)
    assert host.get(view["id"])["calls_forfeited"] is False  # only the caller's own
    refused = guest.act(claimed, "claim", expect=422)
    assert refused["error"]["reason"] == "calls_forfeited"
    placed = guest.act(claimed, "place", cell="C1")
    assert placed["calls_forfeited"] is True  # this turn's declaration is lost too
    assert placed["declare_offered"] is False
    given = guest.act(placed, "give", piece="E")
    assert given["calls_forfeited"] is False
    assert given["moves"][-1] == "xC1E"


def test_nothing_tells_a_player_whether_a_call_would_win(host: Any, guest: Any,
                                                         stranger: Any) -> None:
    """Neither the seats nor a spectator learn from a view whether a placement completed
    a shape or a hand-over missed one, before the call is made or the window closes."""
    view = started(host, guest, rules="classic")
    players = {"first": host, "second": guest}
    view = turn(players, view, "7")
    quiet = guest.act(view, "place", cell="A1")  # completes nothing
    assert quiet["declare_offered"] is True  # offered alike where nothing was completed
    view = turn(players, guest.act(quiet, "give", piece="C"), "B1D", "C1E")
    won = host.act(view, "place", cell="D1")  # completes row 1
    for seen in (won, guest.get(view["id"]), stranger.get(view["id"])):
        assert not {"can_declare", "can_claim"} & seen.keys()
    assert won["declare_offered"] is True
    missed = host.act(won, "give", piece="3")
    for player in (host, guest, stranger):
        seen = player.get(view["id"])
        assert (seen["moves"][-1], seen["last"]["missed"]) == ("D13", False)
        assert "D1?3" not in player.client.get(f"/api/games/{view['id']}/record").text
    placed = guest.act(missed, "place", cell="A2")  # the claim window closes unused
    assert placed["moves"][-2:] == ["D1?3", "A2"]
    assert "D1?3" in stranger.client.get(f"/api/games/{view['id']}/record").text


def test_a_seek_and_a_quick_pairing_name_their_false_calls(host: Any, guest: Any) -> None:
    clock = {"initial": 300, "increment": 3}
    seek = host.client.post("/api/seeks", json={"rules": "classic", "clock": clock})
    assert seek.status_code == 201, seek.text
    assert seek.json()["rules"] == "classic:losing-calls"
    # A quick pairing of the same rules meets it; one that asks free calls would not.
    met = guest.client.post("/api/pairing", json={"rules": "classic", "clock": clock})
    assert met.status_code == 201, met.text
    assert met.json()["game"]["rules"] == "classic:losing-calls"
