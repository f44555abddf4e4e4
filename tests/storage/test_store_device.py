"""Games uploaded from a device and puzzle attempts sent again, on both engines: the
store keeps one game per owner and device id, and one attempt per player and attempt
id, however the requests race; and the migrated schema is the one of ``tables.py``."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from quads import Game, Give, Place
from quads.storage import DeviceGameExistsError, GameStore, PuzzleResult, StorageError
from quads.storage.tables import metadata
from storage.store_helpers import START, stored_game

DEVICE = "0b6f3f9e-3c1a-4d52-9d0e-5e2f4a7c8b10"
OWNER = "a" * 64
OTHER = "b" * 64


def _played() -> Game:
    game = Game()
    for action in (Give(7), Place(0), Give(12)):
        game.apply(action)
    return game


def test_the_migrated_schema_is_the_one_of_the_tables(store_location: str | Path) -> None:
    store = GameStore(store_location)
    try:
        with store.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    finally:
        store.close()


def test_a_device_game_round_trips_and_is_found_by_its_device(
        store_location: str | Path) -> None:
    store = GameStore(store_location)
    try:
        stored = stored_game("up", _played(), owner=OWNER, device=DEVICE, device_revision=4,
                             revision=1)
        store.create(stored)
        found = store.find_device(OWNER, DEVICE)
        assert found is not None
        assert (found.id, found.device, found.device_revision, found.revision) == (
            "up", DEVICE, 4, 1)
        assert found.game.actions == stored.game.actions
        assert store.find_device(OTHER, DEVICE) is None
        assert store.find_device(OWNER, DEVICE.replace("0", "1")) is None
        [summary] = store.summaries(player=OWNER)
        assert summary.device == DEVICE
        found.device_revision = 6
        found.game.undo()
        store.save(found)
        again = store.find_device(OWNER, DEVICE)
        assert again is not None
        assert (again.device_revision, again.revision, again.game.can_redo()) == (6, 2, True)
        # The server's own games have no device.
        store.create(stored_game("own", Game(), owner=OWNER))
        assert store.load("own").device is None
        assert store.load("own").device_revision is None
    finally:
        store.close()


def test_one_game_per_owner_and_device(store_location: str | Path) -> None:
    store = GameStore(store_location)
    try:
        store.create(stored_game("first", _played(), owner=OWNER, device=DEVICE))
        with pytest.raises(DeviceGameExistsError):
            store.create(stored_game("second", _played(), owner=OWNER, device=DEVICE))
        # Another player's device may give a game the same id: it is their own.
        store.create(stored_game("theirs", _played(), owner=OTHER, device=DEVICE))
        # Games without a device never collide.
        store.create(stored_game("plain1", Game(), owner=OWNER))
        store.create(stored_game("plain2", Game(), owner=OWNER))
        with pytest.raises(StorageError, match="exists already") as refused:
            store.create(stored_game("plain1", Game(), owner=OWNER))
        assert not isinstance(refused.value, DeviceGameExistsError)
        assert {s.id for s in store.summaries() if s.device == DEVICE} == {"theirs", "first"}
    finally:
        store.close()


def test_racing_creations_of_one_device_game_store_one(store_location: str | Path) -> None:
    store = GameStore(store_location)
    try:
        barrier = threading.Barrier(6)
        outcomes: list[str] = []

        def create(number: int) -> None:
            barrier.wait()
            try:
                store.create(stored_game(f"g{number}", _played(), owner=OWNER, device=DEVICE))
                outcomes.append("created")
            except DeviceGameExistsError:
                outcomes.append("exists")

        threads = [threading.Thread(target=create, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["created"] + ["exists"] * 5
        assert [s.device for s in store.summaries()] == [DEVICE]
    finally:
        store.close()


def test_an_attempt_is_stored_once(store_location: str | Path) -> None:
    store = GameStore(store_location)
    try:
        day = dt.date(2026, 11, 29)
        attempt = PuzzleResult(player=OWNER, date=day, tries=2, seconds=40, solved=False,
                               recorded=START, attempt=DEVICE)
        assert store.add_result(attempt)
        assert not store.add_result(attempt)
        assert store.results(OWNER) == [attempt]
        assert store.result_of(OWNER, DEVICE) == attempt
        assert store.result_of(OTHER, DEVICE) is None
        # Another player's attempt may carry the same id; attempts without one repeat.
        assert store.add_result(PuzzleResult(player=OTHER, date=day, tries=1, seconds=4,
                                             solved=False, recorded=START, attempt=DEVICE))
        plain = PuzzleResult(player=OWNER, date=day, tries=3, seconds=50, solved=False,
                             recorded=START)
        assert store.add_result(plain)
        assert store.add_result(plain)
        assert len(store.results(OWNER)) == 3
    finally:
        store.close()


def test_a_proven_solve_is_stored_with_its_attempt(store_location: str | Path) -> None:
    store = GameStore(store_location)
    try:
        day = dt.date(2026, 11, 29)
        solved = PuzzleResult(player=OWNER, date=day, tries=1, seconds=40, solved=True,
                              recorded=START, attempt=DEVICE)
        assert not store.has_solve(OWNER, day)
        assert store.add_result(solved, solve=True)
        assert store.has_solve(OWNER, day)
        # Sent again: neither the attempt nor the solve is doubled, and nothing fails.
        assert not store.add_result(solved, solve=True)
        assert store.results(OWNER) == [solved]
        store.add_solve(OWNER, day)
        assert store.has_solve(OWNER, day)
    finally:
        store.close()
