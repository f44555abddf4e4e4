"""Learning from the games played here, in Chromium.  One's mistakes as exercises:
an account plays a game on its phone in which it throws a win away (uploaded from the
device when it is over), the server finds the mistakes by itself, and the exercises'
screen shows the first one due on the board; a wrong answer is told with what was
right and brings it back soon, a right one sends it further out.  The same account on
a second device (another browser context, signed in there) sees the same queue and the
answers given on the first.  A game of two people played on a device without the
server: the page's engine finds its exercises there, an answer given offline is judged
by it and waits, and once the server can be reached the game and the answer are sent
and the server's exercise counts it.  And the explorer beside the analysis board: what
people played from a position.

The server is this module's own, the only one of the suite that looks for mistakes.
"""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Iterator
from functools import cache
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, expect

from e2e.layout import check_screen
from e2e.quads_page import Person, QuadsPage
from e2e.quads_server import Server, free_port
from e2e.screens import SCREENS, shown_at
from e2e.test_accounts import sign_in
from e2e.test_offline import app_page, eventually
from e2e.test_ratings import account
from quads import Game, Rules
from quads.mistakes import Exercise, exercise_key, exercises
from quads.outcome import Player
from quads.record import write_record
from quads.turn import Turn

QUADS = Rules.parse("quads")


# The server's solver may take as long as the tests' own (a busy machine must not make
# it give up on a position the tests' look reached, and so find fewer exercises).
@pytest.fixture(scope="module")
def mistakes_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("mistakes")
    server = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                    settings="mistakes_tick = 0.2\nmistakes_seconds = 60.0\n")
    server.start()
    yield server
    server.kill()


@cache
def _game_with_mistakes() -> tuple[Game, list[Exercise]]:
    """A game of random turns to its end in which the first player threw away at least
    a win and a draw, and those exercises."""
    for seed in range(200):
        chooser = random.Random(seed)
        game = Game(QUADS)
        while not game.is_over():
            game.play(chooser.choice(list(game.position.legal_turns(QUADS))))
        found = exercises(game, Player.FIRST, seconds=5)
        if len(found) >= 2:
            return game, found
    raise AssertionError("no game of random turns threw a win away")


def _upload(quads: QuadsPage, game: Game) -> str:
    """The game, played on the device against the computer, sent once it is over; its
    id on the server."""
    body = {"mode": "computer", "rules": "quads", "level": 2, "human": "first",
            "actions": [str(action) for action in game.actions], "redo": [],
            "created": "2026-12-01T09:00:00Z", "device_revision": 1}
    status, answer = quads.api_status("PUT", f"/api/games/device/{uuid.uuid4()}", body)
    assert status == 201, answer
    game_id: str = answer["id"]
    return game_id


def _first_due(quads: QuadsPage) -> dict[str, Any]:
    listed = quads.api("/api/mistakes?due=true")
    assert listed["exercises"], listed
    first: dict[str, Any] = listed["exercises"][0]
    return first


def _make(quads: QuadsPage, turn: str, kind: str) -> None:
    """Make ``turn`` on the exercise's board (a piece alone for a hand-over)."""
    page = quads.page
    if kind == "turn":
        quads.press(page.locator(f'#mistakes-board button[data-key="{turn[:2]}"]'))
    piece = turn[2:] if kind == "turn" else turn
    if piece:
        quads.press(page.locator(f'#mistakes-supply button[data-key="{piece}"]'))


def test_an_account_practises_its_mistakes_on_two_devices(mistakes_server: Server,
                                                          person: Person) -> None:
    game, found = _game_with_mistakes()
    phone = person(mistakes_server.url, "phone", "en")
    name = account(phone, "ex")
    page = phone.page
    _upload(phone, game)
    # the server looks at the game by itself: its exercises come
    eventually(lambda: _due(phone), seconds=60)

    phone.open("/#/puzzle")
    phone.press(page.locator("#puzzle-mistakes"))
    expect(page.locator("#mistakes-view")).to_be_visible()
    expect(page.locator("#mistakes-board")).to_be_visible()
    first = _first_due(phone)
    expected = next(e for e in found if e.position.to_string() == first["position"]
                    and e.kind == first["kind"])
    prompt = phone.t(f"mistakes.prompt.{first['kind']}.{first['keep']}")
    expect(page.locator("#mistakes-prompt")).to_have_text(prompt)
    expect(page.locator("#mistakes-info")).to_have_text(
        phone.t("mistakes.info", number=1, count=len(_due(phone))))
    phone.check_screen(page.locator("#mistakes-board") if first["kind"] == "turn"
                       else page.locator("#mistakes-supply"))

    # A wrong answer first: what was played in the game.
    _make(phone, first["played"], first["kind"])
    expect(page.locator("#mistakes-verdict-title")).to_have_text(phone.t("mistakes.wrong"))
    for keeping in expected.right:
        expect(page.locator("#mistakes-answers")).to_contain_text(keeping.text)
    phone.check_screen(page.locator("#mistakes-next"))
    wrong = next(e for e in phone.api("/api/mistakes")["exercises"] if e["id"] == first["id"])
    assert wrong["tries"] == 1

    # The other device, the same account: the same exercises, the answer given there.
    desktop = person(mistakes_server.url, "desktop", "de")
    desktop.open("/")
    sign_in(desktop, name)
    desktop.open("/#/mistakes")
    expect(desktop.page.locator("#mistakes-counts")).to_have_text(desktop.t(
        "mistakes.counts", **phone.api("/api/mistakes")["counts"]))
    listed = desktop.api("/api/mistakes")["exercises"]
    assert {e["id"]: e["tries"] for e in listed} == {
        e["id"]: e["tries"] for e in phone.api("/api/mistakes")["exercises"]}

    # Back on the phone, the next one due answered right.
    phone.press(page.locator("#mistakes-next"))
    upcoming = _due(phone)
    if upcoming:
        shown = upcoming[0]
        right = next(e for e in found if e.position.to_string() == shown["position"]
                     and e.kind == shown["kind"]).right[0].text
        expect(page.locator("#mistakes-prompt")).to_have_text(
            phone.t(f"mistakes.prompt.{shown['kind']}.{shown['keep']}"))
        _make(phone, right if shown["kind"] == "turn" else right[-1], shown["kind"])
        expect(page.locator("#mistakes-verdict-title")).to_have_text(phone.t("mistakes.right"))
        answered = next(e for e in phone.api("/api/mistakes")["exercises"]
                        if e["id"] == shown["id"])
        assert answered["due"] > wrong["due"]  # further out than the one answered wrong


def test_a_game_played_offline_leaves_its_exercises_on_the_device(
        browser: Browser, mistakes_server: Server, tmp_path: Any) -> None:
    game, found = _game_with_mistakes()
    both = exercises(game, None, seconds=5)
    game.headers["Mode"] = "local"
    record = tmp_path / "offline.qds"
    record.write_text(write_record(game))
    with app_page(browser, mistakes_server, phone=True, lang="de-DE") as quads:
        page = quads.page
        page.context.set_offline(True)
        quads.open("/#/new")
        page.locator("#import-file").set_input_files(str(record))
        expect(page.locator("#end-panel")).to_be_visible()
        quads.open("/#/mistakes")
        expect(page.locator("#mistakes-offline")).to_be_visible()
        expect(page.locator("#mistakes-progress")).to_be_hidden()
        expect(page.locator("#mistakes-board")).to_be_visible(timeout=60_000)
        # Both sides of a game of two people on one device, in the order played.
        first = both[0]
        expect(page.locator("#mistakes-info")).to_have_text(
            quads.t("mistakes.info", number=1, count=len(both)))
        expect(page.locator("#mistakes-prompt")).to_have_text(
            quads.t(f"mistakes.prompt.{first.kind}.{first.keep}"))
        quads.check_screen(page.locator("#mistakes-board") if first.kind == "turn"
                           else page.locator("#mistakes-supply"))
        right = first.right[0].text
        _make(quads, right if first.kind == "turn" else right[-1], first.kind)
        expect(page.locator("#mistakes-verdict-title")).to_have_text(quads.t("mistakes.right"))
        expect(page.locator("#mistakes-next-due")).to_have_text(quads.t("mistakes.back_offline"))
        quads.check_screen(page.locator("#mistakes-next"))
        # The answer waits on the device; the next one asked is another exercise.
        quads.press(page.locator("#mistakes-next"))
        expect(page.locator("#mistakes-info")).to_have_text(
            quads.t("mistakes.info", number=2, count=len(both) - 1))

        # Online again: the game goes up, the server finds the same exercises, and the
        # answer given offline counts there.
        page.context.set_offline(False)
        key = exercise_key(first.position, QUADS, first.kind)

        def counted() -> dict[str, Any] | None:
            listed = quads.api("/api/mistakes")["exercises"]
            return next((e for e in listed if e["tries"] == 1), None)

        answered = eventually(counted, seconds=90)
        assert (answered["position"], answered["kind"]) == (first.position.to_string(),
                                                            first.kind)
        listed = quads.api("/api/mistakes")["exercises"]
        assert sorted((e["position"], e["kind"]) for e in listed) == sorted(
            (e.position.to_string(), e.kind) for e in both)
        assert sum(e["tries"] for e in listed) == 1
        assert key  # the same exercise on both: named by its position up to symmetry
        # The list, read online, replaces the device's own copies.
        quads.open("/#/mistakes")
        expect(page.locator("#mistakes-offline")).to_be_hidden()
        expect(page.locator("#mistakes-counts")).to_have_text(quads.t(
            "mistakes.counts", **quads.api("/api/mistakes")["counts"]))
    assert found  # the first player's among them


@pytest.mark.parametrize("name", list(SCREENS))
def test_the_mistakes_screen_and_the_explorer_at_every_size(
        name: str, browser: Browser, mistakes_server: Server) -> None:
    """An exercise on the board, its verdict with the way on, and the explorer's card
    beside the analysis board: nothing overlaps, nothing scrolls sideways, and what the
    player acts on is in view."""
    game, _ = _game_with_mistakes()
    with shown_at(browser, mistakes_server, name) as quads:
        page = quads.page
        _upload(quads, game)
        first = eventually(lambda: (_due(quads) or [None])[0], seconds=60)
        quads.open("/#/mistakes")
        expect(page.locator("#mistakes-prompt")).to_have_text(
            quads.t(f"mistakes.prompt.{first['kind']}.{first['keep']}"))
        check_screen(page, acting=(page.locator("#mistakes-board") if first["kind"] == "turn"
                                   else page.locator("#mistakes-supply"),))
        _make(quads, first["played"], first["kind"])
        expect(page.locator("#mistakes-verdict-title")).to_have_text(quads.t("mistakes.wrong"))
        check_screen(page, acting=(page.locator("#mistakes-verdict-title"),
                                   page.locator("#mistakes-next")), audit=False)
        quads.open(f"/#/analyse/quads/{quote(game.states[1].position.to_string())}")
        rows = page.locator("#analyse-explorer-list li")
        expect(page.locator("#analyse-view")).to_have_attribute("aria-busy", "false")
        expect(rows.first.locator(".explorer-value")).not_to_be_empty()  # drawn whole
        rows.first.scroll_into_view_if_needed()
        check_screen(page, acting=(page.locator("#analyse-explorer-source"), rows.first))


def _due(quads: QuadsPage) -> list[dict[str, Any]]:
    due: list[dict[str, Any]] = quads.api("/api/mistakes?due=true")["exercises"]
    return due


def test_a_new_player_is_told_what_comes_here(mistakes_server: Server, person: Person) -> None:
    newcomer = person(mistakes_server.url, "phone", "de")
    newcomer.open("/#/mistakes")
    expect(newcomer.page.locator("#mistakes-empty")).to_have_text(
        newcomer.t("mistakes.empty.none"))
    expect(newcomer.page.locator("#mistakes-board")).to_be_hidden()
    newcomer.check_screen(newcomer.page.locator("#mistakes-empty"))



def test_the_analysis_board_shows_what_people_played(mistakes_server: Server,
                                                    person: Person) -> None:
    """Three games played on a device and uploaded, each handing over 0 first: the
    analysis board of the empty board counts them under one hand-over (every first
    hand-over is the same up to symmetry), and after 0 handed over (the opening a
    game's end leads to) the placements played, each with how its games ended and its
    exact value."""
    phone = person(mistakes_server.url, "phone", "de")
    phone.open("/")
    empty = "..../..../..../.... -"
    after = Game(QUADS)
    after.play(Turn.parse("0"))

    def games_through(position: str) -> int:
        found: int = phone.api(f"/api/explorer?rules=quads&position={quote(position)}")["games"]
        return found

    before = games_through(empty), games_through(after.position.to_string())
    uploaded = []
    for seed in range(3):
        chooser = random.Random(seed)
        game = Game(QUADS)
        game.play(Turn.parse("0"))
        while not game.is_over():
            game.play(chooser.choice(list(game.position.legal_turns(QUADS))))
        uploaded.append(_upload(phone, game))
    page = phone.page
    phone.open(f"/#/analyse/quads/{quote(empty)}")
    status = page.locator("#analyse-explorer-status")
    expect(status).to_have_text(phone.t("explorer.games.many", count=before[0] + 3))
    rows = page.locator("#analyse-explorer-list li")
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".explorer-games")).to_have_text(
        phone.t("explorer.row_games", count=before[0] + 3))
    expect(rows.first.locator(".explorer-value")).to_have_text(phone.t("analysis.draw"))

    # From a game's end, its opening: after the first hand-over.
    phone.open(f"/#/game/{uploaded[-1]}")
    expect(page.locator("#end-panel")).to_be_visible()
    phone.press(page.locator("#end-explore"))
    expect(page.locator("#analyse-position")).to_have_text(after.position.to_string())
    expect(status).to_have_text(phone.t("explorer.games.many", count=before[1] + 3))
    counts = page.locator("#analyse-explorer-list .explorer-games")
    expect(counts.first).to_be_visible()
    shown = sum(int(re.sub(r"\D", "", text)) for text in counts.all_text_contents())
    assert shown == before[1] + 3
    expect(page.locator("#analyse-explorer-list .explorer-value").first).not_to_have_text("")
    page.locator("#analyse-explorer-title").scroll_into_view_if_needed()
    phone.check_screen(page.locator("#analyse-explorer-title"))
    # only games between people: these were against the computer
    page.locator("#analyse-explorer-source").select_option("people")
    expect(status).to_have_text(phone.t("explorer.none"))
    page.locator("#analyse-explorer-source").select_option("")
    expect(status).not_to_have_text(phone.t("explorer.none"))
    page.locator("#analyse-explorer-band").select_option("1400-1599")  # rated games only
    expect(status).to_have_text(phone.t("explorer.none"))
    page.locator("#analyse-explorer-band").select_option("")
    page.locator("#analyse-explorer-source").select_option("level-2")  # as uploaded
    expect(status).to_have_text(phone.t("explorer.games.many", count=before[1] + 3)
                                if before[1] == 0 else re.compile(r"\d"))
