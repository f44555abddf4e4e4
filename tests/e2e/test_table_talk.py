"""Quick messages at the table, in two browsers: an English host and a German guest
greet each other, each reading the other's line in their own language; the guest
mutes the host; saying too much is refused politely (on a server of its own, whose
rate does not depend on the pace of the machine)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from e2e.layout import check_screen
from e2e.quads_page import Person, QuadsPage
from e2e.quads_server import Server, free_port

TALK_SETTINGS = 'rate_talk = "5/hour"\n'
"""Five lines a player, whatever the pace of a loaded machine: the sixth is refused."""


@pytest.fixture(scope="module")
def talk_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("talk")
    server = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                    settings=TALK_SETTINGS)
    server.start()
    yield server
    server.kill()


def _table(person: Person, url: str) -> tuple[QuadsPage, QuadsPage]:
    host = person(url, "phone", "en")
    guest = person(url, "phone", "de")
    host.open("/#/new")
    host.choose("mode", "online")
    host.press(host.page.locator("#start-button"))
    expect(host.page.locator("#invite-panel")).to_be_visible()
    guest.page.goto(host.page.locator("#invite-url").input_value())
    guest.press(guest.page.locator("#join-button"))
    expect(guest.page.locator("#game-view")).to_be_visible()
    expect(host.page.locator("#talk-box")).to_be_visible()
    return host, guest


def _open_box(quads: QuadsPage) -> None:
    box = quads.page.locator("#talk-box")
    if box.get_attribute("open") is None:
        quads.press(box.locator("summary"))
    expect(quads.page.locator("#talk-presets button").first).to_be_visible()


def _say(quads: QuadsPage, message: str) -> None:
    quads.press(quads.page.locator(f'#talk-presets button[data-message="{message}"]'))


def _seat(quads: QuadsPage, side: str) -> str:
    """The seat of the other player (``they``) or one's own (``you``) in the seats list."""
    index = 0 if side == "you" else 1
    return f"#seats > li.seat >> nth={index}"


def test_two_players_greet_each_other_each_in_their_own_language(
        talk_server: Server, person: Person) -> None:
    host, guest = _table(person, talk_server.url)
    _open_box(host)
    _open_box(guest)
    expect(guest.page.locator("#talk-empty")).to_have_text(guest.t("talk.empty"))
    check_screen(host.page, audit=False)

    _say(host, "good_luck")
    # The German reader reads the English player's line in German, beside their name
    # and in the box.
    expect(guest.page.locator(_seat(guest, "they")).locator(".seat-said")).to_contain_text(
        "Viel Glück!")
    # By the name the host goes by (made up for them), never "Player 1".
    host_name = guest.view()["names"]["first"]
    assert host_name
    expect(guest.page.locator("#talk-log li")).to_have_text(
        [guest.t("talk.line", who=host_name, message="Viel Glück!")])
    expect(host.page.locator(_seat(host, "you")).locator(".seat-said")).to_contain_text(
        "Good luck!")
    _say(guest, "thanks")
    expect(host.page.locator(_seat(host, "they")).locator(".seat-said")).to_contain_text(
        "Thanks!")
    expect(host.page.locator("#talk-log li")).to_have_count(2)
    check_screen(guest.page, audit=False)

    # The guest mutes: what the host says next shows nowhere on the guest's page.
    guest.page.locator("#talk-mute").check()
    expect(guest.page.locator("#talk-empty")).to_have_text(guest.t("talk.muted"))
    _say(host, "oops")
    expect(host.page.locator("#talk-log li")).to_have_count(3)
    guest.page.wait_for_timeout(500)
    expect(guest.page.locator("#talk-log li")).to_have_count(0)
    expect(guest.page.locator(_seat(guest, "they")).locator(".seat-said")).to_have_count(0)
    # Remembered on the device: a reload keeps the guest's page muted.
    guest.page.reload()
    _open_box(guest)
    expect(guest.page.locator("#talk-mute")).to_be_checked()
    guest.page.locator("#talk-mute").uncheck()
    expect(guest.page.locator("#talk-log li")).to_have_count(3)  # kept, shown again

    # Too much (this server allows five lines a player): the sixth is refused, politely,
    # and reaches nobody.
    for message in ("hello", "hello", "hello", "hello"):
        _say(host, message)
    expect(host.page.locator("#talk-note")).to_have_text(host.t("talk.slow"))
    expect(host.page.locator("#talk-log li")).to_have_count(6)  # the host's five, the guest's one
    expect(guest.page.locator("#talk-log li")).to_have_count(6)
    check_screen(host.page, audit=False)
