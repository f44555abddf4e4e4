"""Every screen at every size, continued: an online game between two phones on a
clock and the analysis board at the phone screens, and the account's and players'
screens at every screen of ``e2e.screens`` (apart from ``test_layout.py`` so that the
suite's processes share the walks; half of them each in a CI run, as there).  After
each step ``check_screen`` asserts the
layout promises and runs axe-core (see ``e2e/layout.py``).
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, expect

from e2e.layout import check_screen
from e2e.quads_server import Server
from e2e.screens import SCREENS, shown_at
from e2e.test_accounts import PASSWORD, named, new_name
from e2e.test_layout import acting
from e2e.test_online import create_online, join
from e2e.test_online import give as online_give
from e2e.test_online import place as online_place

ENDGAME = "0F8./71.3/.A.2/59.6 C"
"""A position of the analysis board with a piece to place and the values of its turns."""


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
    over, the leaderboards (empty), the lobby's choice of a rated game, and the
    tournaments: their list and form, and an arena joined."""
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
        # The lists above it on a phone loaded first: nothing moves it after the scroll.
        expect(page.locator("#watch-status")).not_to_have_text(quads.t("watch.loading"))
        expect(page.locator("#seeks-status")).not_to_have_text(quads.t("lobby.list.connecting"))
        page.locator("#offer-range").scroll_into_view_if_needed()
        check_screen(page, acting=(page.locator("#offer-range"),))

        # The tournaments: the list with the form, then an arena made and joined,
        # the player's own line of the standings in view beside the button.
        quads.open("/#/tournaments")
        expect(page.locator("#arena-form")).to_be_visible()
        expect(page.locator("#tournaments-view")).to_have_attribute("aria-busy", "false")
        check_screen(page, acting=(page.locator("#tournaments-title"),))
        submit = page.locator("#arena-submit")
        submit.scroll_into_view_if_needed()
        check_screen(page, acting=(submit,), audit=False)
        quads.press(submit)
        expect(page).to_have_url(re.compile(r"#/tournaments/[\w-]+$"))
        join = page.locator("#event-join")
        quads.press(join)
        expect(join).to_have_text(quads.t("tournaments.pause"))
        own = page.locator("#event-standings li.is-you")
        expect(own).to_contain_text(account)
        check_screen(page, acting=(own, join))
