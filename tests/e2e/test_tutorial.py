"""The guided first game at #/learn/tutorial: four steps on the real board, played
by the page's own rules in memory (no request to the server), with the texts of the
message catalogue."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, expect

from e2e.quads_page import QuadsPage
from quads.pieces import piece_name
from quads.record import read_record

KEYS = "buttons => buttons.map(b => b.dataset.key)"
SHOWN = """() => {
    const keys = (selector, key) =>
        [...document.querySelectorAll(selector)].map(b => b.dataset[key] || null);
    const hand = document.querySelector("#tutorial-hand svg");
    const piece = /piece-([0-9A-F])/.exec(hand ? hand.getAttribute("class") : "");
    return {board: keys("#tutorial-board button", "piece"),
            supply: keys("#tutorial-supply button", "key"), hand: piece ? piece[1] : null};
}"""


def tutorial_game(quads: QuadsPage) -> Any:
    """What the tutorial shows of its game right now: the board, the supply, the hand."""
    assert quads.page.locator("#tutorial-view").get_attribute("data-game"), "no game shown"
    return quads.page.evaluate(SHOWN)


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
    """A link fires both popstate and hashchange: the tutorial starts once, and asks
    the server nothing."""
    page = quads.page
    quads.open("/#/new")
    page.wait_for_load_state("networkidle")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url)
            if "/api/games" in request.url else None)
    starts = page.evaluate("""() => {
        window.tutorialStarts = [];
        new MutationObserver(() => window.tutorialStarts.push(
            document.getElementById("tutorial-view").dataset.game))
            .observe(document.getElementById("tutorial-view"), {attributeFilter: ["data-game"]});
        return window.tutorialStarts.length;
    }""")
    quads.press(page.locator(".howto a[href='#/learn/tutorial']"))
    expect(page.locator("#tutorial-view")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#tutorial-view")).to_have_attribute("data-game", re.compile(".+"))
    first = page.locator("#tutorial-view").get_attribute("data-game")
    # back and forward: one route each, a new game for the new visit only
    page.go_back()
    expect(page.locator("#setup-view")).to_be_visible()
    page.go_forward()
    expect(page.locator("#tutorial-view")).not_to_have_attribute("data-game", first or "")
    games = page.evaluate("window.tutorialStarts")
    assert starts == 0
    assert len(set(games)) == 2, games
    assert not [url for url in asked if "/api/games" in url and "status=" not in url], asked


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
    assert (view["hand"], view["board"]) == ("3", [None] * 16)
    assert "3" not in view["supply"]
    press_next(quads)

    # 2. The opponent places that piece on B2 and hands one back; place it anywhere.
    expect_step(quads, 2, cell="B2")
    expect(cell(quads, "B2")).to_have_attribute("data-piece", "3")
    expect(cell(quads, "B2")).to_have_class(re.compile(r"\blast\b"))
    view = tutorial_game(quads)
    assert view["hand"] is not None
    expect(page.locator("#tutorial-board button.playable")).to_have_count(15)
    quads.press(cell(quads, "D4"))
    expect_step(quads, 2, "done")
    expect(cell(quads, "D4")).to_have_attribute("data-piece", view["hand"])
    assert tutorial_game(quads)["board"][15] == view["hand"]
    press_next(quads)

    # 3. Hand over a safe piece: the marks are the library's safe pieces.
    expect_step(quads, 3)
    view = tutorial_game(quads)
    position = read_record("1. 0 A11 2. B12 C1C 3. B3 *").position
    library_safe = [piece_name(p) for p in range(16)
                    if position.safe_pieces(read_record("1. 0 A11 2. B12 C1C 3. B3 *").rules)
                    >> p & 1]
    assert library_safe == ["D", "E", "F"]
    safe = page.eval_on_selector_all("#tutorial-supply button.safe", KEYS)
    assert safe == library_safe
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
    assert after["hand"] == "E"  # handed over: the opponent's to place
    assert "E" not in after["supply"]
    press_next(quads)

    # 4. A win is on the board: only the winning cell is sent.
    expect_step(quads, 4)
    view = tutorial_game(quads)
    assert view["hand"] == "E"
    quads.press(cell(quads, "D4"))
    expect(feedback).to_have_text(quads.t("tutorial.step4.wrong"))
    assert tutorial_game(quads) == view, "a losing placement was sent"
    expect(cell(quads, "D4")).not_to_have_attribute("data-piece", "E")
    quads.press(cell(quads, "D1"))
    expect_step(quads, 4, "done")
    assert tutorial_game(quads)["board"][:4] == ["7", "C", "D", "E"]
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
    # A tutorial game of an earlier version of the page, kept by the server.
    old = quads.api_post("/api/games", {"mode": "local"})
    quads.api_post(f"/api/games/{old['id']}/actions",
                   {"revision": old["revision"], "action": "give", "piece": "0"})
    quads.open("/#/new")
    page.evaluate("id => localStorage.setItem('quads.tutorialGames', JSON.stringify([id]))",
                  old["id"])
    quads.open("/#/learn/tutorial")
    expect(page.locator("#tutorial-view")).to_be_visible()
    expect_step(quads, 1)
    quads.press(piece(quads, "3"))
    expect_step(quads, 1, "done")
    game = page.locator("#tutorial-view").get_attribute("data-game")
    # The tutorial's game is kept nowhere: neither by the server nor on the device.
    ongoing = {g["id"] for g in quads.api("/api/games?status=ongoing")["games"]}
    assert ongoing == {old["id"]}
    # A game of the person's own is listed; the tutorial's, old or new, are not.
    own = quads.api_post("/api/games", {"mode": "local"})
    quads.api_post(f"/api/games/{own['id']}/actions",
                   {"revision": own["revision"], "action": "give", "piece": "0"})
    quads.open("/#/new")
    expect(page.locator(f'#resume-list li[data-game="{own["id"]}"]')).to_be_attached()
    listed = page.locator("#resume-list li[data-game]")
    shown = {listed.nth(i).get_attribute("data-game") for i in range(listed.count())}
    assert shown == {own["id"]}
    assert game not in shown


# A turn is two halves: placing the piece one was given, then handing one over.
WHOLE_TURN = re.compile(r"\b(full|whole|one) turn\b|\bganze[nr]? Zug", re.IGNORECASE)
HALF = {"en": "first half of your turn", "de": "erste Hälfte deines Zuges"}


def test_a_placement_alone_is_half_a_turn(quads: QuadsPage) -> None:
    """After the learner's placement of step 2 the hand-over is still to come: in
    either language the tutorial calls it half a turn, never a whole one."""
    page = quads.page
    for lang in ("de", "en"):
        quads.open("/#/new")
        quads.use_language(lang)
        quads.open("/#/learn/tutorial")
        expect_step(quads, 1)
        quads.press(piece(quads, "3"))
        press_next(quads)
        expect_step(quads, 2, cell="B2")
        quads.press(cell(quads, "D4"))
        expect_step(quads, 2, "done")
        # placed, nothing handed over: the piece in hand is gone and 14 are left
        view = tutorial_game(quads)
        assert view["hand"] is None
        assert len(view["supply"]) == 14
        said = page.locator("#tutorial-instruction").inner_text()
        assert not WHOLE_TURN.search(said), said
        assert HALF[lang] in said, said
        for step in (1, 3, 4):  # no other step's words call half a turn a whole one
            for state in ("text", "done"):
                assert not WHOLE_TURN.search(quads.t(f"tutorial.step{step}.{state}"))
