"""The browser keeps its promises: no page of another origin frames Quads or acts
in it, the documentation runs under its policy, and a browser the server forgot
is asked before it starts as a new player.  (Every other browser test checks that
its screens break no rule of the content security policy: ``watch_errors``.)"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.quads_page import QuadsPage, watch_errors
from e2e.quads_server import Server

WON = ("7", "A1C", "B1D", "C1E", "D1")
"""A classic game of two people in which the first player completes row 1 with D1."""


@pytest.fixture
def tab(browser: Browser, server: Server) -> Iterator[tuple[Page, list[str]]]:
    """A plain tab (desktop) and the errors and blocked loads it collects."""
    context = browser.new_context(base_url=server.url, locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    yield page, errors
    context.close()


class _Pages(BaseHTTPRequestHandler):
    pages: ClassVar[dict[str, bytes]] = {}

    def do_GET(self) -> None:
        body = self.pages.get(self.path, b"")
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def other_site() -> Iterator[Callable[[str], str]]:
    """Serve pages at another origin of this machine (another port of 127.0.0.1: the
    same site, so the browser sends Quads' cookie along): ``serve(html)`` answers the
    address of a page that holds ``html``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def serve(html: str) -> str:
        path = f"/page{len(_Pages.pages)}.html"
        _Pages.pages[path] = html.encode()
        return f"http://127.0.0.1:{server.server_address[1]}{path}"

    yield serve
    server.shutdown()
    server.server_close()
    _Pages.pages.clear()


def test_a_page_of_another_origin_cannot_frame_quads(tab: tuple[Page, list[str]],
                                                     server: Server,
                                                     other_site: Callable[[str], str]) -> None:
    page, _ = tab
    with page.expect_response(f"{server.url}/") as framed:
        page.goto(other_site(f'<iframe id="quads" src="{server.url}/"></iframe>'))
    assert "frame-ancestors 'none'" in framed.value.headers["content-security-policy"]
    assert framed.value.headers["x-frame-options"] == "DENY"
    page.wait_for_load_state("load")
    child = next(frame for frame in page.frames if frame is not page.main_frame)
    expect(page.frame_locator("#quads").locator("body")).to_be_attached()
    assert child.url.startswith("chrome-error:"), child.url  # refused: nothing of Quads
    assert child.evaluate("document.querySelector('#setup-view')") is None
    # The same page opened directly works.
    page.goto(f"{server.url}/#/new")
    expect(page.locator("#setup-view")).to_be_visible()


def test_a_form_of_another_origin_cannot_play_again(tab: tuple[Page, list[str]],
                                                    server: Server,
                                                    other_site: Callable[[str], str]) -> None:
    """The finding: a body-less form posted "Play again" with the player's cookie."""
    page, _ = tab
    request = page.context.request
    game = request.post(f"{server.url}/api/games", data={"mode": "local",
                                                         "rules": "classic"}).json()
    actions = f"{server.url}/api/games/{game['id']}/actions"
    for turn in WON:
        steps = ([{"action": "place", "cell": turn[:2]}] if len(turn) != 1 else []) + (
            [{"action": "give", "piece": turn[-1]}] if len(turn) != 2 else [])
        for step in steps:
            game = request.post(actions, data={"revision": game["revision"], **step}).json()
    game = request.post(f"{server.url}/api/games/{game['id']}/actions",
                        data={"revision": game["revision"], "action": "declare"}).json()
    assert game["outcome"] is not None
    target = f"{server.url}/api/games/{game['id']}/rematch"
    page.goto(other_site(f'<form method="post" action="{target}"></form>'
                                   '<script>document.forms[0].submit()</script>'))
    expect(page.locator("body")).to_contain_text('"cross_site"')
    after = request.get(f"{server.url}/api/games/{game['id']}").json()
    assert after["rematch"] is None


def test_the_api_documentation_runs_under_its_policy(tab: tuple[Page, list[str]]) -> None:
    page, errors = tab
    watch_errors(page, errors)
    page.goto("/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Quads")
    expect(page.locator("#operations-games-create_game")).to_be_visible()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_forgotten_browser_is_asked_before_it_starts_anew(quads: QuadsPage, server: Server,
                                                            lang: str) -> None:
    page = quads.page
    quads.open("/#/new")
    if lang != "en":
        quads.use_language(lang)
    old = quads.start_game(mode="local")
    cookies: list[Any] = [c for c in page.context.cookies() if c["name"] == "quads_player"]
    assert cookies
    # The server forgot this browser (its database was reset, or the cookie broke).
    page.context.add_cookies([{**cookies[0], "value": "a-token-this-server-never-issued"}])
    quads.open("/#/new")
    panel = page.locator("#forgotten")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text(quads.t("player.forgotten.title"))
    expect(panel.locator("p")).to_have_text(quads.t("player.forgotten.text"))
    start = panel.locator("#forgotten-start")
    expect(start).to_have_text(quads.t("player.forgotten.start"))
    expect(start).to_be_focused()
    # Nothing was written over the old cookie while the page waits for the person.
    assert [c["value"] for c in page.context.cookies() if c["name"] == "quads_player"] == [
        "a-token-this-server-never-issued"]
    quads.check_screen(start)
    quads.screenshot(f"forgotten-{lang}")
    with page.expect_response(f"{server.url}/api/players") as issued:
        quads.press(start)
    assert issued.value.status == 204
    expect(panel).to_be_hidden()
    expect(page.locator("#notice")).to_have_text(quads.t("player.forgotten.done"))
    new = [c["value"] for c in page.context.cookies() if c["name"] == "quads_player"]
    assert len(new) == 1
    assert new[0] != "a-token-this-server-never-issued"
    # The page goes on: the new player starts a game of their own.
    assert quads.start_game(mode="local") != old
