"""Rated games on a real store: only accounts play them, the lobby pairs by rating, and
a result changes both ratings once (an aborted game none)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert
from tests.site.site_helpers import Limits, Told

from quads.clock import parse_time_control
from quads.game import Abort
from quads.ratings import NEW
from quads.site.accounts.service import Accounts
from quads.site.errors import SiteError
from quads.site.games.service import Games
from quads.site.lobby import pairing
from quads.site.lobby.service import Lobby
from quads.storage import GameStore
from quads.storage.accounts import AccountStore
from quads.storage.lobby import Lobby as Seeks
from quads.storage.lobby import Seek
from quads.storage.stored import now
from quads.storage.tables import ratings

A, B, C = "a" * 64, "b" * 64, "c" * 64
GOOD = "a quiet heron by the lake"


@pytest.fixture
def lobby(store: GameStore, told: Told) -> Lobby:
    accounts = Accounts(AccountStore(store))
    for player, name in ((A, "Ada"), (B, "Bea")):
        store.add_player(player)
        accounts.sign_up(player, name, GOOD, "d")
    store.add_player(C)  # no account
    return Lobby(Seeks(store), told, Limits())


def _games(store: GameStore, told: Told) -> Games:
    return Games(store, told, Limits())


def _rated_game(lobby: Lobby) -> str:
    seek = lobby.open(A, "quads", "180+2", "first", rated=True)
    return lobby.accept(seek.id, B).id


def test_a_rated_seek_starts_a_rated_game_whose_result_counts_once(
        store: GameStore, told: Told, lobby: Lobby) -> None:
    game_id = _rated_game(lobby)
    stored = store.load(game_id)
    assert stored.rated
    assert stored.category == "quads-rapid"
    newcomer = stored.ratings[0]  # no rated game yet: a newcomer's rating
    assert newcomer is not None
    assert (newcomer.rating, newcomer.deviation, newcomer.before) == (1500, 500, None)
    games = _games(store, told)
    over = games.resign(game_id, B, stored.revision)
    assert over.is_over()
    # What the followers are told (and the answer) carries the change at once.
    told_first = over.ratings[0]
    assert told_first is not None
    assert told_first.before == NEW.rating
    assert told_first.after is not None
    assert told_first.after > NEW.rating
    after = store.load(game_id)
    first, second = after.ratings
    assert first is not None
    assert second is not None
    assert first.before == second.before == NEW.rating
    assert first.after is not None
    assert second.after is not None
    assert first.after > NEW.rating > second.after
    assert [r.games for r in store.ratings(A)] == [1]
    assert len(store.rating_history(A)) == 1
    # Saving the finished game again (a rematch asked) counts nothing more.
    games.rematch(game_id, A, lambda: None)
    assert [r.games for r in store.ratings(B)] == [1]
    assert len(store.rating_history(B)) == 1


def test_an_aborted_rated_game_changes_no_rating(store: GameStore, told: Told,
                                                 lobby: Lobby) -> None:
    game_id = _rated_game(lobby)
    stored = store.load(game_id)
    stored.game.apply(Abort())
    store.save(stored)
    assert store.ratings(A) == []
    assert store.rating_history(B) == []


def test_players_without_an_account_play_no_rated_game(store: GameStore, told: Told,
                                                       lobby: Lobby) -> None:
    with pytest.raises(SiteError, check=lambda e: e.code == "account_needed"):
        lobby.open(C, "quads", "180+2", "first", rated=True)
    seek = lobby.open(A, "quads", "180+2", "first", rated=True)
    with pytest.raises(SiteError, check=lambda e: e.code == "account_needed"):
        lobby.accept(seek.id, C)
    assert [s.id for s in lobby.listed()] == [seek.id]  # still open
    with pytest.raises(SiteError, check=lambda e: e.code == "cannot_be_rated"):
        lobby.open(A, "lines:color", "180+2", "first", rated=True)
    games = _games(store, told)
    with pytest.raises(SiteError, check=lambda e: e.code == "account_needed"):
        games.new("quads", "online", C, rated=True)
    with pytest.raises(SiteError, check=lambda e: e.code == "cannot_be_rated"):
        games.new("quads", "online", A, rated=True)  # no clock
    invited = games.new("quads", "online", A, rated=True, clock=parse_time_control("180+2"))
    assert invited.rated
    assert invited.invite is not None
    with pytest.raises(SiteError, check=lambda e: e.code == "account_needed"):
        games.join(invited.id, C, invited.invite)
    assert games.join(invited.id, B, invited.invite).second_player == B


def test_a_rated_seek_is_taken_only_within_its_bounds(lobby: Lobby) -> None:
    seek = lobby.open(A, "quads", "180+2", "first", rated=True, low=1600, high=2000)
    assert seek.rating == 1500
    with pytest.raises(SiteError, check=lambda e: e.code == "out_of_range"):
        lobby.accept(seek.id, B)  # 1500, below 1600
    assert seek.provisional  # a newcomer's rating is uncertain
    casual = lobby.open(A, "quads", "180+2", "first")
    assert not casual.rated
    assert casual.rating == 1500  # an account's rating shows on a casual seek too


def test_a_seek_says_whether_its_seekers_rating_is_provisional(store: GameStore,
                                                               lobby: Lobby) -> None:
    with store.begin() as connection:
        connection.execute(insert(ratings), {
            "player": B, "category": "quads-rapid", "rating": 1712.4, "deviation": 60.0,
            "volatility": 0.06, "games": 40, "played": now().isoformat()})
    settled = lobby.open(B, "quads", "180+2", "first", rated=True)
    assert (settled.rating, settled.provisional) == (1712, False)
    assert lobby.seeks.seek(settled.id) == settled  # as stored
    assert lobby.open(A, "quads", "180+2", "first", rated=True).provisional


def _seek(seek_id: str, player: str, rating: int, seconds: int = 0,
          low: int | None = None, high: int | None = None) -> Seek:
    moment = datetime(2026, 12, 1, tzinfo=UTC) + timedelta(seconds=seconds)
    return Seek(seek_id, player, "Someone", "quads", "180+2", "random", moment, moment,
                rated=True, rating=rating, rating_min=low, rating_max=high)


def test_rated_pairing_meets_the_nearest_rating_within_both_bounds() -> None:
    at = datetime(2026, 12, 1, tzinfo=UTC)
    far, near, nearer = _seek("far", B, 1900), _seek("near", C, 1600), _seek("x", "d", 1540)
    wanted = pairing.Wanted(1500)
    assert pairing.choose(A, [far, near, nearer], wanted, at) == nearer
    assert pairing.choose(A, [far, near], pairing.Wanted(1500, high=1550), at) is None
    narrow = _seek("narrow", B, 1700, low=1650, high=1750)
    assert pairing.choose(A, [narrow], wanted, at) is None
    # Waiting widens the seek's bounds: 150 points short needs 30 s.
    assert pairing.choose(A, [narrow], wanted, at + timedelta(seconds=29)) is None
    assert pairing.choose(A, [narrow], wanted, at + timedelta(seconds=30)) == narrow
    tie_old, tie_new = _seek("old", B, 1520), _seek("new", C, 1480, seconds=1)
    assert pairing.choose(A, [tie_old, tie_new], wanted, at) == tie_old
