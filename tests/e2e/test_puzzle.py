"""The daily puzzle in the browser: the known solution played through the page,
then a wrong turn with the computer's answer and a new try."""

from __future__ import annotations

import datetime
import re
import secrets

from playwright.sync_api import expect

from e2e.quads_page import CELLS, QuadsPage
from e2e.quads_server import Server
from quads.bits import iter_bits
from quads.cells import cell_name
from quads.pieces import piece_name
from quads.puzzles import puzzle_for
from quads.storage import GameStore, PuzzleResult

SOLVED_DATE = datetime.date(2025, 3, 4)
"""A Tuesday: a win in 2, so the computer answers once."""
WRONG_DATE = datetime.date(2025, 3, 3)
"""A Monday: a win at once, so any placement that does not win is wrong."""


def test_the_puzzle_solved_and_a_wrong_turn(quads: QuadsPage) -> None:
    page = quads.page
    puzzle = puzzle_for(SOLVED_DATE)
    quads.open(f"/#/puzzle/{SOLVED_DATE}")
    expect(page.locator("#puzzle-view")).to_be_visible()
    expect(page.locator("#puzzle-goal")).to_have_text(quads.t("puzzle.goal", moves=puzzle.moves))
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.place"))
    expect(page.locator("#puzzle-archive a")).to_have_count(30)
    hand = puzzle.position.hand
    assert hand is not None
    expect(page.locator("#puzzle-hand")).to_have_attribute("aria-label", quads.piece_label(
        piece_name(hand)))

    tokens = [turn.text for turn in puzzle.solution]
    for index in range(0, puzzle.plies, 2):
        token = tokens[index]
        quads.press(page.locator(f'#puzzle-board button[data-key="{token[:2]}"]'))
        if len(token) == 3:
            expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.give"))
            quads.press(page.locator(f'#puzzle-supply button.playable[data-key="{token[2]}"]'))
        if index < puzzle.plies - 1:
            reply = tokens[index + 1]
            expect(page.locator("#puzzle-board button.playable").first).to_be_visible()
            expect(page.locator("#puzzle-last")).to_contain_text(reply[:2])
            expect(page.locator(f'#puzzle-board button[data-key="{reply[:2]}"]')).to_have_attribute(
                "data-piece", token[2])

    solved = page.locator("#puzzle-solved")
    expect(solved).to_be_visible()
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.solved"))
    expect(page.locator("#solved-stats")).to_contain_text(quads.t("puzzle.tries.one"))
    share = page.locator("#share-text")
    expect(share).to_have_value(re.compile(
        re.escape(quads.t("puzzle.share", date=SOLVED_DATE.isoformat(), moves=puzzle.moves,
                          tries=quads.t("puzzle.tries.one"), time="TIME")).replace("TIME",
                                                                                 r"\d+:\d\d")))
    assert len(page.locator("#puzzle-board .winning").all()) >= 4
    # The result is stored for this browser's player (known by its cookie).
    page.wait_for_function(
        "() => fetch('/api/puzzles/history').then(r => r.json())"
        ".then(h => h.results.length > 0)")
    results = quads.api("/api/puzzles/history")["results"]
    assert [(r["date"], r["tries"], r["solved"]) for r in results] == [
        (SOLVED_DATE.isoformat(), 1, True)]
    quads.press(page.locator("#share-copy"))
    expect(page.locator("#notice")).to_be_visible()
    quads.check_screen()
    quads.screenshot("puzzle")

    # A wrong first turn on another date: the computer's answer and a new try.
    wrong_puzzle = puzzle_for(WRONG_DATE)
    position = wrong_puzzle.position
    assert position.hand is not None
    winning = position.winning_cells(position.hand, wrong_puzzle.rules)
    cell = next(cell_name(c) for c in iter_bits(position.empty_cells) if not winning >> c & 1)
    give = piece_name(next(iter_bits(position.supply)))
    quads.open(f"/#/puzzle/{WRONG_DATE}")
    expect(page.locator("#puzzle-goal")).to_have_text(quads.t("puzzle.goal", moves=1))
    start = [None if piece is None else piece for piece in quads_board(quads)]
    quads.press(page.locator(f'#puzzle-board button[data-key="{cell}"]'))
    quads.press(page.locator(f'#puzzle-supply button.playable[data-key="{give}"]'))
    wrong = page.locator("#puzzle-wrong")
    expect(wrong).to_be_visible()
    expect(page.locator("#puzzle-prompt")).to_have_text(quads.t("puzzle.prompt.wrong"))
    reply = page.locator("#wrong-reply")
    expect(reply).to_be_visible()
    expect(reply).to_contain_text(quads.piece_label(give))
    expect(page.locator("#puzzle-retry")).to_be_visible()
    expect(page.locator("#puzzle-board button.playable")).to_have_count(0)
    quads.check_screen()
    quads.screenshot("puzzle-wrong")
    quads.press(page.locator("#puzzle-retry"))
    expect(wrong).to_be_hidden()
    expect(page.locator("#puzzle-try")).to_have_text(quads.t("puzzle.try", count=2))
    assert quads_board(quads) == start


def quads_board(quads: QuadsPage) -> list[str | None]:
    pieces: list[str | None] = quads.page.eval_on_selector_all(
        "#puzzle-board button", "cells => cells.map(c => c.dataset.piece || null)")
    assert len(pieces) == len(CELLS)
    return pieces


def test_results_of_the_old_made_up_id_are_taken_over(quads: QuadsPage, server: Server) -> None:
    # Earlier pages kept a made-up player id in localStorage ("quads.player") and
    # stored their results under it; the page hands them over to its player once.
    page = quads.page
    quads.open("/#/new")
    today = datetime.date.fromisoformat(quads.api("/api/puzzles/today")["date"])
    legacy = "legacy-" + secrets.token_hex(8)
    GameStore(server.db).add_result(PuzzleResult(
        player=legacy, date=today, tries=2, seconds=40, solved=True,
        recorded=datetime.datetime.now(datetime.UTC)))
    page.evaluate("id => localStorage.setItem('quads.player', id)", legacy)
    page.goto("/#/puzzle")
    page.reload()  # the page as it starts in a browser that kept the old id
    expect(page.locator("body[data-ready=true]")).to_be_attached()
    expect(page.locator("#puzzle-before")).to_have_text(
        quads.t("puzzle.solved_before", tries=quads.t("puzzle.tries.many", count=2)))
    expect(page.locator(f'#puzzle-archive a[href="#/puzzle/{today}"]')).to_have_class(
        re.compile(r"\bsolved\b"))
    assert page.evaluate("localStorage.getItem('quads.player')") is None
    results = quads.api("/api/puzzles/history")["results"]
    assert [(r["date"], r["tries"], r["solved"]) for r in results] == [(today.isoformat(), 2, True)]


def test_no_puzzle_for_a_date_shows_nothing_of_another(quads: QuadsPage) -> None:
    page = quads.page
    quads.open(f"/#/puzzle/{SOLVED_DATE}")
    board = page.locator("#puzzle-board")
    expect(board).to_be_visible()
    expect(page.locator("#puzzle-goal")).to_be_visible()
    for date, key in (("2999-01-01", "error.puzzle_missing"), ("2025-13-40", "error.invalid_date")):
        page.evaluate("date => { location.hash = `#/puzzle/${date}`; }", date)
        expect(page.locator("#puzzle-message")).to_have_text(quads.t(key))
        expect(board).to_be_hidden()
        expect(page.locator("#puzzle-hand")).to_be_hidden()
        expect(page.locator("#puzzle-supply")).to_be_hidden()
        expect(page.locator("#puzzle-goal")).to_be_hidden()
        expect(page.locator("#puzzle-info")).to_be_hidden()
    page.go_back()
    page.go_back()
    expect(page.locator("#puzzle-message")).to_be_hidden()
    expect(board).to_be_visible()
    expect(page.locator("#puzzle-info")).to_contain_text(str(SOLVED_DATE.year))
