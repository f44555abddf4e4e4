"""A driver for the Quads page: what a player does (start a game, press a
cell or a piece, undo...) and what they see (the board, the prompt, the end),
in words of the page rather than of CSS selectors.

Texts are checked against the message catalogue, so the tests follow its
wording and catch a key that shows up untranslated.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from e2e.layout import check_screen

ROOT = Path(__file__).resolve().parents[2]
MESSAGES_DIR = ROOT / "src" / "quads" / "catalogue"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"

_REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber}`);
});
"""


def watch_errors(page: Page, errors: list[str]) -> None:
    """Collect in ``errors`` every script error of ``page``, everything its content
    security policy blocks and every text asked of the catalogue that it lacks
    (each is a bug of the page, of the policy or of the catalogue)."""
    page.add_init_script(_REPORT_VIOLATIONS)
    page.on("pageerror", lambda error: errors.append(str(error)))

    def console(message: Any) -> None:
        text = message.text
        if message.type == "error" and ("Content Security Policy" in text
                                        or text.startswith("CSP violation")):
            errors.append(text)
        if text.startswith("missing message:"):
            errors.append(text)

    page.on("console", console)


DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
}

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
"""A larger phone than the 360x740 one of ``DEVICES``."""

CELLS = [column + row for row in "1234" for column in "ABCD"]


def wait_until(page: Page, expression: str, timeout: float = 15.0) -> None:
    """Wait until ``expression`` is true in ``page``.  (Playwright's
    ``wait_for_function`` evaluates a string inside the page, which the page's content
    security policy forbids: no ``eval``.)"""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        page.wait_for_timeout(50)


def catalogue(lang: str) -> dict[str, str]:
    messages: dict[str, str] = json.loads((MESSAGES_DIR / f"{lang}.json").read_text("utf-8"))
    return messages


class QuadsPage:
    """One browser tab on the Quads page."""

    def __init__(self, page: Page, device: str, base_url: str) -> None:
        self.page = page
        self.device = device
        self.base_url = base_url
        self.lang = "en"

    # ---- texts ------------------------------------------------------------

    def t(self, key: str, **params: object) -> str:
        """The catalogue's text of ``key`` in the page's language, filled in."""
        text = catalogue(self.lang)[key]
        return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), text)

    def piece_label(self, piece: str) -> str:
        """The spoken name of a piece, e.g. "tall dark square hollow"."""
        bits = int(piece, 16)
        words = {trait: self.t(f"trait.{trait}.{1 if bits & bit else 0}")
                 for trait, bit in (("height", 8), ("color", 4), ("shape", 2), ("top", 1))}
        return self.t("piece.label", **words)

    # ---- the server, to check what the page shows ----------------------------

    def api(self, path: str) -> Any:
        """GET ``path`` as this page's player (games belong to the player of the cookie)."""
        answer = self.page.request.get(f"{self.base_url}{path}", timeout=10_000)
        assert answer.ok, f"GET {path}: {answer.status} {answer.text()}"
        return answer.json()

    def api_post(self, path: str, body: Any = None) -> Any:
        """POST ``body`` (JSON) to ``path`` as this page's player; the answer's JSON."""
        answer = self.page.request.post(f"{self.base_url}{path}", data=body, timeout=10_000)
        assert answer.ok, f"POST {path}: {answer.status} {answer.text()}"
        return answer.json()

    def api_status(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Any request as this page's player: the status and the JSON answer (or None)."""
        answer = self.page.request.fetch(f"{self.base_url}{path}", method=method, data=body,
                                         timeout=10_000)
        try:
            data = answer.json()
        except Exception:  # an answer without a body (204)
            data = None
        return answer.status, data

    def game_id(self) -> str:
        match = re.search(r"#/game/([^/?#]+)$", self.page.url)
        assert match, f"no game in the address {self.page.url}"
        return match.group(1)

    def view(self) -> Any:
        """The server's GameView of the open game."""
        return self.api(f"/api/games/{self.game_id()}")

    # ---- acting -------------------------------------------------------------

    def press(self, target: Locator) -> None:
        """Tap on the phone, click on the desktop."""
        if self.device == "phone":
            target.tap()
        else:
            target.click()

    def open(self, path: str = "/") -> None:
        self.page.goto(path)
        expect(self.page.locator("body[data-ready=true]")).to_be_attached()

    def start_game(self, *, mode: str = "computer", rules: str = "quads", level: int = 1,
                   human: str = "first") -> str:
        """Start a game from the new-game screen; return its id."""
        self.open("/#/new")
        expect(self.page.locator("#setup-view")).to_be_visible()
        self.choose("mode", mode)
        self.choose("rules", rules)
        if mode == "computer":
            self.choose("level", str(level))
            self.choose("human", human)
        self.press(self.page.locator("#start-button"))
        expect(self.page.locator("#game-view")).to_be_visible()
        self.wait_until_idle()
        return self.game_id()

    def choose(self, name: str, value: str) -> None:
        """Pick a choice card of the new-game form (by pressing its label)."""
        radio = self.page.locator(f'input[name="{name}"][value="{value}"]')
        self.press(self.page.locator("label.choice", has=radio))
        expect(radio).to_be_checked()

    def cell(self, name: str) -> Locator:
        return self.page.locator(f'#board button[data-key="{name}"]')

    def supply_piece(self, piece: str) -> Locator:
        return self.page.locator(f'#supply button[data-key="{piece}"]')

    def place(self, cell: str) -> None:
        """Place the piece in hand on ``cell`` once the page offers it, as a person does."""
        expect(self.cell(cell)).to_have_class(re.compile(r"\bplayable\b"))
        self.press(self.cell(cell))
        expect(self.cell(cell)).to_have_attribute("data-piece", re.compile("^[0-9A-F]$"))
        self.wait_until_idle()

    def give(self, piece: str) -> None:
        """Hand ``piece`` over once the page offers it, as a person does."""
        expect(self.supply_piece(piece)).to_have_class(re.compile(r"\bplayable\b"))
        self.press(self.supply_piece(piece))
        expect(self.supply_piece(piece)).to_have_count(0)
        self.wait_until_idle()

    def button(self, element_id: str) -> Locator:
        return self.page.locator(f"#{element_id}")

    def wait_until_idle(self) -> None:
        """Wait until the person can act or the game is over: no request on its way."""
        self.page.wait_for_function(
            """() => {
                const game = document.getElementById("game-view");
                if (!game || game.getAttribute("aria-busy") !== "false") return false;
                const over = !document.getElementById("end-panel").hidden;
                return over || document.querySelector("#board .playable, #supply .playable");
            }"""
        )

    def is_over(self) -> bool:
        return self.page.locator("#end-panel").is_visible()

    def play_to_end(self, max_actions: int = 40) -> None:
        """Play on (first free cell, first piece) until the game is over."""
        for _ in range(max_actions):
            self.wait_until_idle()
            if self.is_over():
                return
            free = self.page.locator("#board button.playable")
            if free.count():
                self.place(free.first.get_attribute("data-key") or "")
            else:
                piece = self.page.locator("#supply button.playable").first
                self.give(piece.get_attribute("data-key") or "")
        raise AssertionError("the game did not end")

    # ---- seeing -----------------------------------------------------------

    def board(self) -> list[str | None]:
        """The piece on each cell A1..D4 as the page draws it."""
        pieces: list[str | None] = self.page.eval_on_selector_all(
            "#board button", "cells => cells.map(c => c.dataset.piece || null)"
        )
        return pieces

    def hand(self) -> str | None:
        """The piece drawn in the hand (from its SVG class), or None."""
        svg = self.page.locator("#hand svg")
        if not svg.count():
            return None
        match = re.search(r"piece-([0-9A-F])", svg.get_attribute("class") or "")
        return match.group(1) if match else None

    def prompt(self) -> str:
        return self.page.locator("#prompt").inner_text()

    def supply_heading(self, prompt: str = "#prompt") -> str:
        """What the supply's heading must say while a piece is to be handed over:
        the prompt (``prompt``, a selector) while the prompt is not wholly in view
        (on a phone, above the board), and its own words while it is: the
        instruction is never shown twice at once."""
        shown = self.page.locator(prompt)
        whole = shown.evaluate("(el) => { const box = el.getBoundingClientRect();"
                               " return box.top >= 0 && box.bottom <= innerHeight; }")
        return self.t("game.supply.title") if whole else shown.inner_text()

    def check_screen(self, *acting: Locator, audit: bool = True) -> None:
        """The shared layout and accessibility checks (``e2e.layout``) of the
        screen shown, with ``acting`` what the player must act on."""
        check_screen(self.page, acting=acting, audit=audit)

    def assert_apart(self, *targets: Locator) -> None:
        """No two of ``targets`` (each visible) overlap on the screen."""
        boxes = []
        for target in targets:
            box = target.bounding_box()
            assert box is not None, f"{target} is not shown"
            boxes.append((str(target), box))
        for index, (name, a) in enumerate(boxes):
            for other, b in boxes[index + 1:]:
                apart = (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
                         or a["y"] + a["height"] <= b["y"] + 0.5
                         or b["y"] + b["height"] <= a["y"] + 0.5)
                assert apart, f"{name} overlaps {other}: {a} and {b}"

    def use_language(self, lang: str) -> None:
        """Switch the page's language as a person does, with the menu."""
        self.page.locator("#lang-select").select_option(lang)
        self.lang = lang
        expect(self.page.locator("html")).to_have_attribute("lang", lang)

    def screenshot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=SCREENSHOTS / f"{name}-{self.device}.png", full_page=True)


Person = Callable[..., QuadsPage]
"""Makes a person (the ``person`` fixture): ``person(base_url, device, lang)`` is a
page of a browser context of their own, so of a cookie of their own; ``device``
is ``desktop``, ``phone`` (360x740) or ``phone390`` (``PHONE``)."""
