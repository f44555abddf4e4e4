"""Whole games against the computer, driven through the API to the end."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import call_wins
from quads import read_record


def person_action(view: dict[str, Any]) -> dict[str, Any]:
    """A simple person: calls every win, hands over safe pieces, places on the first cell."""
    if call_wins(view):
        return {"action": "declare" if view["declare_offered"] else "claim"}
    if view["step"] == "give":
        return {"action": "give", "piece": (view["safe"] or view["supply"])[0]}
    return {"action": "place", "cell": "ABCD"[view["board"].index(None) % 4]
            + str(view["board"].index(None) // 4 + 1)}


@pytest.mark.parametrize(("rules", "human"), [("quads", "first"), ("classic", "second"),
                                              ("advanced", "first")])
def test_a_whole_game_against_level_1(api: Any, client: Any, rules: str, human: str) -> None:
    view = api.new(mode="computer", level=1, human=human, rules=rules)
    computer_turns = 0
    while view["outcome"] is None:
        if view["computer_to_move"]:
            before = view["ply"]
            view = api.computer(view)
            assert view["ply"] > before
            assert view["last"]["player"] != human or view["outcome"] is not None
            computer_turns += 1
        else:
            assert view["to_move"] == human
            view = api.act(view, **person_action(view))
    assert computer_turns >= 2
    assert (view["step"], view["to_move"], view["computer_to_move"]) == ("over", None, False)
    assert api.get(view["id"]) == view
    record = client.get(f"/api/games/{view['id']}/record").text
    game = read_record(record)
    assert game.outcome is not None
    assert len(game.actions) == view["ply"]
    summary = client.get("/api/games", params={"status": "over"}).json()["games"]
    assert [s["id"] for s in summary] == [view["id"]]
    assert client.get("/api/games", params={"status": "ongoing"}).json() == {"games": [],
                                                                           "next": None}
