"""Fair play between two people online: the help is the same for both and said.  The
safe pieces are shown in an online game only if its creator chose that help (the
guest agrees by joining): else the view holds none, for the players and spectators
alike.  Hints are refused online whatever was chosen; a rated game has no help."""

from __future__ import annotations

from typing import Any

from quads.position import Position
from quads.rules import Rules
from web.conftest import Player


def _online(host: Player, guest: Player, **body: Any) -> dict[str, Any]:
    made = host._check(host.client.post("/api/games", json={
        "mode": "online", "rules": "classic", "host": "first", **body}), 201)
    return guest.join(made)


def _safe_now(view: dict[str, Any]) -> list[str]:
    position = Position.from_string(view["position"])
    rules = Rules.parse(view["rules"])
    return sorted(f"{piece:X}" for piece in range(16)
                  if position.safe_pieces(rules) >> piece & 1)


def test_without_agreed_help_nobody_sees_safe_pieces(host: Player, guest: Player,
                                                     stranger: Player) -> None:
    view = guest.play(host.play(_online(host, guest), "7"), "A1C")
    for reader in (host, guest, stranger):
        seen = reader.get(view["id"])
        assert (seen["safe_help"], seen["safe"]) == (False, [])
    token_view = host.get(view["id"])
    assert token_view["safe_help"] is False
    hint = host.client.get(f"/api/games/{view['id']}/hint")
    assert hint.status_code == 403
    assert hint.json()["error"]["code"] == "hint_online"


def test_help_both_agreed_to_is_the_same_for_both_and_goes_on_in_a_rematch(
        host: Player, guest: Player, stranger: Player) -> None:
    made = host._check(host.client.post("/api/games", json={
        "mode": "online", "rules": "classic", "host": "first", "safe_pieces": True}), 201)
    token = made["invite"].rsplit("/", 1)[1]
    invite = stranger._check(stranger.client.get(f"/api/invites/{token}"), 200)
    assert invite["safe_help"] is True  # the guest reads it before joining
    view = guest.play(host.play(guest.join(made), "7"), "A1C")
    for reader in (host, guest, stranger):
        seen = reader.get(view["id"])
        assert seen["safe_help"] is True
        assert _safe_now(seen)  # some are safe: the list below is no empty match
        assert sorted(seen["safe"]) == _safe_now(seen)
    hint = guest.client.get(f"/api/games/{view['id']}/hint")
    assert hint.status_code == 403  # the safe pieces only: never the engine's advice
    over = host.resign(host.get(view["id"]))
    following = guest.rematch(over)
    assert following["safe_help"] is True


def test_a_rated_game_has_no_help_and_games_off_line_always_have_it(host: Player) -> None:
    refused = host.client.post("/api/games", json={
        "mode": "online", "rules": "quads", "rated": True, "safe_pieces": True,
        "clock": {"initial": 180, "increment": 2}})
    assert refused.status_code in (403, 422)
    assert refused.json()["error"]["code"] in ("cannot_be_rated", "account_needed")
    computer = host.new(mode="computer", level=1, human="first", rules="classic")
    assert computer["safe_help"] is True
    assert computer["safe"] == computer["supply"]
    local = host.new(mode="local", rules="quads")
    assert local["safe_help"] is True
