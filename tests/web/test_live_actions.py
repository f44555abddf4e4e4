"""Actions sent on a game's live socket (``{"type": "act"}``): played as ``POST
/api/games/{id}/actions`` plays them, answered on the socket, refused alike, and
never more than one at a time per socket.

Every player is a browser of its own on one app; the messages are read with a
time limit (:func:`web.test_live.receive`)."""

from __future__ import annotations

from typing import Any

import pytest

from web.conftest import Breakable
from web.test_live import live, quiet, receive, view_of


def act(socket: Any, number: int, revision: int, action: str, **fields: str) -> None:
    socket.send_json({"type": "act", "id": number,
                      "action": {"revision": revision, "action": action, **fields}})


def answer(socket: Any) -> dict[str, Any]:
    """The answer to an action (views sent before it, of other changes, read past)."""
    while (message := receive(socket))["type"] == "view":
        pass
    return message


def acted(socket: Any) -> tuple[int, int, dict[str, Any]]:
    """The number, revision and view of the answer ``acted`` that comes next."""
    message = answer(socket)
    assert message["type"] == "acted", message
    assert set(message) == {"type", "id", "revision", "view"}
    return message["id"], message["revision"], message["view"]


def test_an_action_on_the_socket_is_played_and_pushed(host: Any, guest: Any,
                                                      playing: dict[str, Any]) -> None:
    game_id, revision = playing["id"], playing["revision"]
    with live(host, game_id) as mine:
        view_of(mine)
        with live(guest, game_id) as theirs:
            view_of(theirs)
            view_of(mine)  # the guest came
            act(mine, 1, revision, "give", piece="7")
            # The answer carries the view of the change, as the route's answer does;
            # the socket sends no other view of it.
            number, saved, own = acted(mine)
            assert (number, saved) == (1, revision + 1)
            assert own == host.get(game_id)
            assert (own["revision"], own["hand"], own["can_act"]) == (saved, "7", False)
            pushed = view_of(theirs)
            assert pushed == guest.get(game_id)
            assert pushed["can_act"] is True
            act(theirs, 2, pushed["revision"], "place", cell="B2")
            number, saved, placed = acted(theirs)
            assert (number, saved) == (2, revision + 2)
            assert placed == guest.get(game_id)
            assert view_of(mine)["revision"] == revision + 2
            quiet(mine)
            quiet(theirs)


def test_the_actions_of_a_socket_are_played_one_after_another(host: Any) -> None:
    view = host.new(mode="local", rules="classic")
    revision = view["revision"]
    turns = [("give", {"piece": "7"}), ("place", {"cell": "A1"}), ("give", {"piece": "3"}),
             ("place", {"cell": "D4"})]
    with live(host, view["id"]) as socket:
        view_of(socket)
        # Sent at once, each made for the revision the one before leads to: each is
        # played once the one before is saved (else it would be stale), and answered
        # in order.
        for number, (action, fields) in enumerate(turns):
            act(socket, number, revision + number, action, **fields)
        answers = [acted(socket)[:2] for _ in turns]
        assert answers == [(n, revision + n + 1) for n in range(len(turns))]
        final = host.get(view["id"])
        assert final["revision"] == revision + len(turns)
        assert [final["board"][0], final["board"][15]] == ["7", "3"]


def _refused_alike(player: Any, socket: Any, game_id: str, body: dict[str, Any]) -> None:
    """The socket refuses ``body`` as the route does, and nothing changes."""
    before = player.get(game_id)
    response = player.client.post(f"/api/games/{game_id}/actions", json=body)
    assert response.status_code >= 400
    socket.send_json({"type": "act", "id": 9, "action": body})
    refused = answer(socket)
    assert refused == {"type": "refused", "id": 9, "status": response.status_code,
                       "error": response.json()["error"]}
    assert player.get(game_id) == before


def test_the_socket_refuses_what_the_route_refuses(host: Any, guest: Any, stranger: Any,
                                                   playing: dict[str, Any]) -> None:
    game_id, revision = playing["id"], playing["revision"]
    with live(host, game_id) as mine, live(guest, game_id) as theirs:
        # Stale, illegal for the rules, and on the other player's turn.
        _refused_alike(host, mine, game_id, {"revision": revision - 1, "action": "give",
                                             "piece": "7"})
        _refused_alike(host, mine, game_id, {"revision": revision, "action": "place",
                                             "cell": "A1"})
        _refused_alike(guest, theirs, game_id, {"revision": revision, "action": "give",
                                                "piece": "7"})
        act(mine, 1, revision, "give", piece="7")
        acted(mine)
        _refused_alike(host, mine, game_id, {"revision": revision + 1, "action": "place",
                                             "cell": "A1"})
    # A stranger may watch an online game, and not play in it.
    stranger.token()
    with live(stranger, game_id) as watching:
        view_of(watching)
        _refused_alike(stranger, watching, game_id, {"revision": revision + 1,
                                                     "action": "place", "cell": "A1"})


def test_a_finished_game_takes_no_action(host: Any) -> None:
    view = host.resign(host.play(host.new(mode="local", rules="classic"), "0", "A1 1"))
    assert view["outcome"] is not None
    with live(host, view["id"]) as socket:
        view_of(socket)
        _refused_alike(host, socket, view["id"], {"revision": view["revision"],
                                                  "action": "give", "piece": "7"})


@pytest.mark.parametrize(("message", "number", "code"), [
    ({"id": 4, "action": {"revision": 0, "action": "place", "cell": "Z9"}}, 4,
     "invalid_cell"),
    ({"id": 5, "action": {"revision": 0, "action": "give", "piece": "16"}}, 5,
     "invalid_piece"),
    ({"id": 6, "action": {"revision": -1, "action": "declare"}}, 6, "bad_request"),
    ({"id": 7, "action": {"action": "fly"}}, 7, "bad_request"),
    ({"id": 8}, 8, "bad_request"),
    ({"action": {"revision": 0, "action": "declare"}}, None, "bad_request"),
    ({"id": 2**31, "action": {"revision": 0, "action": "declare"}}, None, "bad_request"),
    ({"id": "1", "action": {"revision": 0, "action": "declare"}}, None, "bad_request"),
])
def test_a_malformed_action_is_refused_and_changes_nothing(
        host: Any, message: dict[str, Any], number: int | None, code: str) -> None:
    view = host.new(mode="local", rules="classic")
    with live(host, view["id"]) as socket:
        view_of(socket)
        socket.send_json({"type": "act", **message})
        refused = receive(socket)
        assert refused["type"] == "refused"
        assert refused.get("id") == number
        assert (refused["status"], refused["error"]["code"]) == (400, code)
        assert refused["error"]["message"]
        assert host.get(view["id"]) == view
        quiet(socket)


def test_an_action_while_the_database_is_away_is_refused_and_tried_again(
        breakable: Breakable) -> None:
    game = breakable.game
    with breakable.client.websocket_connect(f"/api/games/{game['id']}/live") as socket:
        assert receive(socket)["type"] == "view"
        breakable.break_()
        act(socket, 1, game["revision"], "give", piece="5")
        refused = receive(socket)
        assert (refused["type"], refused["id"], refused["status"],
                refused["error"]["code"]) == ("refused", 1, 503, "unavailable")
        breakable.heal()
        act(socket, 2, game["revision"], "give", piece="5")
        assert acted(socket)[:2] == (2, game["revision"] + 1)
