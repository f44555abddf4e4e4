"""The game store on both engines: one suite, run against a real SQLite file and a
real PostgreSQL server (a throwaway cluster that the tests start).

Round trips, revisions and stale saves, concurrent writers (threads, and
processes), lists, players, puzzle results and solves.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from quads import CLASSIC, Game, Give, Place, Player, Position, Termination, read_record
from quads.storage import (
    GameNotFoundError,
    GameStore,
    PuzzleResult,
    StaleGameError,
    StorageError,
    StoredGame,
)
from quads.storage.stored import now, redo_trail
from quads.storage.tables import games
from storage.store_helpers import CLAIMED, START, facts, stored_game


def test_a_game_round_trips(store_location: str | Path) -> None:
    store = GameStore(store_location)
    game = read_record(CLAIMED)
    stored = stored_game("abc", game, mode="computer", level=3, human=Player.SECOND)
    store.create(stored)
    loaded = store.load("abc")
    assert facts(loaded) == facts(stored)
    assert loaded.revision == 0
    assert (loaded.ply, loaded.status) == (10, "over")


def test_the_redo_trail_and_the_start_position_round_trip(store_location: str | Path) -> None:
    store = GameStore(store_location)
    game = Game(CLASSIC, Position.from_string("F..0/..A./..../.3.. 7"))
    for action in (Place(5), Give(12), Place(8), Give(1)):
        game.apply(action)
    game.undo()
    game.undo()
    game.undo()
    stored = stored_game("xyz", game)
    store.create(stored)
    loaded = store.load("xyz")
    assert facts(loaded) == facts(stored)
    assert redo_trail(loaded.game) == [Give(12), Place(8), Give(1)]


def test_a_resigned_game_round_trips(store_location: str | Path) -> None:
    store = GameStore(store_location)
    game = Game(CLASSIC)
    for action in (Give(3), Place(5)):
        game.apply(action)
    game.resign(Player.SECOND)
    stored = stored_game("quit", game)
    store.create(stored)
    loaded = store.load("quit")
    assert facts(loaded) == facts(stored)
    assert loaded.game.actions == game.actions
    assert loaded.game.outcome == game.outcome


def test_a_game_resigned_before_resignation_was_an_action_reads_as_resigned(
        store_location: str | Path) -> None:
    # Earlier versions kept a resignation in the row's column only, beside the actions.
    store = GameStore(store_location)
    game = Game(CLASSIC)
    for action in (Give(3), Place(5)):
        game.apply(action)
    store.create(stored_game("old", game))
    with store.engine.begin() as connection:
        connection.execute(update(games).where(games.c.id == "old").values(resigned="first"))
    loaded = store.load("old")
    assert loaded.game.outcome is not None
    assert loaded.game.outcome.termination is Termination.RESIGNATION
    assert loaded.game.outcome.winner is Player.SECOND
    assert (loaded.resigned, loaded.status) == (Player.FIRST, "over")
    assert loaded.game.actions[:-1] == game.actions


def test_reopening_keeps_the_games(store_location: str | Path) -> None:
    path = store_location
    stored = stored_game("g1", read_record(CLAIMED))
    GameStore(path).create(stored)
    again = GameStore(path)
    assert facts(again.load("g1")) == facts(stored)


def test_save_counts_revisions(store_location: str | Path) -> None:
    store = GameStore(store_location)
    store.create(stored_game("g", Game(CLASSIC)))
    stored = store.load("g")
    stored.game.apply(Give(7))
    store.save(stored)
    assert stored.revision == 1
    assert stored.updated > START
    loaded = store.load("g")
    assert (loaded.revision, loaded.game.actions, loaded.updated) == (1, (Give(7),),
                                                                      stored.updated)


def test_a_stale_save_is_refused(store_location: str | Path) -> None:
    store = GameStore(store_location)
    store.create(stored_game("g", Game(CLASSIC)))
    tab1, tab2 = store.load("g"), store.load("g")
    tab1.game.apply(Give(7))
    store.save(tab1)
    tab2.game.apply(Give(3))
    with pytest.raises(StaleGameError):
        store.save(tab2)
    assert tab2.revision == 0
    assert store.load("g").game.actions == (Give(7),)


def test_concurrent_saves_from_threads(store_location: str | Path) -> None:
    store = GameStore(store_location)
    store.create(stored_game("g", Game(CLASSIC)))
    loaded = [store.load("g") for _ in range(8)]
    for piece, stored in enumerate(loaded):
        stored.game.apply(Give(piece))
    barrier = threading.Barrier(len(loaded))
    outcomes: list[str] = []

    def save(stored: StoredGame) -> None:
        barrier.wait()
        try:
            store.save(stored)
            outcomes.append("saved")
        except StaleGameError:
            outcomes.append("stale")

    threads = [threading.Thread(target=save, args=(stored,)) for stored in loaded]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["saved"] + ["stale"] * 7
    winner = next(stored for stored in loaded if stored.revision == 1)
    assert store.load("g").game.actions == winner.game.actions


def test_unknown_games(store_location: str | Path) -> None:
    store = GameStore(store_location)
    with pytest.raises(GameNotFoundError):
        store.load("nope")
    with pytest.raises(GameNotFoundError):
        store.save(stored_game("nope", Game()))


def test_an_id_is_stored_once(store_location: str | Path) -> None:
    store = GameStore(store_location)
    store.create(stored_game("g", Game()))
    with pytest.raises(StorageError, match="exists"):
        store.create(stored_game("g", Game(CLASSIC)))
    assert store.load("g").game.rules.name == "quads"


def test_summaries_newest_first(store_location: str | Path) -> None:
    store = GameStore(store_location)
    for index, game_id in enumerate(("old", "over", "new")):
        moment = START + timedelta(minutes=index)
        game = read_record(CLAIMED) if game_id == "over" else Game()
        store.create(stored_game(game_id, game, created=moment, updated=moment))
    assert [s.id for s in store.summaries()] == ["new", "over", "old"]
    assert [s.id for s in store.summaries("ongoing")] == ["new", "old"]
    (over,) = store.summaries("over")
    assert (over.rules, over.ply, over.status, over.to_move) == ("classic", 10, "over", None)
    old = store.load("old")
    old.game.apply(Give(1))
    store.save(old)
    first = store.summaries()[0]
    assert (first.id, first.ply, first.to_move) == ("old", 1, Player.SECOND)


def _save_in_process(location: str, piece: int, start: object, queue: object) -> None:
    store = GameStore(location)
    stored = store.load("g")
    stored.game.apply(Give(piece))
    start.wait(timeout=60)  # type: ignore[attr-defined]  # both have loaded revision 0
    try:
        store.save(stored)
        queue.put("saved")  # type: ignore[attr-defined]
    except StaleGameError:
        queue.put("stale")  # type: ignore[attr-defined]


def test_concurrent_saves_from_processes(store_location: str | Path) -> None:
    """Two server processes writing one game at once: exactly one save lands, whole."""
    store = GameStore(store_location)
    store.create(stored_game("g", Game(CLASSIC)))
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(2)
    queue = context.Queue()
    workers = [context.Process(target=_save_in_process,
                               args=(str(store_location), piece, start, queue))
               for piece in (4, 9)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    outcomes = sorted(queue.get(timeout=10) for _ in workers)
    assert outcomes == ["saved", "stale"]
    loaded = store.load("g")
    assert loaded.revision == 1
    assert loaded.game.actions in ((Give(4),), (Give(9),))


def test_a_players_games_and_waiting_online_games(store_location: str | Path) -> None:
    store = GameStore(store_location)
    mine, other = "a" * 64, "b" * 64
    store.create(stored_game("untouched", Game(), owner=mine))
    played = stored_game("played", Game(), owner=mine)
    store.create(played)
    played.game.apply(Give(3))
    store.save(played)
    waiting = stored_game("waiting", Game(), mode="online", owner=mine, first_player=mine,
                          invite="tok")
    store.create(waiting)
    seated = stored_game("seated", Game(), mode="online", owner=other, first_player=other,
                         second_player=mine)
    store.create(seated)
    seated.game.apply(Give(1))
    store.save(seated)
    assert {s.id for s in store.summaries(player=mine)} == {"played", "waiting", "seated"}
    assert {s.id for s in store.summaries(player=other)} == {"seated"}
    assert store.find_invite("tok") == "waiting"
    assert store.find_invite("nope") is None


def test_delete_checks_the_revision(store_location: str | Path) -> None:
    store = GameStore(store_location)
    store.create(stored_game("g", Game()))
    with pytest.raises(StaleGameError):
        store.delete("g", 5)
    store.delete("g", 0)
    with pytest.raises(GameNotFoundError):
        store.load("g")
    with pytest.raises(GameNotFoundError):
        store.delete("g", 0)


def test_an_unowned_game_is_adopted_once(store_location: str | Path) -> None:
    store = GameStore(store_location)
    store.create(stored_game("g", Game()))
    store.adopt("g", "a" * 64)
    store.adopt("g", "b" * 64)
    assert store.load("g").owner == "a" * 64


def test_players_results_and_solves(store_location: str | Path) -> None:
    store = GameStore(store_location)
    player = "c" * 64
    assert not store.has_player(player)
    store.add_player(player)
    store.add_player(player)
    assert store.has_player(player)
    day = dt.date(2026, 11, 29)
    attempts = [PuzzleResult(player=player, date=date, tries=tries, seconds=5 * tries,
                             solved=solved, recorded=START + timedelta(seconds=tries))
                for date, tries, solved in ((day, 1, False), (day, 2, True),
                                            (day - timedelta(days=1), 1, True))]
    for attempt in attempts:
        store.add_result(attempt)
    assert store.results(player) == attempts  # newest date first, then as stored
    assert store.results("someone else") == []
    assert not store.has_solve(player, day)
    store.add_solve(player, day)
    store.add_solve(player, day)
    assert store.has_solve(player, day)
    legacy = [PuzzleResult(player="page-id-123", date=day, tries=1, seconds=3, solved=True,
                           recorded=START)]
    store.add_result(legacy[0])
    other = "d" * 64
    assert store.adopt_results("page-id-123", other) == 1
    assert store.has_solve(other, day)
    assert store.adopt_results(player, other) == 0  # a server id is never taken
    assert len(store.results(player)) == 3
    # What a new result answers, each read on its own.
    assert store.puzzle_day(player, day) == (2, attempts[1])
    assert store.puzzle_day(player, day + timedelta(days=1)) == (0, None)
    assert store.solved_count(player) == 2
    assert list(store.solved_dates(player, day)) == [day, day - timedelta(days=1)]
    assert list(store.solved_dates(player, day - timedelta(days=1))) == [
        day - timedelta(days=1)]
    assert list(store.solved_dates(player, day, page=1)) == [day, day - timedelta(days=1)]
    assert list(store.solved_dates("someone else", day)) == []


def test_a_large_seed_round_trips(store_location: str | Path) -> None:
    store = GameStore(store_location)
    store.create(stored_game("g", Game(), seed=2**32 - 1))
    assert store.load("g").seed == 2**32 - 1


def test_an_unreachable_database_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="cannot open"):
        GameStore("postgresql://nobody@127.0.0.1:1/quads")
    with pytest.raises(StorageError, match="unsupported"):
        GameStore("mysql://127.0.0.1/quads")


def test_who_has_games_open_on_other_processes(store_location: str | Path) -> None:
    store = GameStore(store_location)
    try:
        start = now()
        for process in ("p1", "p2", "p3"):
            store.process_alive(process)
        store.set_connected("p1", "g1", "ann", True)
        store.set_connected("p2", "g1", "bob", True)
        store.set_connected("p2", "g2", "bob", True)
        store.set_connected("p3", "g2", "cat", True)
        store.set_connected("p3", "g2", "cat", False)
        games = ["g1", "g2", "g3", *(f"x{n}" for n in range(1200))]  # several queries
        seen = store.connected_elsewhere(games, "p1", start - timedelta(seconds=1))
        assert seen["g1"] == {"bob"}  # p1's own connection is not "elsewhere"
        assert seen["g2"] == {"bob"}  # cat closed the game
        assert seen["g3"] == frozenset()
        assert set(seen) == set(games)
        # a process not heard of since the cut-off counts for nothing
        later = store.connected_elsewhere(["g1"], "p1", now() + timedelta(seconds=1))
        assert later == {"g1": frozenset()}
        store.process_ended("p2")
        assert store.connected_elsewhere(["g1", "g2"], "p3", start - timedelta(seconds=1)) \
            == {"g1": {"ann"}, "g2": frozenset()}
    finally:
        store.close()
