"""Fixtures for the end-to-end tests: the real server, Debian's Chromium, and
one page per screen size (a 1280x800 desktop and a 360x740 touch phone), or per
screen the layout is checked at (``e2e.screens``).

The server runs as a subprocess (``python -m quads.cli.main serve``) on a free
port with its own SQLite file; Playwright drives ``/usr/bin/chromium`` and
never downloads a browser of its own.  Online play between two people also runs
on two server processes sharing one PostgreSQL database (``origins``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from e2e.quads_page import DEVICES, PHONE, Person, QuadsPage, watch_errors
from e2e.quads_server import Origins, Server, free_port
from e2e.screens import PHONES, SCREENS, shown_at

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _server(directory: Path) -> Iterator[Server]:
    server = Server(directory / "games.sqlite3", free_port(), directory / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server shared by the tests that do not stop it."""
    yield from _server(tmp_path_factory.mktemp("server"))


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server for one test, which it may kill and start again."""
    yield from _server(tmp_path)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def origins(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Origins]:
    """Where the host and the guest play an online game.

    ``sqlite``: both on the shared ``server``.  ``postgres``: each on a ``quads
    serve`` process of their own, the two sharing a new PostgreSQL database, so
    what one player does reaches the other's page through the other process
    (``LISTEN``/``NOTIFY``).  Skipped, like the ``postgres`` fixture, when
    PostgreSQL is not installed outside CI.
    """
    if request.param == "sqlite":
        server: Server = request.getfixturevalue("server")
        yield Origins(server.url, server.url)
        return
    url: str = request.getfixturevalue("postgres_url")
    with ExitStack() as stack:
        servers: list[Server] = []
        for name in Origins._fields:
            process = Server(url, free_port(), tmp_path / f"server-{name}.log")
            stack.callback(process.stop)
            process.start()
            servers.append(process)
        yield Origins(*(server.url for server in servers))


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (see .ci/run)")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(params=sorted(DEVICES))
def device(request: pytest.FixtureRequest) -> str:
    """The screen size: ``desktop`` or ``phone``."""
    name: str = request.param
    return name


def _page(browser: Browser, device: str, base_url: str) -> Iterator[Page]:
    context = browser.new_context(
        base_url=base_url, locale="en-GB", reduced_motion="reduce", **DEVICES[device]
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def quads(browser: Browser, device: str, server: Server) -> Iterator[QuadsPage]:
    """The page, on the shared server, at the screen size of ``device``."""
    for page in _page(browser, device, server.url):
        yield QuadsPage(page, device, server.url)


@pytest.fixture
def quads_own(browser: Browser, device: str, own_server: Server) -> Iterator[QuadsPage]:
    """The page, on a server of its own, at the screen size of ``device``."""
    for page in _page(browser, device, own_server.url):
        yield QuadsPage(page, device, own_server.url)


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[QuadsPage]:
    """The page at one of ``SCREENS``, in its language and colour scheme."""
    with shown_at(browser, server, request.param) as quads:
        yield quads


@pytest.fixture(params=PHONES)
def phone(request: pytest.FixtureRequest) -> str:
    """The name of one of the phone ``SCREENS``."""
    name: str = request.param
    return name


@pytest.fixture
def person(browser: Browser) -> Iterator[Person]:
    """Make a person: a browser context of their own (so a cookie of their own)."""
    made: list[tuple[Any, list[str]]] = []

    def make(base_url: str, device: str, lang: str) -> QuadsPage:
        settings = PHONE if device == "phone390" else DEVICES[device]
        context = browser.new_context(
            base_url=base_url, locale="de-DE" if lang == "de" else "en-GB",
            reduced_motion="reduce", **settings)
        context.set_default_timeout(15_000)
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        made.append((context, errors))
        quads = QuadsPage(page, "phone" if device.startswith("phone") else "desktop", base_url)
        quads.lang = lang
        return quads

    yield make
    for context, errors in made:
        context.close()
        assert not errors, f"errors in the page: {errors}"
