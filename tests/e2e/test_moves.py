"""The moves for people, in a real browser: the list reads in words, each move shows
the board as it was after it, the buttons and the arrow keys step back and forward,
and the game itself is never changed by looking back."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.layout import check_screen
from e2e.quads_page import QuadsPage


def test_stepping_back_through_a_game_changes_only_what_the_board_shows(
        quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="quads")
    for action in (("give", "7"), ("place", "A1"), ("give", "C"), ("place", "B2"),
                   ("give", "3")):
        getattr(quads, action[0])(action[1])
    before = quads.view()
    assert before["moves"] == ["7", "A1C", "B23"]
    box = page.locator("#moves-box")
    quads.press(box.locator("summary"))
    moves = page.locator("#moves button.move")
    expect(moves).to_have_count(3)
    expect(moves.nth(1)).to_have_text(quads.t(
        "moves.item", number=2, token="A1C",
        words=quads.t("moves.place_give", cell="A1", piece=quads.piece_label("C"))))
    moves.nth(0).scroll_into_view_if_needed()
    check_screen(page, acting=(moves.nth(0),), audit=False)

    # The first move: an empty board, said plainly, nothing to press.
    quads.press(moves.nth(0))
    expect(page.locator("#history-banner")).to_be_visible()
    expect(page.locator("#history-text")).to_have_text(
        quads.t("moves.showing", number=1, total=3))
    expect(page.locator("#board button[data-piece]")).to_have_count(0)
    expect(page.locator("#board button.playable")).to_have_count(0)
    expect(moves.nth(0)).to_have_attribute("aria-current", "step")
    # The board it shows and its steps come into view, the list aside.
    check_screen(page, acting=(page.locator("#history-banner"), page.locator("#board")),
                 audit=False)
    quads.press(page.locator("#history-forward"))
    expect(page.locator("#history-text")).to_have_text(
        quads.t("moves.showing", number=2, total=3))
    quads.press(page.locator("#history-back"))
    # → steps forward: A1 holds the piece handed over first.
    moves.nth(0).focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#history-text")).to_have_text(
        quads.t("moves.showing", number=2, total=3))
    expect(quads.cell("A1")).to_have_attribute("data-piece", "7")
    expect(quads.cell("B2")).not_to_have_attribute("data-piece", "C")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#history-text")).to_have_text(
        quads.t("moves.showing", number=1, total=3))
    quads.press(page.locator("#moves-forward"))
    quads.press(page.locator("#moves-forward"))
    quads.press(page.locator("#moves-forward"))  # past the last move: the game itself
    expect(page.locator("#history-banner")).to_be_hidden()
    expect(quads.cell("B2")).to_have_attribute("data-piece", "C")
    # Back, then "Back to the game" above the board; the game never changed.
    quads.press(page.locator("#moves-back"))
    expect(page.locator("#history-banner")).to_be_visible()
    quads.press(page.locator("#history-live"))
    expect(page.locator("#history-banner")).to_be_hidden()
    expect(page.locator("#board button.playable").first).to_be_visible()
    after = quads.view()
    assert (after["revision"], after["moves"]) == (before["revision"], before["moves"])
