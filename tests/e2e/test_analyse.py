"""The analysis board in the browser: a shared link that cannot be read says why
in place of the board; every rule set of the page is offered; the shapes already
complete in a position are shown on the board."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from e2e.quads_page import QuadsPage

ENDGAME = "0F8./71.3/.A.2/59.6 C"
ROW1 = ["A1", "B1", "C1", "D1"]
DEAD = "841D/A.7./B.C6/5.0. 3"
"""Row 1 complete (its four pieces share a shape), no other shape: analysed quickly."""


def _broken(quads: QuadsPage, address: str, reason: str, **params: object) -> None:
    """``address`` opens to why it cannot be read, with no board, and stays as it is."""
    page = quads.page
    quads.open(address)
    box = page.locator("#analyse-broken")
    expect(box).to_be_visible()
    expect(box).to_have_attribute("role", "alert")
    expect(box.locator("p").first).to_have_text(quads.t("analyse.broken"))
    expect(page.locator("#analyse-broken-reason")).to_have_text(quads.t(reason, **params))
    for hidden in ("#analyse-board", "#analyse-supply", "#analyse-hand", "#analyse-summary",
                   "#analyse-position", "#analyse-rules", "#analyse-copy"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
    assert page.url.endswith(address), f"{address} became {page.url}"


def test_a_broken_link_says_what_is_wrong(quads: QuadsPage) -> None:
    page = quads.page
    whole = quote(ENDGAME, safe="")
    # cut short: a row and the piece in hand missing, in the middle of an escape
    _broken(quads, f"/#/analyse/quads/{whole[:16]}", "error.invalid_position.malformed")
    _broken(quads, f"/#/analyse/quads/{whole[:-2]}", "analyse.broken.escape")
    _broken(quads, f"/#/analyse/quads/{quote('0F8./71.3/.A C', safe='')}",
            "error.invalid_position.rows")
    # garbled
    _broken(quads, f"/#/analyse/quads/{quote('0F8./71.3/.X.2/59.6 C', safe='')}",
            "error.invalid_position.character", char="X", cell="B3")
    _broken(quads, f"/#/analyse/quads/{quote('0F8./71.3/.A.2/59.6 Z', safe='')}",
            "error.invalid_position.hand", hand="Z")
    _broken(quads, "/#/analyse/quads/hello", "error.invalid_position.malformed")
    # rules that are not known, cut short or made up
    _broken(quads, f"/#/analyse/adv/{whole}", "analyse.broken.rules", rules="adv")
    _broken(quads, f"/#/analyse/{quote('lines:colour:auto', safe='')}/{whole}",
            "analyse.broken.rules", rules="lines:colour:auto")
    # both: each is said
    quads.open(f"/#/analyse/adv/{whole[:16]}")
    expect(page.locator("#analyse-broken-reason")).to_have_text(
        f"{quads.t('analyse.broken.rules', rules='adv')} "
        f"{quads.t('error.invalid_position.malformed')}")

    # In German too, worded anew when the language changes.
    quads.use_language("de")
    expect(page.locator("#analyse-broken p").first).to_have_text(quads.t("analyse.broken"))
    expect(page.locator("#analyse-broken-reason")).to_have_text(
        f"{quads.t('analyse.broken.rules', rules='adv')} "
        f"{quads.t('error.invalid_position.malformed')}")
    quads.use_language("en")

    # The way on: the empty board, and Back to the broken link again.
    quads.press(page.locator("#analyse-broken a"))
    expect(page.locator("#analyse-broken")).to_be_hidden()
    expect(page.locator("#analyse-board")).to_be_visible()
    expect(page.locator("#analyse-position")).to_have_text("..../..../..../.... -")
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#analyse-supply .value-draw")).to_have_count(16)
    page.go_back()
    expect(page.locator("#analyse-broken")).to_be_visible()
    expect(page.locator("#analyse-board")).to_be_hidden()

    # A position that can be read but cannot come about is shown, with why.
    quads.open(f"/#/analyse/quads/{quote('0.../..../..../.... 0')}")
    expect(page.locator("#analyse-broken")).to_be_hidden()
    a1 = page.locator('#analyse-board button[data-key="A1"]')
    expect(a1).to_have_attribute("data-piece", "0")
    expect(page.locator("#analyse-status")).to_have_text(
        quads.t("error.invalid_position.hand_on_board", piece="0"))


def test_every_rule_set_of_the_page_is_offered(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    offered = page.locator("#rules-field label.choice")
    expect(offered.first).to_be_attached()
    setup = [(offered.nth(i).locator("input").get_attribute("value"),
              offered.nth(i).locator(".choice-name").inner_text()) for i in range(offered.count())]
    assert len(setup) == 5, setup
    quads.open("/#/analyse")
    select = page.locator("#analyse-rules")
    options = select.locator("option")
    expect(options).to_have_count(len(setup))
    shown = [(options.nth(i).get_attribute("value"), options.nth(i).inner_text())
             for i in range(len(setup))]
    assert shown == setup

    # A rule set beyond the three presets: chosen, in the address, analysed, opened again.
    quads.open(f"/#/analyse/quads/{quote(ENDGAME)}")
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
    select.select_option("lines+squares:color:auto")
    expect(page).to_have_url(f"{quads.base_url}/#/analyse/lines+squares:color:auto/"
                             f"{quote(ENDGAME, safe='')}")
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
    moves = quads.api(f"/api/analysis?position={quote(ENDGAME)}"
                      f"&rules={quote('lines+squares:color:auto')}")["moves"]
    best = next(m for m in moves if m["place"] == "D1")
    expect(page.locator('#analyse-board button[data-key="D1"] .value-mark')).to_have_text(
        quads.t(f"analysis.mark.{best['value']}", plies=best["plies"]))
    page.reload()
    expect(page.locator("body[data-ready=true]")).to_be_attached()
    expect(select).to_have_value("lines+squares:color:auto")
    expect(page.locator("#analyse-position")).to_have_text(ENDGAME)

    # A rule set the page knows but does not offer comes from a link: shown by its name.
    quads.open(f"/#/analyse/lines:color:declare/{quote(ENDGAME, safe='')}")
    expect(select).to_have_value("lines:color:declare")
    expect(options).to_have_count(len(setup) + 1)
    expect(select.locator("option:checked")).to_have_text(
        quads.t("rules.other", name="lines:color:declare"))
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#analyse-board .value-mark").first).to_be_visible()


@pytest.mark.parametrize("rules", ["quads", "lines+squares:color:auto"])
def test_a_won_shape_is_shown_on_the_board(quads: QuadsPage, rules: str) -> None:
    page = quads.page
    quads.open(f"/#/analyse/{rules}/{quote('0123/..../..../.... -', safe='')}")
    expect(page.locator("#analyse-status")).to_have_text(
        quads.t("error.invalid_position.already_won", shape=quads.t("shape.row", name="1")))
    winning = page.locator("#analyse-board .cell.winning")
    expect(winning).to_have_count(4)
    assert [winning.nth(i).get_attribute("data-key") for i in range(4)] == ROW1
    label = page.locator('#analyse-board button[data-key="A1"]').get_attribute("aria-label")
    assert label == quads.t("cell.winning", label=quads.t(
        "cell.piece", cell="A1", piece=quads.piece_label("0")))
    expect(page.locator("#analyse-completed")).to_be_hidden()
    # Taking a piece of it back: no shape, no mark.
    quads.press(page.locator('#analyse-board button[data-key="D1"]'))
    expect(winning).to_have_count(0)
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#analyse-supply .value-mark").first).to_be_visible()


def test_every_won_shape_is_shown(quads: QuadsPage) -> None:
    """Two shapes at once: a row and a square (Quads counts squares)."""
    page = quads.page
    quads.open(f"/#/analyse/quads/{quote('0123/45../..../.... -', safe='')}")
    winning = page.locator("#analyse-board .cell.winning")
    expect(winning).to_have_count(6)
    assert sorted(winning.nth(i).get_attribute("data-key") or "" for i in range(6)) == sorted(
        [*ROW1, "A2", "B2"])


def test_a_dead_shape_is_shown_and_explained(quads: QuadsPage) -> None:
    """Under declared calling a shape nobody called is dead: marked, and said so;
    the same board under Quads is won."""
    page = quads.page
    quads.open(f"/#/analyse/classic/{quote(DEAD, safe='')}")
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
    marked = page.locator("#analyse-board .cell.marked")
    expect(marked).to_have_count(4)
    assert [marked.nth(i).get_attribute("data-key") for i in range(4)] == ROW1
    expect(page.locator("#analyse-board .cell.winning")).to_have_count(0)
    completed = page.locator("#analyse-completed")
    expect(completed).to_have_text(
        quads.t("analyse.dead.one", shapes=quads.t("shape.row", name="1")))
    expect(page.locator("#analyse-board .value-mark").first).to_be_visible()
    quads.use_language("de")
    expect(completed).to_have_text(
        quads.t("analyse.dead.one", shapes=quads.t("shape.row", name="1")))
    quads.use_language("en")

    page.locator("#analyse-rules").select_option("quads")
    expect(page.locator("#analyse-board .cell.winning")).to_have_count(4)
    expect(marked).to_have_count(0)
    expect(completed).to_be_hidden()
    expect(page.locator("#analyse-status")).to_have_text(
        quads.t("error.invalid_position.already_won", shape=quads.t("shape.row", name="1")))
