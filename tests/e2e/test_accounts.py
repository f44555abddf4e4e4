"""Accounts in the page: signing up, out and in again with a password and with a
recovery code; passkeys, made and used through Chromium's virtual authenticator; a
second device let in by a link code, which then has the same games; and a device
signed out from another one's list, which is asked what to do at its next action.

A passkey belongs to a domain, never to an address: the pages that use passkeys are
opened at ``http://localhost:PORT``, the server's own address (127.0.0.1) cannot
hold one.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from e2e.quads_page import DEVICES, QuadsPage, watch_errors
from e2e.quads_server import Server

PASSWORD = "a long walk by the river"
RECOVERY_CODE = re.compile(r"^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$")
LINK_CODE = re.compile(r"^[A-Z2-9]{4}-[A-Z2-9]{4}$")


def named(url: str) -> str:
    """The server's address under the name ``localhost`` (which can hold passkeys)."""
    return url.replace("127.0.0.1", "localhost")


def new_name(prefix: str = "ada") -> str:
    """An account name nobody has taken yet."""
    return f"{prefix}{secrets.token_hex(4)}"


def add_authenticator(page: Page) -> None:
    """Give ``page``'s browser a passkey authenticator of its own (as a phone's screen
    lock), which verifies its person at once."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})


def sign_up(quads: QuadsPage, name: str, password: str = PASSWORD) -> list[str]:
    """Make an account with a password on the sign-up screen; the recovery codes shown."""
    page = quads.page
    quads.open("/#/sign-up")
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill(password)
    quads.press(page.locator("#signup-submit"))
    codes = page.locator("#signup-codes .codes-list code")
    expect(codes).to_have_count(10)
    return codes.all_inner_texts()


def keep_codes(quads: QuadsPage, name: str) -> None:
    """Say the codes are kept: home, signed in as ``name``."""
    page = quads.page
    quads.press(page.get_by_role("button", name=quads.t("account.codes.kept")))
    expect(page.locator("#setup-view")).to_be_visible()
    expect(page.locator("#notice")).to_have_text(quads.t("account.made", name=name))
    expect(page.locator("#nav-account")).to_have_text(name)


def sign_out(quads: QuadsPage) -> None:
    """Sign out on the account screen: home, as a newcomer."""
    page = quads.page
    quads.open("/#/account")
    quads.press(page.locator("#account-sign-out"))
    expect(page.locator("#setup-view")).to_be_visible()
    expect(page.locator("#notice")).to_have_text(quads.t("account.signed_out"))
    expect(page.locator("#nav-account")).to_have_text(quads.t("nav.account.sign_in"))


def sign_in(quads: QuadsPage, name: str, password: str = PASSWORD) -> None:
    """Sign in with name and password from the top bar's "Sign in"."""
    page = quads.page
    quads.press(page.locator("#nav-account"))
    expect(page.locator("#signin-view")).to_be_visible()
    page.locator("#signin-name").fill(name)
    page.locator("#signin-password").fill(password)
    quads.press(page.locator("#signin-form button[type=submit]"))
    expect(page.locator("#setup-view")).to_be_visible()
    expect(page.locator("#nav-account")).to_have_text(name)


def expect_listed(quads: QuadsPage, game: str, listed: bool = True) -> None:
    """The home screen's list of unfinished games shows ``game`` (or, with ``listed``
    false, does not)."""
    item = quads.page.locator(f'#resume-list li.resume-item[data-game="{game}"]')
    expect(item).to_have_count(1 if listed else 0)


def game_played(quads: QuadsPage) -> str:
    """A game on one device with a piece handed over (a game somebody acted in)."""
    game = quads.start_game(mode="local")
    quads.give("0")
    return game


@pytest.fixture
def phone_at(browser: Browser) -> Iterator[Any]:
    """Make a phone's page of a person of its own at a base address."""
    made: list[tuple[BrowserContext, list[str]]] = []

    def make(base_url: str) -> QuadsPage:
        context = browser.new_context(base_url=base_url, locale="en-GB", reduced_motion="reduce",
                                      **DEVICES["phone"])
        context.set_default_timeout(15_000)
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        made.append((context, errors))
        return QuadsPage(page, "phone", base_url)

    yield make
    for context, errors in made:
        context.close()
        assert not errors, f"errors in the page: {errors}"


def test_sign_up_with_a_password_then_out_and_in_again(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    expect(page.locator("#nav-account")).to_have_text(quads.t("nav.account.sign_in"))
    before = game_played(quads)
    name = new_name()
    # Refusals are worded, each by its field.
    quads.open("/#/sign-up")
    expect(page.locator("#signup-password")).to_have_attribute("autocomplete", "new-password")
    expect(page.locator("#signup-name")).to_have_attribute("autocomplete", "username")
    quads.press(page.locator("#signup-submit"))
    expect(page.locator("#signup-error")).to_have_text(quads.t("account.name.missing"))
    expect(page.locator("#signup-name")).to_be_focused()
    page.locator("#signup-name").fill("no spaces here")
    page.locator("#signup-password").fill(PASSWORD)
    quads.press(page.locator("#signup-submit"))
    expect(page.locator("#signup-error")).to_have_text(quads.t("error.invalid_name.characters"))
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill("too short")
    quads.press(page.locator("#signup-submit"))
    expect(page.locator("#signup-error")).to_have_text(
        quads.t("error.weak_password.too_short", min=10))
    expect(page.locator("#signup-password")).to_be_focused()
    # Made: the ten codes, once, until they are kept.
    codes = sign_up(quads, name)
    assert all(RECOVERY_CODE.match(code) for code in codes), codes
    assert len(set(codes)) == 10
    expect(page.locator("#signup-codes h2")).to_be_focused()
    expect(page.locator("#signup-form")).to_be_hidden()
    keep_codes(quads, name)
    # The game played before the account is the account's.
    expect_listed(quads, before)
    # The account screen, from the top bar.
    quads.press(page.locator("#nav-account"))
    expect(page.locator("#account-name")).to_have_text(name)
    devices = page.locator("#devices-list li")
    expect(devices).to_have_count(1)
    expect(devices.first).to_contain_text(quads.t("account.device.this"))
    expect(page.locator("#devices-end-others")).to_be_hidden()
    expect(page.locator("#recovery-left")).to_have_text(
        quads.t("account.recovery_codes.left", left=10))
    sign_out(quads)
    expect_listed(quads, before, listed=False)
    # A wrong password, then the right one: the games are back.
    quads.press(page.locator("#nav-account"))
    expect(page.locator("#signin-name")).to_have_attribute("autocomplete", "username webauthn")
    expect(page.locator("#signin-password")).to_have_attribute("autocomplete", "current-password")
    page.locator("#signin-name").fill(name)
    page.locator("#signin-password").fill("not the password at all")
    quads.press(page.locator("#signin-form button[type=submit]"))
    expect(page.locator("#signin-error")).to_have_text(quads.t("error.bad_credentials"))
    quads.open("/#/new")
    sign_in(quads, name)
    expect(page.locator("#notice")).to_have_text(quads.t("account.signed_in", name=name))
    expect_listed(quads, before)
    # A recovery code signs in once.
    sign_out(quads)
    for attempt in range(2):
        quads.open("/#/sign-in")
        quads.press(page.get_by_role("link", name=quads.t("account.sign_in.recovery")))
        expect(page.locator("#signin-recovery-form")).to_be_visible()
        expect(page.locator("#signin-recovery-code")).to_have_attribute(
            "autocomplete", "one-time-code")
        page.locator("#signin-recovery-name").fill(name)
        page.locator("#signin-recovery-code").fill(codes[0].lower())
        quads.press(page.locator("#signin-recovery-form button[type=submit]"))
        if attempt == 0:
            expect(page.locator("#setup-view")).to_be_visible()
            expect(page.locator("#nav-account")).to_have_text(name)
            # This time out by this device's own line of the list: its cookie goes too.
            quads.open("/#/account")
            own = page.locator("#devices-list li").filter(has_text=quads.t("account.device.this"))
            quads.press(own.get_by_role("button"))
            expect(page.locator("#notice")).to_have_text(quads.t("account.signed_out"))
            expect(page.locator("#nav-account")).to_have_text(quads.t("nav.account.sign_in"))
        else:
            expect(page.locator("#signin-error")).to_have_text(quads.t("error.bad_credentials"))
            expect(page.locator("#forgotten")).to_be_hidden()


def test_passkeys_sign_up_and_in(phone_at: Any, server: Server) -> None:
    quads: QuadsPage = phone_at(named(server.url))
    page = quads.page
    add_authenticator(page)
    name = new_name("pk")
    quads.open("/#/sign-up")
    page.locator("#signup-name").fill(name)
    quads.press(page.get_by_role("button", name=quads.t("account.sign_up.passkey")))
    expect(page.locator("#signup-codes .codes-list code")).to_have_count(10)
    keep_codes(quads, name)
    # The account has its passkey and no password: its last way in stays.
    quads.open("/#/account")
    passkeys = page.locator("#passkeys-list li")
    expect(passkeys).to_have_count(1)
    expect(page.locator("#password-none")).to_be_visible()
    expect(page.locator("#password-submit")).to_have_text(quads.t("account.password.set"))
    expect(page.locator("#recovery-password-field")).to_be_hidden()
    quads.press(passkeys.first.get_by_role("button"))
    expect(page.locator("#passkeys-error")).to_have_text(quads.t("error.last_credential"))
    expect(passkeys).to_have_count(1)
    # The browser makes the same passkey once.
    quads.press(page.locator("#passkeys-add"))
    expect(page.locator("#passkeys-error")).to_have_text(quads.t("account.passkey.exists"))
    sign_out(quads)
    # By the button (the name field's suggestions put aside) ...
    page.evaluate("() => { window.offered = PublicKeyCredential.isConditionalMediationAvailable;"
                  " PublicKeyCredential.isConditionalMediationAvailable = async () => false; }")
    quads.press(page.locator("#nav-account"))
    button = page.get_by_role("button", name=quads.t("account.sign_in.passkey"))
    expect(button).to_be_visible()
    quads.press(button)
    expect(page.locator("#setup-view")).to_be_visible()
    expect(page.locator("#notice")).to_have_text(quads.t("account.signed_in", name=name))
    expect(page.locator("#nav-account")).to_have_text(name)
    sign_out(quads)
    # ... and among the suggestions of the name field, which the virtual authenticator
    # picks as a person would.
    page.evaluate("() => { PublicKeyCredential.isConditionalMediationAvailable = window.offered; }")
    quads.press(page.locator("#nav-account"))
    expect(page.locator("#setup-view")).to_be_visible()
    expect(page.locator("#nav-account")).to_have_text(name)


def test_a_second_device_by_a_link_code(phone_at: Any, server: Server) -> None:
    first: QuadsPage = phone_at(server.url)
    second: QuadsPage = phone_at(server.url)
    name = new_name("two")
    first.open("/#/new")
    sign_up(first, name)
    keep_codes(first, name)
    game = game_played(first)
    # "Add a device": the code, large, its QR code and the time it has left.
    first.open("/#/account")
    page = first.page
    first.press(page.locator("#link-make"))
    code = page.locator("#link-code")
    expect(code).to_have_text(LINK_CODE)
    expect(page.locator("#link-qr svg")).to_be_visible()
    assert page.locator("#link-qr script, #link-qr title").count() == 0
    expect(page.locator("#link-left")).to_have_text(re.compile(
        re.escape(first.t("account.link.left", time="X")).replace("X", r"[45]:\d\d")))
    first.check_screen(code, page.locator("#link-qr"), page.locator("#link-left"), audit=False)
    # The second device opens the QR code's address, and signs in when asked.
    second.open(f"/#/link/{code.inner_text()}")
    expect(second.page.locator("#link-view-code")).to_have_text(code.inner_text())
    expect(second.page.locator("#nav-account")).to_have_text(second.t("nav.account.sign_in"))
    second.press(second.page.get_by_role("button", name=second.t("account.link_in.button")))
    expect(second.page.locator("#setup-view")).to_be_visible()
    expect(second.page.locator("#nav-account")).to_have_text(name)
    expect_listed(second, game)
    # A code lets one device in, once.
    third: QuadsPage = phone_at(server.url)
    third.open(f"/#/link/{code.inner_text()}")
    third.press(third.page.get_by_role("button", name=third.t("account.link_in.button")))
    expect(third.page.locator("#link-view-error")).to_have_text(third.t("error.bad_link_code"))
    # A new code, typed on the sign-in screen.
    first.press(page.locator("#link-make"))
    expect(code).not_to_have_text(second.page.locator("#link-view-code").inner_text())
    third.open("/#/sign-in")
    third.press(third.page.get_by_role("link", name=third.t("account.sign_in.code")))
    field = third.page.locator("#signin-code")
    expect(field).to_have_attribute("autocomplete", "one-time-code")
    field.fill(code.inner_text().replace("-", " ").lower())
    third.press(third.page.locator("#signin-code-form button[type=submit]"))
    expect(third.page.locator("#nav-account")).to_have_text(name)
    expect_listed(third, game)
    # The first device lists all three.
    first.open("/#/account")
    expect(page.locator("#devices-list li")).to_have_count(3)


def test_a_device_signed_out_from_another(phone_at: Any, server: Server) -> None:
    first: QuadsPage = phone_at(server.url)
    second: QuadsPage = phone_at(server.url)
    name = new_name("out")
    first.open("/#/new")
    sign_up(first, name)
    keep_codes(first, name)
    second.open("/#/new")
    sign_in(second, name)
    # The first signs the second out from its list of devices.
    first.open("/#/account")
    page = first.page
    devices = page.locator("#devices-list li")
    expect(devices).to_have_count(2)
    other = devices.filter(has_not_text=first.t("account.device.this"))
    first.press(other.get_by_role("button"))
    expect(page.locator("#notice")).to_have_text(first.t("account.devices.ended"))
    expect(devices).to_have_count(1)
    # The second's next action: the prompt says it may have been signed out, and offers
    # to sign in again; signed in, what it did goes through, as the account.
    second.choose("mode", "local")
    second.press(second.page.locator("#start-button"))
    prompt = second.page.locator("#forgotten")
    expect(prompt).to_be_visible()
    expect(prompt.locator("p")).to_have_text(second.t("player.forgotten.text"))
    again = prompt.get_by_role("button", name=second.t("player.forgotten.sign_in"))
    expect(prompt.get_by_role("button", name=second.t("player.forgotten.start"))).to_be_visible()
    second.check_screen(again, audit=False)
    second.press(again)
    expect(prompt).to_be_hidden()
    expect(second.page.locator("#signin-view")).to_be_visible()
    second.page.locator("#signin-name").fill(name)
    second.page.locator("#signin-password").fill(PASSWORD)
    second.press(second.page.locator("#signin-form button[type=submit]"))
    expect(second.page.locator("#game-view")).to_be_visible()
    game = second.game_id()
    assert second.api("/api/account")["name"] == name
    # The game is the account's: the first device opens it too.
    assert first.api(f"/api/games/{game}")["id"] == game
