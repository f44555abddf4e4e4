"""Retention on both engines: a prune removes exactly the games and players that
expired at a fixed time, just past each limit, and nothing just inside it; a dry
run removes nothing and counts the same."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select

from quads import CLASSIC, Game, Give, read_record
from quads.storage import GameStore, PuzzleResult
from quads.storage.tables import (
    accounts,
    connections,
    game_ends,
    games,
    players,
    puzzle_results,
    puzzle_solves,
)
from storage.store_helpers import CLAIMED, stored_game

NOW = datetime(2027, 1, 1, 12, 0, tzinfo=UTC)
UNPLAYED = timedelta(days=7)
ENDED = timedelta(days=365)
SECOND = timedelta(seconds=1)


def _game(store: GameStore, game_id: str, updated: datetime, revision: int, *,
          over: bool = False, **fields: Any) -> None:
    game = read_record(CLAIMED) if over else Game(CLASSIC)
    if not over and revision:
        game.apply(Give(7))
    stored = stored_game(game_id, game, created=updated, updated=updated, **fields)
    stored.revision = revision
    store.create(stored)


def _player(store: GameStore, player: str, created: datetime) -> None:
    with store.engine.begin() as connection:
        connection.execute(insert(players), {"id": player,
                                             "created": created.isoformat(timespec="microseconds")})


def _build(store: GameStore) -> None:
    old_unplayed, new_unplayed = NOW - UNPLAYED - SECOND, NOW - UNPLAYED + SECOND
    old_ended, new_ended = NOW - ENDED - SECOND, NOW - ENDED + SECOND
    _game(store, "unplayed-old", old_unplayed, 0, owner="p-owns-expired",
          mode="online", first_player="p-owns-expired", invite="invite-old")
    _game(store, "unplayed-new", new_unplayed, 0, owner="p-owner")
    _game(store, "imported-old", old_unplayed, 0, over=True, owner="p-owns-expired")
    _game(store, "over-old", old_ended, 3, over=True)
    _game(store, "over-new", new_ended, 3, over=True, mode="online", owner="p-host",
          first_player="p-host", second_player="p-guest", rematch="unplayed-old")
    _game(store, "abandoned-old", old_ended, 2)
    _game(store, "abandoned-new", new_ended, 2, mode="online", owner="p-first",
          first_player="p-first")
    _game(store, "played-lately", NOW - timedelta(days=30), 2, owner="p-lately")
    for player in ("p-idle", "p-owns-expired", "p-owner", "p-host", "p-guest", "p-first",
                   "p-lately", "p-results", "p-solves"):
        _player(store, player, old_unplayed)
    _player(store, "p-idle-new", new_unplayed)
    store.add_result(PuzzleResult(player="p-results", date=NOW.date(), tries=1, seconds=3,
                                  solved=False, recorded=NOW - ENDED * 2))
    store.add_solve("p-solves", NOW.date())
    with store.engine.begin() as connection:
        for game_id in ("unplayed-old", "unplayed-new"):
            connection.execute(insert(connections), {"process": "p1", "game": game_id,
                                                     "player": "p-owner"})
        for game_id in ("over-old", "over-new"):  # noted as ended when their last save ended them
            connection.execute(insert(game_ends), {"game": game_id, "ended": "2026-01-01",
                                                   "mistakes": "done", "tries": 0})


def _rows(store: GameStore) -> dict[str, list[tuple[Any, ...]]]:
    with store.engine.connect() as connection:
        return {table.name: sorted(tuple(row) for row in connection.execute(select(table)))
                for table in (games, players, puzzle_results, puzzle_solves, connections)}


def _ids(store: GameStore, column: Any) -> set[str]:
    with store.engine.connect() as connection:
        return {row[0] for row in connection.execute(select(column))}


def test_prune_removes_exactly_the_expired_rows(store_location: str | Path) -> None:
    store = GameStore(store_location)
    _build(store)
    before = _rows(store)
    dry = store.prune(UNPLAYED, ENDED, at=NOW, dry_run=True)
    assert _rows(store) == before
    pruned = store.prune(UNPLAYED, ENDED, at=NOW)
    expected = (2, 1, 1, 2)
    assert (dry.unplayed_games, dry.ended_games, dry.abandoned_games, dry.players) == expected
    assert dry.dry_run
    assert (pruned.unplayed_games, pruned.ended_games, pruned.abandoned_games,
            pruned.players) == expected
    assert not pruned.dry_run
    assert pruned.total == 6
    assert sorted(pruned.games) == sorted(dry.games) == [
        "abandoned-old", "imported-old", "over-old", "unplayed-old"]
    assert _ids(store, games.c.id) == {"unplayed-new", "over-new", "abandoned-new",
                                       "played-lately"}
    assert _ids(store, players.c.id) == {"p-owner", "p-host", "p-guest", "p-first",
                                         "p-lately", "p-results", "p-solves", "p-idle-new"}
    assert _ids(store, connections.c.game) == {"unplayed-new"}
    assert _ids(store, game_ends.c.game) == {"over-new"}
    assert _ids(store, puzzle_results.c.player) == {"p-results"}
    assert _ids(store, puzzle_solves.c.player) == {"p-solves"}
    assert store.find_invite("invite-old") is None
    assert store.load("over-new").rematch == "unplayed-old"  # answered by a new rematch
    again = store.prune(UNPLAYED, ENDED, at=NOW)
    assert again.total == 0
    assert again.games == ()


def test_each_limit_is_exact_to_the_second(store_location: str | Path) -> None:
    store = GameStore(store_location)
    _build(store)
    before = _rows(store)
    # Two seconds earlier, the old rows are a second inside their limits.
    assert store.prune(UNPLAYED, ENDED, at=NOW - 2 * SECOND, dry_run=True).total == 0
    assert store.prune(UNPLAYED, ENDED, at=NOW - 2 * SECOND).total == 0
    assert _rows(store) == before
    # Two seconds later, the new rows are a second past theirs too.
    late = store.prune(UNPLAYED, ENDED, at=NOW + 2 * SECOND, batch=2)  # in 4 transactions
    assert (late.unplayed_games, late.ended_games, late.abandoned_games,
            late.players) == (3, 2, 2, 7)
    assert _ids(store, games.c.id) == {"played-lately"}
    assert _ids(store, players.c.id) == {"p-lately", "p-results", "p-solves"}


def test_two_prunes_at_once_delete_each_row_once(store_location: str | Path) -> None:
    store = GameStore(store_location)
    _build(store)
    others = [GameStore(store_location) for _ in range(2)]  # as two server processes
    results: list[Any] = []
    threads = [threading.Thread(target=lambda s=other: results.append(
        s.prune(UNPLAYED, ENDED, at=NOW, batch=1))) for other in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == 2
    assert sum(r.total for r in results) == 6
    assert sorted(g for r in results for g in r.games) == [
        "abandoned-old", "imported-old", "over-old", "unplayed-old"]
    assert store.prune(UNPLAYED, ENDED, at=NOW).total == 0
    for other in others:
        other.close()


def test_a_pruned_player_who_acts_again_is_kept(store_location: str | Path) -> None:
    # A server process that knew the player before the prune lets it act: whatever it
    # then gets (a game, a seat, a result, a solve) brings its row back.
    store = GameStore(store_location)
    owner, guest, solver, checker = (f"{n}" * 64 for n in "abcd")
    for player in (owner, guest, solver, checker):
        _player(store, player, NOW - UNPLAYED - SECOND)
    _game(store, "seat", NOW, 1, mode="online", owner="p-host", first_player="p-host")
    assert store.prune(UNPLAYED, ENDED, at=NOW).players == 4
    assert not any(store.has_player(p) for p in (owner, guest, solver, checker))
    _game(store, "mine", NOW, 0, owner=owner)
    seat = store.load("seat")
    seat.second_player = guest
    store.save(seat)
    store.add_result(PuzzleResult(player=solver, date=NOW.date(), tries=1, seconds=3,
                                  solved=False, recorded=NOW))
    store.add_solve(checker, NOW.date())
    assert all(store.has_player(p) for p in (owner, guest, solver, checker))
    assert not store.has_player("p-host")  # only the server's own ids (64 hex digits)


def test_an_accounts_finished_games_and_the_account_are_kept(
        store_location: str | Path) -> None:
    store = GameStore(store_location)
    old = NOW - ENDED - SECOND
    _player(store, "p-account", NOW - ENDED * 2)
    _player(store, "p-other", NOW - ENDED * 2)
    with store.engine.begin() as connection:
        connection.execute(insert(accounts), {"player": "p-account", "name": "Ada",
                                              "name_key": "ada", "created": old.isoformat()})
    _game(store, "history", old, 3, over=True, mode="online", owner="p-other",
          first_player="p-other", second_player="p-account")
    _game(store, "theirs", old, 3, over=True, owner="p-other")
    pruned = store.prune(UNPLAYED, ENDED, at=NOW)
    assert pruned.games == ("theirs",)
    assert _ids(store, games.c.id) == {"history"}
    assert _ids(store, players.c.id) == {"p-account", "p-other"}
