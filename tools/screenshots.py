"""Take the screenshots of docs/screenshots/: every screen of the page at four of
the sizes the layout tests check, in English and German.

It starts ``quads serve`` on a free port with a new SQLite file, sets up each
screen through the page and the JSON API (local games, so that every run shows
the same positions), and photographs the screen as a player first sees it
(from its top, or for a few where the page scrolls to what is to be acted on),
with Debian's Chromium through Playwright (which never downloads a browser)::

    python tools/screenshots.py [--out docs/screenshots]

It writes one PNG per screen, size and language, and ``README.md`` there,
which shows them side by side.
"""

from __future__ import annotations

import argparse
import datetime
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
from urllib.parse import quote

from playwright.sync_api import Page, expect, sync_playwright

from quads.bits import iter_bits
from quads.cells import cell_name
from quads.puzzles import puzzle_for

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
    # One address makes every game and player of the run: rates that it stays below.
    config = directory / "screens.toml"
    config.write_text("".join(f'{rate} = "100000/minute"\n' for rate in (
        "rate_games", "rate_identities", "rate_joins", "rate_puzzles")))
    command = [sys.executable, "-m", "quads.cli.main", "serve", "--port", str(port),
               "--db", str(directory / "screens.sqlite3"), "--config", str(config)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # up to a minute on a busy machine
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


PUZZLE_DATE = datetime.date(2025, 3, 4)
"""A win in 2: the computer answers once."""
WRONG_DATE = datetime.date(2025, 3, 3)
"""A win at once: any other placement is wrong."""
ENDGAME = "2.../.B../58.A/E31D 6"
"""A position of the analysis board whose turns win, draw and lose."""


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


def game_call(page: Page) -> None:
    """Player 1 has just completed row 1: "Quarto!" is to be called before handing over
    (shown where the page scrolls to, as a phone player sees it)."""
    show_game(page, local_game(page, "classic", CLAIM[:8]))
    expect(page.locator("#declare-button")).to_be_visible()


def game_marks(page: Page) -> None:
    """Every mark at once, where the page scrolls to the piece to hand over: the safe
    pieces' ✓, the value of each, the hinted piece's ring, and the last move's."""
    show_game(page, local_game(page, "quads", [*MIDGAME, ("place", "C2")]))
    for toggle in ("#safe-toggle", "#analyse-toggle"):
        page.locator(toggle).check()
    expect(page.locator("#supply .value-mark").first).to_be_visible(timeout=60_000)
    page.locator("#hint-button").click()
    expect(page.locator("#supply .hinted")).to_have_count(1, timeout=60_000)
    page.locator("#supply").evaluate("(el) => el.scrollIntoView({ block: 'end' })")


def unmark(page: Page) -> None:
    """Turn the switches of the marks off again (the page remembers them)."""
    for toggle in ("#safe-toggle", "#analyse-toggle"):
        page.locator(toggle).uncheck()


def game_resigned(page: Page) -> None:
    """The end after player 2 resigned, holding the piece handed over."""
    game_id = local_game(page, "quads", MIDGAME)
    view = page.request.get(f"/api/games/{game_id}").json()
    post(page, f"/api/games/{game_id}/resign", {"revision": view["revision"]})
    show_game(page, game_id)
    expect(page.locator("#end-panel")).to_be_visible()


def game_review(page: Page) -> None:
    """The review of the game won by a claim, with the turn that threw it away
    pressed: the page scrolls to it and the board before it."""
    game_won(page)
    page.locator("#review-open").click()
    expect(page.locator("#review-panel")).to_have_attribute("aria-busy", "false",
                                                            timeout=60_000)
    page.locator("#review-list li.mistake button").first.click()
    expect(page.locator("#review-board .mini-board")).to_be_visible()


def analysis(page: Page) -> None:
    """The analysis board with the value of every turn of an endgame."""
    page.goto(f"/#/analyse/quads/{quote(ENDGAME)}")
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false",
                                                            timeout=60_000)
    expect(page.locator("#analyse-board .value-mark").first).to_be_visible()


def learn_solved(page: Page) -> None:
    """The table of solved variants, where the page scrolls to it."""
    page.goto("/#/learn/solved")
    expect(page.locator(".solved-table tbody tr").first).to_be_visible()


def invitation(page: Page) -> None:
    game_id = post(page, "/api/games", {"mode": "online", "rules": "quads", "host": "first"})["id"]
    show_game(page, game_id)
    page.wait_for_function("() => document.getElementById('invite-qr').naturalWidth > 0")


def puzzle(page: Page) -> None:
    page.goto("/#/puzzle/2025-03-04")
    expect(page.locator("#puzzle-board button.playable").first).to_be_visible()


def puzzle_solved(page: Page) -> None:
    """The puzzle solved through the page: the verdict, the streak and the text to
    share, where the page scrolls to them."""
    puzzle = puzzle_for(PUZZLE_DATE)
    page.goto(f"/#/puzzle/{PUZZLE_DATE}")
    expect(page.locator("#puzzle-board button.playable").first).to_be_visible()
    tokens = [turn.text for turn in puzzle.solution]
    for index in range(0, puzzle.plies, 2):
        token = tokens[index]
        page.locator(f'#puzzle-board button[data-key="{token[:2]}"]').click()
        if len(token) == 3:
            page.locator(f'#puzzle-supply button.playable[data-key="{token[2]}"]').click()
        if index < puzzle.plies - 1:
            expect(page.locator("#puzzle-last")).to_contain_text(tokens[index + 1][:2])
    expect(page.locator("#puzzle-solved")).to_be_visible()
    expect(page.locator("#share-text")).not_to_have_value("")


def puzzle_wrong(page: Page) -> None:
    """A wrong turn in the puzzle: the verdict and the computer's answer, where the
    page scrolls to them."""
    wrong = puzzle_for(WRONG_DATE)
    position = wrong.position
    assert position.hand is not None
    winning = position.winning_cells(position.hand, wrong.rules)
    cell = next(cell_name(c) for c in iter_bits(position.empty_cells) if not winning >> c & 1)
    page.goto(f"/#/puzzle/{WRONG_DATE}")
    page.locator(f'#puzzle-board button.playable[data-key="{cell}"]').click()
    page.locator("#puzzle-supply button.playable").first.click()
    expect(page.locator("#puzzle-wrong")).to_be_visible()
    expect(page.locator("#wrong-reply")).not_to_be_empty()


def learn(page: Page) -> None:
    page.goto("/#/learn")
    expect(page.locator("#learn-view")).to_be_visible()


def tutorial(page: Page) -> None:
    page.goto("/#/learn/tutorial")
    expect(page.locator("#tutorial-view")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#tutorial-supply button.playable").first).to_be_visible()


def tutorial_feedback(page: Page) -> None:
    """The tutorial's third step after an unsafe piece: why it is not handed over,
    where the page scrolls to it."""
    tutorial(page)
    for kind, key in (("supply", "3"), ("board", "D4")):
        page.locator(f'#tutorial-{kind} button.playable[data-key="{key}"]').click()
        page.locator("#tutorial-next").click()
    page.locator('#tutorial-supply button[data-key="3"]').click()
    expect(page.locator("#tutorial-feedback")).to_be_visible()


AFTER: dict[str, Callable[[Page], None]] = {"game-marks": unmark}
"""What is undone after a screen is taken, so that the next ones do not show it."""

KEEP_SCROLL = {"game-call", "game-marks", "game-review", "learn-solved", "puzzle-solved",
               "puzzle-wrong", "tutorial-feedback"}
"""Screens shown where the page itself scrolls to, not from the top."""

SCREENS: dict[str, Callable[[Page], None]] = {
    "new-game": new_game,
    "game": game,
    "game-won": game_won,
    "game-call": game_call,
    "game-marks": game_marks,
    "game-resigned": game_resigned,
    "game-review": game_review,
    "invitation": invitation,
    "puzzle": puzzle,
    "puzzle-solved": puzzle_solved,
    "puzzle-wrong": puzzle_wrong,
    "analysis": analysis,
    "learn": learn,
    "learn-solved": learn_solved,
    "tutorial": tutorial,
    "tutorial-feedback": tutorial_feedback,
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
                    page.mouse.move(size.width - 1, size.height - 1)  # hovering nothing
                    if name not in KEEP_SCROLL:
                        page.evaluate("window.scrollTo(0, 0)")
                    path = out / f"{name}-{size.name}-{lang}.{FORMAT}"
                    page.screenshot(path=path, type="png")
                    if name in AFTER:
                        AFTER[name](page)
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
        "Every screen at four of the sizes the layout tests check (360x640 and 390x844",
        "phones, a 768x1024 tablet, a 1280x800 desktop; the tests check a 360x740",
        "phone in German and the 390x844 one in the dark as well), in English and",
        "German, as a player first sees it: from the top, or where the page scrolls to",
        "what is to be acted on (" + ", ".join(
            f"\"{name.replace('-', ' ').capitalize()}\"" for name in screens
            if name in KEEP_SCROLL) + "). Made by",
        "`python tools/screenshots.py`; run it again after changing the page.",
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
