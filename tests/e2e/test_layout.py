"""Every screen at every size (and in the dark), checked after every step.

A game against the computer, a classic game won by a claim, the daily puzzle,
the learning pages, the tutorial and the account's screens are walked through at
every screen of ``e2e.screens``: 360x640 (English) and 360x740 and 390x844
(German) phones, a 768x1024 tablet and a 1280x800 desktop, plus the 390x844 phone
in the dark colour scheme; an online game between two phones and the analysis
board at the phone screens.  After each step ``check_screen`` asserts the layout
promises and runs axe-core (see ``e2e/layout.py``).
"""

from __future__ import annotations

import datetime
import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, expect

from e2e.layout import check_screen
from e2e.quads_page import CELLS, QuadsPage
from e2e.quads_server import Server
from e2e.screens import SCREENS, shown_at
from e2e.test_accounts import PASSWORD, named, new_name
from e2e.test_online import create_online, join
from e2e.test_online import give as online_give
from e2e.test_online import place as online_place
from e2e.test_tutorial import cell as tutorial_cell
from e2e.test_tutorial import expect_step
from e2e.test_tutorial import piece as tutorial_piece
from quads.bits import iter_bits
from quads.cells import cell_name
from quads.puzzles import puzzle_for

ENDGAME = "0F8./71.3/.A.2/59.6 C"
"""A position of the analysis board with a piece to place and the values of its turns."""
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


def test_an_online_game(phone: str, browser: Browser, server: Server) -> None:
    """Two phones of the same size play a classic game on a 10+5 clock: the
    invitation, joining, every turn on the device to move and on the one that
    waits (the first moves' warnings, a draw offered), the missed call claimed,
    and the end on both."""
    with shown_at(browser, server, phone) as host, shown_at(browser, server, phone) as guest:
        invite = create_online(host, "classic", "first", "10+5")
        check_screen(host.page, acting=(host.page.locator("#invite-url"),
                                        host.page.locator("#invite-copy")))
        guest.page.goto(invite)
        expect(guest.page.locator("body[data-ready=true]")).to_be_attached()
        check_screen(guest.page, acting=(guest.page.locator("#join-button"),))
        join(guest, invite, "second")
        turns = [("give", host, "8"), ("place", guest, "A1"), ("give", guest, "9"),
                 ("place", host, "B1"), ("give", host, "A"), ("place", guest, "C1"),
                 ("give", guest, "B"), ("place", host, "D1"), ("give", host, "C")]
        for index, (action, actor, what) in enumerate(turns):
            other = guest if actor is host else host
            if index == 3:  # a draw offered to the player about to place: its answer in view
                other.press(other.page.locator("#draw-button"))
                expect(actor.page.locator("#draw-panel")).to_be_visible()
                check_screen(actor.page, acting=(actor.page.locator("#draw-accept"),
                                                 actor.page.locator("#draw-decline")),
                             audit=False)
            for someone in (actor, other):
                check_screen(someone.page, acting=acting(someone), audit=index == 0)
            if action == "give":
                online_give(actor, what, other)
            else:
                online_place(actor, what, other)
        # The host completed row 1 and handed over without calling: the claim, in view.
        claim = guest.page.locator("#claim-button")
        expect(claim).to_be_visible()
        check_screen(guest.page, acting=acting(guest))
        guest.press(claim)
        # Online a false call loses the game: the call is confirmed, the question in view.
        confirm = guest.page.locator("#confirm-yes")
        expect(confirm).to_be_visible()
        check_screen(guest.page, acting=(guest.page.locator("#confirm-question"), confirm))
        guest.press(confirm)
        for someone in (guest, host):
            expect(someone.page.locator("#end-panel")).to_be_visible()
            check_screen(someone.page, acting=acting(someone))


def test_the_analysis_board(phone: str, browser: Browser, server: Server) -> None:
    """The analysis board: empty, an endgame with the value of every turn, a
    position being set up, a position that cannot come about (its won shape
    marked), a shape nobody called, a rule set with a longer name, and a link
    that cannot be read."""
    with shown_at(browser, server, phone) as quads:
        page = quads.page
        view = page.locator("#analyse-view")
        status = page.locator("#analyse-status")
        quads.open("/#/analyse")
        expect(view).to_have_attribute("aria-busy", "false")
        check_screen(page, acting=(page.locator("#analyse-title"), status))
        quads.open(f"/#/analyse/quads/{quote(ENDGAME)}")
        expect(view).to_have_attribute("aria-busy", "false")
        expect(page.locator("#analyse-board .value-mark").first).to_be_visible()
        check_screen(page, acting=(status,), audit=False)
        quads.press(page.locator('#analyse-board button[data-key="A1"]'))  # the 0 back
        # The new position's values change the layout: the next tap once they are in.
        expect(view).to_have_attribute("aria-busy", "false")
        quads.press(page.locator('#analyse-supply button[data-key="0"]'))
        expect(page.locator('#analyse-supply button[data-key="0"]')).to_have_attribute(
            "aria-pressed", "true")
        check_screen(page, acting=(page.locator('#analyse-supply button[data-key="0"]'),),
                     audit=False)
        quads.open(f"/#/analyse/quads/{quote('0123/..../..../.... -')}")
        expect(status).to_have_text(quads.t(
            "error.invalid_position.already_won", shape=quads.t("shape.row", name="1")))
        expect(page.locator("#analyse-board .cell.winning")).to_have_count(4)
        check_screen(page, acting=(status,), audit=False)
        # A shape nobody called, under declared calling: marked, and said so.
        dead = "841D/A.7./B.C6/5.0. 3"  # row 1 complete, no other shape
        quads.open(f"/#/analyse/classic/{quote(dead, safe='')}")
        expect(view).to_have_attribute("aria-busy", "false")
        completed = page.locator("#analyse-completed")
        expect(completed).to_be_visible()
        check_screen(page, acting=(completed,), audit=False)
        # A rule set beyond the presets, with its longer name.
        quads.open(f"/#/analyse/quads/{quote(ENDGAME)}")
        expect(view).to_have_attribute("aria-busy", "false")
        page.locator("#analyse-rules").select_option("lines+squares:height,color:auto")
        expect(view).to_have_attribute("aria-busy", "false")
        check_screen(page, acting=(status,), audit=False)
        # A link cut short: why, in place of the board, and the way on.
        quads.open("/#/analyse/lines%2Bsquares%3Acol/" + quote(ENDGAME, safe="")[:16])
        broken = page.locator("#analyse-broken")
        expect(broken).to_be_visible()
        check_screen(page, acting=(broken, broken.locator("a")))


@pytest.mark.parametrize("name", list(SCREENS))
def test_the_account_screens(name: str, browser: Browser, server: Server) -> None:
    """Signing in (each way, and a refusal), signing up (a refusal, the recovery codes),
    the account with a link code and the form that deletes it, and a link code's
    address: with passkeys offered (the page at localhost, which can hold them)."""
    with shown_at(browser, server, name, base_url=named(server.url)) as quads:
        page = quads.page
        quads.open("/#/sign-in")
        expect(page.locator("#signin-passkey")).to_be_visible()
        submit = page.locator("#signin-form button[type=submit]")
        check_screen(page, acting=(page.locator("#signin-passkey"), page.locator("#signin-name"),
                                   submit))
        page.locator("#signin-name").fill(new_name("nobody"))
        page.locator("#signin-password").fill(PASSWORD)
        quads.press(submit)
        error = page.locator("#signin-error")
        expect(error).to_have_text(quads.t("error.bad_credentials"))
        check_screen(page, acting=(error, submit), audit=False)
        for way, fields in (("recovery", ("#signin-recovery-name", "#signin-recovery-code")),
                            ("code", ("#signin-code",))):
            quads.press(page.get_by_role("link", name=quads.t(f"account.sign_in.{way}")))
            form = page.locator(f"#signin-{way}-form" if way == "recovery" else "#signin-code-form")
            expect(form).to_be_visible()
            check_screen(page, acting=(*(page.locator(field) for field in fields),
                                       form.locator("button[type=submit]")), audit=way == "code")

        quads.open("/#/sign-up")
        expect(page.locator("#signup-passkey")).to_be_visible()
        check_screen(page, acting=(page.locator("#signup-name"), page.locator("#signup-passkey")))
        account = new_name("lay")
        page.locator("#signup-name").fill(account)
        page.locator("#signup-password").fill("short")
        quads.press(page.locator("#signup-submit"))
        error = page.locator("#signup-error")
        expect(error).to_have_text(quads.t("error.weak_password.too_short", min=10))
        check_screen(page, acting=(error, page.locator("#signup-submit")), audit=False)
        page.locator("#signup-password").fill(PASSWORD)
        quads.press(page.locator("#signup-submit"))
        codes = page.locator("#signup-codes .codes-list code")
        expect(codes).to_have_count(10)
        check_screen(page, acting=(page.locator("#signup-codes h2"), codes.first))
        kept = page.get_by_role("button", name=quads.t("account.codes.kept"))
        kept.scroll_into_view_if_needed()
        check_screen(page, acting=(kept,), audit=False)
        quads.press(kept)
        entry = page.locator("#nav-account")
        expect(entry).to_have_text(account)
        check_screen(page, acting=(entry,), audit=False)

        quads.press(entry)
        expect(page.locator("#devices-list li")).to_have_count(1)
        check_screen(page, acting=(page.locator("#account-title"), page.locator("#account-name"),
                                   page.locator("#account-sign-out")))
        quads.press(page.locator("#link-make"))
        expect(page.locator("#link-code")).to_be_visible()
        check_screen(page, acting=(page.locator("#link-code"), page.locator("#link-qr"),
                                   page.locator("#link-left")), audit=False)
        quads.press(page.locator("#delete-open"))
        form = page.locator("#delete-form")
        expect(page.locator("#delete-name")).to_be_focused()
        page.locator("#delete-name").fill(account)
        page.locator("#delete-password").fill("not the password at all")
        quads.press(form.locator("button[type=submit]"))
        error = page.locator("#delete-error")
        expect(error).to_have_text(quads.t("error.bad_credentials"))
        check_screen(page, acting=(error, form.locator("button[type=submit]")))

        quads.open("/#/link/2345-6789")
        button = page.locator("#link-view-button")
        check_screen(page, acting=(page.locator("#link-view-code"), button))
        quads.press(button)
        error = page.locator("#link-view-error")
        expect(error).to_have_text(quads.t("error.bad_link_code"))
        check_screen(page, acting=(error, button), audit=False)


@pytest.mark.parametrize("name", list(SCREENS))
def test_the_players_screens(name: str, browser: Browser, server: Server) -> None:
    """An account's profile without rated games yet, one's finished games with a game
    over, the leaderboards (empty), and the lobby's choice of a rated game."""
    with shown_at(browser, server, name) as quads:
        page = quads.page
        account = new_name("pl")
        quads.open("/#/sign-up")
        page.locator("#signup-name").fill(account)
        page.locator("#signup-password").fill(PASSWORD)
        quads.press(page.locator("#signup-submit"))
        expect(page.locator("#signup-codes .codes-list code")).to_have_count(10)
        quads.press(page.get_by_role("button", name=quads.t("account.codes.kept")))
        expect(page.locator("#nav-account")).to_have_text(account)

        quads.open(f"/#/players/{account}")
        expect(page.locator("#profile-ratings-none")).to_be_visible()
        check_screen(page, acting=(page.locator("#profile-title"),))

        game = quads.start_game(mode="local")
        quads.give("0")
        quads.press(page.locator("#resign-button"))
        quads.press(page.locator("#confirm-yes"))
        expect(page.locator("#end-panel")).to_be_visible()
        quads.open("/#/my-games")
        item = page.locator(f'#my-games-list li[data-game="{game}"]')
        expect(item).to_be_visible()
        check_screen(page, acting=(item.locator("a.button"),))

        quads.open("/#/leaderboard/quads-blitz")
        expect(page.locator("#leaderboard-status")).to_have_text(quads.t("leaderboard.empty"))
        check_screen(page, acting=(page.locator("#leaderboard-category"),))

        quads.open("/#/lobby")
        expect(page.locator("#offer-rated")).to_be_visible()
        quads.press(page.locator('#offer-form label.choice:has(input[value="rated"])'))
        expect(page.locator("#offer-range")).to_be_visible()
        page.locator("#offer-range").scroll_into_view_if_needed()
        check_screen(page, acting=(page.locator("#offer-range"),))
