"""The learning pages: rules with example boards, variants, strategy, history
and questions, in both languages and on both screen sizes."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, expect

from e2e.quads_page import ROOT, QuadsPage
from e2e.quads_server import Server
from e2e.screens import shown_at

SECTIONS = ["rules", "variants", "strategy", "history", "solved", "faq"]


def example_pieces(quads: QuadsPage, example: str) -> list[str | None]:
    """The piece on each cell A1..D4 of one example board."""
    pieces: list[str | None] = quads.page.eval_on_selector_all(
        f'figure[data-example="{example}"] .mini-board .cell',
        "cells => cells.map(c => c.dataset.piece || null)",
    )
    return pieces


def marked(quads: QuadsPage, example: str, kind: str) -> list[str]:
    cells: list[str] = quads.page.eval_on_selector_all(
        f'figure[data-example="{example}"] .mini-board .cell.{kind}',
        "cells => cells.map(c => c.dataset.key)",
    )
    return cells


def test_learn_pages(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    quads.press(page.locator("#nav-learn"))
    expect(page).to_have_url(re.compile(r"#/learn$"))
    expect(page.locator("#learn-view")).to_be_visible()
    expect(page.locator("#setup-view")).to_be_hidden()
    expect(page.locator("#nav-learn")).to_be_hidden()
    expect(page.locator("#learn-title")).to_have_text(quads.t("learn.title"))
    for name in SECTIONS:
        heading = page.locator(f"#learn-{name} h2")
        expect(heading).to_be_visible()
        expect(heading).to_have_text(quads.t(f"learn.{name}.title"))
        expect(page.get_by_role("region", name=quads.t(f"learn.{name}.title"))).to_be_visible()

    # The rules' examples draw their positions and point at the cells that matter.
    assert example_pieces(quads, "trait")[4:8] == ["4", "5", "E", "7"]
    assert marked(quads, "trait", "winning") == ["A2", "B2", "C2", "D2"]
    assert [example_pieces(quads, "nothing")[i] for i in (0, 4, 8, 12)] == ["0", "F", "6", "9"]
    assert marked(quads, "nothing", "marked") == ["A1", "A2", "A3", "A4"]
    assert marked(quads, "nothing", "winning") == []
    assert marked(quads, "square", "winning") == ["B2", "C2", "B3", "C3"]
    assert example_pieces(quads, "place") == [
        "F", None, None, "0", None, None, "A", None, None, None, None, None, None, "3", None, None]
    hand = page.locator('figure[data-example="place"] .learn-hand')
    expect(hand).to_have_attribute("data-piece", "7")
    assert example_pieces(quads, "give")[9] == "7"
    draw = example_pieces(quads, "draw")
    assert sorted(p for p in draw if p) == list("0123456789ABCDEF")
    board = page.locator('figure[data-example="trait"] .mini-board')
    expect(board).to_have_attribute("aria-label", re.compile(re.escape(quads.piece_label("E"))))

    # The strategy guide counts the shapes through each cell.
    counts = page.eval_on_selector_all('figure[data-example="count-quads"] .cell',
                                       "cells => cells.map(c => Number(c.dataset.count))")
    assert counts == [4, 4, 4, 4, 4, 7, 7, 4, 4, 7, 7, 4, 4, 4, 4, 4]
    counts = page.eval_on_selector_all('figure[data-example="count-classic"] .cell',
                                       "cells => cells.map(c => Number(c.dataset.count))")
    assert counts == [3, 2, 2, 3, 2, 3, 3, 2, 2, 3, 3, 2, 3, 2, 2, 3]

    # Variants side by side, the history and the questions.
    expect(page.locator(".variant-card")).to_have_count(4)
    expect(page.locator("#learn-history")).to_contain_text("Blaise Müller")
    expect(page.locator("#learn-history")).to_contain_text(quads.t("learn.history.3"))
    expect(page.locator("#learn-history code")).to_have_count(0)  # no commands for players
    questions = page.locator("#learn-faq details")
    expect(questions).to_have_count(11)
    quads.press(questions.first.locator("summary"))
    expect(questions.first.locator("p")).to_have_text(quads.t("learn.faq.1.a"))
    quads.check_screen()
    quads.screenshot("learn")

    # A section address scrolls to that section.
    quads.press(page.locator(".learn-contents a[href='#/learn/faq']"))
    expect(page).to_have_url(re.compile(r"#/learn/faq$"))
    expect(page.locator("#learn-faq-title")).to_be_focused()
    expect(page.locator("#learn-faq-title")).to_be_in_viewport()

    # In German the headings follow the other catalogue.
    page.locator("#lang-select").select_option("de")
    quads.lang = "de"
    expect(page.locator("#learn-title")).to_have_text(quads.t("learn.title"))
    for name in SECTIONS:
        expect(page.locator(f"#learn-{name} h2")).to_have_text(quads.t(f"learn.{name}.title"))
    expect(page.locator("#nav-puzzle")).to_have_text(quads.t("nav.puzzle"))
    assert quads.t("learn.rules.title") != "The rules"
    quads.check_screen()
    page.locator("#lang-select").select_option("en")


def test_learn_link_fits_the_top_bar(quads: QuadsPage) -> None:
    page = quads.page
    for address in ("/#/new", "/#/puzzle", "/#/learn/variants"):
        quads.open(address)
        expect(page.locator(".topbar")).to_be_visible()
        quads.check_screen()
    quads.open("/#/new")
    expect(page.locator("#nav-learn")).to_have_text(quads.t("nav.learn"))
    quads.press(page.locator(".howto a[href='#/learn']"))
    expect(page.locator("#learn-view")).to_be_visible()


def test_the_table_of_solved_variants(quads: QuadsPage) -> None:
    """The learning pages sum up bench/solved.py's table: the result every variant
    shares said once, then what the search took, one row per number of traits
    that count, with no two rows alike."""
    page = quads.page
    rows = json.loads((ROOT / "src/quads/web/static/data/solved.json").read_text("utf-8"))
    assert len(rows) == 30
    assert {row["value"] for row in rows} == {"draw"}
    quads.open("/#/learn/solved")
    expect(page.locator("#learn-solved .solved-verdict")).to_have_text(
        quads.t("learn.solved.all", total=30, value=quads.t("analysis.draw")))
    expect(page.locator("#learn-solved .solved-exceptions")).to_be_hidden()
    table = page.locator(".solved-table")
    expect(table.locator("caption")).to_have_text(quads.t("learn.solved.caption"))
    expect(table.locator("tbody tr")).to_have_count(4)
    shown = table.locator("tbody tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))")
    assert [row[0] for row in shown] == ["1", "2", "3", "4"]
    assert len({tuple(row) for row in shown}) == len(shown), shown
    assert len({row[1:] for row in map(tuple, shown)}) == len(shown), shown
    # the slowest search: all four traits, lines alone (514,173,257 positions, 110.4 s)
    assert "514.2M" in shown[3][1], shown
    assert "110.4" in shown[3][1], shown
    quads.check_screen(page.locator("#learn-solved-title"))


def test_the_rules_page_is_short_on_a_phone(browser: Browser, server: Server) -> None:
    """On a 360x640 phone the learning page is a few screens long: the rules open,
    the longer parts (calling, strategy, the rest of the history, the answers)
    behind their titles."""
    with shown_at(browser, server, "phone-360") as quads:
        page = quads.page
        quads.open("/#/learn")
        expect(page.locator(".solved-table tbody tr").first).to_be_attached()  # loaded
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= 8000, f"the learning page is {height} px tall on a phone"
        # the rules themselves are never folded away
        for key in ("learn.rules.intro.1", "learn.rules.intro.2", "learn.rules.intro.3"):
            expect(page.locator("#learn-rules p", has_text=quads.t(key))).to_be_visible()
        expect(page.locator("#learn-rules details")).to_have_count(0)
        # a folded part opens by its title
        part = page.locator('#learn-strategy details[data-part="safe"]')
        expect(part.locator("p").first).to_be_hidden()
        quads.press(part.locator("summary"))
        expect(part.locator("p").first).to_have_text(quads.t("learn.strategy.safe.1"))
        quads.check_screen(part.locator("p").first)
