"""What a new player meets first: the start of a game in view as the page opens,
on a desktop and on a phone; the links of every screen in the page's own
colours, not the browser's blue and purple."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from e2e.layout import check_screen
from e2e.quads_server import Server
from e2e.screens import SCREENS, shown_at

BROWSER_BLUE = {"rgb(0, 0, 238)", "rgb(85, 26, 139)", "rgb(158, 158, 255)", "rgb(208, 173, 240)"}
"""A link's colours by the browser's defaults: unvisited and visited, light and dark."""

LINKS = """() => [...document.querySelectorAll('a[href]')]
    .filter((a) => a.checkVisibility() && !a.classList.contains('button'))
    .map((a) => ({ text: (a.textContent || '').trim().slice(0, 40),
                   color: getComputedStyle(a).color,
                   line: getComputedStyle(a).textDecorationLine }))"""

# The screens with links of running text (the new-game screen's "How to play",
# the lobby's "sign in" for a guest, the account's other ways in...).
SCREENS_WITH_LINKS = ["/#/new", "/#/learn", "/#/lobby", "/#/sign-in", "/#/sign-up",
                      "/#/puzzle", "/#/learn/tutorial"]


@pytest.mark.parametrize("name", ["desktop", "phone-dark"])
def test_links_wear_the_pages_colours(name: str, browser: Browser, server: Server) -> None:
    with shown_at(browser, server, name) as quads:
        page = quads.page
        link = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--link')")
        expected = page.evaluate("""(value) => {
            const probe = document.createElement('span');
            probe.style.color = value;
            document.body.append(probe);
            const color = getComputedStyle(probe).color;
            probe.remove();
            return color;
        }""", link.strip())
        assert expected not in BROWSER_BLUE
        seen = 0
        for address in SCREENS_WITH_LINKS:
            quads.open(address)
            page.wait_for_load_state("networkidle")
            for found in page.evaluate(LINKS):
                seen += 1
                assert found["color"] not in BROWSER_BLUE, f"{address}: {found}"
        assert seen > 10
        # the links of running text: the page's green, underlined
        quads.open("/#/new")
        tutorial = page.locator(".howto a[href='#/learn/tutorial']")
        expect(tutorial).to_have_css("color", expected)
        expect(tutorial).to_have_css("text-decoration-line", "underline")
        # a link reached by the keyboard shows the focus ring
        tutorial.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        expect(tutorial).to_be_focused()
        assert tutorial.evaluate("(a) => a.matches(':focus-visible')")
        expect(tutorial).to_have_css("outline-style", "solid")
        expect(tutorial).to_have_css("outline-width", "3px")


@pytest.mark.parametrize("name", ["desktop", "phone-360", "phone-360-de"])
def test_the_start_button_is_in_view_as_the_page_opens(
        name: str, browser: Browser, server: Server) -> None:
    """The new-game screen opens with its main action in view, whatever the screen:
    the start button, with the summary of the game it starts."""
    size = SCREENS[name]
    with shown_at(browser, server, name) as quads:
        page = quads.page
        start = page.locator("#start-button")
        summary = page.locator("#setup-summary")
        expect(start).to_have_text(quads.t("setup.start"))
        assert page.evaluate("scrollY") == 0
        box = start.bounding_box()
        assert box is not None
        assert box["y"] >= 0
        assert box["y"] + box["height"] <= size.height, f"{box} on a {size} screen"
        assert 0 <= box["x"] <= box["x"] + box["width"] <= size.width
        expect(summary.locator("li")).to_have_count(3)
        check_screen(page, acting=(summary, start))

        # Reached from the foot of another screen, it opens at the top too.
        quads.open("/#/learn")
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.evaluate("location.hash = '#/new'")
        expect(page.locator("#setup-view")).to_be_visible()
        expect(start).to_be_in_viewport(ratio=1)

        # The summary follows the choices below it.
        level = quads.t("game.opponent.computer", level=quads.t("level.3.name"))
        quads.choose("level", "3")
        expect(summary.locator("li").first).to_have_text(level)
        quads.choose("rules", "classic")
        expect(summary.locator("li").nth(1)).to_have_text(
            quads.t("game.rules", rules=quads.t("rules.classic.name")))
        quads.choose("human", "second")
        expect(summary.locator("li").nth(2)).to_have_text(
            quads.t("setup.summary.first.computer"))
        quads.choose("mode", "local")
        expect(summary.locator("li").first).to_have_text(quads.t("game.opponent.local"))
        quads.choose("mode", "online")
        expect(summary.locator("li").first).to_have_text(quads.t("setup.summary.online"))
        expect(summary.locator("li").last).to_have_text(quads.t("clock.none"))
        expect(start).to_have_text(quads.t("setup.start.online"))
        expect(page.locator("#start-button-end")).to_have_text(quads.t("setup.start.online"))

        # The same start at the foot of the choices, for who went through them.
        quads.choose("mode", "computer")
        quads.press(page.locator("#start-button-end"))
        expect(page.locator("#game-view")).to_be_visible()
        view = quads.view()
        assert (view["mode"], view["level"], view["human"], view["rules"]) == (
            "computer", 3, "second", "classic")
