"""Online play between two devices: two browser contexts of one Chromium, each a
person with their own cookie (a phone in German and a desktop in English), and
a third one watching.

Every move made on one page must show up on the other without a reload: the
pages follow the game over its live WebSocket and never poll.  The classic game
is played twice (``origins``): on one SQLite server, and with each person's
browser on a server process of its own, the two sharing a PostgreSQL database.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from playwright.sync_api import Request, WebSocketRoute, expect

from e2e.layout import check_screen
from e2e.quads_page import Person, QuadsPage
from e2e.quads_server import Origins, Server

HEX = re.compile("^[0-9A-F]$")


# ---- helpers ------------------------------------------------------------------


PLAYABLE = re.compile(r"\bplayable\b")
"""The class of a cell or a piece the page lets the person press now."""


def settled(quads: QuadsPage) -> None:
    """No request of this page is on its way."""
    expect(quads.page.locator("#game-view")).to_have_attribute("aria-busy", "false")


def place(actor: QuadsPage, cell: str, *others: QuadsPage) -> None:
    """``actor`` places the piece in hand on ``cell``, once the page offers it (as a
    person waits for it to be offered); the others see it arrive."""
    expect(actor.cell(cell)).to_have_class(PLAYABLE)
    actor.press(actor.cell(cell))
    expect(actor.cell(cell)).to_have_attribute("data-piece", HEX)
    settled(actor)
    piece = actor.cell(cell).get_attribute("data-piece")
    for other in others:
        expect(other.cell(cell)).to_have_attribute("data-piece", piece or "")


def give(actor: QuadsPage, piece: str, *others: QuadsPage) -> None:
    """``actor`` hands ``piece`` over, once the page offers it; the others see it in
    hand."""
    expect(actor.supply_piece(piece)).to_have_class(PLAYABLE)
    actor.press(actor.supply_piece(piece))
    expect(actor.supply_piece(piece)).to_have_count(0)
    settled(actor)
    for other in others:
        expect(other.page.locator("#hand svg")).to_have_class(re.compile(rf"\bpiece-{piece}\b"))
        expect(other.supply_piece(piece)).to_have_count(0)


def read_only(quads: QuadsPage) -> None:
    """Nothing on the board or in the supply can be pressed, no call can be made."""
    expect(quads.page.locator("#board .playable, #supply .playable")).to_have_count(0)
    for button in ("declare-button", "claim-button", "decline-button"):
        expect(quads.button(button)).to_be_hidden()


def create_online(quads: QuadsPage, rules: str, host: str, clock: str = "none") -> str:
    """Create an online game on the new-game screen, with ``clock`` (a choice of its
    list: "none", "10+5", "1d"); return the invitation's address."""
    quads.open("/#/new")
    quads.choose("mode", "online")
    expect(quads.page.locator("#host-field")).to_be_visible()
    expect(quads.page.locator("#level-field")).to_be_hidden()
    quads.choose("rules", rules)
    quads.choose("host", host)
    quads.page.locator("#setup-clock").select_option(clock)
    expect(quads.page.locator("#start-button")).to_have_text(quads.t("setup.start.online"))
    quads.press(quads.page.locator("#start-button"))
    expect(quads.page.locator("#invite-panel")).to_be_visible()
    settled(quads)
    invite = quads.page.locator("#invite-url").input_value()
    assert invite == quads.base_url + quads.view()["invite"]
    return invite


def join(quads: QuadsPage, invite: str, side: str) -> None:
    """Open the invitation and join (the seat of ``side``)."""
    quads.page.goto(invite)
    expect(quads.page.locator("body[data-ready=true]")).to_be_attached()
    expect(quads.page.locator("#join-view")).to_be_visible()
    expect(quads.page.locator("#join-side")).to_have_text(quads.t(f"join.side.{side}"))
    quads.press(quads.page.locator("#join-button"))
    expect(quads.page.locator("#game-view")).to_be_visible()
    expect(quads.page).to_have_url(re.compile(r"#/game/[\w-]+$"))
    settled(quads)


def at(base_url: str, address: str) -> str:
    """``address`` on the server of ``base_url``: its own path, query and fragment."""
    scheme, netloc, *_ = urlsplit(base_url)
    return urlunsplit((scheme, netloc, *urlsplit(address)[2:]))


def seat(quads: QuadsPage, presence: str) -> Any:
    return quads.page.locator(f'#seats li[data-presence="{presence}"]')


def no_game_fetches(quads: QuadsPage, game: str) -> list[str]:
    """Record the page's GETs of the game's view from now on (there should be none)."""
    seen: list[str] = []

    def note(request: Request) -> None:
        if request.method == "GET" and re.search(rf"/api/games/{re.escape(game)}$", request.url):
            seen.append(request.url)

    quads.page.on("request", note)
    return seen


def live_open(*people: QuadsPage) -> None:
    """Wait until each page's live socket is open and has shown the game: from then
    on its actions go on the socket (before, as requests)."""
    for quads in people:
        expect(quads.page.locator("#game-view")).to_have_attribute("data-live", "open")


def action_posts(quads: QuadsPage) -> list[str]:
    """Record the page's actions sent as requests from now on (with the live socket
    open, there should be none: they go on the socket)."""
    seen: list[str] = []

    def note(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/actions"):
            seen.append(request.url)

    quads.page.on("request", note)
    return seen


# ---- the tests ------------------------------------------------------------------


def test_a_classic_game_between_two_devices(origins: Origins, person: Person) -> None:
    alice = person(origins.host, "phone390", "de")  # hands over first
    bob = person(origins.guest, "desktop", "en")
    watcher = person(origins.guest, "phone", "en")  # 360x740

    alice.page.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                         origin=origins.host)
    invite = create_online(alice, "classic", "first")
    page_a = alice.page
    expect(page_a.locator("#prompt")).to_have_text(alice.t("prompt.waiting"))
    expect(seat(alice, "free")).to_have_text(re.compile(re.escape(alice.t("seats.free"))))
    read_only(alice)
    qr = page_a.locator("#invite-qr")
    expect(qr).to_have_attribute("alt", alice.t("invite.qr.alt"))
    page_a.wait_for_function("() => document.getElementById('invite-qr').naturalWidth > 0")
    share = page_a.locator("#invite-share")
    if page_a.evaluate("typeof navigator.share === 'function'"):
        expect(share).to_be_visible()
    else:
        expect(share).to_be_hidden()
    alice.press(page_a.locator("#invite-copy"))
    expect(page_a.locator("#notice")).to_have_text(alice.t("invite.copied"))
    assert page_a.evaluate("navigator.clipboard.readText()") == invite
    check_screen(alice.page)
    alice.screenshot("online-invite-390")

    # Bob opens the link on his own device (on his server, which may be another
    # process of the site): the rules and his side, then he joins.
    game = re.sub(r".*#/game/", "", page_a.url)
    page_a.evaluate("window.stillTheSamePage = true")
    fetches = no_game_fetches(alice, game)
    invite = at(origins.guest, invite)
    bob.page.goto(invite)
    expect(bob.page.locator("body[data-ready=true]")).to_be_attached()
    # Between two people online a false call loses the game: the join page says so.
    expect(bob.page.locator("#join-rules")).to_have_text(bob.t("game.rules", rules=bob.t(
        "rules.with_calls", rules=bob.t("rules.classic.name"),
        calls=bob.t("rules.calls.losing-calls"))))
    # And who invites (by the name Alice goes by, made up for her) and the clock.
    alice_name = alice.view()["names"]["first"]
    assert alice_name
    expect(bob.page.locator("#join-host")).to_have_text(bob.t("join.host", name=alice_name))
    expect(bob.page.locator("#join-clock")).to_have_text(bob.t("join.no_clock"))
    expect(bob.page.locator("#join-help")).to_have_text(bob.t("join.help.none"))
    check_screen(bob.page, acting=(bob.page.locator("#join-button"),))
    bob.screenshot("online-join")
    join(bob, invite, "second")
    page_b = bob.page
    expect(page_b.locator("#prompt")).to_have_text(bob.t("prompt.wait.give"))
    expect(page_b.locator("#invite-panel")).to_be_hidden()
    read_only(bob)

    # Alice's page learns of it at once: the invitation goes, the opponent is there.
    expect(page_a.locator("#invite-panel")).to_be_hidden()
    expect(page_a.locator("#prompt")).to_have_text(alice.t("prompt.give.first.online"))
    expect(seat(alice, "on")).to_have_count(2)
    # No hints online: the engine would help one side without the other knowing; no
    # safe pieces either, as the game was made: the page says so to both.
    for someone in (alice, bob):
        expect(someone.button("hint-button")).to_be_hidden()
        expect(someone.page.locator("#safe-toggle")).to_be_hidden()
        expect(someone.page.locator("#fair-play")).to_have_text(someone.t("fair.none"))
    bob_name = bob.view()["names"]["second"]
    assert bob_name
    assert bob_name != alice_name
    expect(page_a.locator("#seats")).to_contain_text(alice.t("seats.opponent", side=bob_name))
    expect(seat(bob, "on")).to_have_count(2)
    expect(page_b.locator("#seats")).to_contain_text(bob.t("seats.you", side=bob_name))

    # A third person with the invitation finds the game full and may watch it.
    watcher.page.goto(invite)
    expect(watcher.page.locator("#join-error")).to_have_text(watcher.t("join.full"))
    expect(watcher.page.locator("#join-button")).to_be_hidden()
    check_screen(watcher.page, acting=(watcher.page.locator("#join-watch"),))
    watcher.press(watcher.page.locator("#join-watch"))
    expect(watcher.page.locator("#game-view")).to_be_visible()
    expect(watcher.page.locator("#seats")).to_contain_text(watcher.t("seats.spectating"))
    read_only(watcher)
    expect(watcher.button("resign-button")).to_be_hidden()
    expect(watcher.button("undo-button")).to_be_hidden()
    # The spectator reads the players by the names they go by, never "Player 1".
    names = watcher.view()["names"]
    assert names["first"]
    assert names["second"]
    assert names["first"] != names["second"]
    expect(watcher.page.locator("#prompt")).to_have_text(watcher.t(
        "prompt.watch.give", player=names["first"], other=names["second"]))
    expect(watcher.page.locator("#seats")).to_contain_text(names["first"])
    # Bob, whose server process the watcher's is, sees that somebody watches (the
    # count is each process's own).
    expect(page_b.locator("#game-watchers")).to_contain_text(bob.t("game.watchers.one"))
    if origins.host == origins.guest:
        expect(page_a.locator("#game-watchers")).to_contain_text(alice.t("game.watchers.one"))
    check_screen(watcher.page)
    watcher.screenshot("online-spectator")

    # The game, each move on its player's device, seen live on the other two.
    live_open(alice, bob)
    posts = (action_posts(alice), action_posts(bob))
    give(alice, "8", bob, watcher)
    expect(page_b.locator("#prompt")).to_have_text(bob.t("prompt.place.you"))
    read_only(alice)
    expect(page_a.locator("#prompt")).to_have_text(alice.t("prompt.wait.place"))
    expect(page_b.locator("#claim-button")).to_be_hidden()  # nothing placed yet
    place(bob, "A1", alice, watcher)
    # Screen readers hear the move on the other devices too (and on one's own).
    expect(page_a.locator("#announce")).to_have_text(alice.t(
        "last.player.place", player=alice.t("player.opponent"), piece=alice.piece_label("8"),
        cell="A1"))
    expect(watcher.page.locator("#announce")).to_have_text(watcher.t(
        "last.player.place", player=names["second"],
        piece=watcher.piece_label("8"), cell="A1"))
    expect(page_b.locator("#announce")).to_have_text(bob.t(
        "last.you.place", piece=bob.piece_label("8"), cell="A1"))
    expect(page_b.locator("#declare-button")).to_be_visible()
    give(bob, "9", alice, watcher)
    expect(page_a.locator("#last-move")).to_have_text(alice.t(
        "last.player.place_give", player=alice.t("player.opponent"), piece=alice.piece_label("8"),
        cell="A1", give=alice.piece_label("9")))
    place(alice, "B1", bob, watcher)
    give(alice, "A", bob, watcher)
    place(bob, "C1", alice, watcher)
    give(bob, "B", alice, watcher)

    # Alice completes row 1 (all tall, all light) and hands over without calling.
    place(alice, "D1", bob, watcher)
    expect(page_a.locator("#declare-button")).to_be_visible()
    give(alice, "C", bob, watcher)
    expect(page_b.locator("#prompt-extra")).to_have_text(bob.t("prompt.place.claim"))
    claim = page_b.locator("#claim-button")
    expect(claim).to_be_visible()
    bob.press(claim)
    # A false call would lose this game (online, classic): Bob is asked, and confirms.
    expect(page_b.locator("#confirm-question")).to_have_text(
        bob.t("call.confirm.claim.losing-calls"))
    bob.press(page_b.locator("#confirm-yes"))

    # Both players and the watcher see the end, each in their own words.
    row = {lang: q.t("shape.row", name="1") for lang, q in (("de", alice), ("en", bob))}
    expect(page_b.locator("#end-title")).to_have_text(bob.t("end.you_won"))
    expect(page_b.locator("#end-reason")).to_have_text(bob.t("end.claim.you", shapes=row["en"]))
    expect(page_a.locator("#end-title")).to_have_text(alice.t("end.you_lost"))
    expect(page_a.locator("#end-reason")).to_have_text(
        alice.t("end.claim.they", who=alice.t("player.opponent"), shapes=row["de"]))
    expect(watcher.page.locator("#end-title")).to_have_text(
        watcher.t("end.player_wins", player=names["second"]))
    winning = page_a.eval_on_selector_all("#board .winning",
                                          "cells => cells.map(c => c.dataset.key)")
    assert winning == ["A1", "B1", "C1", "D1"]
    expect(page_a.locator("#end-title")).to_be_in_viewport()
    check_screen(alice.page)
    alice.screenshot("online-lost-390")
    bob.screenshot("online-won")

    # Alice's page followed the whole game live: no reload, no polling.
    assert page_a.evaluate("window.stillTheSamePage === true")
    assert fetches == []
    assert posts == ([], [])  # every action went on the live socket
    outcome = bob.view()["outcome"]
    assert (outcome["winner"], outcome["reason"]) == ("second", "claim")

    # A wrong invitation is explained.
    watcher.open("/join/no-such-invitation")
    expect(watcher.page.locator("#join-error")).to_have_text(watcher.t("join.unknown"))
    expect(watcher.page.locator("#join-button")).to_be_hidden()


def test_play_again_undo_request_and_resignation(person: Person, server: Server) -> None:
    alice = person(server.url, "phone390", "de")
    bob = person(server.url, "desktop", "en")
    watcher = person(server.url, "phone", "en")
    invite = create_online(alice, "quads", "second")  # Bob will hand over first
    join(bob, invite, "first")
    page_a, page_b = alice.page, bob.page
    first = bob.game_id()

    # A quick first game: Bob completes row 1 with four short pieces and wins.
    give(bob, "0", alice)
    place(alice, "A1", bob)
    give(alice, "1", bob)
    place(bob, "B1", alice)
    give(bob, "2", alice)
    place(alice, "C1", bob)
    give(alice, "3", bob)
    place(bob, "D1", alice)
    expect(page_b.locator("#end-title")).to_have_text(bob.t("end.you_won"))
    expect(page_a.locator("#end-title")).to_have_text(alice.t("end.you_lost"))

    # "Play again" on Bob's device opens the next game there; Alice's page offers it.
    bob.press(page_b.locator("#play-again"))
    expect(page_b.locator("#end-panel")).to_be_hidden()
    expect(page_b).not_to_have_url(re.compile(re.escape(first)))
    second = bob.game_id()
    expect(page_a.locator("#rematch-offer")).to_have_text(alice.t("rematch.text"))
    expect(page_a.locator("#play-again")).to_be_hidden()
    # Before its first move, the new game is in both players' lists of unfinished games.
    for someone in (bob, alice):
        someone.open("/#/new")
        expect(someone.page.locator(f'#resume-list li[data-game="{second}"]')).to_be_visible()
    alice.open(f"/#/game/{first}")
    expect(page_a.locator("#rematch-offer")).to_have_text(alice.t("rematch.text"))
    # Back on the game that ended, Bob reads that he started the next one himself.
    bob.open(f"/#/game/{first}")
    expect(page_b.locator("#rematch-offer")).to_have_text(bob.t("rematch.text.you"))
    expect(page_b.locator("#rematch-open")).to_have_text(bob.t("rematch.open"))
    bob.press(page_b.locator("#rematch-open"))
    expect(page_b).to_have_url(re.compile(re.escape(second) + "$"))
    alice.press(page_a.locator("#rematch-open"))
    expect(page_a).to_have_url(re.compile(re.escape(second) + "$"))
    # The sides are swapped: now Alice hands over first.
    expect(page_a.locator("#prompt")).to_have_text(alice.t("prompt.give.first.online"))
    expect(page_b.locator("#prompt")).to_have_text(bob.t("prompt.wait.give"))

    # Someone else opens the game's own link: they watch, read-only.
    watcher.open(f"/#/game/{second}")
    expect(watcher.page.locator("#seats")).to_contain_text(watcher.t("seats.spectating"))
    read_only(watcher)
    names = watcher.view()["names"]  # the players, by the names they go by
    status, answer = watcher.api_status("POST", f"/api/games/{second}/resign", {"revision": 0})
    assert (status, answer["error"]["code"]) == (403, "not_your_game")

    give(alice, "5", bob, watcher)
    place(bob, "B2", alice, watcher)
    give(bob, "6", alice, watcher)
    place(alice, "C3", bob, watcher)
    give(alice, "7", bob, watcher)

    # Alice asks to take her turn back; Bob accepts on his device.
    undo_a = alice.button("undo-button")
    expect(undo_a).to_contain_text(alice.t("action.undo.ask"))
    alice.press(undo_a)
    expect(page_a.locator("#undo-text")).to_have_text(alice.t("undo.waiting"))
    expect(page_a.locator("#undo-accept")).to_be_hidden()
    expect(page_b.locator("#undo-text")).to_have_text(bob.t("undo.asked"))
    expect(page_b.locator("#undo-accept")).to_be_in_viewport()
    expect(watcher.page.locator("#undo-panel")).to_be_hidden()
    check_screen(bob.page, acting=(page_b.locator("#undo-accept"),))
    bob.screenshot("online-undo-request")
    bob.press(page_b.locator("#undo-accept"))
    expect(page_b.locator("#undo-panel")).to_be_hidden()
    expect(page_a.locator("#notice")).to_have_text(alice.t("undo.accepted"))
    for quads in (alice, bob, watcher):
        expect(quads.cell("C3")).not_to_have_attribute("data-piece", HEX)
        expect(quads.page.locator("#hand svg")).to_have_class(re.compile(r"\bpiece-6\b"))
    expect(page_a.locator("#prompt")).to_have_text(alice.t("prompt.place.you"))
    read_only(bob)

    # Alice plays on, then gives up, with a confirmation first.
    place(alice, "D4", bob, watcher)
    give(alice, "7", bob, watcher)
    resign = alice.button("resign-button")
    alice.press(resign)
    confirm = page_a.locator("#confirm-panel")
    expect(confirm).to_be_visible()
    expect(page_a.locator("#confirm-question")).to_have_text(
        alice.t("resign.confirm", winner=alice.t("player.opponent")))
    check_screen(alice.page)
    alice.press(page_a.locator("#confirm-no"))
    expect(confirm).to_be_hidden()
    assert bob.view()["outcome"] is None
    alice.press(resign)
    alice.press(page_a.locator("#confirm-yes"))

    expect(page_a.locator("#end-title")).to_have_text(alice.t("end.you_lost"))
    expect(page_a.locator("#end-reason")).to_have_text(alice.t("end.resignation.you"))
    expect(page_a.locator("#end-title")).to_be_in_viewport()
    expect(page_b.locator("#end-title")).to_have_text(bob.t("end.you_won"))
    expect(page_b.locator("#end-reason")).to_have_text(
        bob.t("end.resignation.they", who=bob.t("player.opponent")))
    expect(watcher.page.locator("#end-title")).to_have_text(
        watcher.t("end.player_wins", player=names["second"]))
    expect(watcher.page.locator("#end-reason")).to_have_text(
        watcher.t("end.resignation.they", who=names["first"]))
    expect(watcher.page.locator("#play-again")).to_be_hidden()
    assert bob.view()["resigned"] == "first"
    check_screen(alice.page)
    alice.screenshot("online-resigned-390")

    # The spectator reviews the finished game: each turn a sentence about its player.
    spectator = watcher.page
    watcher.press(spectator.locator("#review-open"))
    expect(spectator.locator("#review-panel")).to_have_attribute("aria-busy", "false",
                                                                 timeout=60_000)
    turns = spectator.locator("#review-list li button.review-turn")
    expect(turns).to_have_count(3)
    one, two = names["first"], names["second"]
    expect(turns.nth(0)).to_contain_text(watcher.t(
        "review.turn.player.give", number=1, player=one, piece=watcher.piece_label("5")))
    expect(turns.nth(1)).to_contain_text(watcher.t(
        "review.turn.player.place_give", number=2, player=two, cell="B2",
        piece=watcher.piece_label("6")))
    expect(spectator.locator("#review-board .mini-board")).to_be_visible()
    check_screen(spectator, acting=(turns.nth(0),))

    # Bob (player 2 of this game) plays again: the spectator reads who started the
    # next game and may watch it.
    bob.press(page_b.locator("#play-again"))
    third = re.compile(r"#/game/(?!" + re.escape(second) + r"$)[\w-]+$")
    expect(page_b).to_have_url(third)
    expect(spectator.locator("#rematch-offer")).to_have_text(
        watcher.t("rematch.watch.by", player=two))
    expect(spectator.locator("#rematch-open")).to_have_text(watcher.t("rematch.watch"))
    watcher.press(spectator.locator("#rematch-open"))
    expect(spectator).to_have_url(re.compile(re.escape(bob.game_id()) + "$"))
    expect(spectator.locator("#seats")).to_contain_text(watcher.t("seats.spectating"))
    read_only(watcher)


def test_both_pages_come_back_after_the_server_restarts(person: Person,
                                                        own_server: Server) -> None:
    alice = person(own_server.url, "desktop", "en")
    bob = person(own_server.url, "phone390", "de")
    invite = create_online(alice, "quads", "first")
    join(bob, invite, "second")
    give(alice, "0", bob)
    place(bob, "A1", alice)
    give(bob, "1", alice)
    expect(seat(alice, "on")).to_have_count(2)

    own_server.kill()
    for quads in (alice, bob):
        expect(seat(quads, "lost")).to_have_count(1)
        expect(seat(quads, "lost")).to_contain_text(quads.t("seats.lost"))
    own_server.start()

    # Both pages connect again by themselves (the next try comes within the live
    # socket's longest pause, 8 s), and moves flow live once more.
    for quads in (alice, bob):
        expect(seat(quads, "lost")).to_have_count(0, timeout=20_000)
        expect(seat(quads, "on")).to_have_count(2)
    place(alice, "B1", bob)
    give(alice, "2", bob)
    place(bob, "C1", alice)
    give(bob, "3", alice)
    place(alice, "D1", bob)
    expect(alice.page.locator("#end-title")).to_have_text(alice.t("end.you_won"))
    expect(bob.page.locator("#end-title")).to_have_text(bob.t("end.you_lost"))
    expect(bob.page.locator("#end-reason")).to_have_text(
        bob.t("end.win.they", who=bob.t("player.opponent"), shapes=bob.t("shape.row", name="1")))


def test_deleting_an_unfinished_game_from_the_list(person: Person, server: Server) -> None:
    quads = person(server.url, "desktop", "en")
    quads.open("/#/new")
    game = quads.api_post("/api/games", {"mode": "local"})
    quads.api_post(f"/api/games/{game['id']}/actions",
                   {"revision": game["revision"], "action": "give", "piece": "4"})
    quads.open("/#/new")
    item = quads.page.locator(f'#resume-list li[data-game="{game["id"]}"]')
    delete = item.get_by_role("button", name=re.compile("^" + quads.t("resume.delete") + ":"))
    quads.press(delete)
    expect(item).to_contain_text(quads.t("resume.delete.confirm"))
    quads.check_screen(item.get_by_role("button", name=quads.t("resume.delete.no")))
    quads.press(item.get_by_role("button", name=quads.t("resume.delete.no")))
    expect(item).not_to_contain_text(quads.t("resume.delete.confirm"))
    quads.press(delete)
    quads.press(item.get_by_role("button", name=re.compile("^" + quads.t("resume.delete.yes"))))
    expect(item).to_have_count(0)
    expect(quads.page.locator("#notice")).to_have_text(quads.t("resume.deleted"))
    status, _ = quads.api_status("GET", f"/api/games/{game['id']}")
    assert status == 404


def test_deleting_an_online_game_nobody_joined(person: Person, server: Server) -> None:
    quads = person(server.url, "phone", "en")
    invite = create_online(quads, "quads", "first")
    game = quads.game_id()
    expect(quads.button("resign-button")).to_be_hidden()  # nobody to resign to
    delete = quads.button("delete-button")
    quads.press(delete)
    expect(quads.page.locator("#confirm-question")).to_have_text(quads.t("delete.confirm"))
    expect(quads.page.locator("#confirm-panel")).to_be_in_viewport()
    quads.check_screen()
    quads.press(quads.page.locator("#confirm-no"))
    expect(quads.page.locator("#confirm-panel")).to_be_hidden()
    quads.press(delete)
    quads.press(quads.page.locator("#confirm-yes"))
    expect(quads.page.locator("#setup-view")).to_be_visible()
    expect(quads.page.locator("#notice")).to_have_text(quads.t("resume.deleted"))
    assert quads.api_status("GET", f"/api/games/{game}")[0] == 404
    token = invite.rsplit("/", 1)[1]
    assert quads.api_status("GET", f"/api/invites/{token}")[0] == 404


def test_an_action_the_socket_leaves_unanswered_goes_as_a_request(person: Person,
                                                                  server: Server) -> None:
    quads = person(server.url, "desktop", "en")
    swallowed: list[str] = []

    def route(page_socket: WebSocketRoute) -> None:
        to_server = page_socket.connect_to_server()

        def forward(message: str | bytes) -> None:
            if '"type": "act"' in str(message) or '"type":"act"' in str(message):
                swallowed.append(str(message))  # never answered
            else:
                to_server.send(message)

        page_socket.on_message(forward)

    quads.page.route_web_socket(re.compile(r"/api/games/[^/]+/live(\?[^/]*)?$"), route)
    quads.start_game(mode="local", rules="classic")
    live_open(quads)
    posts = action_posts(quads)
    # The socket's answer never comes: after a while (5 s), the action is a request.
    for target in (quads.supply_piece("7"), quads.cell("A1")):
        quads.press(target)
        expect(quads.page.locator("#game-view")).to_have_attribute("aria-busy", "true")
        expect(quads.page.locator("#game-view")).to_have_attribute("aria-busy", "false",
                                                                   timeout=15_000)
    assert quads.board()[0] == "7"
    assert len(swallowed) == len(posts) == 2
    assert quads.view()["ply"] == 2
