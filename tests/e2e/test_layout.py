"""Every screen at four sizes (and in the dark), checked after every step.

A game against the computer, a classic game won by a claim, the daily puzzle,
the learning pages and the tutorial are walked through at 360x640 and 390x844
(German) phones, a 768x1024 tablet and a 1280x800 desktop, plus the 390x844
phone in the dark colour scheme.  After each step ``check_screen`` asserts the
layout promises and runs axe-core (see ``e2e/layout.py``).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import Browser, expect

from e2e.layout import check_screen
from e2e.quads_page import CELLS, QuadsPage
from e2e.quads_server import Server
from e2e.test_tutorial import cell as tutorial_cell
from e2e.test_tutorial import expect_step
from e2e.test_tutorial import piece as tutorial_piece
from quads.puzzles import puzzle_for

PUZZLE_DATE = datetime.date(2025, 3, 4)  # a win in 2: one answer of the computer


class Screen(NamedTuple):
    width: int
    height: int
    lang: str
    touch: bool
    scheme: str = "light"


SCREENS = {
    "phone-360": Screen(360, 640, "en", True),
    "phone-390-de": Screen(390, 844, "de", True),
    "tablet": Screen(768, 1024, "en", True),
    "desktop": Screen(1280, 800, "en", False),
    "phone-dark": Screen(390, 844, "en", True, "dark"),
}


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[QuadsPage]:
    """The page at one of ``SCREENS``, in its language and colour scheme."""
    size = SCREENS[request.param]
    options: dict[str, Any] = {"viewport": {"width": size.width, "height": size.height}}
    if size.touch:
        options.update(has_touch=True, is_mobile=True, device_scale_factor=2)
    context = browser.new_context(base_url=server.url, locale="en-GB", reduced_motion="reduce",
                                  color_scheme=size.scheme, **options)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    quads = QuadsPage(page, "phone" if size.touch else "desktop", server.url)
    quads.open("/#/new")
    if size.lang != "en":
        quads.use_language(size.lang)
    # The scheme asked for is the one shown: a dark page in the dark.
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    level = sum(int(part) for part in re.findall(r"\d+", background)[:3]) / 3
    assert (level < 64) == (size.scheme == "dark"), f"{size.scheme} scheme, background {background}"
    yield quads
    context.close()
    assert not errors, f"errors in the page: {errors}"


def acting(quads: QuadsPage) -> tuple[Any, ...]:
    """What the player must see to act in the game shown: the prompt and the
    piece in hand when placing; when handing over, the supply's heading, which
    then says what the prompt says (on a phone the prompt is above the board)."""
    page = quads.page
    if page.locator("#board button.playable").count():
        return (page.locator("#prompt"), page.locator("#hand"))
    title = page.locator("#supply-title")
    if page.locator("#supply button.playable").count():
        expect(title).to_have_text(quads.prompt())
        return (title, page.locator("#supply button.playable").first)
    return (page.locator("#prompt"),)


def test_a_game_against_the_computer(screen: QuadsPage) -> None:
    quads = screen
    check_screen(quads.page)  # the new-game screen
    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    audited: set[str] = set()
    for _ in range(20):
        quads.wait_until_idle()
        if quads.is_over():
            break
        view = quads.view()
        check_screen(quads.page, acting=acting(quads), audit=view["step"] not in audited)
        audited.add(view["step"])
        if view["step"] == "place":
            quads.place(next(cell for cell, piece in zip(CELLS, quads.board(), strict=True)
                             if piece is None))
        else:
            quads.give(view["supply"][0])
    assert quads.is_over()
    check_screen(quads.page, acting=(quads.page.locator("#end-panel"),))


def test_a_classic_game_won_by_a_claim(screen: QuadsPage) -> None:
    quads = screen
    page = quads.page
    quads.start_game(mode="local", rules="classic")
    check_screen(page, acting=acting(quads))
    for index, (piece, cell) in enumerate(zip("89AB", ["A1", "B1", "C1", "D1"], strict=True)):
        quads.give(piece)
        check_screen(page, acting=acting(quads), audit=index == 0)
        quads.place(cell)
        check_screen(page, acting=acting(quads), audit=index == 0)
    quads.give("C")  # row 1 is complete, and player 1 did not call it
    check_screen(page, acting=(page.locator("#prompt"), page.locator("#claim-button"),
                               page.locator("#hand")))
    quads.press(page.locator("#claim-button"))
    expect(page.locator("#end-panel")).to_be_visible()
    check_screen(page, acting=(page.locator("#end-title"),))


def test_the_daily_puzzle(screen: QuadsPage) -> None:
    quads = screen
    page = quads.page
    puzzle = puzzle_for(PUZZLE_DATE)
    quads.open(f"/#/puzzle/{PUZZLE_DATE}")
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.place"))
    check_screen(page, acting=(page.locator("#puzzle-prompt"), page.locator("#puzzle-hand")))
    tokens = [turn.text for turn in puzzle.solution]
    for index in range(0, puzzle.plies, 2):
        token = tokens[index]
        quads.press(page.locator(f'#puzzle-board button[data-key="{token[:2]}"]'))
        if len(token) == 3:
            expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.give"))
            title = page.locator("#puzzle-supply-title")
            expect(title).to_have_text(quads.t("puzzle.prompt.give"))
            check_screen(page, acting=(title,), audit=False)
            quads.press(page.locator(f'#puzzle-supply button.playable[data-key="{token[2]}"]'))
        if index < puzzle.plies - 1:
            expect(page.locator("#puzzle-last")).to_contain_text(tokens[index + 1][:2])
            check_screen(page, acting=(page.locator("#puzzle-prompt"),
                                       page.locator("#puzzle-hand")))
    expect(page.locator("#puzzle-solved")).to_be_visible()
    check_screen(page, acting=(page.locator("#puzzle-solved"),))


def test_the_learning_pages(screen: QuadsPage) -> None:
    quads = screen
    page = quads.page
    quads.press(page.locator("#nav-learn"))
    expect(page.locator("#learn-view")).to_be_visible()
    check_screen(page)
    for section in ("rules", "variants", "strategy", "history", "solved", "faq"):
        quads.press(page.locator(f".learn-contents a[href='#/learn/{section}']"))
        check_screen(page, acting=(page.locator(f"#learn-{section}-title"),), audit=False)
    questions = page.locator("#learn-faq details")
    quads.press(questions.first.locator("summary"))
    check_screen(page, acting=(questions.first.locator("p"),), audit=False)


def test_the_tutorial(screen: QuadsPage) -> None:
    quads = screen
    page = quads.page
    quads.open("/#/learn/tutorial")
    expect_step(quads, 1)
    instruction = page.locator("#tutorial-instruction")
    check_screen(page, acting=(instruction,))
    steps = [(tutorial_piece, "3"), (tutorial_cell, "D4"), (tutorial_piece, "E"),
             (tutorial_cell, "D1")]
    for number, (target, key) in enumerate(steps, start=1):
        quads.press(target(quads, key))
        expect_step(quads, number, "done")
        if number < 4:
            check_screen(page, acting=(instruction, page.locator("#tutorial-next")),
                         audit=number == 1)
            quads.press(page.locator("#tutorial-next"))
            expect_step(quads, number + 1, **({"cell": "B2"} if number == 1 else {}))
            check_screen(page, acting=(instruction,), audit=False)
    expect(page.locator("#tutorial-end")).to_be_visible()
    check_screen(page, acting=(page.locator("#tutorial-end-title"),))
    assert re.search(r"#/learn/tutorial$", page.url)
