"""Group commit (quads.storage.commits): the saves that threads make at the same time
share one transaction on SQLite, and each still gets its own answer.  Checked on a
real SQLite file with real threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import Connection, create_engine, text

from quads import QUADS, Game
from quads.storage import GameStore, StaleGameError
from quads.storage.commits import GroupCommit
from storage.store_helpers import facts, stored_game

THREADS = 8


def test_saves_of_many_threads_are_all_kept(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    ids = [f"g{n}" for n in range(THREADS)]
    for game_id in ids:
        store.create(stored_game(game_id, Game(QUADS)))
    start = threading.Barrier(THREADS)
    finals: dict[str, tuple[object, ...]] = {}
    failures: list[BaseException] = []

    def play(game_id: str) -> None:
        try:
            start.wait()
            stored = store.load(game_id)
            for _ in range(12):
                legal = stored.game.legal_actions()
                if legal:  # (a game may end before)
                    stored.game.apply(legal[0])
                store.save(stored)
            finals[game_id] = facts(stored)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=play, args=(game_id,)) for game_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures
    again = GameStore(tmp_path / "games.sqlite3")  # as read by another process
    for game_id in ids:
        assert facts(again.load(game_id)) == finals[game_id]
        assert again.load(game_id).revision == 12
    commits = store._commits
    assert commits is not None
    assert commits.units == THREADS * 12
    assert commits.groups < commits.units  # saves at the same time shared commits


def test_of_saves_of_one_revision_at_the_same_time_one_is_kept(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    store.create(stored_game("g", Game(QUADS)))
    for _ in range(5):
        start = threading.Barrier(THREADS)
        answers: dict[int, str] = {}

        def save(n: int, start: threading.Barrier, answers: dict[int, str]) -> None:
            stored = store.load("g")
            legal = stored.game.legal_actions()
            if legal:
                stored.game.apply(legal[n % len(legal)])
            start.wait()
            try:
                store.save(stored)
                answers[n] = "saved " + repr(facts(stored))
            except StaleGameError:
                answers[n] = "stale"

        before = store.load("g").revision
        threads = [threading.Thread(target=save, args=(n, start, answers))
                   for n in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        saved = [answer for answer in answers.values() if answer != "stale"]
        assert len(answers) == THREADS
        assert len(saved) == 1
        assert saved[0] == "saved " + repr(facts(store.load("g")))
        assert store.load("g").revision == before + 1


def _table(tmp_path: Path) -> tuple[GroupCommit, Connection]:
    engine = create_engine(f"sqlite:///{tmp_path / 'units.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE t (n INTEGER)"))
    return GroupCommit(engine.begin, (KeyError,)), engine.connect()


def _values(reader: Connection) -> list[int]:
    reader.rollback()
    return sorted(row[0] for row in reader.execute(text("SELECT n FROM t")))


def _grouped(commits: GroupCommit, works: list[object]) -> dict[int, BaseException | None]:
    """Run ``works``: the first alone, holding the lead until all the others queued
    behind it (so that they make one group); each one's exception, or ``None``."""
    answers: dict[int, BaseException | None] = {}
    queued = threading.Event()

    def first(connection: Connection) -> None:
        connection.execute(text("INSERT INTO t VALUES (0)"))
        queued.wait(10)

    def run(n: int, work: object) -> None:
        try:
            commits.run(work)  # type: ignore[arg-type]
            answers[n] = None
        except BaseException as exc:
            answers[n] = exc

    leader = threading.Thread(target=run, args=(0, first))
    leader.start()
    _until(lambda: commits._leading)
    others = [threading.Thread(target=run, args=(n, work)) for n, work in enumerate(works, 1)]
    for thread in others:
        thread.start()
    _until(lambda: len(commits._queued) == len(works))
    queued.set()
    for thread in [leader, *others]:
        thread.join(10)
    return answers


def _until(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not done():
        assert time.monotonic() < deadline, "the threads did not queue"
        time.sleep(0.001)


def _insert(n: int) -> object:
    def work(connection: Connection) -> None:
        connection.execute(text(f"INSERT INTO t VALUES ({n})"))
    return work


def _refuse(n: int) -> object:
    def work(connection: Connection) -> None:
        raise KeyError(n)  # a refusal writes nothing
    return work


def _fail_after_writing(n: int) -> object:
    def work(connection: Connection) -> None:
        connection.execute(text(f"INSERT INTO t VALUES ({n})"))
        raise ValueError(n)
    return work


def test_the_units_queued_meanwhile_commit_together(tmp_path: Path) -> None:
    commits, reader = _table(tmp_path)
    answers = _grouped(commits, [_insert(1), _insert(2), _insert(3)])
    assert answers == {0: None, 1: None, 2: None, 3: None}
    assert _values(reader) == [0, 1, 2, 3]
    assert (commits.groups, commits.units) == (2, 4)


def test_a_refusal_in_a_group_leaves_the_others_committed(tmp_path: Path) -> None:
    commits, reader = _table(tmp_path)
    answers = _grouped(commits, [_insert(1), _refuse(2), _insert(3)])
    assert isinstance(answers[2], KeyError)
    assert sorted(n for n, error in answers.items() if error is None) == [0, 1, 3]
    assert _values(reader) == [0, 1, 3]
    assert commits.groups == 2


def test_a_failure_in_a_group_is_its_own_and_the_others_are_committed_alone(
        tmp_path: Path) -> None:
    commits, reader = _table(tmp_path)
    answers = _grouped(commits, [_insert(1), _fail_after_writing(2), _insert(3)])
    assert isinstance(answers[2], ValueError)
    assert sorted(n for n, error in answers.items() if error is None) == [0, 1, 3]
    assert _values(reader) == [0, 1, 3]  # the failed unit's own write rolled back
    # The group of three was rolled back and each unit ran again alone.
    assert commits.groups == 3


def test_a_unit_alone_raises_what_it_raised(tmp_path: Path) -> None:
    commits, reader = _table(tmp_path)
    with pytest.raises(ValueError, match="5"):
        commits.run(_fail_after_writing(5))  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        commits.run(_refuse(6))  # type: ignore[arg-type]
    commits.run(_insert(7))  # type: ignore[arg-type]
    assert _values(reader) == [7]
