"""Test set-up shared by the whole suite.

Hypothesis runs under the ``ci`` profile unless ``HYPOTHESIS_PROFILE`` names
another: examples are derived from the test itself (``derandomize``) and no
example database is kept, so every run plays exactly the same games.

The ``postgres`` and ``postgres_url`` fixtures give tests a real PostgreSQL
server and a fresh database on it (see ``tests/postgres_server.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

from postgres_server import PostgresServer, find_bindir, in_ci

settings.register_profile(
    "ci", deadline=None, max_examples=40, derandomize=True, database=None, print_blob=True
)
settings.register_profile("thorough", deadline=None, max_examples=1000, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


PATIENT_DB_WAIT = 30.0
"""The database lane's wait of the tests' apps.  A machine busy with two test processes,
browsers and servers may take seconds over a SQLite write, which is no outage; the tests
of a stopped or stalled database give their apps a wait or a lane of their own."""


@pytest.fixture(autouse=True)
def _patient_database_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps made in the tests' process (``create_app``) wait ``PATIENT_DB_WAIT`` seconds
    for their database instead of the default's 1.5, whether they were given settings
    or not, unless those settings ask for another wait."""
    from quads.web import wiring
    from quads.web.settings import Settings

    default = Settings().db_wait

    class PatientLane(wiring.DatabaseLane):
        def __init__(self, wait: float = default, *args: Any, **kwargs: Any) -> None:
            super().__init__(PATIENT_DB_WAIT if wait == default else wait, *args, **kwargs)

    monkeypatch.setattr(wiring, "DatabaseLane", PatientLane)


# A real PostgreSQL server (tests/postgres_server.py), for the store's PostgreSQL
# back end.  Tests that use it are marked ``postgres``: ``-m "not postgres"`` leaves
# them out.


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "postgres: uses a real PostgreSQL server (the postgres fixtures)"
    )
    config.addinivalue_line(
        "markers", "settings(**limits): the server settings a test's app runs with"
    )


LONGEST_FIRST = (
    "e2e/test_layout.py",
    "web/test_contract_fuzz.py",
    "e2e/test_layout_phones.py",
    "e2e/test_play.py",
    "e2e/test_offline.py",
    "e2e/test_online.py",
    "book/test_book.py",
    "solver/test_solver_reference.py",
    "e2e/test_session.py",
    "e2e/test_lobby.py",
    "e2e/test_mistakes.py",
    "web/test_api_puzzles.py",
    "web/test_edge.py",
    "e2e/test_every_piece.py",
    "e2e/test_pwa.py",
    "web/test_online_state_machine.py",
    "deploy/test_proxy.py",
    "e2e/test_texts_fit.py",
    "e2e/test_marks.py",
    "e2e/test_security.py",
    "players/test_levels.py",
    "web/test_api_players.py",
    "web/test_postgres_servers.py",
    "web/test_postgres_lobby.py",
)
"""The files that take longest, longest first (measured with ``--durations``).  The
suite runs in three processes that take whole files (``.ci/run``: ``--dist loadfile
--no-loadscope-reorder``) in the order collected: starting with the long ones keeps
one process from working alone on a long file at the end while the others idle."""


EVERY_SIZE = os.environ.get("QUADS_E2E_EVERY") == "1"
"""Whether each browser test that takes a screen runs at every screen it names.  By
default each runs at half of them, the two halves taken in turn by the tests of a
parameter in the order of their names (the same every run), so that
every screen is covered across the suite and the suite fits its time:

* a test of the ``device`` fixture at one of its two sizes, desktop or phone;
* a layout walk of every screen (the ``screen`` fixture, or ``name`` over all of
  ``e2e.screens.SCREENS``) at one of two halves, each a mix of widths, languages and
  colour schemes;
* a layout walk of the phones (the ``phone`` fixture) at one of two pairs."""

HALVES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "device": (frozenset({"desktop"}), frozenset({"phone"})),
    "screen": (frozenset({"phone-360", "tablet", "phone-dark"}),
               frozenset({"phone-390-de", "phone-360-de", "desktop"})),
    "phone": (frozenset({"phone-360", "phone-dark"}),
              frozenset({"phone-390-de", "phone-360-de"})),
}
HALVES["name"] = HALVES["screen"]
"""The two halves of each screen parameter's values."""


def _half_the_sizes(items: list[pytest.Item], config: pytest.Config) -> list[pytest.Item]:
    """``items`` with each test that takes only a screen kept at half of them (a test
    whose values are not the two halves exactly, such as a ``name`` of two screens,
    keeps them all)."""
    values: dict[tuple[str, str], set[str]] = {}
    for item in items:
        spec = getattr(item, "callspec", None)
        if spec is not None and len(spec.params) == 1 and set(spec.params) <= set(HALVES):
            (param, value), = spec.params.items()
            values.setdefault((item.nodeid.rsplit("[", 1)[0], param), set()).add(value)
    # one test of each parameter at one half, the next at the other, in name order
    order = {key: index for index, key in enumerate(sorted(values, key=lambda k: k[::-1]))}
    kept, dropped = [], []
    for item in items:
        spec = getattr(item, "callspec", None)
        if spec is None or len(spec.params) != 1 or not set(spec.params) <= set(HALVES):
            kept.append(item)
            continue
        (param, value), = spec.params.items()
        name = item.nodeid.rsplit("[", 1)[0]
        halves = HALVES[param]
        if values[(name, param)] != halves[0] | halves[1]:
            kept.append(item)
            continue
        chosen = halves[order[(name, param)] % 2]
        (kept if value in chosen else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    return kept


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not EVERY_SIZE:
        items[:] = _half_the_sizes(items, config)
    for item in items:
        if "postgres" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)

    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0].removeprefix("tests/")
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: each file keeps its tests' order


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL cluster for the whole session, started on first use.

    Skipped when PostgreSQL is not installed, but an error in CI, which must
    install it (``.ci/run``).  A test may stop, kill or restart it; the next
    ``postgres_url`` starts it again if it is down.
    """
    bindir = find_bindir()
    if bindir is None:
        reason = (
            "PostgreSQL is not installed (no initdb from pg_config --bindir or in "
            "/usr/lib/postgresql/*/bin): apt-get install postgresql"
        )
        if in_ci():
            pytest.fail(f"CI must install PostgreSQL (.ci/run does): {reason}", pytrace=False)
        pytest.skip(reason)
    with PostgresServer(bindir) as server:
        yield server


@pytest.fixture
def postgres_url(postgres: PostgresServer, request: pytest.FixtureRequest) -> Iterator[str]:
    """The SQLAlchemy URL of a new, empty database for this test alone, dropped after it.

    ``postgresql+psycopg://postgres@127.0.0.1:PORT/TESTNAME_XXXXXXXX``
    """
    postgres.start()  # in case an earlier test left it stopped
    name = postgres.create_database(request.node.name)
    yield postgres.url(name)
    postgres.start()
    postgres.drop_database(name)
