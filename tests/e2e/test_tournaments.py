"""Tournaments in the page, in Chromium: an account makes an arena from the
tournaments' screen, two accounts (one on a phone in English, one on a desktop in
German) join it on its page, the server pairs them and each page opens the game by
itself, with the event's banner; the result reaches both event pages live, the
player's own line marked and in view.

The server is this module's own, so that no other test's player joins its arenas.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from e2e.quads_page import Person, QuadsPage
from e2e.quads_server import Server, free_port
from e2e.test_lobby import LOBBY_SETTINGS, in_game
from e2e.test_ratings import account

SETTINGS = LOBBY_SETTINGS + "tournament_tick = 0.3\ntournament_refresh = 0.3\n"


@pytest.fixture(scope="module")
def arena_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("tournaments")
    server = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                    settings=SETTINGS)
    server.start()
    yield server
    server.kill()


def make_arena(quads: QuadsPage, name: str) -> str:
    """Make a 15-minute 3+2 arena starting now from the tournaments' screen; its id."""
    page = quads.page
    quads.press(page.locator("#tournaments-link"))
    expect(page.locator("#tournaments-view")).to_be_visible()
    page.locator("#arena-name").fill(name)
    page.locator("#arena-clock").select_option("3+2")
    page.locator("#arena-minutes").select_option("15")
    quads.press(page.locator("#arena-submit"))
    expect(page).to_have_url(re.compile(r"#/tournaments/[\w-]+$"))
    expect(page.locator("#event-title")).to_have_text(name)
    return page.url.rsplit("/", 1)[1]


def join(quads: QuadsPage) -> None:
    page = quads.page
    button = page.locator("#event-join")
    expect(button).to_have_text(quads.t("tournaments.join"))
    quads.press(button)
    expect(button).to_have_text(quads.t("tournaments.pause"))


def test_two_accounts_meet_in_an_arena(arena_server: Server, person: Person) -> None:
    url = arena_server.url
    host = person(url, "phone", "en")
    guest = person(url, "desktop", "de")
    host_name = account(host, "ar")
    guest_name = account(guest, "ar")

    arena = make_arena(host, "Club night")
    page = host.page
    expect(page.locator("#event-info")).to_contain_text("3+2")
    expect(page.locator("#event-standings-none")).to_be_visible()
    join(host)
    own = page.locator("#event-standings li.is-you")
    expect(own).to_contain_text(host_name)
    expect(own).to_be_in_viewport()
    expect(page.locator("#event-countdown")).to_have_text(
        re.compile(re.escape(host.t("tournaments.ends_in", time="")) + r"1[45]:\d\d"))

    # The guest finds it in the list, in German, and joins.
    guest.open("/#/tournaments")
    listed = guest.page.locator(f'#tournaments-started a[href="#/tournaments/{arena}"]')
    expect(listed).to_contain_text("Club night")
    expect(listed).to_contain_text(guest.t("tournaments.players.one", count=1))
    guest.press(listed)
    expect(guest.page.locator("#event-rules-title")).to_have_text(
        guest.t("tournaments.rules.title"))
    join(guest)

    # Paired by the server: each page opens the game by itself, with the event's banner.
    game = in_game(host)
    assert in_game(guest) == game
    for someone in (host, guest):
        banner = someone.page.locator("#game-event-link")
        expect(banner).to_have_text(someone.t("tournaments.banner", name="Club night"))
        expect(banner).to_have_attribute("href", f"#/tournaments/{arena}")

    # The host resigns; both see the next game will come by itself, and the result
    # reaches the event's page live.
    host.press(page.locator("#resign-button"))
    host.press(page.locator("#confirm-yes"))
    for someone in (host, guest):
        expect(someone.page.locator("#end-panel")).to_be_visible()
        expect(someone.page.locator("#game-event-next")).to_have_text(
            someone.t("tournaments.banner.next"))
    guest.press(guest.page.locator("#game-event-link"))
    standings = guest.page.locator("#event-standings li")
    expect(standings).to_have_count(2)
    expect(standings.first).to_contain_text(guest_name)
    expect(standings.first.locator(".standing-points")).to_have_text("2")
    expect(guest.page.locator("#event-standings li.is-you")).to_contain_text(guest_name)
    line = guest.page.locator("#event-games li").first
    first_is_guest = line.locator(".watch-players").inner_text().startswith(guest_name)
    won = "tournaments.result.first" if first_is_guest else "tournaments.result.second"
    expect(line.locator(".watch-details")).to_have_text(
        guest.t(won, first=guest_name, second=guest_name))


def test_a_swiss_event_plays_its_rounds(arena_server: Server, person: Person) -> None:
    """Two accounts in a three-round Swiss event made to start now: its first round
    waits for the second player, pairs them and opens the game on both pages; once it
    is over nobody is left to meet, and the event ends with the winner's point."""
    url = arena_server.url
    host = person(url, "phone", "de")
    guest = person(url, "desktop", "en")
    account(host, "sw")
    guest_name = account(guest, "sw")
    page = host.page
    host.press(page.locator("#tournaments-link"))
    page.locator("#arena-kind").select_option("swiss")
    expect(page.locator("#arena-minutes-field")).to_be_hidden()
    page.locator("#arena-rounds").select_option("3")
    page.locator("#arena-name").fill("Swiss night")
    host.press(page.locator("#arena-submit"))
    expect(page.locator("#event-title")).to_have_text("Swiss night")
    expect(page.locator("#event-info")).to_contain_text(
        host.t("tournaments.kind.swiss_rounds", rounds=3))
    expect(page.locator("#event-rules-title")).to_have_text(host.t("tournaments.swiss.title"))
    join(host)
    expect(page.locator("#event-countdown")).to_have_text(host.t("tournaments.waiting"))
    event = page.url.rsplit("/", 1)[1]
    guest.open(f"/#/tournaments/{event}")
    join(guest)

    game = in_game(host)
    assert in_game(guest) == game
    host.press(page.locator("#resign-button"))
    host.press(page.locator("#confirm-yes"))
    expect(page.locator("#end-panel")).to_be_visible()
    guest.press(guest.page.locator("#game-event-link"))
    view = guest.page
    expect(view.locator("#event-countdown")).to_have_text(guest.t("tournaments.over"))
    first = view.locator("#event-standings li").first
    expect(first).to_contain_text(guest_name)
    expect(first.locator(".standing-points")).to_have_text("1")
    expect(view.locator("#event-games li").first).to_contain_text(
        guest.t("tournaments.round_short", round=1))
