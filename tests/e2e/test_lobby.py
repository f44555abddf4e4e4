"""The lobby and the clocks in the browser: strangers meet through "Play now" and
through an offer accepted from the live list, play with clocks that tick on both
pages, lose on time without a reload, claim a game an opponent left, and see a
correspondence game's clock in the list of games.  The lobby and the clocks are
checked for their layout on a phone.

The server of this module has short timings (``LOBBY_SETTINGS``): a seek left
by its player goes after 2 s, the timekeeper looks every 0.1 s, and a game left
during one's turn may be claimed after 2 s.  Its lobby is this module's alone, so
that no seek of another test meets these players.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, expect

from e2e.layout import check_screen
from e2e.quads_page import Person, QuadsPage
from e2e.quads_server import Server, free_port

LOBBY_SETTINGS = ("clock_grace = 15.0\nclock_tick = 0.1\nseek_linger = 2.0\n"
                  "abandon_realtime = 2.0\nabandon_share = 0.1\nabandon_untimed = 8.0\n")

CLOCK_FACE = re.compile(r"^\d+:\d\d(\.\d)?$")


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("lobby")
    server = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                    settings=LOBBY_SETTINGS)
    server.start()
    yield server
    server.kill()


# ---- helpers ----------------------------------------------------------------------


def open_lobby(quads: QuadsPage) -> None:
    """Open the lobby by its link in the page's header, once its list has come."""
    quads.open("/#/new")
    if quads.lang != "en":
        quads.use_language(quads.lang)
    quads.press(quads.page.locator("#nav-lobby"))
    expect(quads.page.locator("#lobby-view")).to_be_visible()
    expect(quads.page.locator("#seeks-status")).not_to_have_text(quads.t("lobby.list.connecting"))


def seeks(quads: QuadsPage) -> Locator:
    return quads.page.locator("#seeks-list li")


def in_game(quads: QuadsPage) -> str:
    """The page shows a game (opened without a reload); its id."""
    expect(quads.page.locator("#game-view")).to_be_visible()
    expect(quads.page).to_have_url(re.compile(r"#/game/[\w-]+$"))
    expect(quads.page.locator("#game-view")).to_have_attribute("aria-busy", "false")
    return quads.game_id()


def header_fits(quads: QuadsPage) -> None:
    """Every link of the page's header is wholly on the screen (none cut off at a side)."""
    width = quads.page.viewport_size["width"] if quads.page.viewport_size else 0
    links = quads.page.locator(".topbar-nav a:visible")
    for index in range(links.count()):
        box = links.nth(index).bounding_box()
        assert box is not None
        assert box["x"] >= 0, box
        assert box["x"] + box["width"] <= width, box


def mover(*people: QuadsPage) -> QuadsPage:
    """The one of ``people`` whose turn it is (by the server's view)."""
    views = [(quads, quads.view()) for quads in people]
    return next(quads for quads, view in views if view["can_act"])


def clock(quads: QuadsPage, side: str) -> Locator:
    return quads.page.locator(f'#clocks .clock[data-side="{side}"]')


def clock_ms(quads: QuadsPage, side: str) -> float:
    """What a real-time clock face shows, in ms."""
    text = clock(quads, side).locator(".clock-time").inner_text()
    minutes, seconds = text.split(":")
    return (int(minutes) * 60 + float(seconds)) * 1000


def play_turn(actor: QuadsPage, other: QuadsPage) -> None:
    """``actor`` places on the first free cell or hands the first piece over; ``other``
    sees it without a reload."""
    page = actor.page
    free = page.locator("#board button.playable")
    expect(page.locator("#board button.playable, #supply button.playable").first).to_be_visible()
    if free.count():
        cell = free.first.get_attribute("data-key") or ""
        actor.press(free.first)
        expect(actor.cell(cell)).to_have_attribute("data-piece", re.compile("^[0-9A-F]$"))
        expect(other.cell(cell)).to_have_attribute("data-piece", re.compile("^[0-9A-F]$"))
    else:
        piece = page.locator("#supply button.playable").first
        key = piece.get_attribute("data-key") or ""
        actor.press(piece)
        expect(actor.supply_piece(key)).to_have_count(0)
        expect(other.supply_piece(key)).to_have_count(0)
    expect(page.locator("#game-view")).to_have_attribute("aria-busy", "false")


# ---- the tests --------------------------------------------------------------------------


def test_two_strangers_meet_by_play_now(lobby_server: Server, person: Person) -> None:
    """A German phone and an English desktop press "Play now" with the same rules and
    clock and play; a third page with the lobby open sees the seek go once taken."""
    url = lobby_server.url
    alice = person(url, "phone", "de")
    bob = person(url, "desktop", "en")
    watcher = person(url, "phone390", "en")

    open_lobby(watcher)
    expect(watcher.page.locator("#seeks-status")).to_have_text(watcher.t("lobby.list.empty"))

    open_lobby(alice)
    page_a = alice.page
    expect(page_a.locator("#me-name")).to_have_text(alice.t("lobby.name.none"))
    check_screen(page_a, acting=(page_a.locator("#quick-clocks"),))
    alice.page.locator("#quick-rules").select_option("classic")
    alice.press(page_a.locator('#quick-clocks [data-clock="3+2"]'))
    waiting = page_a.locator("#quick-waiting")
    expect(waiting).to_be_visible()
    expect(page_a.locator("#quick-waiting-text")).to_contain_text("3+2")
    expect(page_a.locator("#quick-cancel")).to_be_in_viewport()
    # Now a player, with a made-up name, which she changes; a bad one is explained.
    expect(page_a.locator("#me-change")).to_be_visible()
    made_up = alice.api("/api/players/me")["name"]
    expect(page_a.locator("#me-name")).to_have_text(alice.t("lobby.name.is", name=made_up))
    alice.press(page_a.locator("#me-change"))
    page_a.locator("#me-input").fill("<b>x</b>")
    alice.press(page_a.locator("#me-form button[type=submit]"))
    expect(page_a.locator("#me-error")).to_have_text(alice.t("lobby.name.invalid"))
    page_a.locator("#me-input").fill("Ada L.")
    alice.press(page_a.locator("#me-form button[type=submit]"))
    expect(page_a.locator("#me-name")).to_have_text(alice.t("lobby.name.is", name="Ada L."))
    expect(page_a.locator("#me-error")).to_be_hidden()
    check_screen(page_a, acting=(page_a.locator("#quick-waiting"),), audit=False)

    # Her seek is listed live on the watcher's page, under her new name, its wait ticking;
    # her own page offers to withdraw it.
    offer = seeks(watcher)
    expect(offer).to_have_count(1)
    expect(offer).to_contain_text("Ada L.")
    classic = watcher.t("rules.with_calls", rules=watcher.t("rules.classic.name"),
                        calls=watcher.t("rules.calls.losing-calls"))
    expect(offer).to_contain_text(f"{classic} · 3+2")
    expect(offer.locator("button")).to_have_text(watcher.t("lobby.accept"))
    waited = offer.locator(".seek-waited").inner_text()
    expect(offer.locator(".seek-waited")).not_to_have_text(waited)  # it ticks
    expect(seeks(alice).locator("button")).to_have_text(alice.t("lobby.withdraw"))
    check_screen(watcher.page, acting=(offer.locator("button"),))
    watcher.screenshot("lobby-390")
    alice.screenshot("lobby-waiting-de")

    # Bob pairs with the same rules and clock: both pages open the game at once, and
    # the seek goes from the watcher's list.
    open_lobby(bob)
    # Without a network the lobby says that it needs one, and offers nothing to press.
    bob.page.context.set_offline(True)
    expect(bob.page.locator("#lobby-offline")).to_have_text(bob.t("lobby.offline"))
    expect(bob.page.locator('#quick-clocks [data-clock="3+2"]')).to_be_disabled()
    bob.page.context.set_offline(False)
    expect(bob.page.locator("#lobby-offline")).to_be_hidden()
    expect(seeks(bob)).to_have_count(1)
    bob.page.locator("#quick-rules").select_option("classic")
    bob.press(bob.page.locator('#quick-clocks [data-clock="3+2"]'))
    game = in_game(bob)
    assert in_game(alice) == game
    expect(seeks(watcher)).to_have_count(0)
    expect(watcher.page.locator("#seeks-status")).to_have_text(watcher.t("lobby.list.empty"))
    # The game is among those being played now: the watcher finds it by the players'
    # names and opens it, read-only; both players see one person watching.
    watcher.page.reload()
    watched = watcher.page.locator(f'#watch-list a[href="#/game/{game}"]')
    expect(watched).to_contain_text("Ada L.")
    expect(watched).to_contain_text(f"{classic} · 3+2")
    watched.scroll_into_view_if_needed()
    check_screen(watcher.page, acting=(watched,), audit=False)
    watcher.press(watched)
    expect(watcher.page.locator("#seats")).to_contain_text(watcher.t("seats.spectating"))
    expect(watcher.page.locator("#seats")).to_contain_text("Ada L.")
    for someone in (alice, bob):
        expect(someone.page.locator("#game-watchers")).to_contain_text(
            someone.t("game.watchers.one"))

    # Clocks on both pages, no undo; each side's first move is a grace, counted down.
    view = bob.view()
    assert view["clock"]["control"] == {"initial": 180, "increment": 2}
    assert view["rules"] == "classic:losing-calls"  # online, a false call loses
    first = mover(alice, bob)
    second = bob if first is alice else alice
    for someone in (alice, bob):
        expect(someone.page.locator("#clocks")).to_be_visible()
        expect(clock(someone, "first")).to_have_class(re.compile(r"\bis-running\b"))
        expect(clock(someone, "second")).not_to_have_class(re.compile(r"\bis-running\b"))
        expect(clock(someone, "first").locator(".clock-time")).to_have_text("3:00")
        expect(someone.button("undo-button")).to_be_hidden()
    expect(first.page.locator("#clock-note")).to_contain_text(
        re.compile(re.escape(first.t("clock.grace.you", time="@")).replace("@", r"\d+ s")))
    # The first move: the mover hands a piece over, their own time shown by the supply.
    expect(first.page.locator("#supply-clock")).to_be_visible()
    check_screen(first.page, acting=(first.page.locator("#supply-clock"),
                                     first.page.locator("#supply-title")), audit=False)
    play_turn(first, second)
    # The second side's grace turn: place, then hand over.
    expect(clock(first, "second")).to_have_class(re.compile(r"\bis-running\b"))
    play_turn(second, first)
    play_turn(second, first)
    # Now the first side's time runs, down from 3:00 on both pages, and stops at its move.
    expect(clock(alice, "first")).to_have_class(re.compile(r"\bis-running\b"))
    expect(alice.page.locator("#clock-note")).to_be_hidden()
    alice.page.wait_for_timeout(1200)
    for someone in (alice, bob):
        left = clock_ms(someone, "first")
        assert 170_000 < left < 179_500, left
        assert clock_ms(someone, "second") == 180_000
    phone = alice
    header_fits(phone)
    check_screen(phone.page, acting=(phone.page.locator("#clocks"), phone.page.locator("#prompt")),
                 audit=True)
    phone.screenshot("clocks-de")
    play_turn(first, second)
    play_turn(first, second)
    expect(clock(bob, "second")).to_have_class(re.compile(r"\bis-running\b"))
    first_left = clock_ms(bob, "first")
    bob.page.wait_for_timeout(500)
    assert clock_ms(bob, "first") == first_left  # stopped, the increment added
    assert first_left > 170_000
    outcome = bob.view()["outcome"]
    assert outcome is None


def test_an_offer_taken_from_the_list_ends_on_time(lobby_server: Server, person: Person) -> None:
    """A custom 5+0 offer, accepted from the live list: the seeker's page opens the
    game by itself ("paired"); after the first turns, the side to move lets its time
    run out, and both pages show the end without a reload."""
    url = lobby_server.url
    host = person(url, "desktop", "en")
    guest = person(url, "phone", "en")

    open_lobby(host)
    page_h = host.page
    page_h.locator("#offer-rules").select_option("quads")
    page_h.locator("#offer-clock").select_option("custom")
    expect(page_h.locator("#offer-custom")).to_be_visible()
    page_h.locator("#offer-minutes").fill("0")
    page_h.locator("#offer-seconds").fill("3")
    host.press(page_h.locator("#offer-button"))
    expect(page_h.locator("#offer-error")).to_have_text(host.t("clock.custom.invalid"))
    page_h.locator("#offer-seconds").fill("5")
    page_h.locator("#offer-increment").fill("0")
    host.press(page_h.locator('#offer-form label.choice:has(input[value="first"])'))
    host.press(page_h.locator("#offer-button"))
    expect(page_h.locator("#offer-done")).to_be_visible()
    expect(seeks(host)).to_have_count(1)
    expect(seeks(host)).to_contain_text(host.t("lobby.seek.mine"))
    expect(seeks(host)).to_contain_text(host.t("lobby.offer.you_first"))
    page_h.evaluate("window.stillTheSamePage = true")

    open_lobby(guest)
    offer = seeks(guest)
    expect(offer).to_have_count(1)
    expect(offer).to_contain_text(guest.t("lobby.offer.they_first"))
    expect(offer).to_contain_text("0:05+0")
    guest.press(offer.locator("button"))
    game = in_game(guest)
    assert in_game(host) == game
    assert page_h.evaluate("window.stillTheSamePage === true")
    assert guest.view()["clock"]["control"] == {"initial": 5, "increment": 0}

    # The host hands over first (both first turns are graces), then the host's 5 s run.
    play_turn(host, guest)
    play_turn(guest, host)
    play_turn(guest, host)
    expect(clock(host, "first")).to_have_class(re.compile(r"\bis-running\b"))
    expect(clock(host, "first")).to_have_class(re.compile(r"\bis-low\b"))
    expect(clock(guest, "first")).to_have_class(re.compile(r"\bis-low\b"))
    # At 0 the clock shows 0; the server ends the game and the live socket brings it.
    expect(page_h.locator("#end-panel")).to_be_visible(timeout=12_000)
    expect(page_h.locator("#end-reason")).to_have_text(host.t("end.time.you"))
    expect(guest.page.locator("#end-panel")).to_be_visible()
    expect(guest.page.locator("#end-title")).to_have_text(guest.t("end.you_won"))
    expect(guest.page.locator("#end-reason")).to_have_text(
        guest.t("end.time.they", who=guest.t("player.opponent")))
    expect(clock(host, "first").locator(".clock-time")).to_have_text("0:00.0")
    expect(clock(host, "first")).not_to_have_class(re.compile(r"\bis-running\b"))
    assert page_h.evaluate("window.stillTheSamePage === true")
    assert guest.view()["outcome"]["reason"] == "time"
    check_screen(guest.page, acting=(guest.page.locator("#end-title"),), audit=False)


def test_an_opponent_who_left_can_be_claimed_against(lobby_server: Server,
                                                      person: Person) -> None:
    """An invitation without a clock (the default): the guest leaves during their turn;
    the host sees the wait counted down, then claims a draw."""
    url = lobby_server.url
    host = person(url, "phone", "en")
    guest = person(url, "desktop", "en")
    host.open("/#/new")
    host.choose("mode", "online")
    expect(host.page.locator("#setup-clock")).to_have_value("none")
    host.press(host.page.locator("#start-button"))
    expect(host.page.locator("#invite-panel")).to_be_visible()
    invite = host.page.locator("#invite-url").input_value()
    guest.page.goto(invite)
    expect(guest.page.locator("#join-button")).to_be_visible()
    guest.press(guest.page.locator("#join-button"))
    in_game(guest)
    expect(host.page.locator("#clocks")).to_be_hidden()
    expect(host.button("undo-button")).to_be_visible()  # no clock: undo may be asked

    play_turn(host, guest)
    guest.page.goto("about:blank")  # the guest leaves during their turn
    panel = host.page.locator("#abandon-panel")
    expect(panel).to_be_visible()
    expect(host.page.locator("#abandon-text")).to_contain_text(host.t("abandon.away"))
    expect(host.page.locator("#abandon-buttons")).to_be_hidden()
    expect(host.page.locator("#abandon-buttons")).to_be_visible(timeout=15_000)
    check_screen(host.page, acting=(panel,), audit=False)
    host.press(host.page.locator("#abandon-draw"))
    expect(host.page.locator("#end-panel")).to_be_visible()
    expect(host.page.locator("#end-reason")).to_have_text(host.t("end.abandonment.draw"))
    expect(panel).to_be_hidden()
    assert host.view()["outcome"]["reason"] == "abandonment"


def test_a_player_who_comes_back_in_time_carries_on_and_one_who_does_not_loses(
        lobby_server: Server, person: Person) -> None:
    """A game of 1 minute + 2 s: the wait before a claim is a tenth of its estimated
    length for one side (8 s, more than the 2 s least of this server).  The guest
    leaves during their turn and comes back before it is over: the game carries on.
    They leave again and stay away: the host claims the win, and the guest, back,
    reads that they lost it."""
    url = lobby_server.url
    host = person(url, "phone", "en")
    guest = person(url, "phone", "de")
    host.open("/#/new")
    host.choose("mode", "online")
    host.page.locator("#setup-clock").select_option("1+2")
    host.press(host.page.locator("#start-button"))
    expect(host.page.locator("#invite-panel")).to_be_visible()
    guest.page.goto(host.page.locator("#invite-url").input_value())
    guest.press(guest.page.locator("#join-button"))
    game = in_game(guest)
    play_turn(host, guest)  # the host hands over the first piece
    play_turn(guest, host)
    play_turn(guest, host)
    play_turn(host, guest)
    play_turn(host, guest)  # now the guest is to move, past their first turn's grace
    assert guest.view()["abandon_after"] == 8

    panel = host.page.locator("#abandon-panel")
    guest.page.goto("about:blank")
    expect(panel).to_be_visible()
    expect(host.page.locator("#abandon-text")).to_contain_text(
        re.compile(r"\b[5-8] s\b"))
    guest.open(f"/#/game/{game}")  # back within the wait
    in_game(guest)
    expect(panel).to_be_hidden()
    refused = host.page.request.post(f"{url}/api/games/{game}/abandoned", data={
        "revision": host.view()["revision"]}, headers={"Origin": url})
    assert refused.status == 409
    assert refused.json()["error"]["code"] == "not_abandoned"
    for actor, other, cell in ((guest, host, "C3"), (host, guest, "A4")):
        # Cells of no shared line or square with A1 and B1: the game goes on.
        actor.press(actor.cell(cell))
        expect(other.cell(cell)).to_have_attribute("data-piece", re.compile("^[0-9A-F]$"))
        play_turn(actor, other)

    guest.page.goto("about:blank")  # and away for good
    expect(panel).to_be_visible()
    expect(host.page.locator("#abandon-buttons")).to_be_hidden()
    expect(host.page.locator("#abandon-buttons")).to_be_visible(timeout=15_000)
    check_screen(host.page, acting=(panel,), audit=False)
    host.press(host.page.locator("#abandon-win"))
    expect(host.page.locator("#end-title")).to_have_text(host.t("end.you_won"))
    guest.open(f"/#/game/{game}")
    expect(guest.page.locator("#end-reason")).to_have_text(guest.t("end.abandonment.you"))


def test_a_correspondence_invitation_in_the_list_of_games(lobby_server: Server,
                                                          person: Person) -> None:
    """An invitation with a clock of one day per move: the game shows days left, offers
    no undo, and the list of games says the clock, whose move and the time left."""
    url = lobby_server.url
    host = person(url, "phone", "de")
    guest = person(url, "phone", "en")
    host.open("/#/new")
    host.use_language("de")
    host.choose("mode", "online")
    host.page.locator("#setup-clock").select_option("1d")
    host.press(host.page.locator("#start-button"))
    expect(host.page.locator("#invite-panel")).to_be_visible()
    assert host.view()["clock"]["control"] == {"days": 1}
    invite = host.page.locator("#invite-url").input_value()
    guest.page.goto(invite)
    guest.press(guest.page.locator("#join-button"))
    in_game(guest)
    expect(clock(guest, "first").locator(".clock-time")).to_have_text(
        re.compile(r"^(23 h 59 min|1 d 0 h)$"))
    expect(host.button("undo-button")).to_be_hidden()
    expect(guest.button("undo-button")).to_be_hidden()

    guest.open("/#/new")
    item = guest.page.locator("#resume-list li", has_text=guest.t("clock.days.one"))
    expect(item).to_have_count(1)
    expect(item).to_contain_text(re.compile(
        re.escape(guest.t("resume.clock.they", time="@")).replace("@", r"(23 h \d+ min|1 d 0 h)")))
    host.open("/#/new")
    mine = host.page.locator("#resume-list li", has_text=host.t("clock.days.one"))
    left = r"(23 Std\. \d+ Min\.|1 T\. 0 Std\.)"
    expect(mine).to_contain_text(re.compile(
        re.escape(host.t("resume.clock.you", time="@")).replace("@", left)))
    check_screen(host.page, audit=False)
