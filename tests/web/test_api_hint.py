"""``GET /api/games/{id}/hint``: advice for the person to move, in their language."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import call_wins


def hint(api: Any, view: dict[str, Any], expect: int = 200, **query: str) -> dict[str, Any]:
    answer = api.client.get(f"/api/games/{view['id']}/hint", params=query)
    assert answer.status_code == expect, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_a_win_on_the_board(api: Any) -> None:
    view = api.import_record("1. 7 A1C 2. B1D C1E *")
    before = api.stored(view["id"])
    advice = hint(api, view)
    assert advice == {
        "action": None, "place": "D1", "give": None, "value": "win", "plies": 1,
        "safe": advice["safe"],
        "reason": "Place it on D1: that completes row 1 (all dark).",
        "reason_key": "hint.win_now", "reason_params": {"cell": "D1"},
        "shapes": [{"shape": "row1", "traits": [{"trait": "color", "value": True}]}],
    }
    assert hint(api, view, lang="de")["reason"] == (
        "Setze die Figur auf D1: Damit ist Reihe 1 (alle dunkel) vollständig.")
    assert api.stored(view["id"]) == before


def test_a_turn_with_a_safe_piece(api: Any) -> None:
    view = api.play(api.new(), "7", "A1C", "B2D")
    advice = hint(api, view)
    assert advice["action"] is None
    assert advice["place"] is not None
    assert advice["give"] in advice["safe"]
    assert advice["value"] in ("win", "draw", "loss", "unknown")
    assert advice["reason"]


def test_a_missed_declaration_is_worth_a_claim(api: Any) -> None:
    view = api.import_record('[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1?3 *\n')
    advice = hint(api, view)
    assert advice["action"] == "claim"
    assert (advice["place"], advice["give"]) == (None, None)


def test_no_hint_for_the_computer_or_after_the_end(api: Any) -> None:
    view = api.act(api.new(mode="computer", level=1, human="first"), "give", piece="7")
    assert hint(api, view, 409)["error"]["code"] == "not_your_turn"
    over = api.import_record("1. 7 A1C 2. B1D C1E 3. D1! 1-0")
    assert hint(api, over, 409)["error"]["code"] == "game_over"


@pytest.mark.parametrize("lang", ["fr", ""])
def test_an_unknown_language(api: Any, lang: str) -> None:
    view = api.new()
    assert hint(api, view, 400, lang=lang)["error"]["code"] == "bad_request"


# ---- fair online games ------------------------------------------------------------------


def _online(host: Any, guest: Any, moment: str) -> dict[str, Any]:
    """A classic online game (host first) at ``moment``."""
    view: dict[str, Any] = host.new(mode="online", rules="classic", host="first")
    if moment == "waiting":
        return view
    guest.join(view)
    view = host.get(view["id"])
    if moment == "placing":  # the guest has a piece to place: their turn
        view = host.play(view, "7")
    elif moment == "declarable":  # the host completed row 1 and may call it
        for player, token in ((host, "7"), (guest, "A1C"), (host, "B1D"), (guest, "C1E")):
            view = player.play(view, token)
        view = host.act(view, "place", cell="D1")
        assert view["declare_offered"] is True
        assert call_wins(view)
    return view


@pytest.mark.parametrize("moment", ["waiting", "start", "placing", "declarable"])
def test_no_hint_in_an_online_game(host: Any, guest: Any, stranger: Any,
                                   moment: str) -> None:
    view = _online(host, guest, moment)
    before = host.stored(view["id"])
    for player in (host, guest, stranger):
        answer = player.client.get(f"/api/games/{view['id']}/hint", params={"lang": "de"})
        assert answer.status_code == 403, answer.text
        assert answer.json()["error"]["code"] == "hint_online"
    assert host.stored(view["id"]) == before
    assert host.get(view["id"])["revision"] == view["revision"]


def test_hints_in_games_on_one_device(api: Any) -> None:
    local = api.new(mode="local", rules="classic")
    assert hint(api, local)["give"] is not None
    computer = api.new(mode="computer", level=1, human="first")
    assert hint(api, computer)["give"] is not None


def test_the_review_of_a_finished_online_game_stays_open(host: Any, guest: Any,
                                                          stranger: Any) -> None:
    view = _online(host, guest, "declarable")
    over = host.act(view, "declare")
    assert over["outcome"]["winner"] == "first"
    reviews = []
    for player in (host, guest, stranger):
        answer = player.client.get(f"/api/games/{view['id']}/review")
        assert answer.status_code == 200, answer.text
        reviews.append(answer.json())
        hinted = player.client.get(f"/api/games/{view['id']}/hint")
        assert (hinted.status_code, hinted.json()["error"]["code"]) == (403, "hint_online")
    assert reviews[0] == reviews[1] == reviews[2]
    assert len(reviews[0]["turns"]) == len(over["moves"])
