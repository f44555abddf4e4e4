"""Around the game: languages, a server that stops and comes back, reloading,
resuming, safe pieces, saving and opening records, hints."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, FilePayload, Route, expect

from e2e.quads_page import CELLS, QuadsPage, catalogue
from e2e.quads_server import Server


def test_switching_to_german_is_remembered(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    expect(page.locator("#setup-title")).to_have_text(quads.t("setup.title"))
    page.select_option("#lang-select", "de")
    quads.lang = "de"
    expect(page.locator("#setup-title")).to_have_text(quads.t("setup.title"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#start-button")).to_have_text(quads.t("setup.start"))

    page.reload()
    expect(page.locator("body[data-ready=true]")).to_be_attached()
    expect(page.locator("#setup-title")).to_have_text(quads.t("setup.title"))
    expect(page.locator("#lang-select")).to_have_value("de")

    quads.start_game(mode="local", rules="classic")
    player = quads.t("player.first")
    expect(page.locator("#prompt")).to_have_text(
        quads.t("prompt.give.first.player", player=player, other=quads.t("player.second")))
    quads.give("5")
    quads.place("B3")
    expect(quads.cell("A1")).to_have_attribute("aria-label", quads.t("cell.empty", cell="A1"))
    expect(page.locator("#declare-button")).to_have_text(quads.t("action.declare"))
    expect(page.locator("#undo-button")).to_contain_text(quads.t("action.undo"))
    quads.check_screen()
    quads.screenshot("german")

    page.select_option("#lang-select", "en")
    quads.lang = "en"
    expect(page.locator("#undo-button")).to_contain_text(quads.t("action.undo"))


def test_language_follows_the_browser(browser: Browser, server: Server) -> None:
    context = browser.new_context(base_url=server.url, locale="de-DE")
    try:
        page = context.new_page()
        page.goto("/#/new")
        expect(page.locator("#setup-title")).to_have_text(catalogue("de")["setup.title"])
    finally:
        context.close()


def test_catalogues_have_the_same_keys() -> None:
    english, german = catalogue("en"), catalogue("de")
    assert set(english) == set(german)
    placeholders = re.compile(r"\{(\w+)\}")
    for key, text in english.items():
        assert set(placeholders.findall(text)) == set(placeholders.findall(german[key])), key


def test_the_game_goes_on_after_the_server_restarts(quads_own: QuadsPage,
                                                    own_server: Server) -> None:
    quads = quads_own
    page = quads.page
    game = quads.start_game(mode="computer", rules="quads", level=1, human="first")
    quads.give("0")
    free = [cell for cell, piece in zip(CELLS, quads.board(), strict=True) if piece is None]

    own_server.kill()
    quads.press(quads.cell(free[0]))
    banner = page.locator("#offline")
    expect(banner).to_have_text(f'{quads.t("net.unreachable")} {quads.t("net.offline.detail")}')
    expect(banner).to_be_visible()

    own_server.start()
    expect(quads.cell(free[0])).to_have_attribute("data-piece", re.compile("^[0-9A-F]$"))
    expect(banner).to_be_hidden()
    expect(page.locator("#notice")).to_have_text(quads.t("net.back"))
    quads.wait_until_idle()
    assert quads.game_id() == game
    assert quads.board() == quads.view()["board"]

    quads.play_to_end()
    assert quads.view()["outcome"] is not None
    expect(page.locator("#end-panel")).to_be_visible()


def test_reload_and_resume(quads: QuadsPage) -> None:
    page = quads.page
    game = quads.start_game(mode="local", rules="quads")
    quads.give("A")
    quads.place("C2")
    board = quads.board()

    page.reload()
    expect(page.locator("body[data-ready=true]")).to_be_attached()
    quads.wait_until_idle()
    assert quads.game_id() == game
    assert quads.board() == board

    # Opening the page without an address brings back the game left open.
    quads.open("/")
    quads.wait_until_idle()
    assert quads.game_id() == game

    # The new-game screen lists it among the unfinished games.
    quads.open("/#/new")
    item = page.locator("#resume-list li").filter(has_text=quads.t("resume.current"))
    expect(item).to_have_count(1)
    resume = re.compile("^" + re.escape(quads.t("resume.open")))
    quads.press(item.get_by_role("button", name=resume))
    quads.wait_until_idle()
    assert quads.game_id() == game
    assert quads.board() == board


def test_the_list_of_games_shows_more_on_request(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    made = []
    for _ in range(53):
        game = quads.api_post("/api/games", {"mode": "local"})
        quads.api_post(f"/api/games/{game['id']}/actions",
                       {"revision": game["revision"], "action": "give", "piece": "0"})
        made.append(game["id"])
    page.reload()
    expect(page.locator("body[data-ready=true]")).to_be_attached()
    items = page.locator("#resume-list li.resume-item")
    more = page.get_by_role("button", name=quads.t("resume.more"))
    expect(items).to_have_count(50)
    expect(more).to_be_visible()
    quads.press(more)
    expect(items).to_have_count(53)
    expect(more).to_be_hidden()
    listed = [items.nth(i).get_attribute("data-game") for i in range(53)]
    assert listed == list(reversed(made))


def test_safe_pieces(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="quads")
    toggle = page.locator("#safe-toggle")
    if toggle.is_checked():
        quads.press(toggle)
    # Row 1 gets three short light pieces: only tall dark pieces stay safe.
    quads.give("0")
    quads.place("A1")
    quads.give("1")
    quads.place("B1")
    quads.give("2")
    quads.place("C1")
    expect(page.locator("#safe-count")).to_be_hidden()
    expect(page.locator("#supply .safe")).to_have_count(0)

    quads.press(toggle)
    view = quads.view()
    assert view["safe"] == ["C", "D", "E", "F"]
    expect(page.locator("#safe-count")).to_have_text(quads.t("safe.many", count=4, total=13))
    safe = page.eval_on_selector_all("#supply .safe", "items => items.map(i => i.dataset.key)")
    assert safe == view["safe"]
    expect(quads.supply_piece("C")).to_have_attribute(
        "aria-label", f"{quads.piece_label('C')}, {quads.t('safe.badge')}")

    page.reload()
    quads.wait_until_idle()
    expect(toggle).to_be_checked()
    expect(page.locator("#supply .safe")).to_have_count(4)


def test_save_and_open_a_record(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="classic")
    quads.give("7")
    quads.place("A1")
    quads.give("C")
    moves = quads.view()["moves"]

    with page.expect_download() as download_info:
        quads.press(page.locator("#export-link"))
    record = download_info.value.path().read_text("utf-8")
    assert download_info.value.suggested_filename.endswith(".qds")
    assert '[Rules "classic"]' in record
    assert "A1C" in record

    quads.open("/#/new")
    quads.choose("mode", "local")
    broken: FilePayload = {"name": "broken.qds", "mimeType": "text/plain", "buffer": b"1. Z9Z *\n"}
    page.set_input_files("#import-file", files=[broken])
    status, refusal = quads.api_status("POST", "/api/games/import",
                                       {"record": "1. Z9Z *\n", "mode": "local"})
    assert status == 422  # written as text, but no record the rules can replay
    error = refusal["error"]
    assert (error["reason"], error["params"]) == ("unreadable", {"token": "Z9Z"})
    # The page words the server's reason itself, the token named, in its own language.
    expect(page.locator("#import-error")).to_have_text(
        quads.t("error.invalid_record.unreadable", token="Z9Z"))

    saved: FilePayload = {"name": "game.qds", "mimeType": "text/plain", "buffer": record.encode()}
    page.set_input_files("#import-file", files=[saved])
    expect(page.locator("#game-view")).to_be_visible()
    quads.wait_until_idle()
    assert quads.view()["moves"] == moves
    expect(quads.cell("A1")).to_have_attribute("data-piece", "7")
    assert quads.hand() == "C"


def test_a_hint_points_at_the_winning_cell(quads: QuadsPage) -> None:
    # Row 1 holds 7 C D (all dark) and the first player must place E, which is dark.
    quads.open("/#/new")  # the page's player (its cookie) imports the game
    game = quads.api_post("/api/games/import",
                          {"record": "1. 7 A1C 2. B1D C1E *", "mode": "local"})["id"]
    quads.open(f"/#/game/{game}")
    quads.wait_until_idle()
    hint_button = quads.page.locator("#hint-button")
    quads.press(hint_button)
    message = quads.page.locator("#hint-box")
    # shown by the button, where the player looks
    expect(message).to_be_in_viewport()
    # the reason says where, once ("Place it on D1: that completes row 1 ...")
    expect(message).to_contain_text(catalogue(quads.lang)["hint.win_now"].split("{")[0].strip())
    expect(message).not_to_contain_text(quads.t("hint.place", cell="D1"))
    assert message.inner_text().count("D1") == 1
    expect(quads.cell("D1")).to_have_class(re.compile(r"\bhinted\b"))
    quads.place("D1")
    quads.wait_until_idle()
    assert quads.view()["outcome"]["cells"] == ["A1", "B1", "C1", "D1"]


def test_a_saved_record_reopens_against_the_same_computer(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="computer", rules="classic", level=2, human="second")
    quads.wait_until_idle()  # the computer hands over first
    with page.expect_download() as download_info:
        quads.press(page.locator("#export-link"))
    record = download_info.value.path().read_text("utf-8")
    assert '[Mode "computer"]' in record
    assert '[Level "2"]' in record
    moves = quads.view()["moves"]

    # The form now says something else: the record, not the form, decides.
    quads.open("/#/new")
    quads.choose("mode", "computer")
    quads.choose("level", "1")
    quads.choose("human", "first")
    saved: FilePayload = {"name": "game.qds", "mimeType": "text/plain", "buffer": record.encode()}
    page.set_input_files("#import-file", files=[saved])
    expect(page.locator("#game-view")).to_be_visible()
    quads.wait_until_idle()
    view = quads.view()
    assert (view["mode"], view["level"], view["human"], view["moves"]) == (
        "computer", 2, "second", moves)


HINTED = {"desktop": "5", "phone": "C"}
"""The piece handed over last in the test of the hint's waiting state, one per device
(the server remembers an analysis)."""


def test_a_hint_says_at_once_that_it_is_coming(quads: QuadsPage) -> None:
    page = quads.page
    quads.start_game(mode="local", rules="classic")
    # Five pieces down, a piece in hand: past the opening book (classic's reaches 12
    # empty cells), the advice searches for a few tenths of a second.
    for piece, cell in (("7", "A1"), ("1", "C3"), ("2", "B4"), ("3", "D2"), ("4", "A3")):
        quads.give(piece)
        quads.place(cell)
    quads.give(HINTED[quads.device])
    button = page.locator("#hint-button")
    box = page.locator("#hint-box")
    # The request is held until the page was seen waiting for it: the advice may
    # otherwise come back before the checks see the wait (in a full run, it did).
    asked: list[Route] = []
    hint = re.compile(r"/api/games/[^/]+/hint")
    page.route(hint, lambda route: asked.append(route))
    quads.press(button)
    expect(box).to_have_text(quads.t("hint.thinking"))
    expect(button).to_be_disabled()
    expect(box).to_be_in_viewport()
    assert len(asked) == 1
    asked[0].continue_()
    page.unroute(hint)
    expect(box).not_to_have_text(quads.t("hint.thinking"), timeout=20_000)
    expect(box).to_contain_text(catalogue(quads.lang)["hint.turn"].split("{")[0].strip())
    expect(button).to_be_enabled()
    expect(box).to_be_in_viewport()
