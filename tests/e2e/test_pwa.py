"""The page as an installable app: its manifest and icons, what Chromium says of
installing it, opening it without the server, the offline banner, and the
service worker's caching (network first, API never cached, a new release seen
at once)."""

from __future__ import annotations

import json
import re
import shutil
import struct
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from e2e.quads_page import ROOT, QuadsPage, catalogue, wait_until, watch_errors
from e2e.quads_server import Server, free_port
from quads import __version__

STATIC = ROOT / "src" / "quads" / "web" / "static"
GAME_KEY = "quads.game"

CACHE_NAMES = "caches.keys()"
KEPT_TEXT = """async ([name, path]) => {
    const kept = await (await caches.open(name)).match(path);
    return kept ? kept.text() : null;
}"""
KEEP_TEXT = """async ([name, path, text]) => {
    const cache = await caches.open(name);
    await cache.put(path, new Response(text, {headers: {"Content-Type": "text/css"}}));
}"""
CACHED_PATHS = """async () => {
    const paths = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
    }
    return paths.sort();
}"""
FETCH = """async ([path, init]) => {
    try {
        const response = await fetch(path, init || {});
        return {status: response.status, text: await response.text()};
    } catch (error) {
        return {failed: String(error)};
    }
}"""


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG, from its signature and IHDR header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def css_colours() -> dict[str, str]:
    css = (STATIC / "css" / "quads.css").read_text("utf-8")
    root = re.search(r":root\s*\{(.*?)\}", css, re.S)  # the first: the light scheme
    assert root is not None
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", root.group(1)))


def served_build(page: Page) -> dict[str, Any]:
    """The BUILD object of the worker that the server serves now."""
    text = page.request.get("/sw.js").text()
    match = re.search(r"^const BUILD = (.*);$", text, re.MULTILINE)
    assert match
    build: dict[str, Any] = json.loads(match.group(1))
    return build


def fetch(page: Page, path: str, **init: Any) -> dict[str, Any]:
    """``fetch(path)`` from the page (through its service worker): the status and
    text of the answer, or ``{"failed": ...}`` when the request failed."""
    result: dict[str, Any] = page.evaluate(FETCH, [path, init])
    return result


def eventually(check: Callable[[], bool], seconds: float = 15) -> None:
    """Wait until ``check()`` is true (it may evaluate in the page)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"not so after {seconds} s"
        time.sleep(0.1)


def open_controlled(page: Page, path: str = "/#/new") -> None:
    """Open the page and wait until its service worker controls it."""
    page.goto(path)
    expect(page.locator("body[data-ready=true]")).to_be_attached()
    wait_until(page, "navigator.serviceWorker.controller !== null")


def offline_text(lang: str, cause: str) -> str:
    texts = catalogue(lang)
    return f"{texts[cause]} {texts['net.offline.detail']}"


@contextmanager
def worker_page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A tab in a new context that allows service workers, as a browser does (and
    Playwright's default does); no script error may happen in it."""
    context = browser.new_context(base_url=base_url, locale="en-GB", service_workers="allow")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    """A tab on the shared server."""
    with worker_page(browser, server.url) as page:
        yield page


# ---- the manifest and the icons ------------------------------------------------


def test_the_manifest_and_its_icons(page: Page) -> None:
    answer = page.request.get("/manifest.webmanifest")
    assert answer.ok
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "Quads"
    assert manifest["short_name"]
    assert manifest["description"]
    assert manifest["lang"] == "en"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/", "/", "standalone")
    colours = css_colours()
    assert manifest["background_color"] == colours["bg"]
    assert manifest["theme_color"] == colours["accent"]

    pngs: dict[tuple[str, str], int] = {}
    svgs = 0
    for icon in manifest["icons"]:
        data = page.request.get(icon["src"])
        assert data.ok, icon
        assert data.headers["content-type"].split(";")[0] == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = (int(side) for side in icon["sizes"].split("x"))
            assert png_size(data.body()) == (width, height), icon
            pngs[(icon["purpose"], icon["sizes"])] = width
        else:
            assert icon["type"] == "image/svg+xml"
            svg = ET.fromstring(data.body())
            assert svg.tag == "{http://www.w3.org/2000/svg}svg"
            _, _, width, height = svg.attrib["viewBox"].split()
            assert width == height
            svgs += 1
    assert {("any", "192x192"), ("any", "512x512"), ("maskable", "512x512")} <= set(pngs)
    assert svgs == 1

    # The page names the manifest, its icons and its colour.
    page.goto("/")
    assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    assert page.locator('meta[name="theme-color"]').get_attribute("content") == colours["accent"]
    icon = page.locator('link[rel="icon"]')
    assert icon.get_attribute("type") == "image/svg+xml"
    assert page.request.get(icon.get_attribute("href") or "").ok
    touch = page.locator('link[rel="apple-touch-icon"]').get_attribute("href") or ""
    assert png_size(page.request.get(touch).body()) == (180, 180)


def test_chromium_finds_the_page_installable(playwright: Playwright, server: Server,
                                             tmp_path: Path) -> None:
    # A profile on disk: Chromium installs nothing from an incognito context.
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS,
        base_url=server.url, service_workers="allow")
    try:
        context.set_default_timeout(15_000)
        page = context.pages[0] if context.pages else context.new_page()
        open_controlled(page, "/")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest")["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


def test_the_install_card_shows_only_when_the_browser_offers(page: Page) -> None:
    open_controlled(page)
    card = page.locator("#install-card")
    expect(card).to_be_hidden()  # a context the browser does not offer to install
    page.evaluate("""() => {
        window.prompted = 0;
        const offer = new Event("beforeinstallprompt", {cancelable: true});
        offer.prompt = async () => { window.prompted += 1; };
        offer.userChoice = Promise.resolve({outcome: "accepted", platform: "web"});
        window.dispatchEvent(offer);
    }""")
    expect(card).to_be_visible()
    expect(card.locator("h2")).to_have_text(catalogue("en")["install.title"])
    page.locator("#lang-select").select_option("de")
    expect(page.locator("#install-button")).to_have_text(catalogue("de")["install.button"])
    page.locator("#install-button").click()
    expect(card).to_be_hidden()
    assert page.evaluate("window.prompted") == 1


# ---- without the server -----------------------------------------------------------


def test_the_page_opens_without_the_server(browser: Browser, own_server: Server) -> None:
    with worker_page(browser, own_server.url) as page:
        quads = QuadsPage(page, "desktop", own_server.url)
        quads.open("/#/new")
        quads.use_language("de")
        game = quads.start_game(mode="local")
        quads.give("3")
        wait_until(page, "navigator.serviceWorker.controller !== null")
        # Only the page's files and catalogues were kept, none of the game's answers.
        assert page.evaluate(CACHED_PATHS) == sorted(served_build(page)["files"])

        own_server.kill()
        page.goto("/")  # the game left open cannot be fetched: the new-game screen
        expect(page.locator("#setup-title")).to_have_text(quads.t("setup.title"))
        banner = page.locator("#offline")
        expect(banner).to_have_text(offline_text("de", "net.unreachable"))
        expect(banner).to_have_attribute("role", "status")
        expect(page.locator("#resume-list")).to_have_text(quads.t("resume.waiting"))
        expect(page.locator(".brand")).to_contain_text(quads.t("app.title"))
        assert page.evaluate(f"localStorage.getItem('{GAME_KEY}')") == game

        page.goto("/#/learn/rules")
        expect(page.locator("#learn-view")).to_be_visible()
        expect(page.locator("#learn-title")).to_have_text(quads.t("learn.title"))
        expect(banner).to_be_visible()  # the address changed, the banner stays

        # The catalogues come from the cache; the API, its docs and invitations do not.
        assert json.loads(fetch(page, "/api/messages/de")["text"]) == catalogue("de")
        for path in ("/api/games", f"/api/games/{game}", "/docs", "/openapi.json"):
            assert "failed" in fetch(page, path), path
        assert "failed" in fetch(page, "/join/abc", redirect="manual")

        own_server.start()
        # the page looks again with a growing pause while the server is away
        expect(banner).to_be_hidden(timeout=20_000)
        expect(page.locator("#notice")).to_have_text(quads.t("net.back"))
        quads.open("/")  # back to the game left open, with its move
        quads.wait_until_idle()
        assert quads.game_id() == game
        assert quads.board() == quads.view()["board"]
        assert quads.view()["moves"] == ["3"]


def test_the_banner_follows_the_network(page: Page, server: Server) -> None:
    quads = QuadsPage(page, "desktop", server.url)
    context = page.context
    open_controlled(page)
    banner = page.locator("#offline")
    expect(banner).to_be_hidden()

    context.set_offline(True)
    expect(banner).to_have_text(offline_text("en", "net.offline"))
    wait_until(page, "!navigator.onLine")
    page.reload()
    expect(page.locator("#setup-title")).to_have_text(quads.t("setup.title"))
    expect(banner).to_have_text(offline_text("en", "net.offline"))
    assert "failed" in fetch(page, "/api/games")
    # Without the network a game starts at once, on the device.
    quads.press(page.locator("#start-button"))
    expect(page.locator("#game-view")).to_be_visible()
    expect(page).to_have_url(re.compile(r"#/device/[0-9a-f-]{36}$"))
    quads.wait_until_idle()

    context.set_offline(False)
    expect(banner).to_be_hidden()
    expect(page.locator("#notice")).to_have_text(quads.t("net.back"))
    expect(page.locator("#game-view")).to_be_visible()  # the game goes on


# ---- the worker's caching -------------------------------------------------------


def test_the_worker_asks_the_network_first(browser: Browser, own_server: Server) -> None:
    with worker_page(browser, own_server.url) as page:
        open_controlled(page)
        build = served_build(page)
        assert build["version"].startswith(f"{__version__}-")
        assert page.evaluate(CACHE_NAMES) == [f"quads-{build['version']}"]
        name = f"quads-{build['version']}"
        css = (STATIC / "css" / "quads.css").read_text("utf-8")
        path = "/css/quads.css"
        page.evaluate(KEEP_TEXT, [name, path, "/* kept */"])
        assert fetch(page, path)["text"] == css  # the server's, not the copy
        # and the copy is refreshed
        eventually(lambda: page.evaluate(KEPT_TEXT, [name, path]) == css)

        page.evaluate(KEEP_TEXT, [name, path, "/* kept */"])
        own_server.kill()
        assert fetch(page, path)["text"] == "/* kept */"  # the copy, offline


class CopiedPageServer(Server):
    """The app serving a copy of the page's files, which a test may change as a
    new deployment would."""

    def __init__(self, static: Path, directory: Path) -> None:
        super().__init__(directory / "games.sqlite3", free_port(), directory / "server.log")
        self.static = static

    def command(self) -> list[str]:
        code = ("import sys, pathlib, uvicorn\n"
                "from quads.web.app import create_app\n"
                "app = create_app(sys.argv[1], static_dir=pathlib.Path(sys.argv[2]))\n"
                "uvicorn.run(app, host='127.0.0.1', port=int(sys.argv[3]), log_level='warning',\n"
                "            ws_max_size=4096)\n")
        return [sys.executable, "-c", code, str(self.db), str(self.static), str(self.port)]


def test_a_new_release_is_seen_at_the_next_visit(browser: Browser, tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    server = CopiedPageServer(static, tmp_path)
    server.start()
    try:
        with worker_page(browser, server.url) as page:
            open_controlled(page)
            first = served_build(page)["version"]
            assert page.evaluate(CACHE_NAMES) == [f"quads-{first}"]
            expect(page.locator("html")).not_to_have_attribute("data-release", "2")

            # The next release: one more line in a script.
            server.stop()
            script = static / "js" / "main.js"
            line = 'document.documentElement.dataset.release = "2";\n'
            script.write_text(script.read_text("utf-8") + line, "utf-8")
            server.start()
            second = served_build(page)["version"]
            assert second != first

            page.reload()  # one visit runs the new script at once
            expect(page.locator("html")).to_have_attribute("data-release", "2")
            # The new worker takes over and drops the old release's files.
            eventually(lambda: page.evaluate(CACHE_NAMES) == [f"quads-{second}"])
            assert page.evaluate(KEPT_TEXT, [f"quads-{second}", "/js/main.js"]).endswith(line)
    finally:
        server.kill()
