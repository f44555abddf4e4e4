"""``GET /api/games/{id}/hint``: advice for the person to move, in their language."""

from __future__ import annotations

from typing import Any

import pytest


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
