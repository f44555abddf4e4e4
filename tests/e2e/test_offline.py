"""The installed app without a network: the server stopped, or the browser offline.

Games against the computer and between two people on one device are played by the
page's own rules and engine, kept on the device through reloads, and sent to the
server once it answers again; a game the server keeps says that it waits for it; the
daily puzzle of today and of the coming days is solved without the server and counts
once it is back.
"""

from __future__ import annotations

import datetime
import json
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from e2e.quads_page import PHONE, QuadsPage, wait_until, watch_errors
from e2e.quads_server import Server
from quads.puzzles import puzzle_for
from quads.record import read_record

DEVICE_ADDRESS = re.compile(r"#/device/([0-9a-f-]{36})$")

KEPT = """async (path) => {
    for (const name of await caches.keys()) {
        if (await (await caches.open(name)).match(path)) return true;
    }
    return false;
}"""


def eventually(check: Callable[[], Any], seconds: float = 30) -> Any:
    """Wait until ``check()`` answers something true; that answer."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"not so after {seconds} s"
        time.sleep(0.2)


@contextmanager
def app_page(browser: Browser, server: Server, *, phone: bool = False,
             lang: str = "en-GB") -> Iterator[QuadsPage]:
    """A tab of the page installed for offline use: its service worker controls it and
    keeps every file the page needs without the server (the engine and its books too)."""
    options: dict[str, Any] = dict(PHONE) if phone else {"viewport": {"width": 1280, "height": 800}}
    context = browser.new_context(base_url=server.url, locale=lang, service_workers="allow",
                                  **options)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    quads = QuadsPage(page, "phone" if phone else "desktop", server.url)
    quads.lang = lang[:2]
    try:
        quads.open("/#/new")
        wait_until(page, "navigator.serviceWorker.controller !== null", timeout=30)
        for path in ("/engine/quads.wasm", "/engine/books/lines.bin", "/js/engine/worker.js"):
            eventually(lambda path=path: page.evaluate(KEPT, path))
        yield quads
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def device_id(quads: QuadsPage) -> str:
    match = DEVICE_ADDRESS.search(quads.page.url)
    assert match, f"no game on the device in the address {quads.page.url}"
    return match.group(1)


def server_games(quads: QuadsPage, status: str = "") -> list[dict[str, Any]]:
    """The games the server keeps for this page's player (none before it has one)."""
    code, body = quads.api_status("GET", f"/api/games?status={status}" if status else "/api/games")
    assert code == 200, body
    games: list[dict[str, Any]] = body["games"]
    return games


def start_on_device(quads: QuadsPage, *, mode: str, rules: str, level: int = 1,
                    human: str = "first") -> str:
    """Start a game from the new-game screen without the server: it starts at once, on
    the device; its id."""
    expect(quads.page.locator("#setup-view")).to_be_visible()
    quads.choose("mode", mode)
    quads.choose("rules", rules)
    if mode == "computer":
        quads.choose("level", str(level))
        quads.choose("human", human)
    quads.press(quads.page.locator("#start-button"))
    expect(quads.page.locator("#game-view")).to_be_visible()
    quads.wait_until_idle()
    return device_id(quads)


@pytest.mark.parametrize(("phone", "lang"), [(False, "en-GB"), (True, "de-DE")],
                         ids=["desktop", "phone-de"])
def test_a_game_against_the_computer_without_the_server(browser: Browser, own_server: Server,
                                                        phone: bool, lang: str) -> None:
    with app_page(browser, own_server, phone=phone, lang=lang) as quads:
        page = quads.page
        own_server.kill()
        quads.open("/#/new")  # the installed app opens from its copy
        game = start_on_device(quads, mode="computer", rules="classic", level=5)
        assert quads.prompt()
        # A few turns, then the app is closed and opened again: the game is where it was.
        for _ in range(3):
            free = page.locator("#board button.playable")
            if free.count():
                quads.place(free.first.get_attribute("data-key") or "")
            else:
                piece = page.locator("#supply button.playable").first
                quads.give(piece.get_attribute("data-key") or "")
        board = quads.board()
        assert sum(piece is not None for piece in board) >= 2
        # The engine on the device gives hints and every turn's value, as the server does.
        quads.press(quads.button("hint-button"))
        expect(page.locator("#hint-box")).not_to_have_text(quads.t("hint.thinking"))
        expect(page.locator("#hint-box")).to_be_visible()
        page.locator("#analyse-toggle").check()
        expect(page.locator("#analysis-value")).not_to_have_text(quads.t("analysis.thinking"))
        expect(page.locator("#analysis-value")).not_to_have_text(quads.t("analysis.failed"))
        expect(page.locator("#board .value-mark, #supply .value-mark").first).to_be_visible()
        page.locator("#analyse-toggle").uncheck()
        page.reload()
        expect(page.locator("body[data-ready=true]")).to_be_attached()
        quads.wait_until_idle()
        assert device_id(quads) == game
        assert quads.board() == board
        # Opening the app at its start brings the game back too.
        quads.open("/")
        quads.wait_until_idle()
        assert device_id(quads) == game
        quads.play_to_end()
        assert page.locator("#end-title").inner_text()
        # The server is back: the game goes to the player's games by itself, once.
        own_server.start()
        uploaded = eventually(lambda: [g for g in server_games(quads) if g["device"] == game],
                              seconds=60)
        assert len(uploaded) == 1
        assert uploaded[0]["status"] == "over"
        assert uploaded[0]["mode"] == "computer"
        assert uploaded[0]["level"] == 5


def play_puzzle(quads: QuadsPage, date: datetime.date) -> None:
    """Play the known solution of the puzzle of ``date`` through the page."""
    page = quads.page
    puzzle = puzzle_for(date)
    tokens = [turn.text for turn in puzzle.solution]
    for index in range(0, puzzle.plies, 2):
        token = tokens[index]
        quads.press(page.locator(f'#puzzle-board button[data-key="{token[:2]}"]'))
        if len(token) == 3:
            quads.press(page.locator(f'#puzzle-supply button.playable[data-key="{token[2]}"]'))
        if index < puzzle.plies - 1:
            expect(page.locator("#puzzle-last")).to_contain_text(tokens[index + 1][:2])


def test_the_daily_puzzle_without_the_server(browser: Browser, own_server: Server) -> None:
    today = datetime.date.today()
    with app_page(browser, own_server, phone=True, lang="de-DE") as quads:
        page = quads.page
        # Online, the app keeps today's puzzle and the coming fortnight's.
        kept = "() => Object.keys(JSON.parse(localStorage.getItem('quads.puzzles') || '{}'))"
        dates = eventually(lambda: len(page.evaluate(kept)) >= 15 and page.evaluate(kept),
                           seconds=120)
        assert (today + datetime.timedelta(days=14)).isoformat() in dates
        quads.open("/#/puzzle")
        expect(page.locator("#archive-streak")).to_have_text(quads.t("puzzle.streak.none"))
        own_server.kill()

        # A coming day's puzzle opens without the server once that day has come.
        coming = today + datetime.timedelta(days=3)
        page.clock.set_system_time(datetime.datetime.combine(coming, datetime.time(9)))
        quads.open("/#/puzzle")
        expect(page.locator("#puzzle-goal")).to_have_text(
            quads.t("puzzle.goal", moves=puzzle_for(coming).moves))
        page.clock.set_system_time(datetime.datetime.combine(today, datetime.time(9)))

        # Today's puzzle solved without the server counts in the streak at once ...
        quads.open("/#/puzzle")
        play_puzzle(quads, today)
        expect(page.locator("#puzzle-solved")).to_be_visible()
        expect(page.locator("#solved-streak")).to_have_text(quads.t("puzzle.streak.one", count=1))
        quads.check_screen()
        # ... and on the server once it answers again: it replayed the line played.
        own_server.start()
        history = eventually(lambda: (h := quads.api("/api/puzzles/history"))["streak"] and h,
                             seconds=60)
        assert history["streak"] == 1
        assert history["days"][0] == {**history["days"][0], "date": today.isoformat(),
                                      "solved": True}
        assert [r["solved"] for r in history["results"]] == [True]


def test_two_people_on_one_device_offline(browser: Browser, own_server: Server,
                                          tmp_path: Path) -> None:
    """The browser offline (Playwright's offline mode): two people play classic Quarto
    with its calls, undo and redo; the record is saved and opened again."""
    with app_page(browser, own_server) as quads:
        page = quads.page
        page.context.set_offline(True)
        quads.open("/#/new")
        expect(page.locator("#offline")).not_to_be_empty()
        start_on_device(quads, mode="local", rules="classic")
        declare, claim = quads.button("declare-button"), quads.button("claim-button")
        message = page.locator("#game-message")
        quads.give("8")
        quads.place("A1")
        # A false call is refused by the page's rules as the server refuses it.
        expect(declare).to_be_visible()
        quads.press(declare)
        expect(message).to_have_text(quads.t("error.illegal_action.declare"))
        quads.give("9")
        quads.place("B1")
        quads.give("A")
        # Undo takes back the whole turn, redo plays it again.
        quads.press(quads.button("undo-button"))
        quads.wait_until_idle()
        assert quads.board()[1] is None
        quads.press(quads.button("redo-button"))
        quads.wait_until_idle()
        assert quads.board()[1] == "9"
        quads.place("C1")
        quads.give("B")
        quads.place("D1")  # row 1: all tall, all light; handed over without the call
        expect(page.locator("#prompt-extra")).to_have_text(quads.t("prompt.give.declare"))
        quads.give("C")
        quads.press(claim)
        expect(page.locator("#end-panel")).to_be_visible()
        expect(page.locator("#end-title")).to_have_text(
            quads.t("end.player_wins", player=quads.t("player.second")))
        # The record, saved and opened again, without the server.
        with page.expect_download() as download:
            quads.press(page.locator("#export-link"))
        record = tmp_path / "game.qds"
        download.value.save_as(record)
        text = record.read_text()
        assert '[Mode "local"]' in text
        assert "0-1" in text
        game = read_record(text)
        assert game.outcome is not None
        quads.open("/#/new")
        page.locator("#import-file").set_input_files(str(record))
        expect(page.locator("#game-view")).to_be_visible()
        expect(page.locator("#end-panel")).to_be_visible()
        assert quads.board()[:4] == ["8", "9", "A", "B"]
        # The review of the game, judged by the page's engine.
        quads.press(quads.button("review-open"))
        expect(page.locator("#review-list li")).not_to_have_count(0)
        # A record that cannot be read is refused by the page's rules with the library's
        # reason and params, so its words are those of the server's refusal.
        quads.open("/#/new")
        quads.choose("mode", "local")
        page.set_input_files("#import-file", files=[{
            "name": "broken.qds", "mimeType": "text/plain", "buffer": b"1. 7 1. A1C *\n"}])
        expect(page.locator("#import-error")).to_have_text(
            quads.t("error.invalid_record.turn_number", token="1.", number=1))
        page.context.set_offline(False)


def test_a_game_the_server_keeps_waits_for_it(browser: Browser, own_server: Server) -> None:
    """A game kept by the server says, without it, that it waits for it, offers what
    works meanwhile, and opens by itself once the server is back; a move pressed
    meanwhile on a screen left since is never sent."""
    with app_page(browser, own_server) as quads:
        page = quads.page
        game = quads.start_game(mode="computer", rules="quads", level=1)
        quads.give(page.locator("#supply button.playable").first.get_attribute("data-key") or "")
        ply = quads.view()["ply"]
        own_server.kill()
        # A move pressed now waits for the server; the person leaves for a game offline.
        free = page.locator("#board button.playable").first
        if free.count():
            quads.press(free)
        else:
            quads.press(page.locator("#supply button.playable").first)
        quads.open("/#/new")
        start_on_device(quads, mode="local", rules="quads")
        # The server's game, opened again, waits for the server.
        page.goto(f"/#/game/{game}")
        expect(page.locator("#game-away")).to_be_visible()
        expect(page.locator("#game-away-title")).to_have_text(quads.t("away.waiting.title"))
        expect(page.locator("#game-view")).to_be_hidden()
        quads.check_screen(page.locator("#game-away a.button"))
        own_server.start()
        expect(page.locator("#game-view")).to_be_visible(timeout=30_000)
        expect(page.locator("#game-away")).to_be_hidden()
        quads.wait_until_idle()
        # The move pressed on the screen left was never sent.
        assert quads.view()["ply"] == ply


def test_joining_says_at_once_that_it_needs_the_server(browser: Browser,
                                                      own_server: Server) -> None:
    with app_page(browser, own_server) as quads:
        page = quads.page
        # Another person's invitation (made by a program of its own, with its own cookie).
        request = urllib.request.Request(
            f"{own_server.url}/api/games", data=json.dumps({"mode": "online"}).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            token = json.loads(answer.read())["invite"].rsplit("/", 1)[1]
        page.context.set_offline(True)
        page.goto(f"/#/join/{token}")
        expect(page.locator("#join-error")).to_have_text(quads.t("join.offline"))
        quads.check_screen(page.locator("#join-view a.button"))
        # On the new-game screen, online play says so too, before anything is pressed.
        quads.open("/#/new")
        quads.choose("mode", "online")
        expect(page.locator("#online-offline")).to_be_visible()
        quads.press(page.locator("#start-button"))
        expect(page.locator("#setup-error")).to_have_text(quads.t("error.needs_server"))
        # Back online, the invitation opens by itself.
        page.goto(f"/#/join/{token}")
        page.context.set_offline(False)
        expect(page.locator("#join-button")).to_be_visible(timeout=30_000)
