"""Every refusal of the API: its status, its code, and that nothing changed."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def game(api: Any) -> dict[str, Any]:
    """A classic game between two people at ply 3: the first player must place C."""
    view: dict[str, Any] = api.play(api.new(rules="classic"), "7", "A1C")
    return view


def refused(api: Any, view: dict[str, Any], answer: Any, status: int, code: str) -> None:
    """Check the refusal and that the stored game is as in ``view``."""
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code
    assert set(answer.json()) == {"error"}
    assert isinstance(answer.json()["error"]["message"], str)
    assert api.get(view["id"]) == view


def at(view: dict[str, Any]) -> dict[str, int]:
    """The part of a changing request that names the revision the client saw."""
    return {"revision": view["revision"]}


def post(api: Any, view: dict[str, Any], what: str, body: Any) -> Any:
    return api.client.post(f"/api/games/{view['id']}/{what}", json=body)


def test_malformed_json(api: Any, game: dict[str, Any]) -> None:
    before = api.stored(game["id"])
    answer = api.client.post(f"/api/games/{game['id']}/actions", content=b'{"revision": 3,',
                             headers={"Content-Type": "application/json"})
    refused(api, game, answer, 400, "bad_request")
    assert "JSON" in answer.json()["error"]["message"]
    assert api.stored(game["id"]) == before


@pytest.mark.parametrize("body", [
    {"action": "give", "piece": "3"},               # no revision
    {"revision": 3},                                      # no action
    {"revision": "3", "action": "give", "piece": "3"},   # revision is not a number
    {"revision": -1, "action": "give", "piece": "3"},
    {"revision": 3, "action": "pass"},
    {"revision": 3, "action": "give"},                    # give without a piece
    {"revision": 3, "action": "place", "piece": "3"},     # place without a cell
    {"revision": 3.5, "action": "give", "piece": "3"},   # revision is not an integer
    {"revision": True, "action": "give", "piece": "3"},
    [3, "give", "3"],
])
def test_missing_or_mistyped_fields(api: Any, game: dict[str, Any], body: Any) -> None:
    before = api.stored(game["id"])
    refused(api, game, post(api, game, "actions", body), 400, "bad_request")
    assert api.stored(game["id"]) == before


@pytest.mark.parametrize("what", ["computer", "undo", "redo"])
def test_a_revision_is_required(api: Any, game: dict[str, Any], what: str) -> None:
    before = api.stored(game["id"])
    refused(api, game, post(api, game, what, {}), 400, "bad_request")
    assert api.stored(game["id"]) == before


@pytest.mark.parametrize(("body", "code"), [
    ({"revision": 3, "action": "place", "cell": "E9"}, "invalid_cell"),
    ({"revision": 3, "action": "place", "cell": ""}, "invalid_cell"),
    ({"revision": 3, "action": "give", "piece": "G"}, "invalid_piece"),
    ({"revision": 3, "action": "give", "piece": "12"}, "invalid_piece"),
    ({"revision": 3, "action": "give", "piece": 3}, "invalid_piece"),        # not text
    ({"revision": 3, "action": "place", "cell": "a1"}, "invalid_cell"),      # upper case only
])
def test_values_that_cannot_be_read(api: Any, game: dict[str, Any], body: Any,
                                    code: str) -> None:
    # The game is at its place step: a readable cell would be accepted.
    before = api.stored(game["id"])
    refused(api, game, post(api, game, "actions", body), 400, code)
    assert api.stored(game["id"]) == before


@pytest.mark.parametrize(("body", "code"), [
    ({"rules": "chess", "mode": "local"}, "invalid_rules"),
    ({"rules": "lines:colour", "mode": "local"}, "invalid_rules"),
    ({"rules": "quads"}, "bad_request"),                                      # no mode
    ({"mode": "remote"}, "bad_request"),
    ({"mode": "online", "host": "third"}, "bad_request"),
    ({"mode": "computer", "human": "first"}, "bad_request"),                  # no level
    ({"mode": "computer", "level": 3}, "bad_request"),                        # no side
    ({"mode": "computer", "level": 0, "human": "first"}, "bad_request"),
    ({"mode": "computer", "level": "3", "human": "first"}, "bad_request"),
    ({"mode": "computer", "level": 3, "human": "both"}, "bad_request"),
])
def test_a_new_game_refused(api: Any, client: Any, body: Any, code: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == code
    assert client.get("/api/games").json() == {"games": [], "next": None}


@pytest.mark.parametrize(("record", "code"), [
    ('[Rules "classic"]\n\n1. 7 A1C 2. A1D *\n', "invalid_record"),
    ('[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1 3 *\n', "invalid_record"),
    ('[Rules "quads"]\n[Position "F..0/..A./..../.3.. Z"]\n\n*\n', "invalid_record"),
    ('[Rules "chess"]\n\n*\n', "invalid_record"),
])
def test_an_import_refused(api: Any, client: Any, record: str, code: str) -> None:
    answer = client.post("/api/games/import", json={"record": record, "mode": "local"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == code
    assert "token" in answer.json()["error"]["message"] or "header" in answer.json()[
        "error"]["message"]
    assert client.get("/api/games").json() == {"games": [], "next": None}


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "", None),
    ("GET", "/record", None),
    ("POST", "/actions", {"revision": 0, "action": "give", "piece": "7"}),
    ("POST", "/computer", {"revision": 0}),
    ("POST", "/undo", {"revision": 0}),
    ("POST", "/redo", {"revision": 0}),
])
def test_an_unknown_id(api: Any, client: Any, method: str, path: str, body: Any) -> None:
    answer = client.request(method, f"/api/games/no-such-game{path}", json=body)
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"
    assert "no-such-game" in answer.json()["error"]["message"]


def test_an_unknown_route(client: Any) -> None:
    answer = client.get("/api/games/x/hints")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no_route"
    answer = client.delete("/api/games")
    assert answer.status_code == 405
    assert answer.json()["error"]["code"] == "no_route"


@pytest.mark.parametrize(("what", "extra"), [
    ("actions", {"action": "place", "cell": "B1"}),
    ("undo", {}),
    ("redo", {}),
])
@pytest.mark.parametrize("revision", [0, 2, 3, 4])
def test_a_stale_revision(api: Any, game: dict[str, Any], what: str, extra: Any,
                     revision: int) -> None:
    # At ply 3 again after an undo and a redo, but at a later revision: a view
    # from before the undo (revision 3) is as stale as any other.
    api.undo(game)
    game = api.redo(api.get(game["id"]))
    assert game["ply"] == 3
    assert game["revision"] > 4
    before = api.stored(game["id"])
    answer = post(api, game, what, {"revision": revision, **extra})
    refused(api, game, answer, 409, "stale")
    assert api.stored(game["id"]) == before


def test_a_stale_computer_request(api: Any) -> None:
    view = api.new(mode="computer", level=1, human="second")
    before = api.stored(view["id"])
    refused(api, view, post(api, view, "computer", {"revision": 1}), 409, "stale")
    assert api.stored(view["id"]) == before


def test_a_person_on_the_computers_turn(api: Any) -> None:
    view = api.new(mode="computer", level=1, human="first")
    view = api.act(view, "give", piece="7")
    assert view["computer_to_move"] is True
    before = api.stored(view["id"])
    answer = post(api, view, "actions", {**at(view), "action": "place", "cell": "A1"})
    refused(api, view, answer, 409, "not_your_turn")
    assert api.stored(view["id"]) == before


def test_the_computer_on_a_persons_turn(api: Any, game: dict[str, Any]) -> None:
    view = api.new(mode="computer", level=1, human="first")
    before = api.stored(view["id"])
    refused(api, view, post(api, view, "computer", at(view)), 409, "not_your_turn")
    assert api.stored(view["id"]) == before
    before = api.stored(game["id"])
    refused(api, game, post(api, game, "computer", {"revision": game["revision"]}), 409,
             "not_your_turn")
    assert api.stored(game["id"]) == before


def test_actions_after_the_end(api: Any) -> None:
    view = api.play(api.new(rules="classic"), "7", "A1C", "B1D", "C1E", "D1")
    view = api.act(view, "declare")
    before = api.stored(view["id"])
    for body in ({"action": "give", "piece": "3"}, {"action": "declare"},
                 {"action": "place", "cell": "A4"}):
        refused(api, view, post(api, view, "actions", {"revision": view["revision"], **body}), 409,
                "game_over")
    computer = api.import_record(
        '[Rules "quads"]\n\n1. 7 A1C 2. B1D C1E 3. D1! 1-0\n',
        mode="computer", level=1, human="second")
    refused(api, computer, post(api, computer, "computer", {"revision": computer["revision"]}), 409,
            "game_over")
    assert api.stored(view["id"]) == before


def test_nothing_to_undo_or_redo(api: Any) -> None:
    view = api.new()
    before = api.stored(view["id"])
    refused(api, view, post(api, view, "undo", at(view)), 409, "nothing_to_undo")
    refused(api, view, post(api, view, "redo", at(view)), 409, "nothing_to_redo")
    assert api.stored(view["id"]) == before
    view = api.play(view, "7")
    before = api.stored(view["id"])
    refused(api, view, post(api, view, "redo", at(view)), 409, "nothing_to_redo")
    assert api.stored(view["id"]) == before


def test_nothing_to_undo_before_the_persons_first_turn(api: Any) -> None:
    view = api.computer(api.new(mode="computer", level=1, human="second"))
    assert view["ply"] == 1
    assert view["can_undo"] is False
    before = api.stored(view["id"])
    refused(api, view, post(api, view, "undo", at(view)), 409, "nothing_to_undo")
    assert api.stored(view["id"]) == before


@pytest.mark.parametrize("body", [
    {"action": "place", "cell": "A1"},   # the cell is taken
    {"action": "give", "piece": "3"},    # a piece is in hand: place it first
    {"action": "declare"},
    {"action": "claim"},
    {"action": "decline"},
])
def test_illegal_actions(api: Any, game: dict[str, Any], body: Any) -> None:
    before = api.stored(game["id"])
    answer = post(api, game, "actions", {"revision": game["revision"], **body})
    refused(api, game, answer, 422, "illegal_action")
    assert answer.json()["error"]["message"].startswith("cannot")
    assert api.stored(game["id"]) == before


def test_handing_over_a_piece_on_the_board(api: Any, game: dict[str, Any]) -> None:
    view = api.act(game, "place", cell="B1")
    before = api.stored(view["id"])
    answer = post(api, view, "actions", {**at(view), "action": "give", "piece": "7"})
    refused(api, view, answer, 422, "illegal_action")
    assert api.stored(view["id"]) == before


# ---- what is wrong, in any language --------------------------------------------------------
# A refusal of the rules says what exactly is wrong (``reason``) and the values it
# speaks of (``params``), so that the page words it in its reader's language.


@pytest.mark.parametrize(("record", "reason", "params"), [
    ("1. 7 1. A1C *\n", "turn_number", {"token": "1.", "number": 1}),
    ('[Rules "classic"]\n\n1. 7 A1C 2. A1D *\n', "cell_taken", {"token": "A1D", "cell": "A1"}),
    ('[Position "0123/..../..../.... -"]\n\n*\n', "header_value", {"shape": "row1"}),
    ("1. 7 A1C 1-0\n", "result_mismatch", {"claimed": "1-0", "actual": "*"}),
])
def test_an_unreadable_record_says_why(client: Any, record: str, reason: str,
                                       params: dict[str, Any]) -> None:
    answer = client.post("/api/games/import", json={"record": record, "mode": "local"})
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["reason"], error["params"]) == ("invalid_record", reason,
                                                                 params)


def test_an_impossible_position_says_which_shape(client: Any) -> None:
    answer = client.get("/api/analysis", params={"position": "0123/..../..../.... -"})
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["reason"], error["params"]) == (
        "invalid_position", "already_won", {"shape": "row1"})


def test_an_illegal_action_says_why(api: Any, game: dict[str, Any]) -> None:
    answer = post(api, game, "actions", {**at(game), "action": "place", "cell": "A1"})
    refused(api, game, answer, 422, "illegal_action")
    error = answer.json()["error"]
    assert (error["reason"], error["params"]) == ("cell_taken", {"cell": "A1"})


def test_a_stale_revision_names_both(api: Any, game: dict[str, Any]) -> None:
    answer = post(api, game, "actions", {"revision": 1, "action": "place", "cell": "B2"})
    refused(api, game, answer, 409, "stale")
    assert answer.json()["error"]["params"] == {"revision": 1, "current": game["revision"]}


def test_a_refusal_without_more_to_say_has_no_reason(api: Any, game: dict[str, Any]) -> None:
    answer = api.client.get("/api/games/no-such-game")
    assert set(answer.json()["error"]) == {"code", "message"}
