"""Quick messages at the table (``/api/games/{id}/talk`` and the live socket's
``talk`` messages), as the two players, a spectator and a stranger meet them: only
the presets, only the seated players, a few at a time, never a change of the game."""

from __future__ import annotations

from typing import Any

import pytest

from quads.site.games.talk import PRESETS
from quads.storage import GameStore
from web.conftest import Player


def _say(player: Player, game_id: str, message: str, expect: int = 201) -> dict[str, Any]:
    return player._check(player.client.post(f"/api/games/{game_id}/talk",
                                            json={"message": message}), expect)


def _heard(player: Player, game_id: str, after: int = 0, expect: int = 200) -> Any:
    answer = player.client.get(f"/api/games/{game_id}/talk", params={"after": after})
    return player._check(answer, expect)


def test_the_two_players_say_presets_and_both_read_them(
        host: Player, guest: Player, playing: dict[str, Any]) -> None:
    game = playing["id"]
    said = _say(host, game, "good_luck")
    assert (said["seq"], said["side"], said["message"]) == (1, "first", "good_luck")
    _say(guest, game, "thanks")
    for reader in (host, guest):
        lines = _heard(reader, game)["messages"]
        assert [(line["seq"], line["side"], line["message"]) for line in lines] == [
            (1, "first", "good_luck"), (2, "second", "thanks")]
    assert [line["seq"] for line in _heard(guest, game, after=1)["messages"]] == [2]
    # Talk is no part of the game: its revision is where it was, a move at it is taken.
    assert host.get(game)["revision"] == playing["revision"]
    host.play(host.get(game), "0")


def test_only_presets_may_be_said(host: Player, playing: dict[str, Any]) -> None:
    for wrong in ("you are bad", "", "HELLO", 7, None):
        refused = host.client.post(f"/api/games/{playing['id']}/talk", json={"message": wrong})
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"]["code"] == "bad_request"
    refused = host.client.post(f"/api/games/{playing['id']}/talk",
                               json={"message": "hello", "extra": "free text"})
    assert refused.status_code == 400
    assert _heard(host, playing["id"])["messages"] == []


def test_a_spectator_and_a_stranger_neither_say_nor_read(
        host: Player, stranger: Player, playing: dict[str, Any]) -> None:
    game = playing["id"]
    _say(host, game, "hello")
    assert _say(stranger, game, "hello", 403)["error"]["code"] == "not_your_game"
    assert _heard(stranger, game, expect=403)["error"]["code"] == "not_your_game"
    with stranger.client.websocket_connect(f"/api/games/{game}/live") as socket:
        assert socket.receive_json()["type"] == "view"
        _say(host, game, "oops")
        socket.send_json({"type": "ping"})
        # The spectator's socket carries the pong (and how many watch), and no line
        # said at the table.
        kinds = []
        while "pong" not in kinds:
            kinds.append(socket.receive_json()["type"])
        assert "talk" not in kinds
    assert _say(host, "no-such-game", "hello", 404)["error"]["code"] == "not_found"


def test_no_talk_without_a_table(host: Player, guest: Player) -> None:
    waiting = host.new(mode="online", rules="classic")
    assert _say(host, waiting["id"], "hello", 409)["error"]["code"] == "waiting_for_opponent"
    computer = host.new(mode="computer", level=1, human="first", rules="classic")
    assert _say(host, computer["id"], "hello", 409)["error"]["code"] == "not_online"
    assert _say(guest, computer["id"], "hello", 403)["error"]["code"] == "private_game"


def test_the_players_sockets_bring_each_line_once(
        host: Player, guest: Player, playing: dict[str, Any]) -> None:
    game = playing["id"]
    _say(host, game, "hello")
    with guest.client.websocket_connect(f"/api/games/{game}/live") as socket:
        first = [socket.receive_json() for _ in range(2)]
        # On connecting: the lines said before, and the view (nobody watches: no count).
        talk = next(message for message in first if message["type"] == "talk")
        assert [line["message"] for line in talk["messages"]] == ["hello"]
        _say(host, game, "good_luck")
        message = socket.receive_json()
        assert message["type"] == "talk"
        assert [(line["seq"], line["message"]) for line in message["messages"]] == [
            (2, "good_luck")]
        _say(guest, game, "thanks")  # the reader's own line comes back too
        assert [line["message"] for line in socket.receive_json()["messages"]] == ["thanks"]


def test_a_line_after_the_game_and_the_lines_go_with_the_game(
        db_path: Any, host: Player, guest: Player, playing: dict[str, Any]) -> None:
    over = guest.resign(guest.get(playing["id"]))
    assert over["outcome"] is not None
    _say(guest, playing["id"], "well_played")
    _say(host, playing["id"], "rematch")
    assert len(_heard(host, playing["id"])["messages"]) == 2
    store = GameStore(db_path)
    try:
        store.delete(playing["id"], over["revision"])
        assert store.talk(playing["id"]) == []
    finally:
        store.close()


@pytest.mark.settings(rate_talk="3/minute")
def test_saying_too_much_is_refused_politely_and_changes_nothing(
        host: Player, guest: Player, playing: dict[str, Any]) -> None:
    game = playing["id"]
    for message in PRESETS[:3]:
        _say(host, game, message)
    answer = host.client.post(f"/api/games/{game}/talk", json={"message": "oops"})
    assert answer.status_code == 429
    assert answer.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(answer.headers["Retry-After"]) <= 60
    assert len(_heard(guest, game)["messages"]) == 3
    _say(guest, game, "hello")  # the other player's own rate


def test_a_line_sent_from_another_site_s_page_is_refused(
        host: Player, guest: Player, playing: dict[str, Any]) -> None:
    game = playing["id"]
    for headers in ({"Origin": "http://evil.example"},
                    {"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"}):
        answer = host.client.post(f"/api/games/{game}/talk", json={"message": "oops"},
                                  headers=headers)
        assert answer.status_code == 403, answer.text
        assert answer.json()["error"]["code"] == "cross_site"
    assert _heard(guest, game)["messages"] == []
