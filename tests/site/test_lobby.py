"""The lobby as the site keeps it: whom quick pairing meets, seeks opened, withdrawn
and taken, on a real store, with no web server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from tests.site.site_helpers import Limits, Told

from quads.outcome import Player
from quads.site.errors import SiteError
from quads.site.lobby import pairing
from quads.site.lobby.service import Lobby
from quads.storage import GameStore
from quads.storage.lobby import Lobby as Seeks
from quads.storage.lobby import Seek

A, B, C = "a" * 64, "b" * 64, "c" * 64


def _seek(seek_id: str, player: str, minutes: int) -> Seek:
    moment = datetime(2026, 12, 1, tzinfo=UTC) + timedelta(minutes=minutes)
    return Seek(seek_id, player, "Someone", "quads", "180+2", "random", moment, moment)


def test_pairing_chooses_the_oldest_seek_of_someone_else() -> None:
    own, older, newer = _seek("own", A, 0), _seek("older", B, 1), _seek("newer", C, 2)
    assert pairing.choose(A, [own, older, newer]) == older
    assert pairing.choose(A, [own]) is None
    assert pairing.choose(A, []) is None


def test_a_seek_taken_seats_its_player_where_they_asked_and_starts_the_clock() -> None:
    seek = Seek("s", A, "Ada", "classic", "180+2", "second",
                datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC))
    game = pairing.seek_game(seek, B, 30.0)
    assert (game.first_player, game.second_player) == (B, A)
    assert game.seat(Player.SECOND) == A
    assert game.invite is None
    assert game.clock is not None
    assert game.clock.running is Player.FIRST
    assert game.game.rules.name == "classic"


def _lobby(store: GameStore, told: Told) -> Lobby:
    return Lobby(Seeks(store), told, Limits())


def test_quick_pairing_meets_a_waiting_seek_and_tells_the_lobby(store: GameStore,
                                                                told: Told) -> None:
    lobby = _lobby(store, told)
    waiting = lobby.pair(A, "quads", "180+2")
    assert isinstance(waiting, Seek)
    assert lobby.pair(A, "quads", "180+2") != waiting  # never met with oneself
    met = lobby.pair(B, "quads", "180+2")
    assert not isinstance(met, Seek)
    assert {met.first_player, met.second_player} == {A, B}
    assert ("paired", waiting.id) in told.lobby
    assert lobby.listed() == []  # A's other seek went with the game


def test_seeks_refused_as_the_site_says(store: GameStore, told: Told) -> None:
    lobby = _lobby(store, told)
    seeks = [lobby.open(A, "quads", "180+2", "random") for _ in range(3)]
    with pytest.raises(SiteError) as refused:
        lobby.open(A, "quads", "180+2", "random")
    assert refused.value.code == "too_many_seeks"
    with pytest.raises(SiteError) as refused:
        lobby.accept(seeks[0].id, A)
    assert refused.value.code == "own_seek"
    with pytest.raises(SiteError) as refused:
        lobby.withdraw(seeks[0].id, B)
    assert refused.value.code == "not_your_seek"
    lobby.withdraw(seeks[0].id, A)
    with pytest.raises(SiteError) as refused:
        lobby.withdraw(seeks[0].id, A)
    assert refused.value.code == "not_found"
    game = lobby.accept(seeks[1].id, B)
    assert game.seat_of(B) is not None
    with pytest.raises(SiteError) as refused:
        lobby.accept(seeks[1].id, C)
    assert refused.value.code == "seek_gone"
    assert lobby.listed() == []  # A started a game: their last seek went too


def test_a_name_is_made_up_once_and_a_new_one_shows_on_open_seeks(store: GameStore,
                                                                 told: Told) -> None:
    lobby = _lobby(store, told)
    made = lobby.name(A)
    assert made == lobby.name(A)
    seek = lobby.open(A, "quads", "180+2", "random")
    assert lobby.rename(A, "Ada") == "Ada"
    assert [s.name for s in lobby.listed()] == ["Ada"]
    assert told.lobby[-1] == ("opened", seek.id)


def test_a_game_a_seek_started_is_listed_for_both_players_at_once(store: GameStore,
                                                                   told: Told) -> None:
    lobby = _lobby(store, told)
    seek = lobby.open(A, "quads", "180+2", "first")
    game = lobby.accept(seek.id, B)
    for player in (A, B):
        assert [s.id for s in store.summaries(player=player)] == [game.id]
    assert store.summaries(player=C) == []
