"""Online play between two browsers, from the outside: creating and joining by
invitation, who may do what (seats, spectators, strangers, turns), undo requests
and their answers, resigning, "Play again", a whole classic game, and the QR code.

Every refusal is checked to leave the stored game exactly as it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from quads import read_record
from quads.web.qr import qr_svg

OTHER = {"first": "second", "second": "first"}


@contextmanager
def unchanged(player: Any, game_id: str) -> Iterator[None]:
    """Check that what runs inside changes nothing of the stored game."""
    row = player.row(game_id)
    stored = player.stored(game_id)
    yield
    assert player.row(game_id) == row
    assert player.stored(game_id) == stored


def code(answer: dict[str, Any]) -> str:
    error: str = answer["error"]["code"]
    return error


@pytest.fixture
def waiting(host: Any) -> dict[str, Any]:
    """A classic online game that the host (first) created; nobody joined yet."""
    view: dict[str, Any] = host.new(mode="online", rules="classic", host="first")
    return view


@pytest.fixture
def playing(host: Any, guest: Any, waiting: dict[str, Any]) -> dict[str, Any]:
    """The game after the guest joined: the host first, the guest second, at ply 0."""
    guest.join(waiting)
    view: dict[str, Any] = host.get(waiting["id"])
    return view


def turn(players: dict[str, Any], view: dict[str, Any], *tokens: str) -> dict[str, Any]:
    """Play record tokens (``7``, ``A1C``), each by the seat whose turn it is."""
    for token in tokens:
        view = players[view["to_move"]].play(view, token)
    return view


# ---- creating and joining -------------------------------------------------------------


@pytest.mark.parametrize("seat", ["first", "second", None])
def test_a_new_online_game(host: Any, seat: str | None) -> None:
    body = {"mode": "online", "rules": "classic"} | ({} if seat is None else {"host": seat})
    view = host.new(**body)
    you = seat or "first"
    # Between two people online a false call loses the game unless chosen otherwise.
    assert (view["mode"], view["rules"], view["calling"]) == (
        "online", "classic:losing-calls", "declare")
    assert (view["level"], view["human"], view["revision"], view["ply"]) == (None, None, 0, 0)
    assert view["seats"] == {you: "you", OTHER[you]: "free"}
    assert view["you"] == you
    assert view["spectator"] is False
    assert view["opponent_connected"] is False
    assert view["connected"] == {"first": False, "second": False}
    assert re.fullmatch(r"/join/[A-Za-z0-9_-]{16,}", view["invite"])
    assert view["can_act"] is False
    assert view["can_resign"] is False
    assert view["can_undo"] is False
    assert view["can_redo"] is False
    assert (view["undo_request"], view["resigned"], view["rematch"]) == (None, None, None)
    assert view["to_move"] == "first"
    assert host.get(view["id"]) == view
    # Every game has its own invitation.
    assert host.new(**body)["invite"] != view["invite"]


def test_the_invitation_address_leads_to_the_page(host: Any, waiting: dict[str, Any]) -> None:
    answer = host.client.get(waiting["invite"], follow_redirects=False)
    assert answer.status_code == 303
    token = waiting["invite"].removeprefix("/join/")
    assert answer.headers["location"] == f"/#/join/{token}"
    assert host.client.get("/join/not%20a%20token", follow_redirects=False).status_code != 303


@pytest.mark.parametrize("seat", ["first", "second"])
def test_what_an_invitation_shows(host: Any, guest: Any, stranger: Any, seat: str) -> None:
    view = host.new(mode="online", rules="classic", host=seat)
    token = view["invite"].removeprefix("/join/")

    def invite(player: Any, expect: int = 200) -> dict[str, Any]:
        answer: dict[str, Any] = player._check(
            player.client.get(f"/api/invites/{token}"), expect)
        return answer

    # Who invites, by the name made up for the host (never "Player 1").
    name = view["names"][seat]
    assert name
    expected = {"game": view["id"], "rules": "classic:losing-calls", "calling": "declare",
                "seat": OTHER[seat], "joined": False, "host": name, "clock": None,
                "rated": False, "safe_help": False}
    assert invite(guest) == expected
    assert invite(host) == expected | {"joined": True}
    guest.join(view)
    assert invite(guest) == expected | {"seat": None, "joined": True, "host": None}
    assert invite(stranger) == expected | {"seat": None, "host": None}
    unknown = stranger.client.get("/api/invites/no-such-invitation")
    assert unknown.status_code == 404
    assert code(unknown.json()) == "not_found"


def test_joining(host: Any, guest: Any, stranger: Any, waiting: dict[str, Any]) -> None:
    with unchanged(host, waiting["id"]):
        assert code(guest.join(waiting, "/join/wrong-token", 403)) == "bad_invite"
        assert code(guest.join(waiting, waiting["invite"] + "x", 403)) == "bad_invite"
        # The host joining their own game changes nothing.
        assert host.join(waiting) == waiting
    joined = guest.join(waiting)
    assert joined["revision"] == waiting["revision"] + 1
    assert joined["seats"] == {"first": "opponent", "second": "you"}
    assert joined["you"] == "second"
    assert joined["spectator"] is False
    assert joined["invite"] is None
    assert (joined["can_act"], joined["can_resign"]) == (False, True)
    seen = host.get(waiting["id"])
    assert seen["seats"] == {"first": "you", "second": "opponent"}
    assert seen["invite"] is None
    assert (seen["can_act"], seen["can_resign"]) == (True, True)
    assert seen["revision"] == joined["revision"]
    with unchanged(host, waiting["id"]):
        # Twice is harmless, with or without the right token.
        assert guest.join(waiting) == joined
        assert guest.join(waiting, "/join/wrong-token") == joined
        assert code(stranger.join(waiting, waiting["invite"], 409)) == "seat_taken"
        assert code(stranger.join(waiting, "/join/wrong-token", 403)) == "bad_invite"
    assert stranger.get(waiting["id"])["spectator"] is True


def test_no_invitation_into_a_game_that_is_not_online(host: Any, guest: Any) -> None:
    local = host.new(mode="local")
    with unchanged(host, local["id"]):
        assert code(host.join(local, "/join/anything", 403)) == "bad_invite"
        assert code(guest.join(local, "/join/anything", 403)) == "private_game"


def test_nothing_is_played_before_the_other_seat_is_taken(host: Any,
                                                          waiting: dict[str, Any]) -> None:
    with unchanged(host, waiting["id"]):
        assert code(host.act(waiting, "give", expect=409, piece="7")) == "waiting_for_opponent"
        assert code(host.resign(waiting, 409)) == "waiting_for_opponent"
        answer = host.client.get(f"/api/games/{waiting['id']}/hint")
        assert answer.status_code == 403
        assert code(answer.json()) == "hint_online"
        assert code(host.undo(waiting, 409)) == "waiting_for_opponent"
        assert code(host.redo(waiting, 409)) == "nothing_to_redo"
        assert code(host.rematch(waiting, 409)) == "not_over"


# ---- who may do what ------------------------------------------------------------------

STRANGER_ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("POST", "actions", {"action": "give", "piece": "7"}),
    ("POST", "actions", {"action": "place", "cell": "A1"}),
    ("POST", "undo", {}),
    ("POST", "undo/answer", {"accept": True}),
    ("POST", "undo/answer", {"accept": False}),
    ("POST", "redo", {}),
    ("POST", "computer", {}),
    ("POST", "resign", {}),
    ("POST", "rematch", None),
    ("GET", "invite.svg", None),
]


@pytest.mark.parametrize(("method", "path", "body"), STRANGER_ROUTES)
@pytest.mark.parametrize("moment", ["waiting", "start", "undo-asked", "over"])
def test_a_stranger_only_watches(host: Any, guest: Any, stranger: Any,
                                 waiting: dict[str, Any], moment: str, method: str,
                                 path: str, body: dict[str, Any] | None) -> None:
    view = waiting
    if moment != "waiting":
        guest.join(view)
        view = host.get(view["id"])
    if moment == "undo-asked":
        view = host.undo(host.play(view, "7"))
        assert view["undo_request"] == "first"
    elif moment == "over":
        view = guest.resign(view)
    players = {"first": host, "second": guest}
    with unchanged(host, view["id"]):
        for revision in (view["revision"], view["revision"] + 1):
            data = None if body is None else {"revision": revision, **body}
            answer = stranger.client.request(method, f"/api/games/{view['id']}/{path}",
                                             json=data)
            assert answer.status_code == 403, answer.text
            assert code(answer.json()) == "not_your_game"
        watched = stranger.get(view["id"])
    assert watched["spectator"] is True
    assert watched["you"] is None
    assert watched["can_act"] is False
    assert watched["invite"] is None
    assert watched["opponent_connected"] is None
    assert watched["seats"] == {
        side: "free" if moment == "waiting" and side == "second" else "opponent"
        for side in ("first", "second")}
    assert not any(watched[f"can_{what}"] for what in ("decline", "undo", "redo", "resign"))
    assert not any(watched[f"{what}_offered"] for what in ("declare", "claim"))
    mine = players["first"].get(view["id"])
    same = ("board", "moves", "revision", "to_move", "outcome", "undo_request", "resigned",
            "connected")
    assert {key: watched[key] for key in same} == {key: mine[key] for key in same}
    record = stranger.client.get(f"/api/games/{view['id']}/record")
    assert record.status_code == 200
    assert record.text == host.client.get(f"/api/games/{view['id']}/record").text


def test_each_seat_acts_only_on_its_turn(host: Any, guest: Any,
                                        playing: dict[str, Any]) -> None:
    players = {"first": host, "second": guest}
    view = playing
    for token in ("7", "A1C", "B1D", "C1E"):
        mover = view["to_move"]
        waiter = players[OTHER[mover]]
        seen = waiter.get(view["id"])
        assert (seen["can_act"], seen["you"]) == (False, OTHER[mover])
        assert players[mover].get(view["id"])["can_act"] is True
        with unchanged(host, view["id"]):
            bodies = [{"action": "give", "piece": "3"}, {"action": "place", "cell": "D4"},
                      {"action": "declare"}, {"action": "claim"}]
            for body in bodies:
                answer = waiter.post(view["id"], "actions",
                                     {"revision": view["revision"], **body}, 409)
                assert code(answer) == "not_your_turn"
            hint = waiter.client.get(f"/api/games/{view['id']}/hint")
            assert (hint.status_code, code(hint.json())) == (403, "hint_online")
            assert code(waiter.computer(view, 409)) == "not_your_turn"
            # The one to move with an old revision: stale.
            stale = {"revision": view["revision"] - 1, "action": "give", "piece": "3"}
            assert code(players[mover].post(view["id"], "actions", stale, 409)) == "stale"
        view = players[mover].play(view, token)
        assert view["last"]["player"] == mover


def test_no_computer_and_no_redo_online(host: Any, guest: Any,
                                        playing: dict[str, Any]) -> None:
    with unchanged(host, playing["id"]):
        assert code(host.computer(playing, 409)) == "not_your_turn"
        assert code(host.redo(playing, 409)) == "nothing_to_redo"


# ---- undo requests ----------------------------------------------------------------------


def test_an_undo_request_accepted(host: Any, guest: Any, playing: dict[str, Any]) -> None:
    players = {"first": host, "second": guest}
    view = turn(players, playing, "7", "A1C")
    assert host.get(view["id"])["can_undo"] is True
    assert guest.get(view["id"])["can_undo"] is True
    asked = host.undo(view)
    assert asked["undo_request"] == "first"
    assert asked["revision"] == view["revision"] + 1
    assert asked["moves"] == view["moves"]
    assert asked["can_undo"] is False
    seen = guest.get(view["id"])
    assert (seen["undo_request"], seen["can_undo"]) == ("first", False)
    with unchanged(host, view["id"]):
        assert code(host.undo(asked, 409)) == "undo_requested"
        assert code(guest.undo(asked, 409)) == "undo_requested"
        assert code(host.answer(asked, True, 409)) == "no_undo_request"
        assert code(guest.answer(view, True, 409)) == "stale"
    # Accepted: back to the requester's last turn, the host's first hand-over.
    undone = guest.answer(asked, True)
    assert undone["undo_request"] is None
    assert (undone["ply"], undone["moves"], undone["to_move"]) == (0, [], "first")
    assert undone["can_redo"] is False
    assert undone["revision"] == asked["revision"] + 1
    assert host.get(view["id"]) == undone | {"seats": {"first": "you", "second": "opponent"},
                                             "you": "first", "can_act": True,
                                             "can_resign": True,
                                             "undos_left": 2}  # the host asked once
    with unchanged(host, view["id"]):
        assert code(host.redo(undone, 409)) == "nothing_to_redo"
        assert code(guest.answer(undone, True, 409)) == "no_undo_request"
    # The game goes on from there.
    view = turn(players, host.get(view["id"]), "5", "B2E")
    assert view["moves"] == ["5", "B2E"]


def test_the_second_seat_asks_to_undo(host: Any, guest: Any, playing: dict[str, Any]) -> None:
    players = {"first": host, "second": guest}
    view = turn(players, playing, "7", "A1C", "B1D")
    with unchanged(host, view["id"]):
        # The host answers for the host's side: nothing asked yet.
        assert code(host.answer(view, False, 409)) == "no_undo_request"
    asked = guest.undo(host.get(view["id"]))
    assert asked["undo_request"] == "second"
    undone = host.answer(asked, True)
    assert undone["moves"] == ["7"]
    assert (undone["to_move"], undone["step"]) == ("second", "place")


def test_an_undo_request_refused(host: Any, guest: Any, playing: dict[str, Any]) -> None:
    view = turn({"first": host, "second": guest}, playing, "7", "A1C")
    asked = host.undo(view)
    refused = guest.answer(asked, False)
    assert refused["undo_request"] is None
    assert refused["moves"] == view["moves"]
    assert refused["revision"] == asked["revision"] + 1
    # Asked again, once answered.
    again = host.undo(host.get(view["id"]))
    assert again["undo_request"] == "first"


def test_nothing_of_ones_own_to_undo(host: Any, guest: Any, playing: dict[str, Any]) -> None:
    view = host.play(playing, "7")
    with unchanged(host, view["id"]):
        assert code(guest.undo(view, 409)) == "nothing_to_undo"
    assert guest.get(view["id"])["can_undo"] is False


@pytest.mark.parametrize("who", ["requester", "other"])
def test_any_action_drops_an_undo_request(host: Any, guest: Any, playing: dict[str, Any],
                                          who: str) -> None:
    players = {"first": host, "second": guest}
    view = turn(players, playing, "7", "A1C")
    # The host is to move (place C); the guest asks to take back A1C.
    asked = guest.undo(host.get(view["id"]))
    assert asked["undo_request"] == "second"
    if who == "requester":
        # Still the host's move: the guest cannot act, so the host plays on...
        played = host.act(asked, "place", cell="B1")
        assert played["undo_request"] is None
        # ...and a request by the host is dropped by the host's own next action.
        asked = host.undo(played)
        played = host.act(asked, "give", piece="D")
    else:
        played = host.act(asked, "place", cell="B1")
    assert played["undo_request"] is None
    assert guest.get(view["id"])["undo_request"] is None
    with unchanged(host, view["id"]):
        assert code(guest.answer(played, True, 409)) == "no_undo_request"
        assert code(host.answer(played, True, 409)) == "no_undo_request"


# ---- resigning --------------------------------------------------------------------------


@pytest.mark.parametrize("resigner", ["first", "second"])
@pytest.mark.parametrize("moves", [(), ("7",), ("7", "A1C"), ("7", "A1")])
def test_either_seat_resigns_at_any_time(host: Any, guest: Any, playing: dict[str, Any],
                                         resigner: str, moves: tuple[str, ...]) -> None:
    players = {"first": host, "second": guest}
    view = turn(players, playing, *moves)
    if moves:
        view = players[OTHER[view["to_move"]]].undo(view)  # an undo request waits
        assert view["undo_request"] is not None
    resigned = players[resigner].resign(view)
    outcome = {"winner": OTHER[resigner], "reason": "resignation", "shapes": [], "cells": [],
               "traits": []}
    assert resigned["outcome"] == outcome
    assert resigned["resigned"] == resigner
    assert resigned["undo_request"] is None
    assert resigned["moves"] == view["moves"]
    for player in players.values():
        seen = player.get(view["id"])
        assert (seen["outcome"], seen["resigned"]) == (outcome, resigner)
        assert not any(seen[f"can_{what}"] for what in ("act", "resign", "undo", "redo",
                                                        "decline"))
        assert not any(seen[f"{what}_offered"] for what in ("declare", "claim"))
    with unchanged(host, view["id"]):
        for player in players.values():
            assert code(player.resign(resigned, 409)) == "game_over"
            assert code(player.undo(resigned, 409)) == "nothing_to_undo"
            assert code(player.act(resigned, "give", expect=409, piece="3")) == "game_over"
        assert code(host.delete(view["id"], 409)) == "game_over"
        assert code(guest.delete(view["id"], 403)) == "not_your_game"
    line = next(g for g in guest.games() if g["id"] == view["id"])
    assert line["status"] == "over"
    record = host.client.get(f"/api/games/{view['id']}/record").text
    assert read_record(record).actions == host.store.load(view["id"]).game.actions


def test_resigning_elsewhere(host: Any) -> None:
    computer = host.new(mode="computer", level=1, human="second")
    resigned = host.resign(computer)  # the computer to move: the person resigns all the same
    assert (resigned["resigned"], resigned["outcome"]["winner"]) == ("second", "first")
    local = host.play(host.new(mode="local"), "7")
    resigned = host.resign(local)  # the side to move gives up
    assert (resigned["resigned"], resigned["outcome"]["winner"]) == ("second", "first")
    assert resigned["can_undo"] is False


# ---- play again -------------------------------------------------------------------------


def test_play_again_swaps_the_seats(host: Any, guest: Any, stranger: Any,
                                    playing: dict[str, Any]) -> None:
    with unchanged(host, playing["id"]):
        assert code(host.rematch(playing, 409)) == "not_over"
        assert code(guest.rematch(playing, 409)) == "not_over"
    over = host.resign(host.play(playing, "7"))
    with unchanged(host, over["id"]):
        assert code(stranger.rematch(over, 403)) == "not_your_game"
    following = guest.rematch(over)
    assert following["id"] != over["id"]
    assert (following["mode"], following["rules"], following["ply"]) == (
        "online", "classic:losing-calls", 0)
    assert following["seats"] == {"first": "you", "second": "opponent"}
    assert following["you"] == "first"
    assert following["invite"] is None
    assert following["can_act"] is True
    assert (following["resigned"], following["rematch"], following["outcome"]) == (None,) * 3
    mine = host.get(following["id"])
    assert (mine["you"], mine["can_act"]) == ("second", False)
    old = host.get(over["id"])
    assert old["rematch"] == following["id"]
    # Who asked is kept: the guest, in the second seat of the game that ended.
    assert (old["you"], old["rematch_by"]) == ("first", "second")
    assert guest.get(over["id"])["rematch_by"] == "second"
    assert following["rematch_by"] is None
    assert old["revision"] == over["revision"] + 1
    with unchanged(host, over["id"]):
        # Asked again, by either player: the same game.
        assert host.rematch(over)["id"] == following["id"]
        assert guest.rematch(over)["id"] == following["id"]
        assert code(stranger.rematch(over, 403)) == "not_your_game"
    assert host.rematch(over) == mine
    # The new game is played as usual, the guest handing over first.
    played = guest.act(following, "give", piece="3")
    assert host.get(following["id"])["can_act"] is True
    assert code(host.delete(played["id"], 409)) == "in_play"


def test_play_again_against_the_computer(host: Any) -> None:
    view = host.new(mode="computer", level=2, human="first", rules="advanced")
    over = host.resign(view)
    following = host.rematch(over)
    assert (following["mode"], following["level"], following["human"]) == ("computer", 2,
                                                                           "second")
    assert following["rules"] == "advanced"
    assert following["you"] == "second"
    assert following["seats"] == {"first": "computer", "second": "you"}
    assert host.rematch(over)["id"] == following["id"]
    assert host.get(over["id"])["rematch"] == following["id"]
    assert host.get(over["id"])["rematch_by"] is None  # online games only


# ---- a whole game -----------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["first", "second"])
def test_a_whole_classic_game_with_a_missed_declaration(host: Any, guest: Any,
                                                        seat: str) -> None:
    view = host.new(mode="online", rules="classic", host=seat)
    guest.join(view)
    players = {seat: host, OTHER[seat]: guest}
    view = host.get(view["id"])
    # Nobody completes a shape until the first player's D1 on turn 5; they miss it.
    for token in ("7", "A1C", "B1D", "C1E"):
        view = turn(players, view, token)
    placed = players["first"].act(view, "place", cell="D1")
    assert placed["declare_offered"] is True
    assert players["second"].get(view["id"])["declare_offered"] is False
    missed = players["first"].act(placed, "give", piece="3")
    # Until the second player has placed or claimed, nobody is told of the miss.
    assert missed["moves"][-1] == "D13"
    assert missed["last"]["missed"] is False
    assert missed["claim_offered"] is False  # the first player cannot claim their own miss
    seen = players["second"].get(view["id"])
    assert (seen["claim_offered"], seen["can_act"], seen["to_move"]) == (True, True, "second")
    assert (seen["moves"][-1], seen["last"]["missed"]) == ("D13", False)
    pending = guest.client.get(f"/api/games/{view['id']}/record").text
    assert "D1" in pending
    assert "D1?3" not in pending
    assert "D13" not in pending  # the record stops before the hand-over
    with unchanged(host, view["id"]):
        answer = players["first"].act(missed, "claim", expect=409)
        assert code(answer) == "not_your_turn"
    claimed = players["second"].act(missed, "claim")
    outcome = claimed["outcome"]
    assert (outcome["winner"], outcome["reason"], outcome["shapes"]) == ("second", "claim",
                                                                         ["row1"])
    for player in players.values():
        seen = player.get(view["id"])
        assert seen["outcome"] == outcome
        assert seen["can_act"] is False
        assert seen["can_resign"] is False
    text = guest.client.get(f"/api/games/{view['id']}/record").text
    assert "1. 7 A1C 2. B1D C1E 3. D1?3 ! 0-1" in text
    assert read_record(text).outcome == host.store.load(view["id"]).game.outcome
    lines = [g for g in players["second"].games(status="over") if g["id"] == view["id"]]
    assert lines[0]["you"] == "second"


def test_a_declared_win(host: Any, guest: Any, playing: dict[str, Any]) -> None:
    players = {"first": host, "second": guest}
    view = turn(players, playing, "7", "A1C", "B1D", "C1E", "D1")
    won = host.act(view, "declare")
    assert (won["outcome"]["winner"], won["outcome"]["reason"]) == ("first", "declaration")
    assert guest.rematch(won)["you"] == "first"


# ---- the QR code --------------------------------------------------------------------------


def test_the_qr_code_of_the_invitation(host: Any, guest: Any, stranger: Any,
                                       waiting: dict[str, Any]) -> None:
    path = f"/api/games/{waiting['id']}/invite.svg"
    answer = host.client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    assert answer.headers["cache-control"] == "no-store"
    assert answer.content.lstrip().startswith(b"<svg")
    assert answer.content == qr_svg(f"http://testserver{waiting['invite']}")
    for other in (guest, stranger):
        refused = other.client.get(path)
        assert refused.status_code == 403
        assert code(refused.json()) == "not_your_game"
    guest.join(waiting)
    for player, status in ((host, 409), (guest, 409), (stranger, 403)):
        refused = player.client.get(path)
        assert refused.status_code == status, refused.text
        assert refused.json()["error"]["code"] in ("no_invitation", "not_your_game")
    local = host.new(mode="local")
    refused = host.client.get(f"/api/games/{local['id']}/invite.svg")
    assert (refused.status_code, code(refused.json())) == (409, "no_invitation")


# ---- edges --------------------------------------------------------------------------------


def test_a_deleted_game_takes_its_invitation_along(host: Any, guest: Any,
                                                   waiting: dict[str, Any]) -> None:
    token = waiting["invite"].removeprefix("/join/")
    host.delete(waiting["id"])
    answer = guest.client.get(f"/api/invites/{token}")
    assert (answer.status_code, code(answer.json())) == (404, "not_found")
    assert code(guest.join(waiting, expect=404)) == "not_found"


def test_no_undo_answers_on_one_device(host: Any) -> None:
    local = host.play(host.new(mode="local"), "7")
    computer = host.act(host.new(mode="computer", level=1, human="first"), "give", piece="7")
    for view in (local, computer):
        with unchanged(host, view["id"]):
            assert code(host.answer(view, True, 409)) == "no_undo_request"


def test_play_again_after_the_new_game_was_deleted(host: Any) -> None:
    over = host.resign(host.new(mode="computer", level=1, human="first"))
    following = host.rematch(over)
    host.delete(following["id"])
    again = host.rematch(over)
    assert again["id"] != following["id"]
    assert (again["mode"], again["human"], again["ply"]) == ("computer", "second", 0)
    assert host.get(over["id"])["rematch"] == again["id"]
    assert host.rematch(over)["id"] == again["id"]


IMPORTED = '[Rules "classic"]\n\n1. 7 A1C 2. B1D *\n'


def test_an_imported_online_game_waits_for_its_opponent(host: Any, guest: Any) -> None:
    view = host.import_record(IMPORTED, mode="online")
    assert view["seats"] == {"first": "you", "second": "free"}
    assert view["invite"] is not None
    assert (view["can_act"], view["can_undo"], view["to_move"]) == (False, False, "second")
    with unchanged(host, view["id"]):
        assert code(host.undo(view, 409)) == "waiting_for_opponent"
        assert code(host.resign(view, 409)) == "waiting_for_opponent"
    joined = guest.join(view)
    assert (joined["can_act"], joined["you"]) == (True, "second")
    assert host.undo(host.get(view["id"]))["undo_request"] == "first"


def test_play_again_after_an_imported_finished_game(host: Any, guest: Any) -> None:
    over = host.import_record('[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1! 1-0\n',
                              mode="online")
    assert over["outcome"]["winner"] == "first"
    following = host.rematch(over)
    assert following["seats"] == {"first": "free", "second": "you"}
    # The free seat can still be taken.
    assert following["invite"] is not None
    joined = guest.join(following)
    assert joined["seats"] == {"first": "you", "second": "opponent"}
    assert guest.act(joined, "give", piece="7")["ply"] == 1
