"""Profiles on both engines: a player's finished online games from their side, with the
opponent and the rating change in one query, filtered and paged; the wins, draws and
losses; an account found by its name."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import event, update

from quads.game import Abandon, Abort, Action, Game, Resign
from quads.outcome import Player
from quads.rules import CLASSIC, QUADS, Rules
from quads.storage import GameStore, StoredGame
from quads.storage.accounts import AccountStore
from quads.storage.bots import Bots
from quads.storage.lobby import Lobby
from quads.storage.profiles import ProfileStore, Score, side_result
from quads.storage.stored import now
from quads.storage.tables import games

ADA, BEA, CAL = "a" * 64, "b" * 64, "c" * 64


@pytest.fixture
def store(store_location: str | Path) -> Iterator[GameStore]:
    store = GameStore(store_location)
    for player in (ADA, BEA, CAL):
        store.add_player(player)
    AccountStore(store).create(ADA, "Ada", "hash", [], "s-ada", "d", "t-ada")
    AccountStore(store).create(BEA, "Bea", "hash", [], "s-bea", "d", "t-bea")
    Lobby(store).rename(CAL, "Quiet Heron 42")  # no account
    yield store
    store.close()


def _game(store: GameStore, first: str | None, second: str | None, *endings: Action,
          rules: Rules = QUADS, mode: str = "online", rated: bool = False) -> str:
    """A game between ``first`` and ``second``, ended by ``endings`` in a save of its own
    (which rates a rated one), as play ends games."""
    moment = now()
    game_id = secrets.token_hex(6)
    stored = StoredGame(id=game_id, mode=mode, level=None, human=None,  # type: ignore[arg-type]
                        seed=1, game=Game(rules), created=moment, updated=moment,
                        owner=first, first_player=first, second_player=second, rated=rated,
                        category="quads-blitz" if rated else None)
    store.create(stored)
    if endings:
        for action in endings:
            stored.game.apply(action)
        store.save(stored)
    return game_id


def test_a_result_is_read_from_the_players_side() -> None:
    assert side_result("1-0", Player.FIRST) == "win"
    assert side_result("1-0", Player.SECOND) == "loss"
    assert side_result("0-1", Player.SECOND) == "win"
    assert side_result("1/2-1/2", Player.SECOND) == "draw"
    assert side_result("*", Player.FIRST) is None
    assert side_result(None, Player.FIRST) is None


def test_finished_online_games_come_from_the_players_side_with_the_opponent(
        store: GameStore) -> None:
    rated = _game(store, ADA, BEA, Resign(Player.SECOND), rated=True)  # Ada wins
    drawn = _game(store, CAL, ADA, Abandon(Player.FIRST, draw=True))
    lost = _game(store, BEA, ADA, Resign(Player.SECOND), rules=CLASSIC)
    aborted = _game(store, ADA, CAL, Abort())
    _game(store, ADA, BEA)  # goes on
    _game(store, ADA, None, Resign(Player.FIRST))  # nobody joined
    _game(store, ADA, ADA, Resign(Player.FIRST))  # against itself
    _game(store, ADA, None, Resign(Player.FIRST), mode="local")
    page = ProfileStore(store).finished(ADA)
    assert page.next is None
    assert [g.id for g in page.games] == [aborted, lost, drawn, rated]
    by_id = {g.id: g for g in page.games}
    assert [by_id[g].result for g in (rated, drawn, lost, aborted)] == [
        "win", "draw", "loss", None]
    assert by_id[lost].side is Player.SECOND
    assert by_id[lost].rules == "classic"
    assert by_id[lost].opponent == BEA
    assert by_id[lost].opponent_name == "Bea"
    assert by_id[lost].opponent_account
    assert by_id[drawn].opponent_name == "Quiet Heron 42"
    assert not by_id[drawn].opponent_account
    won = by_id[rated]
    assert won.rated
    assert won.category == "quads-blitz"
    assert won.rating_before == 1500.0
    assert won.rating_after is not None
    assert won.rating_after > 1500.0
    assert by_id[lost].rating_before is None
    # The other side of the same game.
    (seen,) = ProfileStore(store).finished(BEA, rules="quads").games
    assert (seen.id, seen.result, seen.side, seen.opponent_name) == (rated, "loss",
                                                                     Player.SECOND, "Ada")
    assert seen.rating_after is not None
    assert seen.rating_after < 1500.0


def test_a_deleted_opponent_has_no_account_and_the_deleted_name(store: GameStore) -> None:
    game_id = _game(store, ADA, BEA, Resign(Player.FIRST))
    AccountStore(store).delete(BEA)
    (game,) = ProfileStore(store).finished(ADA).games
    assert game.id == game_id
    assert game.opponent_name == "deleted player"
    assert not game.opponent_account


def test_games_are_filtered_by_rules_and_result_and_paged(store: GameStore) -> None:
    wins = [_game(store, ADA, BEA, Resign(Player.SECOND)) for _ in range(3)]
    losses = [_game(store, ADA, CAL, Resign(Player.FIRST), rules=CLASSIC) for _ in range(2)]
    profiles = ProfileStore(store)
    assert [g.id for g in profiles.finished(ADA, result="win").games] == wins[::-1]
    assert [g.id for g in profiles.finished(ADA, result="loss").games] == losses[::-1]
    assert profiles.finished(ADA, result="draw").games == []
    assert [g.id for g in profiles.finished(ADA, rules="classic").games] == losses[::-1]
    assert profiles.finished(ADA, rules="advanced").games == []
    assert profiles.finished(BEA, result="loss", rules="quads").next is None
    seen: list[str] = []
    after = None
    while True:
        page = profiles.finished(ADA, limit=2, after=after)
        assert len(page.games) <= 2
        seen += [g.id for g in page.games]
        if page.next is None:
            break
        after = page.next
    assert seen == (wins + losses)[::-1]


def test_a_game_that_ended_before_results_were_kept_is_replayed(store: GameStore) -> None:
    old_win = _game(store, ADA, BEA, Resign(Player.SECOND))
    old_loss = _game(store, ADA, BEA, Resign(Player.FIRST))
    new_loss = _game(store, ADA, CAL, Resign(Player.FIRST))
    with store.begin(write=True) as connection:
        connection.execute(update(games).where(games.c.id.in_((old_win, old_loss)))
                           .values(result=None))
    profiles = ProfileStore(store)
    listed = {g.id: g.result for g in profiles.finished(ADA).games}
    assert listed == {old_win: "win", old_loss: "loss", new_loss: "loss"}
    assert [g.id for g in profiles.finished(ADA, result="win").games] == [old_win]
    assert [g.id for g in profiles.finished(ADA, result="loss").games] == [new_loss, old_loss]
    # A page of one whose candidate was an old game of another result is empty, and
    # goes on to the next.
    first = profiles.finished(ADA, result="win", limit=1)
    assert first.games == []
    assert first.next is not None
    second = profiles.finished(ADA, result="win", limit=1, after=first.next)
    assert [g.id for g in second.games] == [old_win]
    assert second.next is None
    # The counts leave the old games out, as their docstring says.
    assert profiles.score(ADA) == Score(wins=0, draws=0, losses=1)


def test_the_score_counts_every_finished_online_game_once(store: GameStore) -> None:
    for _ in range(3):
        _game(store, ADA, BEA, Resign(Player.SECOND))
    _game(store, BEA, ADA, Resign(Player.SECOND))
    _game(store, CAL, ADA, Abandon(Player.SECOND, draw=True))
    _game(store, BEA, ADA, Resign(Player.FIRST))
    _game(store, ADA, CAL, Abort())
    _game(store, ADA, BEA)
    _game(store, ADA, None, Resign(Player.FIRST), mode="local")
    profiles = ProfileStore(store)
    assert profiles.score(ADA) == Score(wins=4, draws=1, losses=1)
    assert profiles.score(BEA) == Score(wins=1, draws=0, losses=4)
    assert profiles.score("d" * 64) == Score(0, 0, 0)


def test_an_account_is_found_by_its_name_in_any_case(store: GameStore) -> None:
    profiles = ProfileStore(store)
    found = profiles.account("ADA")
    assert found is not None
    assert (found.player, found.name, found.deleted, found.bot) == (ADA, "Ada", None, None)
    assert abs(found.created - now()) < timedelta(minutes=1)
    assert profiles.account("Quiet Heron 42") is None
    handle = Bots(store).upgrade(BEA, "key")
    AccountStore(store).delete(BEA)
    gone = profiles.account("bea")
    assert gone is not None
    assert gone.bot == handle
    assert gone.deleted is not None


def test_a_page_is_one_query_whatever_its_size(store: GameStore) -> None:
    for _ in range(5):
        _game(store, ADA, BEA, Resign(Player.SECOND), rated=True)
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        page = ProfileStore(store).finished(ADA)
        ProfileStore(store).score(ADA)
    finally:
        event.remove(store.engine, "before_cursor_execute", count)
    assert len(page.games) == 5
    assert all(g.rating_after is not None for g in page.games)
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 2
