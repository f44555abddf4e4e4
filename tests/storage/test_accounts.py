"""The account store on both engines: sessions, merges, codes and challenges."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from tests.site.site_helpers import online_game

from quads.storage import GameStore
from quads.storage.accounts import AccountStore, NameTakenError
from quads.storage.bot_keys import BotKeys
from quads.storage.results import PuzzleResult
from quads.storage.stored import now

ALICE, BOB = "a" * 64, "b" * 64


@pytest.fixture
def store(store_location: str | Path) -> GameStore:
    store = GameStore(store_location)
    yield store  # type: ignore[misc]
    store.close()


def test_an_account_keeps_its_player_and_its_sessions(store: GameStore) -> None:
    accounts = AccountStore(store)
    store.add_player(ALICE)
    accounts.create(ALICE, "Alice", "hash", ["c1", "c2"], "s1", "laptop", "t1")
    with pytest.raises(NameTakenError):
        accounts.create(BOB, "ALICE", None, [], "s2", "d", "t2")
    assert accounts.by_name("alice").player == ALICE  # type: ignore[union-attr]
    assert BotKeys(store).player_of("s1") == (ALICE, True)
    assert BotKeys(store).player_of(ALICE) is None
    accounts.sign_in(ALICE, "s3", "phone", "t1")
    assert [s.device for s in accounts.sessions(ALICE)] in (["phone", "laptop"],
                                                           ["laptop", "phone"])
    assert accounts.trusted("t1", ALICE)
    assert not accounts.trusted("t1", BOB)
    assert accounts.end_sessions(ALICE, keep="s3") == 1
    assert BotKeys(store).player_of("s1") is None
    assert BotKeys(store).player_of("s3") == (ALICE, True)


def test_a_merge_moves_games_and_results_and_keeps_one_of_each_day(store: GameStore) -> None:
    accounts = AccountStore(store)
    store.add_player(ALICE)
    accounts.create(ALICE, "Alice", "hash", [], "s1", "d", "t1")
    game = online_game(store, BOB, "c" * 64)
    moment = now()
    for player, attempt in ((ALICE, "x"), (BOB, "x"), (BOB, "y")):
        store.add_result(PuzzleResult(player=player, date=moment.date(), tries=1, seconds=3,
                                      solved=True, recorded=moment, attempt=attempt))
    accounts.sign_in(ALICE, "s2", "d", "t1", merge=BOB)
    assert store.load(game).first_player == ALICE
    assert sorted(r.attempt or "" for r in store.results(ALICE)) == ["x", "y"]
    assert store.results(BOB) == []
    assert BotKeys(store).player_of(BOB) is None


def test_codes_and_challenges_are_used_once_and_expire(store: GameStore) -> None:
    accounts = AccountStore(store)
    accounts.add_link_code(ALICE, "live", now() + timedelta(minutes=5))
    accounts.add_link_code(ALICE, "old", now() - timedelta(seconds=1))
    assert accounts.use_link_code("old") is None
    assert accounts.use_link_code("live") == ALICE
    assert accounts.use_link_code("live") is None
    accounts.add_challenge("c", "challenge", "register", ALICE, now() + timedelta(minutes=5))
    assert accounts.take_challenge("c", "sign_in") is None  # another ceremony's
    assert accounts.take_challenge("c", "register") == ("challenge", ALICE)
    assert accounts.take_challenge("c", "register") is None
