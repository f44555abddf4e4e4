"""A bot against a person: examples/bot.py offers a game in the lobby, a person on a
phone sees the offer marked as a bot's, accepts it and plays it to the end in the
page, the bot answering every turn through the API; the bot is marked in the seats.
And a person offers the free seat of their online game to the bot from the page."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from e2e.layout import check_screen
from e2e.quads_page import Person
from e2e.quads_server import Server, free_port
from e2e.test_lobby import in_game, open_lobby, seeks
from e2e.test_online import create_online
from helpers import example_bot


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "games.sqlite3", free_port(), tmp_path / "server.log",
                    settings="seek_linger = 2.0\nclock_tick = 0.1\n")
    server.start()
    yield server
    server.kill()


def test_a_person_plays_a_bot_from_the_lobby(bot_server: Server, person: Person) -> None:
    with example_bot(bot_server.url, "--level", "1", "--games", "1", "--rules", "classic",
                     "--clock", "600+5") as (program, _hello):
        quads = person(bot_server.url, "phone", "en")
        open_lobby(quads)
        offer = seeks(quads)
        expect(offer).to_have_count(1)
        expect(offer.locator(".badge-bot")).to_have_text(quads.t("player.bot"))
        quads.press(offer.locator("button"))
        in_game(quads)
        page = quads.page
        expect(page.locator("#seats .badge-bot")).to_have_count(1)
        check_screen(page)  # the badge breaks no layout, and passes the audit
        playable = page.locator("#board button.playable, #supply button.playable")
        ended = page.locator("#end-panel")
        deadline = time.monotonic() + 120
        while not ended.is_visible():
            assert time.monotonic() < deadline
            # our turn, or the end: the bot answers through the API meanwhile
            expect(page.locator("#board button.playable, #supply button.playable, "
                                "#end-panel:not([hidden])").first).to_be_visible(timeout=30_000)
            if ended.is_visible():
                break
            quads.press(playable.first)
            expect(page.locator("#game-view")).to_have_attribute("aria-busy", "false")
        expect(page.locator("#end-title")).to_have_text(re.compile(r"\S"))
        assert quads.view()["outcome"] is not None
        assert program.wait(timeout=30) == 0  # the bot saw the game end


def test_a_person_offers_the_seat_of_a_game_to_a_bot(bot_server: Server, person: Person) -> None:
    with example_bot(bot_server.url, "--level", "1", "--games", "1") as (_program, _hello):
        quads = person(bot_server.url, "phone", "de")
        create_online(quads, "quads", "first")
        page = quads.page
        bots = page.locator("#invite-bots-list li")
        # the panel asks for the bots when it opens; the bot's stream may open just after
        deadline = time.monotonic() + 30
        while not bots.count():
            assert time.monotonic() < deadline
            page.reload()
            expect(page.locator("#invite-panel")).to_be_visible()
            page.wait_for_timeout(500)
        expect(bots).to_have_count(1)
        expect(bots.locator(".badge-bot")).to_have_text(quads.t("player.bot"))
        check_screen(page)
        quads.press(bots.locator("button"))
        # the bot takes the seat at once: the game starts, the bot marked in the seats
        expect(page.locator("#invite-panel")).to_be_hidden(timeout=20_000)
        expect(page.locator("#seats .badge-bot")).to_have_count(1)
        assert quads.view()["names"]["second_bot"] is True
