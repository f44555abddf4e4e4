"""The quick messages of a game's table in the store, on SQLite and PostgreSQL:
numbered from 1 in each game even when said at once from many threads, read after a
number and the newest first kept, and gone with their game."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest

from quads.game import Game
from quads.outcome import Player
from quads.rules import CLASSIC
from quads.storage import GameStore, StoredGame
from quads.storage.stored import now


@pytest.fixture
def store(store_location: str | Path) -> Iterator[GameStore]:
    opened = GameStore(store_location)
    yield opened
    opened.close()


def _game(store: GameStore) -> StoredGame:
    moment = now()
    stored = StoredGame(id=secrets.token_hex(6), mode="online", level=None, human=None,
                        seed=1, game=Game(CLASSIC), created=moment, updated=moment,
                        owner=None, first_player=None, second_player=None)
    store.create(stored)
    return stored


def test_lines_are_numbered_in_each_game_and_read_after_a_number(store: GameStore) -> None:
    one, two = _game(store), _game(store)
    start = now()
    for index, (side, message) in enumerate([(Player.FIRST, "hello"),
                                             (Player.SECOND, "good_luck"),
                                             (Player.FIRST, "oops")]):
        said = store.say(one.id, side, message, start + timedelta(seconds=index))
        assert said.seq == index + 1
    assert store.say(two.id, Player.SECOND, "hello", start).seq == 1
    lines = store.talk(one.id)
    assert [(s.seq, s.side, s.message) for s in lines] == [
        (1, Player.FIRST, "hello"), (2, Player.SECOND, "good_luck"), (3, Player.FIRST, "oops")]
    assert lines[1].at == start + timedelta(seconds=1)
    assert [s.seq for s in store.talk(one.id, after=1)] == [2, 3]
    assert [s.seq for s in store.talk(one.id, limit=2)] == [2, 3]  # the newest, oldest first
    assert store.load(one.id).revision == one.revision  # no save of the game


def test_lines_said_at_once_each_get_their_own_number(store: GameStore) -> None:
    game = _game(store)
    with ThreadPoolExecutor(max_workers=4) as pool:
        said = list(pool.map(lambda i: store.say(game.id, Player(i % 2), "hello", now()),
                             range(12)))
    assert sorted(s.seq for s in said) == list(range(1, 13))
    assert [s.seq for s in store.talk(game.id)] == list(range(1, 13))


def test_the_lines_go_with_their_game(store: GameStore) -> None:
    game, other = _game(store), _game(store)
    store.say(game.id, Player.FIRST, "hello", now())
    store.say(other.id, Player.FIRST, "hello", now())
    store.delete(game.id, game.revision)
    assert store.talk(game.id) == []
    assert len(store.talk(other.id)) == 1
