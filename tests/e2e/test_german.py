"""No English on German pages: every screen and error state, walked in German on a
phone, shows no word of the English catalogue that the German one does not share.

The English-only words are found from the two catalogues themselves (words of the
English texts that no German text holds; numbers, notation like ``A1F`` and the
placeholders left out).  Texts the server words (a refusal's reason, a hint) must
reach the page as keys and params, so they too read German, also after a switch of
language in the middle of a game: several screens are brought about in English,
then switched to German and looked at again.

Four walks, each in one German browser context: the screens of one device (new
game, learning pages, analysis board, games on one device with their calls,
refusals, reminders, resignation, values and review), the puzzle and the
tutorial, an online game (with an English opponent, and a second German
person who finds the game full and watches it), and the account's screens (signing
in and up, the recovery codes, the account, a link code, and a second device signed
out from the first, with its prompt).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, expect

from e2e.quads_page import DEVICES, Person, QuadsPage, catalogue, watch_errors
from e2e.quads_server import Server
from e2e.test_accounts import PASSWORD, add_authenticator, keep_codes, named, new_name, sign_up
from e2e.test_online import create_online, give, join, place
from e2e.test_tutorial import cell as tutorial_cell
from e2e.test_tutorial import expect_step
from e2e.test_tutorial import piece as tutorial_piece
from quads.bits import iter_bits
from quads.cells import cell_name
from quads.puzzles import puzzle_for

PUZZLE_DATE = datetime.date(2025, 3, 4)  # a win in 2: one answer of the computer
WRONG_DATE = datetime.date(2025, 3, 3)  # a win at once: any other placement is wrong
ENDGAME = "2.../.B../58.A/E31D 6"  # a position whose cells win, draw and lose

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
NAMES = {"quarto", "quads"}
"""Proper names, the same in every language."""


def _words(texts: dict[str, str]) -> set[str]:
    return {word.lower() for text in texts.values()
            for word in WORD.findall(re.sub(r"\{\w+\}", " ", text))}


ENGLISH_ONLY = _words(catalogue("en")) - _words(catalogue("de")) - NAMES


def english_in(text: str) -> set[str]:
    """The English-only words of ``text``."""
    return {word for word in WORD.findall(text) if word.lower() in ENGLISH_ONLY}


@contextmanager
def german_at(browser: Browser, base_url: str) -> Iterator[QuadsPage]:
    """The page at ``base_url`` in German on the small phone."""
    context = browser.new_context(base_url=base_url, locale="de-DE", reduced_motion="reduce",
                                  **DEVICES["phone"])
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    quads = QuadsPage(page, "phone", base_url)
    quads.lang = "de"
    yield quads
    context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def german(browser: Browser, server: Server) -> Iterator[QuadsPage]:
    """The page in German on the small phone."""
    with german_at(browser, server.url) as quads:
        yield quads


class Walk:
    """Collects the English the pages show, screen by screen."""

    def __init__(self, quads: QuadsPage) -> None:
        self.quads = quads
        self.found: dict[str, set[str]] = {}
        self.names: set[str] = set()
        """The words of the players' names: made up ("Tall Heron 42") and the same
        in every language, they are no English of the page's."""

    def players_of(self, view: dict[str, object]) -> None:
        """Take the words of the names of the players of the game ``view``."""
        names = view["names"]
        assert isinstance(names, dict)
        self.names |= {word.lower() for name in names.values() if isinstance(name, str)
                       for word in name.split()}

    def look(self, screen: str, on: QuadsPage | None = None) -> None:
        """Note the English-only words of what ``on`` (the walk's page unless
        given) shows now: its text, the labels of what is visible, and the text
        of a visible text box (the puzzle's share text)."""
        page = (on or self.quads).page
        page.wait_for_timeout(50)
        text = page.evaluate("() => document.body.innerText")
        labels = page.evaluate(
            "() => [...document.querySelectorAll('[aria-label], [title]')]"
            ".filter((el) => el.checkVisibility())"
            ".map((el) => (el.getAttribute('aria-label') || '') + ' ' + (el.title || ''))"
            ".join(' ')")
        boxes = page.evaluate(
            "() => [...document.querySelectorAll('textarea')]"
            ".filter((el) => el.checkVisibility()).map((el) => el.value).join(' ')")
        english = {word for word in english_in(f"{text} {labels} {boxes}")
                   if word.lower() not in self.names}
        if english:
            self.found[screen] = english

    def switched(self, screen: str) -> None:
        """Switch the walk's page, showing ``screen`` in English, to German and look:
        every text shown must be worded anew."""
        self.quads.use_language("de")
        self.look(f"{screen}, after a switch from English")


def test_the_english_only_words_are_found() -> None:
    assert {"already", "row", "won", "turn", "the"} <= ENGLISH_ONLY
    assert english_in("Reihe 1 ist schon gewonnen") == set()
    assert english_in("impossible position: row 1 is already won") >= {"already", "row", "won"}


def test_every_screen_reads_german(german: QuadsPage) -> None:
    quads, page = german, german.page
    walk = Walk(quads)

    quads.open("/#/new")
    expect(page.locator("#setup-view")).to_be_visible()
    walk.look("new game")

    # An opened record that cannot be read: the server's reason, worded in German.
    quads.choose("mode", "local")
    page.set_input_files("#import-file", files=[{
        "name": "kaputt.qds", "mimeType": "text/plain", "buffer": b"1. 7 1. A1C *\n"}])
    expect(page.locator("#import-error")).to_have_text(
        quads.t("error.invalid_record.turn_number", token="1.", number=1))
    walk.look("opened bad record")

    for section in ("rules", "variants", "strategy", "history", "solved", "faq"):
        quads.open(f"/#/learn/{section}")
        walk.look(f"learn {section}")
    quads.open("/#/learn/tutorial")
    expect(page.locator("#tutorial-view")).to_be_visible()
    walk.look("tutorial")

    quads.open("/#/puzzle")
    expect(page.locator("#puzzle-view")).to_be_visible()
    expect(page.locator("#puzzle-view")).to_have_attribute("aria-busy", "false")
    walk.look("puzzle")

    # The analysis board: the values of an endgame's turns, shown first in English;
    # then an impossible position.
    quads.use_language("en")
    quads.open(f"/#/analyse/quads/{quote(ENDGAME)}")
    expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#analyse-board .value-mark").first).to_be_visible()
    walk.switched("analysis of an endgame")
    quads.open("/#/analyse/quads/" + "0123%2F....%2F....%2F....%20-")
    expect(page.locator("#analyse-status")).to_have_text(
        quads.t("error.invalid_position.already_won", shape=quads.t("shape.row", name="1")))
    walk.look("analysis of an impossible position")
    # a shape nobody called, dead under declared calling; a link that cannot be read
    quads.open("/#/analyse/classic/" + "841D%2FA.7.%2FB.C6%2F5.0.%203")
    expect(page.locator("#analyse-completed")).to_have_text(
        quads.t("analyse.dead.one", shapes=quads.t("shape.row", name="1")))
    walk.look("analysis of a position with a dead shape")
    quads.open("/#/analyse/adv/0F8.%2F71")
    expect(page.locator("#analyse-broken-reason")).to_have_text(
        f"{quads.t('analyse.broken.rules', rules='adv')} "
        f"{quads.t('error.invalid_position.malformed')}")
    walk.look("analysis of a link cut short")

    # Two on one device, with a hint that names its reason.
    quads.open("/#/new")
    game = quads.api_post("/api/games/import",
                          {"record": "1. 7 A1C 2. B1D C1E *", "mode": "local"})["id"]
    quads.open(f"/#/game/{game}")
    quads.wait_until_idle()
    walk.look("two on one device")
    quads.press(page.locator("#hint-button"))
    expect(page.locator("#hint-box")).to_contain_text("D1")
    walk.look("hint")

    # A hint asked in English reads German after the switch.
    quads.use_language("en")
    quads.press(page.locator("#hint-button"))
    expect(page.locator("#hint-box")).to_contain_text("D1")
    expect(page.locator("#hint-box")).not_to_have_text(quads.t("hint.thinking"))
    quads.use_language("de")
    expect(page.locator("#hint-box")).to_contain_text(quads.t("shape.row", name="1"))
    walk.look("hint after a switch of language")

    # The end and its review.
    quads.place("D1")
    quads.wait_until_idle()
    expect(page.locator("#end-panel")).to_be_visible()
    walk.look("end of a game")
    quads.press(page.locator("#review-open"))
    expect(page.locator("#review-list li").first).to_be_visible()
    walk.look("review")

    # Classic rules on one device: the calls, a false call refused, the reminders.
    quads.start_game(mode="local", rules="classic")
    declare, claim = page.locator("#declare-button"), page.locator("#claim-button")
    message, extra = page.locator("#game-message"), page.locator("#prompt-extra")
    quads.give("8")
    quads.place("A1")
    expect(declare).to_be_visible()
    walk.look("the call offered")
    quads.press(declare)
    expect(message).to_have_text(quads.t("error.illegal_action.declare"))
    walk.look("a false call")
    quads.give("9")
    expect(claim).to_be_visible()
    walk.look("the claim offered")
    quads.use_language("en")
    quads.press(claim)
    expect(message).to_have_text(quads.t("error.illegal_action.claim"))
    walk.switched("a false claim")
    expect(message).to_have_text(quads.t("error.illegal_action.claim"))
    for cell, piece in (("B1", "A"), ("C1", "B")):
        quads.place(cell)
        quads.give(piece)
    quads.place("D1")  # row 1, all tall: to be called
    expect(extra).to_have_text(quads.t("prompt.give.declare"))
    walk.look("the reminder to call")
    quads.give("C")  # not called: to be claimed
    expect(extra).to_have_text(quads.t("prompt.place.claim"))
    walk.look("the reminder to claim")
    # The resignation's question and the values of the turns, asked in English.
    quads.use_language("en")
    quads.press(page.locator("#resign-button"))
    expect(page.locator("#confirm-panel")).to_be_visible()
    walk.switched("the resignation's question")
    quads.press(page.locator("#confirm-no"))
    quads.use_language("en")
    page.locator("#analyse-toggle").check()
    expect(page.locator("#board .value-mark").first).to_be_visible(timeout=30_000)
    walk.switched("the values of the turns")
    page.locator("#analyse-toggle").uncheck()
    quads.press(claim)
    expect(page.locator("#end-panel")).to_be_visible()
    walk.look("end by a claim")
    quads.use_language("en")
    quads.press(page.locator("#review-open"))
    expect(page.locator("#review-panel")).to_have_attribute("aria-busy", "false", timeout=60_000)
    walk.switched("review of a claimed game")

    # Against the computer.
    quads.start_game(mode="computer", level=1)
    walk.look("game against the computer")

    # An online invitation, and an invitation that is not known.
    quads.open("/#/new")
    quads.choose("mode", "online")
    quads.press(page.locator("#start-button"))
    expect(page.locator("#invite-panel")).to_be_visible()
    walk.players_of(quads.view())
    walk.look("online invitation")
    quads.open("/#/join/no-such-invitation")
    expect(page.locator("#join-error")).to_be_visible()
    walk.look("unknown invitation")

    # A game that is not there.
    quads.open("/#/game/no-such-game")
    page.wait_for_timeout(300)
    walk.look("game not found")

    assert walk.found == {}, f"English words on German screens: {walk.found}"


def test_the_puzzle_and_the_tutorial_read_german(german: QuadsPage) -> None:
    quads, page = german, german.page
    walk = Walk(quads)

    # The daily puzzle solved: the verdict, the streak and the text to share.
    puzzle = puzzle_for(PUZZLE_DATE)
    quads.open(f"/#/puzzle/{PUZZLE_DATE}")
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.place"))
    tokens = [turn.text for turn in puzzle.solution]
    for index in range(0, puzzle.plies, 2):
        token = tokens[index]
        quads.press(page.locator(f'#puzzle-board button[data-key="{token[:2]}"]'))
        if len(token) == 3:
            expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.give"))
            walk.look("puzzle: a piece to hand over")
            quads.press(page.locator(f'#puzzle-supply button.playable[data-key="{token[2]}"]'))
        if index < puzzle.plies - 1:
            expect(page.locator("#puzzle-last")).to_contain_text(tokens[index + 1][:2])
            walk.look("puzzle: the computer's answer")
    expect(page.locator("#puzzle-solved")).to_be_visible()
    expect(page.locator("#share-text")).not_to_have_value("")
    walk.look("puzzle solved")

    # A wrong turn, made in English: the verdict and the computer's answer.
    wrong = puzzle_for(WRONG_DATE)
    position = wrong.position
    assert position.hand is not None
    winning = position.winning_cells(position.hand, wrong.rules)
    cell = next(cell_name(c) for c in iter_bits(position.empty_cells) if not winning >> c & 1)
    quads.use_language("en")
    quads.open(f"/#/puzzle/{WRONG_DATE}")
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.place"))
    quads.press(page.locator(f'#puzzle-board button[data-key="{cell}"]'))
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.give"))
    quads.press(page.locator("#puzzle-supply button.playable").first)
    expect(page.locator("#puzzle-wrong")).to_be_visible()
    expect(page.locator("#wrong-reply")).not_to_be_empty()
    walk.switched("puzzle: a wrong turn")

    # The tutorial: each step's feedback, one of them given in English, and its end.
    quads.open("/#/learn/tutorial")
    feedback = page.locator("#tutorial-feedback")
    steps = [(tutorial_piece, "3"), (tutorial_cell, "D4"), (tutorial_piece, "E"),
             (tutorial_cell, "D1")]
    for number, (target, key) in enumerate(steps, start=1):
        expect_step(quads, number, **({"cell": "B2"} if number == 2 else {}))
        if number == 3:  # an unsafe piece, explained in English, then German
            quads.use_language("en")
            quads.press(tutorial_piece(quads, "3"))
            expect(feedback).to_have_text(quads.t("tutorial.step3.unsafe"))
            walk.switched("tutorial: an unsafe piece")
            expect(feedback).to_have_text(quads.t("tutorial.step3.unsafe"))
        if number == 4:  # a cell that does not win
            quads.press(tutorial_cell(quads, "A2"))
            expect(feedback).to_have_text(quads.t("tutorial.step4.wrong"))
            walk.look("tutorial: a cell that does not win")
        quads.press(target(quads, key))
        expect_step(quads, number, "done", **({"cell": "B2"} if number == 2 else {}))
        walk.look(f"tutorial: step {number} done")
        if number < 4:
            quads.press(page.locator("#tutorial-next"))
    expect(page.locator("#tutorial-end")).to_be_visible()
    walk.look("tutorial: the end")

    assert walk.found == {}, f"English words on German screens: {walk.found}"


def test_an_online_game_reads_german(person: Person, server: Server) -> None:
    host = person(server.url, "phone", "de")  # hands over first
    guest = person(server.url, "desktop", "en")
    third = person(server.url, "phone390", "de")
    walk = Walk(host)
    invite = create_online(host, "quads", "first")
    join(guest, invite, "second")
    walk.players_of(host.view())
    expect(host.page.locator("#prompt")).to_have_text(host.t("prompt.give.first.online"))
    walk.look("online: the first piece to hand over")

    # A third person with the invitation: the game is full, and they watch.
    third.page.goto(invite)
    expect(third.page.locator("#join-error")).to_have_text(third.t("join.full"))
    walk.look("online: the game is full", third)
    third.press(third.page.locator("#join-watch"))
    expect(third.page.locator("#seats")).to_contain_text(third.t("seats.spectating"))
    walk.look("online: watching", third)

    give(host, "0", guest, third)
    walk.look("online: the opponent places")
    place(guest, "A1", host, third)
    give(guest, "1", host, third)
    walk.look("online: a piece to place")
    walk.look("online: watching a game in progress", third)

    # Undo requests: one asked by the opponent, one by the host; both refused.
    guest.press(guest.button("undo-button"))
    expect(host.page.locator("#undo-text")).to_have_text(host.t("undo.asked"))
    walk.look("online: the opponent asks to undo")
    host.press(host.page.locator("#undo-refuse"))
    expect(host.page.locator("#undo-panel")).to_be_hidden()
    place(host, "B1", guest, third)
    give(host, "2", guest, third)
    host.press(host.button("undo-button"))
    expect(host.page.locator("#undo-text")).to_have_text(host.t("undo.waiting"))
    walk.look("online: waiting for the answer to an undo request")
    guest.press(guest.page.locator("#undo-refuse"))
    expect(host.page.locator("#notice")).to_have_text(host.t("undo.refused"))
    walk.look("online: the undo refused")

    # The resignation: its question, the end on both German screens, the review.
    host.press(host.button("resign-button"))
    expect(host.page.locator("#confirm-panel")).to_be_visible()
    walk.look("online: the resignation's question")
    host.press(host.page.locator("#confirm-yes"))
    expect(host.page.locator("#end-title")).to_have_text(host.t("end.you_lost"))
    walk.look("online: resigned")
    expect(third.page.locator("#end-panel")).to_be_visible()
    walk.look("online: the end, watched", third)
    third.press(third.page.locator("#review-open"))
    expect(third.page.locator("#review-panel")).to_have_attribute("aria-busy", "false",
                                                                  timeout=60_000)
    walk.look("online: the review, watched", third)

    # "Play again" on the opponent's device: the notice on both German screens.
    guest.press(guest.page.locator("#play-again"))
    expect(host.page.locator("#rematch-offer")).to_have_text(host.t("rematch.text"))
    walk.look("online: the opponent started a new game")
    expect(third.page.locator("#rematch-offer")).to_be_visible()
    walk.look("online: the players started a new game", third)

    assert walk.found == {}, f"English words on German screens: {walk.found}"


def test_the_account_screens_read_german(browser: Browser, server: Server,
                                         person: Person) -> None:
    """Signing in and up (with passkeys offered: the page at localhost), their refusals,
    the recovery codes, the account and its forms, a link code, a device signed out
    from another one, and its prompt."""
    codes: set[str] = set()
    with german_at(browser, named(server.url)) as quads:
        page = quads.page
        walk = Walk(quads)
        add_authenticator(page)
        quads.open("/#/new")
        expect(page.locator("#nav-account")).to_have_text(quads.t("nav.account.sign_in"))
        walk.look("home, not signed in")

        # Signing in, each way, with its refusals.
        quads.open("/#/sign-in")
        expect(page.locator("#signin-passkey")).to_be_visible()
        walk.look("sign in")
        quads.press(page.locator("#signin-form button[type=submit]"))
        expect(page.locator("#signin-error")).to_have_text(quads.t("account.name.missing"))
        page.locator("#signin-name").fill(new_name("niemand"))
        page.locator("#signin-password").fill(PASSWORD)
        quads.press(page.locator("#signin-form button[type=submit]"))
        expect(page.locator("#signin-error")).to_have_text(quads.t("error.bad_credentials"))
        walk.look("sign in: a wrong password")
        quads.open("/#/sign-in/recovery")
        quads.press(page.locator("#signin-recovery-form button[type=submit]"))
        walk.look("sign in by a recovery code: nothing typed")
        quads.open("/#/sign-in/code")
        page.locator("#signin-code").fill("2345 6789")
        quads.press(page.locator("#signin-code-form button[type=submit]"))
        expect(page.locator("#signin-error")).to_have_text(quads.t("error.bad_link_code"))
        walk.look("sign in by a link code that is none")

        # Signing up: a weak password, then the codes.
        quads.open("/#/sign-up")
        expect(page.locator("#signup-passkey")).to_be_visible()
        walk.look("sign up")
        name = new_name("de")
        page.locator("#signup-name").fill(name)
        page.locator("#signup-password").fill(f"{name}-{name}")
        quads.press(page.locator("#signup-submit"))
        expect(page.locator("#signup-error")).to_have_text(
            quads.t("error.weak_password.like_name"))
        walk.look("sign up: a password built on the name")
        codes.update(sign_up(quads, name))
        walk.look("sign up: the recovery codes")
        keep_codes(quads, name)
        walk.look("home, signed in")

        # The account: a link code, a passkey added, new codes, the refusals of its forms,
        # first shown in English.
        quads.press(page.locator("#nav-account"))
        expect(page.locator("#devices-list li")).to_have_count(1)
        walk.look("the account")
        quads.press(page.locator("#link-make"))
        expect(page.locator("#link-code")).to_be_visible()
        codes.add(page.locator("#link-code").inner_text())  # random letters, as the others
        walk.look("the account: a link code")
        quads.press(page.locator("#passkeys-add"))
        expect(page.locator("#passkeys-list li")).to_have_count(1)
        walk.look("the account: a passkey added")
        quads.use_language("en")
        expect(page.locator("#link-left")).to_contain_text(re.compile(r"\d:\d\d"))
        walk.switched("the account")
        page.locator("#password-current").fill("not the password at all")
        page.locator("#password-new").fill(PASSWORD + "!")
        quads.press(page.locator("#password-submit"))
        expect(page.locator("#password-error")).to_have_text(quads.t("error.bad_credentials"))
        walk.look("the account: a wrong password")
        page.locator("#recovery-password").fill(PASSWORD)
        quads.press(page.locator("#recovery-form button[type=submit]"))
        new_codes = page.locator("#recovery-codes .codes-list code")
        expect(new_codes).to_have_count(10)
        codes.update(new_codes.all_inner_texts())
        walk.look("the account: new recovery codes")
        quads.press(page.get_by_role("button", name=quads.t("account.codes.kept")))
        page.locator("#hide-ratings").check()
        quads.press(page.locator("#delete-open"))
        quads.press(page.locator("#delete-form button[type=submit]"))
        expect(page.locator("#delete-error")).to_have_text(quads.t("account.name.missing"))
        walk.look("the account: deleting it")
        quads.open("/#/link/2345-6789")
        expect(page.locator("#link-view-switch")).to_be_visible()
        walk.look("a link code's address, signed in")

        # Another device signs in, and is signed out from this one's list: its prompt.
        other = person(server.url, "phone", "de")
        other.open("/#/sign-in")
        other.page.locator("#signin-name").fill(name)
        other.page.locator("#signin-password").fill(PASSWORD)
        other.press(other.page.locator("#signin-form button[type=submit]"))
        expect(other.page.locator("#nav-account")).to_have_text(name)
        quads.open("/#/account")
        devices = page.locator("#devices-list li")
        expect(devices).to_have_count(2)
        walk.look("the account: two devices")
        quads.press(devices.filter(has_not_text=quads.t("account.device.this"))
                    .get_by_role("button"))
        expect(devices).to_have_count(1)
        walk.look("the account: the other device signed out")
        other.choose("mode", "local")
        other.press(other.page.locator("#start-button"))
        expect(other.page.locator("#forgotten")).to_be_visible()
        walk.look("the prompt of a device signed out elsewhere", other)

        quads.press(page.locator("#account-sign-out"))
        expect(page.locator("#notice")).to_have_text(quads.t("account.signed_out"))
        walk.look("signed out")

    # The codes are letters and digits drawn at random, and the name ends in random hex
    # digits: no words of either language, whatever they may spell.
    found = {screen: {word for word in words
                      if not any(word in code for code in codes)
                      and word.lower() not in name.lower()}
             for screen, words in walk.found.items()}
    assert {screen: words for screen, words in found.items() if words} == {}, \
        f"English words on German screens: {found}"


def test_the_players_screens_read_german(browser: Browser, server: Server) -> None:
    """A profile, one's finished games, the leaderboards and the lobby's rated choice."""
    with german_at(browser, server.url) as quads:
        page = quads.page
        walk = Walk(quads)
        game = quads.start_game(mode="local")
        quads.give("0")
        quads.press(page.locator("#resign-button"))
        quads.press(page.locator("#confirm-yes"))
        expect(page.locator("#end-panel")).to_be_visible()
        quads.open("/#/my-games")
        expect(page.locator(f'#my-games-list li[data-game="{game}"]')).to_be_visible()
        walk.look("finished games")
        quads.open("/#/lobby")
        # (the lobby's list shows other players' made-up names: its words are checked alone)
        expect(page.locator("#quick-rated-note")).to_have_text(
            f"{quads.t('lobby.rated.account')} {quads.t('lobby.rated.sign_in')}")
        quads.open("/#/leaderboard/classic-rapid")
        expect(page.locator("#leaderboard-status")).to_have_text(quads.t("leaderboard.empty"))
        walk.look("a leaderboard")
        name = new_name("de")
        sign_up(quads, name)
        keep_codes(quads, name)
        quads.open(f"/#/players/{name}")
        expect(page.locator("#profile-ratings-none")).to_be_visible()
        walk.look("a profile")
        quads.open("/#/lobby")
        quads.press(page.locator('#offer-form label.choice:has(input[value="rated"])'))
        expect(page.locator("#offer-range option")).to_have_text(
            [quads.t("lobby.range.spread", points=p) for p in (100, 200, 300)]
            + [quads.t("lobby.range.any")])
    # The account's name ends in random hex digits, which may spell a word ("dead",
    # "bad", "face"): the name is no English of the page's.
    found = {screen: {word for word in words if word.lower() not in name.lower()}
             for screen, words in walk.found.items()}
    assert {screen: words for screen, words in found.items() if words} == {}, \
        f"English words on German screens: {found}"
