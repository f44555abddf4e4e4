"""The analysis board while the engine is busy with the same address's work: the
server refuses the page's request with ``429 engine_busy``, and the page asks
again after ``Retry-After`` and shows the answer."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from urllib.parse import quote

from playwright.sync_api import Response, expect

from e2e.quads_page import QuadsPage

SLOW = "..../..../..../.... 0"
SLOW_RULES = "lines+squares:height,color,shape:declare"
"""The empty board under a rule set no opening book serves: a complete analysis takes
minutes, so the search uses its whole budget (3 s) and stays incomplete, and an
incomplete answer is never remembered."""

ASKED = {"desktop": "0F8./71.3/.A.2/5..6 9", "phone": "0F8./71.3/.A.2/59.. 6"}
"""A position no other test asks, one per device (an answer is remembered)."""


def test_the_analysis_board_asks_again_when_the_engine_is_busy(quads_own: QuadsPage) -> None:
    page = quads_own.page
    statuses: list[int] = []

    def seen(response: Response) -> None:
        if "/api/analysis" in response.url:
            statuses.append(response.status)

    page.on("response", seen)
    quads_own.open("/#/new")
    url = f"{quads_own.base_url}/api/analysis?position={quote(SLOW)}&rules={quote(SLOW_RULES)}"
    refused = threading.Event()

    def hold() -> None:
        """Keep a slow analysis running until the page was refused once."""
        while not refused.is_set():
            try:
                urllib.request.urlopen(url, timeout=30).read()
            except urllib.error.HTTPError:
                time.sleep(0.05)  # the page holds a share itself: ask again
            except OSError:
                return  # the server is gone: the test has ended

    held = [threading.Thread(target=hold) for _ in range(2)]  # the share of 127.0.0.1,
    for thread in held:  # the page's address too (a server of its own: no one else's jobs)
        thread.start()
    time.sleep(0.5)
    assert all(thread.is_alive() for thread in held), "the engine answered too soon"
    position = ASKED[quads_own.device]
    quads_own.open(f"/#/analyse/quads/{quote(position)}")
    deadline = time.monotonic() + 20
    while 429 not in statuses and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    refused.set()
    assert 429 in statuses, statuses
    view = page.locator("#analyse-view")
    expect(page.locator("#analyse-position")).to_have_text(position)
    expect(view).to_have_attribute("aria-busy", "false", timeout=30_000)
    expect(page.locator("#analyse-board .value-mark").first).to_be_visible()
    for thread in held:
        thread.join(30)
    assert statuses[-1] == 200, statuses
