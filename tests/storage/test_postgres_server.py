"""The throwaway PostgreSQL cluster of the tests (tests/postgres_server.py) works.

The tests through ``psql`` need only the server's programs; those through the
real driver need psycopg (and SQLAlchemy for the URL as the store takes it),
and are skipped without it.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from postgres_server import HOST, SUPERUSER, PostgresError, PostgresServer, in_ci

needs_psycopg = pytest.mark.skipif(
    importlib.util.find_spec("psycopg") is None, reason="psycopg is not installed"
)
needs_sqlalchemy = pytest.mark.skipif(
    importlib.util.find_spec("sqlalchemy") is None or importlib.util.find_spec("psycopg") is None,
    reason="SQLAlchemy or psycopg is not installed",
)


def libpq(url: str) -> str:
    """The URL as libpq and ``psycopg.connect`` take it, without SQLAlchemy's driver."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def dbname(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_url_names_the_loopback_the_port_and_a_fresh_database(
    postgres: PostgresServer, postgres_url: str
) -> None:
    pattern = rf"postgresql\+psycopg://{SUPERUSER}@{re.escape(HOST)}:{postgres.port}/(\w+)"
    match = re.fullmatch(pattern, postgres_url)
    assert match is not None, postgres_url
    assert match[1].startswith("test_url_names_the_loopback")
    assert match[1] != postgres.dbname
    assert postgres.url() == f"postgresql+psycopg://{SUPERUSER}@{HOST}:{postgres.port}/quads"


def test_settings_of_a_throwaway_cluster(postgres: PostgresServer) -> None:
    shown = postgres.psql(
        "SELECT current_setting('listen_addresses'), current_setting('fsync'),"
        " current_setting('synchronous_commit'), current_setting('unix_socket_directories'),"
        " current_user, (SELECT count(*) FROM pg_database WHERE datname = 'quads')"
    )
    assert shown.strip().split("|") == [HOST, "off", "on", str(postgres.socket_dir), SUPERUSER, "1"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands the cluster to the postgres user")
def test_as_root_the_cluster_belongs_to_the_postgres_user(postgres: PostgresServer) -> None:
    import pwd

    owner = pwd.getpwuid((postgres.data_dir / "postmaster.pid").stat().st_uid).pw_name
    assert owner == "postgres"
    assert postgres.socket_dir.stat().st_uid == (postgres.data_dir).stat().st_uid


def test_fresh_databases_do_not_share_tables(postgres: PostgresServer) -> None:
    first, second = postgres.create_database("iso"), postgres.create_database("iso")
    try:
        assert first != second
        postgres.psql("CREATE TABLE games (id text PRIMARY KEY); INSERT INTO games VALUES ('a')",
                      first)
        assert postgres.psql("SELECT id FROM games", first).split() == ["a"]
        assert postgres.psql("SELECT to_regclass('games') IS NULL", second).strip() == "t"
        with pytest.raises(PostgresError, match="does not exist"):
            postgres.psql("SELECT id FROM games", second)
    finally:
        postgres.drop_database(first)
        postgres.drop_database(second)
    with pytest.raises(PostgresError, match="does not exist"):
        postgres.psql("SELECT 1", first)


def test_each_test_gets_its_own_database(postgres: PostgresServer, postgres_url: str) -> None:
    name = dbname(postgres_url)
    # Empty: no table of an earlier test, nothing but the catalogs.
    tables = postgres.psql(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'", name
    )
    assert tables.strip() == "0"


@needs_psycopg
def test_write_and_read_with_psycopg(postgres_url: str) -> None:
    import psycopg

    with psycopg.connect(libpq(postgres_url)) as connection:
        connection.execute("CREATE TABLE games (id text PRIMARY KEY, moves integer NOT NULL)")
        connection.execute("INSERT INTO games VALUES (%s, %s), (%s, %s)", ("a", 3, "b", 7))
        connection.commit()
        rows = connection.execute("SELECT id, moves FROM games ORDER BY id").fetchall()
    assert rows == [("a", 3), ("b", 7)]


@needs_sqlalchemy
def test_the_url_is_one_sqlalchemy_takes(postgres_url: str) -> None:
    import sqlalchemy

    engine = sqlalchemy.create_engine(postgres_url)
    try:
        with engine.begin() as connection:
            connection.execute(sqlalchemy.text("CREATE TABLE t (x integer)"))
            connection.execute(sqlalchemy.text("INSERT INTO t VALUES (42)"))
        with engine.connect() as connection:
            assert connection.execute(sqlalchemy.text("SELECT x FROM t")).scalar_one() == 42
            assert engine.dialect.driver == "psycopg"
    finally:
        engine.dispose()


def _restart(server: PostgresServer) -> None:
    server.restart()


def _kill_and_start(server: PostgresServer) -> None:
    server.kill()
    assert not server.running
    server.start()


def _stop_and_start(server: PostgresServer) -> None:
    server.stop()
    assert not server.running
    server.start()


@needs_psycopg
@pytest.mark.parametrize("bounce", [_restart, _stop_and_start, _kill_and_start],
                         ids=["restart", "stop-start", "kill-start"])
def test_committed_data_survives_the_server_going_down(
    postgres: PostgresServer, postgres_url: str, bounce: Callable[[PostgresServer], None]
) -> None:
    import psycopg

    port = postgres.port
    connection = psycopg.connect(libpq(postgres_url), autocommit=True)
    connection.execute("CREATE TABLE games (id text PRIMARY KEY)")
    connection.execute("INSERT INTO games VALUES ('kept')")
    try:
        bounce(postgres)
    finally:
        postgres.start()
    # The old connection died with the server; a new one sees the data.
    with pytest.raises(psycopg.OperationalError):
        connection.execute("SELECT 1")
    connection.close()
    assert postgres.running
    assert postgres.port == port
    with psycopg.connect(libpq(postgres_url)) as again:
        assert again.execute("SELECT id FROM games").fetchall() == [("kept",)]


@needs_psycopg
def test_a_stopped_server_refuses_connections(postgres: PostgresServer, postgres_url: str) -> None:
    import psycopg

    postgres.stop()
    try:
        assert not postgres.running
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(libpq(postgres_url), connect_timeout=5)
    finally:
        postgres.start()
    with psycopg.connect(libpq(postgres_url)) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)


def test_close_deletes_the_cluster(tmp_path: Path, postgres: PostgresServer) -> None:
    # A second cluster of its own, beside the session's: closing it leaves no trace.
    server = PostgresServer(postgres.bindir)
    with server:
        directory = server.directory
        assert directory is not None
        assert server.running
        assert server.port != postgres.port
    assert not directory.exists()
    assert not server.running
    server.close()  # twice is fine


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, False), ("", False), ("0", False), ("false", False), ("true", True), ("1", True)],
)
def test_in_ci(value: str | None, expected: bool) -> None:
    assert in_ci({} if value is None else {"CI": value}) is expected
