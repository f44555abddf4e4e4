"""Every screen at every size (and in the dark), checked after every step.

A game against the computer, a classic game won by a claim, the daily puzzle,
the learning pages and the tutorial are walked through at every screen of
``e2e.screens``: 360x640 (English) and 360x740 and 390x844 (German) phones, a
768x1024 tablet and a 1280x800 desktop, plus the 390x844 phone in the dark colour
scheme.  In a CI run each walk goes through half of them, the walks taking the two
halves in turn (``tests/conftest.py``; ``QUADS_E2E_EVERY=1``: every screen).  The
online game between two phones, the analysis board and the account's and players'
screens are walked in ``test_layout_phones.py``.  After each step
``check_screen`` asserts the layout promises and runs axe-core (see
``e2e/layout.py``).
"""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

from playwright.sync_api import expect

from e2e.layout import check_screen
from e2e.quads_page import CELLS, QuadsPage
from e2e.test_tutorial import cell as tutorial_cell
from e2e.test_tutorial import expect_step
from e2e.test_tutorial import piece as tutorial_piece
from quads.bits import iter_bits
from quads.cells import cell_name
from quads.puzzles import puzzle_for

PUZZLE_DATE = datetime.date(2025, 3, 4)  # a win in 2: one answer of the computer
WRONG_DATE = datetime.date(2025, 3, 3)  # a win at once: any other placement is wrong


def acting(quads: QuadsPage) -> tuple[Any, ...]:
    """What the player must see to act in the game shown, at any moment.

    At the end, the result.  When placing: the piece in hand, the board and,
    unless a refusal is shown, the prompt.  When handing over: the supply's
    heading, which then says what the prompt says when the prompt is out of
    view (on a phone it is above the board), and a piece to hand over.
    Whenever the server offers a call ("Quarto!" after a placement, the claim
    before one), that button too, with the reminder to call once four pieces
    are down (no four can be complete before), unless a refused call's reason
    stands in its place.  And a refusal shown, whatever it refuses.  A draw
    offered comes first: its answer, and the piece in hand.
    """
    page = quads.page
    if quads.is_over():
        return (page.locator("#end-title"), page.locator("#end-reason"))
    if page.locator("#draw-answer").is_visible():  # a draw offered: the answer, by the piece
        return (page.locator("#draw-accept"), page.locator("#draw-decline"), page.locator("#hand"))
    view = quads.view()
    message = page.locator("#game-message")
    refused = message.is_visible()
    offered = [name for name, key in (("declare-button", "declare_offered"),
                                      ("claim-button", "claim_offered")) if view[key]]
    reminded = not (refused and page.locator("#call-buttons #game-message").count())
    if offered and reminded and sum(piece is not None for piece in quads.board()) >= 4:
        offered.append("prompt-extra")
    for name in offered:  # what the server offers must show: never skipped unseen
        expect(page.locator(f"#{name}")).to_be_visible()
    calls = tuple(page.locator(f"#{name}") for name in offered)
    if refused:
        calls = (message, *calls)
    if page.locator("#board button.playable").count():
        # the prompt, unless a refusal by the calls takes its room (it says more)
        prompt = () if refused else (page.locator("#prompt"),)
        return (*prompt, page.locator("#hand"), page.locator("#board"), *calls)
    title = page.locator("#supply-title")
    if page.locator("#supply button.playable").count():
        expect(title).to_have_text(quads.supply_heading(), use_inner_text=True)
        return (title, page.locator("#supply button.playable").first, *calls)
    return (page.locator("#prompt"), *calls)


def false_call(quads: QuadsPage, button: str, refusal: str) -> None:
    """Press the call ``button`` when there is nothing to call: the refusal
    shows, and it shows where the player looks, by the button they pressed."""
    page = quads.page
    quads.press(page.locator(f"#{button}"))
    message = page.locator("#game-message")
    expect(message).to_have_text(quads.t(refusal))
    quads.wait_until_idle()
    check_screen(page, acting=(message, page.locator(f"#{button}")), audit=False)
    check_screen(page, acting=acting(quads), audit=False)


def refused_undo(quads: QuadsPage) -> None:
    """An undo that the server refuses (as when another tab took the turns back
    first): the refusal shows by the button pressed, in view."""
    page = quads.page
    refusal = {"error": {"code": "nothing_to_undo", "message": "there is nothing to undo"}}
    page.route("**/api/games/*/undo", lambda route: route.fulfill(
        status=409, content_type="application/json", body=json.dumps(refusal)))
    undo = page.locator("#undo-button")
    quads.press(undo)
    message = page.locator("#game-message")
    expect(message).to_have_text(quads.t("error.nothing_to_undo"))
    quads.wait_until_idle()
    check_screen(page, acting=(message, undo), audit=False)
    page.unroute("**/api/games/*/undo")


def test_a_game_against_the_computer(screen: QuadsPage) -> None:
    quads = screen
    check_screen(quads.page)  # the new-game screen
    quads.start_game(mode="computer", rules="quads", level=1, human="first")
    audited: set[str] = set()
    refused = False
    for _ in range(20):
        quads.wait_until_idle()
        if quads.is_over():
            break
        view = quads.view()
        check_screen(quads.page, acting=acting(quads), audit=view["step"] not in audited)
        audited.add(view["step"])
        if view["can_undo"] and not refused:
            refused_undo(quads)
            refused = True
        if view["step"] == "place":
            quads.place(next(cell for cell, piece in zip(CELLS, quads.board(), strict=True)
                             if piece is None))
        else:
            quads.give(view["supply"][0])
    assert quads.is_over()
    assert refused
    check_screen(quads.page, acting=acting(quads))


def test_a_classic_game_won_by_a_claim(screen: QuadsPage) -> None:
    quads = screen
    page = quads.page
    quads.start_game(mode="local", rules="classic")
    check_screen(page, acting=acting(quads))
    for index, (piece, cell) in enumerate(zip("89AB", ["A1", "B1", "C1", "D1"], strict=True)):
        quads.give(piece)
        check_screen(page, acting=acting(quads), audit=index == 0)
        if index == 1:  # a claim, when the last placement completed nothing
            false_call(quads, "claim-button", "error.illegal_action.claim")
        quads.place(cell)
        check_screen(page, acting=acting(quads), audit=index == 0)
        if index == 0:  # "Quarto!" after a placement that completed nothing
            false_call(quads, "declare-button", "error.illegal_action.declare")
    # Row 1 is complete: "Quarto!" and its reminder are offered, in view.
    expect(page.locator("#declare-button")).to_be_visible()
    expect(page.locator("#prompt-extra")).to_have_text(quads.t("prompt.give.declare"))
    check_screen(page, acting=(page.locator("#declare-button"), page.locator("#prompt-extra"),
                               page.locator("#supply-title")), audit=False)
    quads.give("C")  # row 1 is complete, and player 1 did not call it
    check_screen(page, acting=(page.locator("#prompt"), page.locator("#claim-button"),
                               page.locator("#hand")))
    quads.press(page.locator("#claim-button"))
    expect(page.locator("#end-panel")).to_be_visible()
    check_screen(page, acting=acting(quads))
    # The review: the board of the turn chosen shows by the turn pressed.
    quads.press(page.locator("#review-open"))
    expect(page.locator("#review-panel")).to_have_attribute("aria-busy", "false", timeout=60_000)
    turns = page.locator("#review-list button.review-turn")
    for index in (0, turns.count() - 1):
        quads.press(turns.nth(index))
        expect(turns.nth(index)).to_have_attribute("aria-pressed", "true")
        check_screen(page, acting=(turns.nth(index), page.locator("#review-board .mini-board")),
                     audit=index == 0)


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
            expect(title).to_have_text(quads.supply_heading("#puzzle-prompt"), use_inner_text=True)
            check_screen(page, acting=(title,), audit=False)
            quads.press(page.locator(f'#puzzle-supply button.playable[data-key="{token[2]}"]'))
        if index < puzzle.plies - 1:
            expect(page.locator("#puzzle-last")).to_contain_text(tokens[index + 1][:2])
            check_screen(page, acting=(page.locator("#puzzle-prompt"),
                                       page.locator("#puzzle-hand")))
    expect(page.locator("#puzzle-solved")).to_be_visible()
    check_screen(page, acting=(page.locator("#solved-title"), page.locator("#solved-stats")))
    # A wrong turn: the verdict, the computer's answer and the new try.
    wrong = puzzle_for(WRONG_DATE)
    position = wrong.position
    assert position.hand is not None
    winning = position.winning_cells(position.hand, wrong.rules)
    cell = next(cell_name(c) for c in iter_bits(position.empty_cells) if not winning >> c & 1)
    quads.open(f"/#/puzzle/{WRONG_DATE}")
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.place"))
    quads.press(page.locator(f'#puzzle-board button[data-key="{cell}"]'))
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.give"))
    quads.press(page.locator("#puzzle-supply button.playable").first)
    expect(page.locator("#puzzle-wrong")).to_be_visible()
    check_screen(page, acting=(page.locator("#wrong-title"), page.locator("#wrong-reply"),
                               page.locator("#puzzle-retry")), audit=False)


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
    feedback = page.locator("#tutorial-feedback")
    for number, (target, key) in enumerate(steps, start=1):
        wrong = {3: (tutorial_piece, "3"), 4: (tutorial_cell, "A2")}.get(number)
        if wrong:  # an unsafe piece, a cell that does not win: explained by the press
            quads.press(wrong[0](quads, wrong[1]))
            expect(feedback).to_be_visible()
            check_screen(page, acting=(feedback, wrong[0](quads, wrong[1])), audit=False)
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
