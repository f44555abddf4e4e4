"""Undo and redo through the API: whole turns between two people, back to the
person's last turn against the computer."""

from __future__ import annotations

from typing import Any

from helpers import call_wins


def state(view: dict[str, Any]) -> dict[str, Any]:
    """A view without its revision, which every change (undo and redo too) moves on."""
    return {key: value for key, value in view.items() if key != "revision"}

def test_local_undo_takes_back_one_whole_turn(api: Any) -> None:
    view = api.play(api.new(rules="classic"), "7", "A1C", "B1D")
    view = api.undo(view)
    assert (view["ply"], view["moves"]) == (3, ["7", "A1C"])
    assert (view["can_undo"], view["can_redo"]) == (True, True)
    assert view["last"]["give"] == "C"
    view = api.undo(view)
    assert (view["ply"], view["moves"], view["to_move"]) == (1, ["7"], "second")
    view = api.undo(view)
    assert (view["ply"], view["can_undo"], view["can_redo"]) == (0, False, True)
    view = api.redo(view)
    assert view["moves"] == ["7"]
    view = api.redo(view)
    assert view["moves"] == ["7", "A1C"]
    view = api.redo(view)
    assert (view["moves"], view["can_redo"]) == (["7", "A1C", "B1D"], False)


def test_local_undo_of_a_turn_half_played(api: Any) -> None:
    view = api.act(api.play(api.new(), "7", "A1C"), "place", cell="B1")
    view = api.undo(view)
    assert (view["ply"], view["step"], view["hand"]) == (3, "place", "C")
    assert api.redo(view)["moves"] == ["7", "A1C", "B1"]


def test_local_undo_of_a_declaration_and_of_a_claim(api: Any) -> None:
    declared = api.act(api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E", "D1"),
                       "declare")
    view = api.undo(declared)
    assert (view["ply"], view["outcome"], view["step"]) == (7, None, "place")
    assert state(api.redo(view)) == state({**declared, "can_redo": False})
    claimed = api.act(api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E", "D13"),
                      "claim")
    view = api.undo(claimed)
    assert (view["ply"], view["claim_offered"], view["outcome"]) == (9, True, None)
    assert call_wins(view)
    view = api.undo(view)
    assert (view["ply"], view["moves"]) == (7, ["7", "A1C", "B1D", "C1E"])


def test_a_new_action_replaces_the_redo_trail(api: Any) -> None:
    view = api.undo(api.play(api.new(), "7", "A1C"))
    assert api.act(view, "place", cell="A1")["can_redo"] is True  # the same action keeps it
    view = api.get(view["id"])
    assert api.redo(view)["moves"] == ["7", "A1C"]
    view = api.undo(api.get(view["id"]))
    assert api.act(view, "place", cell="D4")["can_redo"] is False


def test_the_redo_trail_is_stored(api: Any) -> None:
    view = api.undo(api.undo(api.play(api.new(), "7", "A1C", "B1D")))
    assert api.get(view["id"])["can_redo"] is True
    assert api.redo(api.redo(api.get(view["id"])))["moves"] == ["7", "A1C", "B1D"]


def test_undo_against_the_computer_goes_back_to_the_persons_turn(api: Any) -> None:
    view = api.computer(api.act(api.new(mode="computer", level=1, human="first"), "give",
                                piece="7"))
    assert view["ply"] == 3
    assert view["last"]["player"] == "second"
    replied = view
    view = api.undo(view)
    assert (view["ply"], view["to_move"], view["can_undo"], view["can_redo"]) == (
        0, "first", False, True)
    view = api.redo(view)
    assert state(view) == state(replied)


def test_undo_against_the_computer_playing_first(api: Any) -> None:
    view = api.computer(api.new(mode="computer", level=1, human="second", rules="classic"))
    view = api.act(view, "place", cell="B2")
    view = api.act(view, "give", piece=next(p for p in view["supply"]))
    view = api.computer(view)
    assert view["ply"] == 5
    assert view["to_move"] == "second"
    played = view
    view = api.undo(view)
    assert (view["ply"], view["to_move"], view["step"]) == (1, "second", "place")
    assert view["can_undo"] is False
    assert state(api.redo(view)) == state(played)


def test_undo_before_the_computer_replied(api: Any) -> None:
    view = api.act(api.new(mode="computer", level=2, human="first"), "give", piece="7")
    assert view["computer_to_move"] is True
    view = api.undo(view)
    assert (view["ply"], view["computer_to_move"]) == (0, False)
    view = api.redo(view)
    assert (view["ply"], view["computer_to_move"]) == (1, True)


def test_undo_of_the_persons_half_turn(api: Any) -> None:
    view = api.computer(api.new(mode="computer", level=1, human="second"))
    view = api.act(view, "place", cell="C3")
    view = api.undo(view)
    assert (view["ply"], view["step"]) == (1, "place")


def test_the_computer_replays_its_turn(api: Any) -> None:
    view = api.act(api.new(mode="computer", level=1, human="first"), "give", piece="7")
    first = api.computer(view)
    view = api.undo(first)
    view = api.act(view, "give", piece="7")
    again = api.computer(view)
    assert again["moves"] == first["moves"]
