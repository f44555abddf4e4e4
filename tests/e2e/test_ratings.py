"""Ratings in the page, in Chromium: two accounts meet in the lobby through a rated
seek, play until one resigns, and both pages show what the game did to the ratings
at once; the winner's profile then shows the rating, its chart and the game, which
opens into its review.

The server is this module's own, so that no seek of another test meets these players.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from e2e.layout import check_screen
from e2e.quads_page import Person, QuadsPage
from e2e.quads_server import Server, free_port
from e2e.test_accounts import keep_codes, new_name, sign_up
from e2e.test_lobby import LOBBY_SETTINGS, in_game, mover, open_lobby, play_turn, seeks

CHANGE = re.compile(r"\((\+\d+|\u2212\d+|\u00b10)\)")


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("ratings")
    server = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                    settings=LOBBY_SETTINGS)
    server.start()
    yield server
    server.kill()


def account(quads: QuadsPage, prefix: str) -> str:
    """Make an account on ``quads``'s page; its name."""
    name = new_name(prefix)
    sign_up(quads, name)
    keep_codes(quads, name)
    return name


def open_rated_seek(quads: QuadsPage) -> None:
    """Offer a rated 3+2 game of the Quads rules in the lobby."""
    page = quads.page
    open_lobby(quads)
    page.locator("#offer-rules").select_option("quads")
    page.locator("#offer-clock").select_option("3+2")
    quads.press(page.locator('#offer-form label.choice:has(input[name="rated"][value="rated"])'))
    quads.press(page.locator("#offer-button"))
    expect(page.locator("#offer-done")).to_be_visible()


def test_a_rated_game_changes_both_ratings_live(rated_server: Server, person: Person) -> None:
    url = rated_server.url
    host = person(url, "phone", "en")
    guest = person(url, "desktop", "en")
    host_name = account(host, "host")
    guest_name = account(guest, "guest")

    open_rated_seek(host)
    offer = seeks(host)
    expect(offer).to_have_count(1)
    expect(offer).to_contain_text(host.t("game.rated"))

    open_lobby(guest)
    offer = seeks(guest)
    expect(offer).to_have_count(1)
    expect(offer).to_contain_text(guest.t("game.rated"))
    expect(offer).to_contain_text(host_name)
    expect(offer).to_contain_text(f"{host_name} (1500?)")  # a newcomer's, provisional
    guest.press(offer.locator("button"))
    game = in_game(guest)
    assert in_game(host) == game

    # Both seats are accounts: their names lead to their profiles, with their ratings.
    for someone in (host, guest):
        page = someone.page
        expect(page.locator("#game-opponent")).to_contain_text(someone.t("game.rated"))
        for name in (host_name, guest_name):
            seat = page.locator(f'#seats a[href="#/players/{name}"]')
            expect(seat).to_have_count(1)
        # Newcomers to the category show a newcomer's provisional rating.
        expect(page.locator("#seats .seat-rating")).to_have_text(["1500?", "1500?"])
    check_screen(host.page, audit=True)

    first = mover(host, guest)
    second = guest if first is host else host
    play_turn(first, second)
    play_turn(second, first)
    play_turn(second, first)
    loser = mover(host, guest)
    winner = guest if loser is host else host
    loser.press(loser.page.locator("#resign-button"))
    loser.press(loser.page.locator("#confirm-yes"))

    expect(loser.page.locator("#end-panel")).to_be_visible()
    # Both pages show the change at once, from the live socket.
    for someone in (host, guest):
        panel = someone.page.locator("#end-ratings")
        expect(panel).to_be_visible()
        lines = panel.locator(".end-rating")
        expect(lines).to_have_count(2)
        expect(lines.first).to_contain_text(someone.t("player.you"))
        expect(lines.first).to_contain_text(CHANGE)
        # Now both have a rating in the category, provisional after one game.
        expect(someone.page.locator("#seats .seat-rating")).to_have_text(
            [re.compile(r"^\d+\?$"), re.compile(r"^\d+\?$")])
    expect(winner.page.locator("#end-ratings .end-rating").first).to_contain_text("(+")
    expect(loser.page.locator("#end-ratings .end-rating").first).to_contain_text("(\u2212")
    check_screen(winner.page, acting=(winner.page.locator("#end-ratings"),), audit=True)
    winner.screenshot("rated-end")

    # The winner's name leads to the profile: the rating, its chart, the game.
    winner_name = host_name if winner is host else guest_name
    page = winner.page
    winner.press(page.locator(f'#seats a[href="#/players/{winner_name}"]'))
    expect(page.locator("#profile-view")).to_be_visible()
    expect(page.locator("#profile-title")).to_have_text(winner_name)
    rating = page.locator('#profile-ratings li[data-category="quads-rapid"]')
    expect(rating).to_be_visible()
    expect(rating.locator(".profile-rating-value")).to_have_text(re.compile(r"^\d+\?$"))
    chart = rating.locator("svg.rating-chart")
    expect(chart).to_have_attribute("role", "img")
    expect(chart).to_have_attribute("aria-label", re.compile(r"1500.*\d+"))
    expect(chart.locator("polyline")).to_have_count(1)
    expect(page.locator("#profile-results")).to_have_text(
        winner.t("profile.results.text", wins=1, draws=0, losses=0))
    item = page.locator(f'#profile-games li[data-game="{game}"]')
    loser_name = guest_name if winner is host else host_name
    expect(item).to_contain_text(loser_name)
    expect(item.locator(".finished-result")).to_have_text(winner.t("finished.result.win"))
    expect(item.locator(".finished-change")).to_have_text(re.compile(r"^\+\d+$"))
    check_screen(page, acting=(page.locator("#profile-title"),), audit=True)
    winner.screenshot("profile")
    # The filters keep only what they name.
    page.locator("#profile-result").select_option("loss")
    expect(page.locator("#profile-games li")).to_have_count(0)
    expect(page.locator("#profile-games-none")).to_be_visible()
    page.locator("#profile-result").select_option("win")
    expect(item).to_be_visible()
    # The game opens into its end and its review; the address becomes the game's.
    winner.press(item.locator("a.button"))
    expect(page).to_have_url(re.compile(f"#/game/{game}$"))
    expect(page.locator("#end-panel")).to_be_visible()
    expect(page.locator("#review-panel")).to_be_visible()

    # The loser's profile, opened by its address, says the loss.
    loser.open(f"/#/players/{loser_name}")
    expect(loser.page.locator("#profile-results")).to_have_text(
        loser.t("profile.results.text", wins=0, draws=0, losses=1))


def test_finished_games_and_leaderboards_for_a_newcomer(rated_server: Server,
                                                        person: Person) -> None:
    """A player without an account finds their finished games from the home screen and
    opens one; an empty leaderboard says who appears there; a rated seek asks a newcomer
    to sign in."""
    quads = person(rated_server.url, "phone", "en")
    page = quads.page
    game = quads.start_game(mode="computer", rules="quads", level=1, human="first")
    quads.give("5")
    quads.wait_until_idle()
    quads.press(page.locator("#resign-button"))
    quads.press(page.locator("#confirm-yes"))
    expect(page.locator("#end-panel")).to_be_visible()
    quads.open("/#/new")
    quads.press(page.locator("#my-games-link"))
    expect(page.locator("#my-games-view")).to_be_visible()
    item = page.locator(f'#my-games-list li[data-game="{game}"]')
    expect(item).to_be_visible()
    # Against whom, and the result from the player's side.
    expect(item.locator("strong")).to_contain_text(quads.t("level.1.name"))
    expect(item.locator(".finished-result")).to_have_text(quads.t("finished.result.loss"))
    check_screen(page, acting=(item.locator("a.button"),), audit=True)
    quads.press(item.locator("a.button"))
    expect(page.locator("#end-panel")).to_be_visible()
    expect(page.locator("#review-panel")).to_be_visible()

    quads.open("/#/lobby")
    expect(page.locator("#quick-rated-note")).to_be_visible()
    expect(page.locator("#quick-rated-note a")).to_have_attribute("href", "#/sign-in")
    quads.press(page.locator('#lobby-view a[href="#/leaderboard"]'))
    expect(page.locator("#leaderboard-view")).to_be_visible()
    expect(page.locator("#leaderboard-category option")).to_have_count(12)
    expect(page.locator("#leaderboard-status")).to_have_text(quads.t("leaderboard.empty"))
    page.locator("#leaderboard-category").select_option("classic-blitz")
    expect(page).to_have_url(re.compile("#/leaderboard/classic-blitz$"))
    expect(page.locator("#leaderboard-status")).to_have_text(quads.t("leaderboard.empty"))
    check_screen(page, acting=(page.locator("#leaderboard-category"),), audit=True)
