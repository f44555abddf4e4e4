"""What the live hub tells the store (who has a game open, since when a player is away)
is written once the database takes it: a value the store refused is tried again until
it is written, unless a newer value of its key replaces it first."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest

from postgres_server import PostgresServer
from quads.storage import GameStore, StorageUnavailableError
from quads.storage.stored import now
from quads.web.keyed_writer import KeyedWriter


def _settled(writer: KeyedWriter[tuple[str, str], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while writer.pending():
        assert time.monotonic() < deadline, f"{writer.pending()} values were never written"
        time.sleep(0.05)


def test_the_newest_value_of_each_key_is_written_once_the_store_takes_it() -> None:
    """A store that refuses a while: nothing is lost, a replaced value is never written,
    and the keys are written in the order of their latest news."""
    refusing = threading.Event()
    refusing.set()
    written: list[tuple[tuple[str, str], bool]] = []

    def write(key: tuple[str, str], value: bool) -> None:
        if refusing.is_set():
            raise StorageUnavailableError("away")
        written.append((key, value))

    writer: KeyedWriter[tuple[str, str], bool] = KeyedWriter(write, "test-writes", pause=0.05)
    try:
        writer.put(("g1", "ann"), True)
        writer.put(("g2", "bob"), True)
        writer.put(("g1", "ann"), False)  # the newest news of g1
        time.sleep(0.3)
        assert written == []
        assert writer.pending() == 2
        refusing.clear()
        _settled(writer)
        assert written == [(("g2", "bob"), True), (("g1", "ann"), False)]
    finally:
        writer.close()


@pytest.mark.postgres
def test_a_connection_recorded_while_postgresql_is_down_is_written_once_it_is_back(
        postgres: PostgresServer, postgres_url: str) -> None:
    store = GameStore(postgres_url)
    writer: KeyedWriter[tuple[str, str], bool] = KeyedWriter(
        lambda key, open_: store.set_connected("here", *key, open_), "test-writes", pause=0.2)
    try:
        store.process_alive("here")
        postgres.stop()
        try:
            writer.put(("g1", "ann"), True)
            writer.put(("g2", "bob"), True)
            time.sleep(0.5)
            assert writer.pending() == 2
        finally:
            postgres.start()
        _settled(writer)
        store.process_alive("here")
        since = now() - timedelta(minutes=1)
        assert store.connected_elsewhere(["g1", "g2"], "there", since) == {
            "g1": frozenset({"ann"}), "g2": frozenset({"bob"})}
    finally:
        writer.close()
        store.close()
