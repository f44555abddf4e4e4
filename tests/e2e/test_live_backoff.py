"""The page's live socket, closed by a busy server (4429: over a limit of
sockets), waits before it tries again instead of reconnecting at once; a
socket that is merely lost is opened again soon, as before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from e2e.quads_server import Server, free_port


class BusyServer(Server):
    """A server that refuses every live socket as over its limit."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory / "games.sqlite3", free_port(), directory / "server.log")
        self.config = directory / "quads.toml"
        self.config.write_text("sockets_per_client = 0\n")

    def command(self) -> list[str]:
        return [*super().command(), "--config", str(self.config)]


@pytest.fixture
def busy_page(browser: Browser, tmp_path: Path) -> Iterator[Page]:
    server = BusyServer(tmp_path)
    server.start()
    context = browser.new_context(base_url=server.url)
    try:
        page = context.new_page()
        page.goto("/")
        yield page
    finally:
        context.close()
        server.stop()


COUNT_OPENS = """async () => {
  const answer = await fetch("/api/games", {method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({mode: "local", rules: "quads"})});
  const game = await answer.json();
  const opens = [];
  const closes = [];
  const Original = window.WebSocket;
  window.WebSocket = class extends Original {
    constructor(...args) {
      super(...args);
      opens.push(performance.now());
      this.addEventListener("close", (event) => closes.push(event.code));
    }
  };
  const { LiveGame } = await import("/js/live.js");
  const live = new LiveGame(game.id, {shown: () => null, onView() {}, onGone() {}});
  await new Promise((done) => setTimeout(done, 3000));
  live.close();
  return {opens: opens.length, codes: closes};
}"""


def test_a_busy_server_is_asked_again_only_later(busy_page: Page) -> None:
    seen = busy_page.evaluate(COUNT_OPENS)
    assert seen["codes"][0] == 4429
    # The first try, then at most one more after 2 to 4 s (not 0.5, 1, 2 s...).
    assert seen["opens"] <= 2
