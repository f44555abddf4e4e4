"""The game routes end to end: every action kind, the views, records and the list."""

from __future__ import annotations

from typing import Any

import pytest

from quads import Player, Termination, read_record

# A classic game in which nobody calls a win until the sixteenth piece, placed
# on C2, completes a shape: its placer may declare or decline.
SIXTEENTH = """[Rules "classic"]
[Result "*"]

1. C B40 2. A29 A37 3. D45 B38 4. A44 D33 5. B26 B1D 6. C4A D2F 7. C1B A1?E 8.
D1?2 C3?1 *
"""


def test_a_new_game_starts_on_the_empty_board(api: Any) -> None:
    view = api.new(rules="classic")
    assert view["rules"] == "classic"
    assert view["mode"] == "local"
    assert (view["level"], view["human"]) == (None, None)
    assert view["ply"] == 0
    assert view["position"] == "..../..../..../.... -"
    assert view["board"] == [None] * 16
    assert view["hand"] is None
    assert view["supply"] == list("0123456789ABCDEF")
    assert view["safe"] == view["supply"]
    assert (view["to_move"], view["step"]) == ("first", "give")
    assert view["computer_to_move"] is False
    assert not any(view[f"can_{what}"] for what in ("decline", "undo", "redo"))
    assert not any(view[f"{what}_offered"] for what in ("declare", "claim"))
    assert (view["false_calls"], view["calls_forfeited"]) == ("free-calls", False)
    assert (view["moves"], view["last"], view["outcome"]) == ([], None, None)
    assert api.get(view["id"]) == view


def test_the_rules_default_to_quads(api: Any) -> None:
    assert api.new()["rules"] == "quads"


def test_a_computer_game_keeps_its_level_and_side(api: Any) -> None:
    view = api.new(mode="computer", level=2, human="second", rules="advanced")
    assert (view["mode"], view["level"], view["human"]) == ("computer", 2, "second")
    assert view["computer_to_move"] is True


def test_give_and_place_build_the_view(api: Any) -> None:
    view = api.new(rules="classic")
    view = api.act(view, "give", piece="7")
    assert (view["ply"], view["hand"], view["to_move"], view["step"]) == (1, "7", "second",
                                                                         "place")
    assert view["last"] == {"player": "first", "place": None, "piece": None, "give": "7",
                            "declared": False, "missed": False, "claimed": False}
    view = api.act(view, "place", cell="A1")
    assert view["board"][0] == "7"
    assert (view["to_move"], view["step"], view["hand"]) == ("second", "give", None)
    assert view["last"]["place"] == "A1"
    assert view["last"]["give"] is None
    assert view["moves"] == ["7", "A1"]
    view = api.play(view, "C", "B1D")
    assert view["position"] == "7C../..../..../.... D"
    assert view["moves"] == ["7", "A1C", "B1D"]
    assert view["last"] == {"player": "first", "place": "B1", "piece": "C", "give": "D",
                            "declared": False, "missed": False, "claimed": False}
    assert not {"7", "C", "D"} & set(view["supply"])
    assert set(view["safe"]) <= set(view["supply"])


def test_safe_pieces_leave_out_the_winners(api: Any) -> None:
    view = api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E")
    # Row 1 holds three dark pieces with D1 empty: every dark piece wins there.
    assert (view["step"], view["hand"]) == ("place", "E")
    assert not {"4", "5", "6", "F"} & set(view["safe"])


def test_a_declaration_wins(api: Any) -> None:
    view = api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E", "D1")
    assert view["declare_offered"] is True
    view = api.act(view, "declare")
    assert view["step"] == "over"
    assert view["to_move"] is None
    assert view["moves"][-1] == "D1!"
    assert view["last"]["declared"] is True
    assert view["outcome"] == {
        "winner": "first", "reason": "declaration", "shapes": ["row1"],
        "cells": ["A1", "B1", "C1", "D1"], "traits": [{"trait": "color", "value": True}],
    }


def test_the_view_says_where_a_call_may_be_made(api: Any) -> None:
    view = api.act(api.new(rules="classic"), "give", piece="7")
    assert (view["declare_offered"], view["claim_offered"]) == (False, False)
    view = api.act(view, "place", cell="A1")
    # After every placement, whether or not it wins: no view says whether it would.
    assert view["declare_offered"] is True
    assert not {"can_declare", "can_claim"} & view.keys()
    view = api.act(view, "give", piece="C")
    assert (view["declare_offered"], view["claim_offered"]) == (False, True)
    auto = api.play(api.new(rules="quads"), "7", "A1")
    assert (auto["declare_offered"], auto["claim_offered"]) == (False, False)


def test_a_missed_declaration_is_claimed(api: Any) -> None:
    view = api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E", "D13")
    # While the claim is pending, nothing says that the hand-over missed a declaration.
    assert view["moves"][-1] == "D13"
    assert view["last"]["missed"] is False
    assert view["claim_offered"] is True
    view = api.act(view, "claim")
    assert view["moves"][-2:] == ["D1?3", "!"]  # the claim window closed: the miss is told
    assert view["last"] == {"player": "second", "place": None, "piece": None, "give": None,
                            "declared": False, "missed": False, "claimed": True}
    assert view["outcome"]["winner"] == "second"
    assert view["outcome"]["reason"] == "claim"
    assert view["outcome"]["shapes"] == ["row1"]


def test_an_automatic_win_ends_the_game(api: Any) -> None:
    view = api.play(api.new(rules="quads"), "7", "A1C", "B1D", "C1E", "D1")
    assert view["moves"][-1] == "D1!"
    assert view["outcome"]["reason"] == "win"
    assert view["outcome"]["winner"] == "first"


def test_the_sixteenth_piece_may_decline(api: Any) -> None:
    view = api.import_record(SIXTEENTH)
    assert view["claim_offered"] is True
    view = api.act(view, "place", cell="C2")
    assert view["declare_offered"] is True
    assert view["can_decline"] is True
    assert view["supply"] == []
    view = api.act(view, "decline")
    assert view["moves"][-1] == "C2?"
    assert view["last"]["missed"] is True
    assert view["outcome"] == {"winner": None, "reason": "full-board", "shapes": [],
                               "cells": [], "traits": []}


def test_a_record_round_trips(api: Any, client: Any) -> None:
    view = api.import_record(SIXTEENTH)
    assert view["ply"] == len(read_record(SIXTEENTH).actions)
    answer = client.get(f"/api/games/{view['id']}/record")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert "attachment" in answer.headers["content-disposition"]
    saved = SIXTEENTH.replace('[Result "*"]\n', '[Result "*"]\n[Mode "local"]\n')
    assert answer.text == saved
    again = api.import_record(answer.text)
    assert again["id"] != view["id"]
    assert again["moves"] == view["moves"]
    assert client.get(f"/api/games/{again['id']}/record").text == saved


def test_an_exported_game_replays_exactly(api: Any, client: Any) -> None:
    view = api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E", "D13")
    view = api.act(view, "claim")
    text = client.get(f"/api/games/{view['id']}/record").text
    assert "1. 7 A1C 2. B1D C1E 3. D1?3 ! 0-1" in text
    outcome = read_record(text).outcome
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.CLAIM, Player.SECOND)
    imported = api.import_record(text)
    assert imported["outcome"] == view["outcome"]


def test_a_resigned_game_downloads_with_the_winner_and_opens_again(api: Any,
                                                                   client: Any) -> None:
    view = api.play(api.new(rules="classic"), "7", "A1C", "B1")
    # On one device the side to move resigns: the first player.
    resigned = api.post(view["id"], "resign", {"revision": view["revision"]})
    assert resigned["outcome"]["winner"] == "second"
    assert resigned["outcome"]["reason"] == "resignation"
    assert resigned["last"]["place"] == "B1"
    text = client.get(f"/api/games/{view['id']}/record").text
    assert '[Result "0-1"]' in text
    assert '[Termination "resignation"]' in text
    assert text.endswith("1. 7 A1C 2. B1 0-1\n")
    game = read_record(text)
    assert game.outcome is not None
    assert (game.outcome.termination, game.outcome.winner) == (Termination.RESIGNATION,
                                                               Player.SECOND)
    imported = api.import_record(text)
    assert imported["outcome"] == resigned["outcome"]
    assert imported["resigned"] == "first"
    assert (imported["can_resign"], imported["can_undo"]) == (False, False)
    assert client.get(f"/api/games/{imported['id']}/record").text == text


def test_an_import_keeps_headers_and_start_position(api: Any, client: Any) -> None:
    record = ('[Event "Club night"]\n[Rules "quads"]\n[Position "F..0/..A./..../.3.. 7"]\n'
              '[Result "*"]\n\n1. B2C *\n')
    view = api.import_record(record, mode="computer", level=1, human="first")
    assert view["position"] == "F..0/.7A./..../.3.. C"
    assert (view["mode"], view["level"], view["human"]) == ("computer", 1, "first")
    assert (view["to_move"], view["computer_to_move"]) == ("second", True)
    # the download adds who played, after the headers it had
    said = record.replace('[Result "*"]\n', '[Result "*"]\n[Mode "computer"]\n[Level "1"]\n'
                          '[Human "first"]\n')
    assert client.get(f"/api/games/{view['id']}/record").text == said


@pytest.mark.parametrize(("settings", "expected"), [
    ({"mode": "computer", "level": 4, "human": "second"}, ("computer", 4, "second")),
    ({"mode": "local"}, ("local", None, None)),
])
def test_a_saved_record_says_who_played_and_opens_so(
        api: Any, client: Any, settings: dict[str, Any], expected: tuple[Any, ...]) -> None:
    view = api.play(api.new(rules="classic", **settings), "7") if expected[0] == "local" \
        else api.new(rules="classic", **settings)
    text = client.get(f"/api/games/{view['id']}/record").text
    assert f'[Mode "{expected[0]}"]' in text
    assert ('[Level "4"]' in text) == ('[Human "second"]' in text) == (expected[0] == "computer")
    reopened = api.import_record(text, mode=None)  # no settings: as the record says
    assert (reopened["mode"], reopened["level"], reopened["human"]) == expected
    assert reopened["position"] == view["position"]
    # settings given win over the headers
    local = api.import_record(text, mode="local")
    assert (local["mode"], local["level"], local["human"]) == ("local", None, None)


def test_a_record_without_who_played_opens_on_one_device(api: Any) -> None:
    view = api.import_record("1. 7 A1C *\n", mode=None)
    assert (view["mode"], view["level"], view["human"]) == ("local", None, None)


@pytest.mark.parametrize(("headers", "fault"), [
    ('[Mode "robot"]', "header Mode 'robot'"),
    ('[Mode "computer"]\n[Level "9"]\n[Human "first"]', "header Level '9'"),
    ('[Mode "computer"]\n[Level "2"]', "header Human ''"),
])
def test_a_record_naming_no_valid_opponent_is_refused(
        api: Any, client: Any, headers: str, fault: str) -> None:
    before = client.get("/api/games").json()
    answer = client.post("/api/games/import",
                         json={"record": f"{headers}\n\n1. 7 *\n"})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "invalid_record"
    assert fault in answer.json()["error"]["message"]
    assert client.get("/api/games").json() == before


@pytest.mark.parametrize("status", [None, "ongoing", "over"])
def test_the_list_of_games(api: Any, client: Any, status: str | None) -> None:
    api.new(rules="classic")  # nobody acts in it: not listed
    first = api.play(api.new(rules="classic"), "7")
    over = api.act(api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E", "D1"),
                   "declare")
    latest = api.act(api.new(mode="computer", level=3, human="first"), "give", piece="5")
    answer = client.get("/api/games", params={} if status is None else {"status": status})
    assert answer.status_code == 200
    games = answer.json()["games"]
    expected = {
        None: [latest["id"], over["id"], first["id"]],
        "ongoing": [latest["id"], first["id"]],
        "over": [over["id"]],
    }[status]
    assert [game["id"] for game in games] == expected
    summary = next(game for game in games if game["id"] == games[0]["id"])
    assert set(summary) == {"id", "rules", "mode", "level", "human", "ply", "status",
                            "to_move", "created", "updated", "you", "opponent", "revision",
                            "device", "clock", "deadline", "ending", "result",
                            "opponent_name"}
    if status != "over":
        assert summary == {
            "id": latest["id"], "rules": "quads", "mode": "computer", "level": 3,
            "human": "first", "ply": 1, "status": "ongoing", "to_move": "second",
            "created": summary["created"], "updated": summary["updated"],
            "you": "first", "opponent": "computer", "revision": latest["revision"],
            "device": None, "clock": None, "deadline": None, "ending": None, "result": None,
            "opponent_name": None,
        }
        assert summary["created"] <= summary["updated"]
        assert summary["updated"].endswith("Z") or summary["updated"].endswith("+00:00")
    else:
        assert (summary["status"], summary["to_move"]) == ("over", None)
        assert (summary["ending"], summary["result"]) == ("1-0", None)  # one device
