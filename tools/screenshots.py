"""Take the screenshots of docs/screenshots/: every screen of the page at the
four sizes the layout tests check, in English and German.

It starts ``quads serve`` on a free port with a new SQLite file, sets up each
screen through the page and the JSON API (local games, so that every run shows
the same positions), and photographs the screen as a player first sees it,
with Debian's Chromium through Playwright (which never downloads a browser)::

    python tools/screenshots.py [--out docs/screenshots]

It writes one PNG per screen, size and language, and ``README.md`` there,
which shows them side by side.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
LANGUAGES = ("en", "de")
FORMAT = "png"  # sharper than JPEG for a page of flat colours, and hardly bigger


class Size(NamedTuple):
    name: str
    width: int
    height: int
    touch: bool


SIZES = [
    Size("phone-360", 360, 640, True),
    Size("phone-390", 390, 844, True),
    Size("tablet", 768, 1024, True),
    Size("desktop", 1280, 800, False),
]


@contextmanager
def server(directory: Path) -> Iterator[str]:
    """``quads serve`` on a free port over a new database; yields its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "quads.cli.main", "serve", "--port", str(port),
               "--db", str(directory / "screens.sqlite3")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{url}/api/messages/en", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        else:
            raise SystemExit("quads serve did not start")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


# ---- the screens --------------------------------------------------------------------


def post(page: Page, path: str, body: dict[str, Any]) -> Any:
    answer = page.request.post(path, data=body)
    assert answer.ok, f"{path}: {answer.status} {answer.text()}"
    return answer.json()


def local_game(page: Page, rules: str, tokens: list[tuple[str, str]]) -> str:
    """A game on one device under ``rules``, played through the API: ``tokens``
    are (action, cell or piece) pairs.  Returns its id."""
    game = post(page, "/api/games", {"mode": "local", "rules": rules})
    revision = game["revision"]
    for action, what in tokens:
        key = "cell" if action == "place" else "piece"
        view = post(page, f"/api/games/{game['id']}/actions",
                    {"revision": revision, "action": action, key: what})
        revision = view["revision"]
    return str(game["id"])


def show_game(page: Page, game: str) -> None:
    page.goto(f"/#/game/{game}")
    expect(page.locator("#game-view")).to_have_attribute("aria-busy", "false")


MIDGAME = [("give", "8"), ("place", "B2"), ("give", "3"), ("place", "C3"), ("give", "E"),
           ("place", "A4"), ("give", "5"), ("place", "D1"), ("give", "A")]
"""A game of Quads after four turns: player 2 holds piece A."""

CLAIM = [("give", "8"), ("place", "A1"), ("give", "9"), ("place", "B1"), ("give", "A"),
         ("place", "C1"), ("give", "B"), ("place", "D1"), ("give", "C"), ("claim", "")]
"""Classic Quarto: player 1 completes row 1 without calling, player 2 claims it."""


def new_game(page: Page) -> None:
    page.goto("/#/new")
    expect(page.locator("#setup-view")).to_be_visible()


def game(page: Page) -> None:
    show_game(page, local_game(page, "quads", MIDGAME))


def game_won(page: Page) -> None:
    game_id = post(page, "/api/games", {"mode": "local", "rules": "classic"})["id"]
    revision = 0
    for action, what in CLAIM:
        body: dict[str, Any] = {"revision": revision, "action": action}
        if action != "claim":
            body["cell" if action == "place" else "piece"] = what
        revision = post(page, f"/api/games/{game_id}/actions", body)["revision"]
    show_game(page, game_id)
    expect(page.locator("#end-panel")).to_be_visible()


def invitation(page: Page) -> None:
    game_id = post(page, "/api/games", {"mode": "online", "rules": "quads", "host": "first"})["id"]
    show_game(page, game_id)
    page.wait_for_function("() => document.getElementById('invite-qr').naturalWidth > 0")


def puzzle(page: Page) -> None:
    page.goto("/#/puzzle/2025-03-04")
    expect(page.locator("#puzzle-board button.playable").first).to_be_visible()


def learn(page: Page) -> None:
    page.goto("/#/learn")
    expect(page.locator("#learn-view")).to_be_visible()


def tutorial(page: Page) -> None:
    page.goto("/#/learn/tutorial")
    expect(page.locator("#tutorial-view")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#tutorial-supply button.playable").first).to_be_visible()


SCREENS: dict[str, Callable[[Page], None]] = {
    "new-game": new_game,
    "game": game,
    "game-won": game_won,
    "invitation": invitation,
    "puzzle": puzzle,
    "learn": learn,
    "tutorial": tutorial,
}


# ---- taking them ------------------------------------------------------------------------


def take(url: str, out: Path, screens: list[str]) -> list[Path]:
    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--headless", "--no-sandbox"])
        for size in SIZES:
            for lang in LANGUAGES:
                context = browser.new_context(
                    base_url=url, viewport={"width": size.width, "height": size.height},
                    has_touch=size.touch, is_mobile=size.touch, reduced_motion="reduce",
                    locale="de-DE" if lang == "de" else "en-GB", service_workers="block")
                context.add_init_script(f"localStorage.setItem('quads.lang', '{lang}')")
                page = context.new_page()
                page.goto("/#/new")  # the player's cookie, for the API calls
                for name in screens:
                    SCREENS[name](page)
                    page.evaluate("document.activeElement && document.activeElement.blur()")
                    page.evaluate("window.scrollTo(0, 0)")
                    path = out / f"{name}-{size.name}-{lang}.{FORMAT}"
                    page.screenshot(path=path, type="png")
                    written.append(path)
                    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}",
                          flush=True)
                context.close()
        browser.close()
    return written


def index(out: Path, screens: list[str]) -> str:
    """The README of the screenshots: one table per screen, a row per language."""
    lines = [
        "# Screenshots",
        "",
        "Every screen at the four sizes the layout tests check (360x640 and 390x844",
        "phones, a 768x1024 tablet, a 1280x800 desktop), in English and German, as a",
        "player first sees it. Made by `python tools/screenshots.py`; run it again",
        "after changing the page.",
        "",
    ]
    for name in screens:
        lines += [f"## {name.replace('-', ' ').capitalize()}", "",
                  "| | " + " | ".join(size.name for size in SIZES) + " |",
                  "|---" * (len(SIZES) + 1) + "|"]
        for lang in LANGUAGES:
            cells = [f'<img src="{name}-{size.name}-{lang}.{FORMAT}" width="{size.width // 4}" '
                     f'alt="{name}, {size.name}, {lang}">' for size in SIZES]
            lines.append(f"| {lang} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots",
                        help="the folder to write into (default: docs/screenshots)")
    parser.add_argument("--screen", action="append", choices=sorted(SCREENS),
                        help="only this screen (may be repeated; default: all)")
    args = parser.parse_args(argv)
    screens = args.screen or list(SCREENS)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as directory, server(Path(directory)) as url:
        written = take(url, args.out, screens)
    if not args.screen:
        (args.out / "README.md").write_text(index(args.out, screens), encoding="utf-8")
    print(f"{len(written)} screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
