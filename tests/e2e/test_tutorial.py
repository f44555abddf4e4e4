"""The guided first game at #/learn/tutorial: four steps on the real board,
played through the API, with the texts of the message catalogue."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, expect

from e2e.quads_page import QuadsPage

KEYS = "buttons => buttons.map(b => b.dataset.key)"


def tutorial_game(quads: QuadsPage) -> Any:
    """The server's view of the game the tutorial shows right now."""
    game = quads.page.locator("#tutorial-view").get_attribute("data-game")
    assert game, "the tutorial shows no game"
    return quads.api(f"/api/games/{game}")


def piece(quads: QuadsPage, key: str) -> Locator:
    return quads.page.locator(f'#tutorial-supply button[data-key="{key}"]')


def cell(quads: QuadsPage, key: str) -> Locator:
    return quads.page.locator(f'#tutorial-board button[data-key="{key}"]')


def expect_step(quads: QuadsPage, step: int, state: str = "text", **params: object) -> None:
    page = quads.page
    progress = quads.t("tutorial.progress", step=step, total=4)
    expect(page.locator("#tutorial-progress")).to_have_text(progress)
    title = quads.t(f"tutorial.step{step}.title")
    expect(page.locator("#tutorial-step-title")).to_have_text(title)
    text = quads.t(f"tutorial.step{step}.{state}", **params)
    expect(page.locator("#tutorial-instruction")).to_have_text(text)
    expect(page.locator("#tutorial-view")).to_have_attribute("aria-busy", "false")


def press_next(quads: QuadsPage) -> None:
    button = quads.page.locator("#tutorial-next")
    expect(button).to_be_visible()
    expect(button).to_be_focused()
    quads.press(button)


def test_one_navigation_routes_once(quads: QuadsPage) -> None:
    """A link fires both popstate and hashchange: the tutorial's game is made once."""
    page = quads.page
    quads.open("/#/new")
    made: list[str] = []
    page.on("request", lambda request: made.append(request.url)
            if request.method == "POST" and request.url.endswith("/api/games") else None)
    quads.press(page.locator(".howto a[href='#/learn/tutorial']"))
    expect(page.locator("#tutorial-view")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#tutorial-view")).to_have_attribute("data-game", re.compile(".+"))
    page.wait_for_load_state("networkidle")
    assert len(made) == 1
    # back and forward: one route each, no new game for the setup screen
    page.go_back()
    expect(page.locator("#setup-view")).to_be_visible()
    page.go_forward()
    expect(page.locator("#tutorial-view")).to_have_attribute("data-game", re.compile(".+"))
    page.wait_for_load_state("networkidle")
    assert len(made) == 2


def test_tutorial_walkthrough(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/new")
    quads.press(page.locator(".howto a[href='#/learn/tutorial']"))
    expect(page).to_have_url(re.compile(r"#/learn/tutorial$"))
    expect(page.locator("#tutorial-view")).to_be_visible()
    expect(page.locator("#learn-view")).to_be_hidden()
    expect(page.locator("#tutorial-title")).to_have_text(quads.t("tutorial.title"))
    instruction = page.locator("#tutorial-instruction")
    expect(instruction).to_have_attribute("aria-live", "polite")

    # 1. Hand any piece to the opponent (by keyboard on the desktop).
    expect_step(quads, 1)
    expect(page.locator("#tutorial-next")).to_be_hidden()
    expect(page.locator("#tutorial-supply button.playable")).to_have_count(16)
    expect(page.locator("#tutorial-board button.playable")).to_have_count(0)
    if quads.device == "desktop":
        page.locator('#tutorial-supply button[tabindex="0"]').focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect(piece(quads, "3")).to_be_focused()
        page.keyboard.press("Enter")
    else:
        quads.press(piece(quads, "3"))
    expect_step(quads, 1, "done")
    view = tutorial_game(quads)
    assert view["mode"] == "local"
    assert (view["moves"], view["hand"], view["to_move"]) == (["3"], "3", "second")
    press_next(quads)

    # 2. The opponent places that piece on B2 and hands one back; place it anywhere.
    expect_step(quads, 2, cell="B2")
    expect(cell(quads, "B2")).to_have_attribute("data-piece", "3")
    expect(cell(quads, "B2")).to_have_class(re.compile(r"\blast\b"))
    view = tutorial_game(quads)
    assert (view["to_move"], view["step"]) == ("first", "place")
    expect(page.locator("#tutorial-hand svg")).to_have_class(re.compile(f"piece-{view['hand']}"))
    expect(page.locator("#tutorial-board button.playable")).to_have_count(15)
    quads.press(cell(quads, "D4"))
    expect_step(quads, 2, "done")
    expect(cell(quads, "D4")).to_have_attribute("data-piece", view["hand"])
    assert tutorial_game(quads)["step"] == "give"
    press_next(quads)

    # 3. Hand over a safe piece: the marks come from the server's view.
    expect_step(quads, 3)
    view = tutorial_game(quads)
    assert view["safe"] == ["D", "E", "F"]
    safe = page.eval_on_selector_all("#tutorial-supply button.safe", KEYS)
    assert safe == view["safe"]
    for key in ("A1", "B1", "C1"):
        expect(cell(quads, key)).to_have_class(re.compile(r"\bmarked\b"))
    feedback = page.locator("#tutorial-feedback")
    expect(feedback).to_be_hidden()
    quads.press(piece(quads, "3"))  # short and light: it would complete row 1
    expect(feedback).to_be_visible()
    expect(feedback).to_have_text(quads.t("tutorial.step3.unsafe"))
    expect(instruction).to_have_text(quads.t("tutorial.step3.text"))
    expect(piece(quads, "3")).to_be_visible()
    assert tutorial_game(quads) == view, "an unsafe piece was sent"
    quads.screenshot("tutorial-safe")
    quads.press(piece(quads, "E"))
    expect_step(quads, 3, "done")
    expect(feedback).to_be_hidden()
    after = tutorial_game(quads)
    assert (after["hand"], after["to_move"]) == ("E", "second")
    press_next(quads)

    # 4. A win is on the board: only the winning cell is sent.
    expect_step(quads, 4)
    view = tutorial_game(quads)
    assert view["hand"] == "E"
    assert view["outcome"] is None
    quads.press(cell(quads, "D4"))
    expect(feedback).to_have_text(quads.t("tutorial.step4.wrong"))
    assert tutorial_game(quads) == view, "a losing placement was sent"
    expect(cell(quads, "D4")).not_to_have_attribute("data-piece", "E")
    quads.press(cell(quads, "D1"))
    expect_step(quads, 4, "done")
    outcome = tutorial_game(quads)["outcome"]
    assert outcome["winner"] == "first"
    assert outcome["cells"] == ["A1", "B1", "C1", "D1"]
    winning = page.eval_on_selector_all("#tutorial-board button.winning", KEYS)
    assert winning == ["A1", "B1", "C1", "D1"]
    end = page.locator("#tutorial-end")
    expect(end).to_be_visible()
    expect(page.locator("#tutorial-end-title")).to_be_focused()
    expect(page.locator("#tutorial-end-title")).to_have_text(quads.t("tutorial.end.title"))
    expect(page.locator("#tutorial-next")).to_be_hidden()
    expect(page.locator("#tutorial-rules")).to_have_attribute("href", "#/learn/rules")
    quads.check_screen()
    quads.screenshot("tutorial")

    # The closing panel starts a game against the computer at the first level: with
    # colour alone (tried on the phone) or the full rules (on the desktop).
    expect(page.locator("#tutorial-play-color")).to_have_text(quads.t("tutorial.end.play_color"))
    expect(page.locator("#tutorial-play")).to_have_text(quads.t("tutorial.end.play"))
    rules = "lines+squares:color:auto" if quads.device == "phone" else "quads"
    quads.press(page.locator("#tutorial-play" if rules == "quads" else "#tutorial-play-color"))
    expect(page.locator("#game-view")).to_be_visible()
    quads.wait_until_idle()
    game = quads.view()
    settings = (game["mode"], game["level"], game["human"], game["rules"])
    assert settings == ("computer", 1, "first", rules)


def test_tutorial_links_and_german(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/learn")
    link = page.locator(".learn-contents a[href='#/learn/tutorial']")
    expect(link).to_have_text(quads.t("learn.tutorial.link"))
    quads.press(link)
    expect(page.locator("#tutorial-view")).to_be_visible()
    expect_step(quads, 1)
    page.locator("#lang-select").select_option("de")
    quads.lang = "de"
    expect_step(quads, 1)
    expect(page.locator("#tutorial-title")).to_have_text(quads.t("tutorial.title"))
    english = QuadsPage(page, quads.device, quads.base_url)
    assert quads.t("tutorial.step1.text") != english.t("tutorial.step1.text")
    quads.check_screen()
    page.locator("#lang-select").select_option("en")


def test_tutorial_games_are_not_offered_to_resume(quads: QuadsPage) -> None:
    page = quads.page
    quads.open("/#/learn/tutorial")
    expect(page.locator("#tutorial-view")).to_be_visible()
    expect_step(quads, 1)
    # (The list holds games in which somebody acted: hand a piece over first.)
    quads.press(piece(quads, "3"))
    expect_step(quads, 1, "done")
    ids = page.evaluate("JSON.parse(localStorage.getItem('quads.tutorialGames') || '[]')")
    assert ids
    ongoing = {game["id"] for game in quads.api("/api/games?status=ongoing")["games"]}
    assert set(ids) <= ongoing
    # A game of the person's own is listed; the tutorial's are not.
    # (The list holds games in which somebody acted.)
    own = quads.api_post("/api/games", {"mode": "local"})
    quads.api_post(f"/api/games/{own['id']}/actions",
                   {"revision": own["revision"], "action": "give", "piece": "0"})
    own = own["id"]
    quads.open("/#/new")
    expect(page.locator(f'#resume-list li[data-game="{own}"]')).to_be_attached()
    listed = page.locator("#resume-list li[data-game]")
    shown = {listed.nth(i).get_attribute("data-game") for i in range(listed.count())}
    assert not shown & set(ids)

