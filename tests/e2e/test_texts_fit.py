"""Texts that fit and say what they mean: the table of solved variants on a
phone, the puzzle's share box, the analysis board's help and the puzzle's
verdict after a wrong turn, in English and German."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

from e2e.quads_page import QuadsPage
from quads.bits import iter_bits
from quads.cells import cell_name
from quads.pieces import piece_name
from quads.puzzles import puzzle_for

WIN_AT_ONCE = datetime.date(2025, 3, 3)
"""A Monday: a win at once, so any placement that does not win is wrong."""

# Whether an element cuts its content: wider or taller than its box.
_CUT = """(el) => ({ width: el.scrollWidth - el.clientWidth,
                    height: el.scrollHeight - el.clientHeight,
                    right: el.getBoundingClientRect().right, screen: innerWidth })"""


@pytest.fixture(params=["en", "de"])
def lang(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def open_in(quads: QuadsPage, lang: str, path: str) -> None:
    """Open ``path`` with the page in ``lang`` (chosen on the new-game screen)."""
    quads.open("/#/new")
    quads.use_language(lang)
    quads.open(path)


def test_the_table_of_solved_variants_fits_or_says_it_scrolls(quads: QuadsPage, lang: str) -> None:
    page = quads.page
    open_in(quads, lang, "/#/learn/solved")
    table = page.locator(".solved-table")
    expect(table.locator("tbody tr").first).to_be_visible()
    # The caption is shown whole, wrapped at words, within the screen.
    caption = page.locator("#learn-solved .table-caption")
    expect(caption).to_have_text(quads.t("learn.solved.caption"))
    cut = caption.evaluate(_CUT)
    assert cut["width"] <= 0, f"the caption is cut: {cut}"
    assert cut["right"] <= cut["screen"], f"the caption runs off the screen: {cut}"
    # The table fits its box, or a sign in view says that it scrolls sideways.
    box = page.locator("#learn-solved .table-scroll").evaluate(_CUT)
    sign = page.locator("#learn-solved .scroll-sign")
    if box["width"] > 0:
        expect(sign).to_be_visible()
        expect(sign).to_have_text(quads.t("learn.solved.scroll"))
    else:
        expect(sign).to_be_hidden()


def solve_at_once(quads: QuadsPage) -> None:
    page = quads.page
    puzzle = puzzle_for(WIN_AT_ONCE)
    token = puzzle.solution[0].text
    quads.press(page.locator(f'#puzzle-board button[data-key="{token[:2]}"]'))
    if len(token) == 3:
        quads.press(page.locator(f'#puzzle-supply button.playable[data-key="{token[2]}"]'))


def test_the_share_box_shows_its_whole_text(quads: QuadsPage, lang: str) -> None:
    page = quads.page
    open_in(quads, lang, f"/#/puzzle/{WIN_AT_ONCE}")
    solve_at_once(quads)
    share = page.locator("#share-text")
    expect(share).to_be_visible()
    cut = share.evaluate(_CUT)
    assert cut["height"] <= 0, f"the share box cuts its lines: {cut}"
    assert cut["width"] <= 0, f"the share box cuts its text: {cut}"


def test_the_analysis_help_names_what_the_screen_shows(quads: QuadsPage, lang: str) -> None:
    page = quads.page
    open_in(quads, lang, "/#/analyse")
    help_text = quads.t("analyse.help")
    expect(page.locator("#analyse-view .status .note").first).to_have_text(help_text)
    names = re.findall(r"[“„]([^”“]+)[”“]", help_text)
    assert names, "the help names no control"
    for name in names:
        expect(page.get_by_text(name, exact=True).first).to_be_visible()


def test_a_wrong_turn_that_lets_the_computer_win_says_so_once(quads: QuadsPage, lang: str) -> None:
    page = quads.page
    puzzle = puzzle_for(WIN_AT_ONCE)
    position = puzzle.position
    assert position.hand is not None
    winning = position.winning_cells(position.hand, puzzle.rules)
    # a cell that does not win, and a piece with which the computer then wins at once
    cell, give = next(
        (c, p) for c in iter_bits(position.empty_cells) if not winning >> c & 1
        for p in iter_bits(position.supply)
        if position.place(c).winning_cells(p, puzzle.rules))
    open_in(quads, lang, f"/#/puzzle/{WIN_AT_ONCE}")
    quads.press(page.locator(f'#puzzle-board button[data-key="{cell_name(cell)}"]'))
    quads.press(page.locator(f'#puzzle-supply button.playable[data-key="{piece_name(give)}"]'))
    expect(page.locator("#puzzle-wrong")).to_be_visible()
    reply = page.locator("#wrong-reply")
    expect(reply).to_have_text(re.compile(
        re.escape(quads.t("puzzle.reply.wins", piece="@", cell="@")).replace("@", ".+")))
    # the win is said once: no second line that the computer can win
    expect(page.locator("#wrong-outlook")).to_be_hidden()
    texts = page.locator("#puzzle-wrong p:visible").all_inner_texts()
    assert len(texts) == 1, texts
