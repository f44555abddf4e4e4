"""The installed app without a network, in headless Chromium: what it keeps, how fast
it opens, and how fast its engine answers.

Usage (from the repository root)::

    python bench/offline.py [--games N] [--starts N] [--presets quads,classic,advanced]

It starts ``quads serve`` on a fresh database, opens the page until its service
worker keeps everything for offline use, and prints:

- **kept**: the bytes of every file the service worker keeps (the page, its modules,
  the catalogues, the WebAssembly engine and the opening books);
- **cold start**: the server stopped, the installed app opened in a new tab at a game
  on the device, from the navigation to a board the player can press (p50, p95, max
  over ``--starts`` openings);
- **engine**: games of level 5 against level 3 played in the page by its engine (in its
  Web Worker), ``--games`` per preset; every level-5 turn, and at each of its turns a
  hint and the analysis of every turn (as the Analyse switch asks it), timed in the
  page: p50, p95 and max by empty cells, and the count of analyses left incomplete
  (level 5 takes the first side in odd games, the second in even ones).

The figures are wall-clock times on this machine; run nothing else meanwhile.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from servers import Server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

KEPT_BYTES = """async () => {
    let total = 0, files = 0;
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            total += (await (await cache.match(request)).arrayBuffer()).byteLength;
            files += 1;
        }
    }
    return {total, files};
}"""

KEPT = """async (path) => {
    for (const name of await caches.keys()) {
        if (await (await caches.open(name)).match(path)) return true;
    }
    return false;
}"""

PLAY = """async ([rules, seed]) => {
    const { engineClient: engine } = await import("/js/engine/client.js");
    const { Game, parseAction } = await import("/js/rules/game.js");
    const { Rules } = await import("/js/rules/rules.js");
    const game = new Game(Rules.parse(rules));
    const turns = [], hints = [], analyses = [];
    let ply = 0;
    while (!game.isOver()) {
        const level5 = (game.toMove === "first") === (seed % 2 === 1); // sides alternate
        const data = { rules, actions: game.snapshot().actions };
        const empties = game.position.emptyCount;
        if (level5) {
            let t = performance.now();
            await engine.hint(data, { seconds: 1 });
            hints.push([empties, performance.now() - t]);
            t = performance.now();
            const seen = await engine.analysis(game.position.toString(), rules, { seconds: 3 });
            analyses.push([empties, performance.now() - t, seen.complete]);
        }
        const t = performance.now();
        const texts = await engine.computerActions(data, level5 ? 5 : 3, { seed: seed * 64 + ply });
        if (level5) turns.push([empties, performance.now() - t]);
        for (const text of texts) game.apply(parseAction(text));
        ply += 1;
    }
    return { turns, hints, analyses, winner: game.outcome.winner };
}"""


def wait(page: Any, check: str, seconds: float = 60) -> None:
    """Wait until the function ``check`` answers true in ``page`` (polled from here: the
    page's policy allows no evaluated strings)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(check):
        assert time.monotonic() < deadline, f"not so after {seconds} s: {check}"
        time.sleep(0.01)


def quantiles(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):7.0f} {p95:7.0f} {ordered[-1]:7.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per preset")
    parser.add_argument("--starts", type=int, default=10, help="cold starts timed")
    parser.add_argument("--presets", default="quads,classic,advanced")
    options = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="quads-offline-"))
    server = Server(str(folder / "games.sqlite3"), 1, folder / "server.log")
    server.wait_ready()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(base_url=server.base, service_workers="allow",
                                      viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto("/#/new")
        wait(page, "() => navigator.serviceWorker.controller !== null")
        for path in ("/engine/quads.wasm", "/engine/books/lines.bin",
                     "/engine/books/lines-squares.bin"):
            deadline = time.monotonic() + 60
            while not page.evaluate(KEPT, path):
                assert time.monotonic() < deadline, f"{path} is not kept"
                time.sleep(0.2)
        kept = page.evaluate(KEPT_BYTES)
        print(f"kept for offline use: {kept['files']} files, {kept['total'] / 2**20:.2f} MiB")

        # A game on the device, then the server gone: the installed app opened again.
        server.stop()
        page.goto("/#/new")
        page.locator('label.choice:has(input[name="mode"][value="local"])').click()
        page.locator("#start-button").click()
        page.wait_for_url("**/#/device/*")
        address = page.url
        starts = []
        for _ in range(options.starts):
            tab = context.new_page()
            began = time.perf_counter()
            tab.goto(address)
            wait(tab, """() => document.body.dataset.ready === "true"
                && document.querySelectorAll("#supply button.playable").length > 0""")
            starts.append(1000 * (time.perf_counter() - began))
            tab.close()
        print(f"cold start to a playable board (ms): p50 p95 max {quantiles(starts)}")

        print("engine in the page (ms), level 5 against level 3:")
        print(f"{'preset':9} {'empty':>5}  {'level-5 turn p50 p95 max':>24}  "
              f"{'hint p50 p95 max':>24}  {'analysis p50 p95 max':>24}  unfinished")
        for preset in options.presets.split(","):
            turns: dict[int, list[float]] = defaultdict(list)
            hints: dict[int, list[float]] = defaultdict(list)
            analyses: dict[int, list[float]] = defaultdict(list)
            open_: dict[int, int] = defaultdict(int)
            for seed in range(1, options.games + 1):
                played: dict[str, Any] = page.evaluate(PLAY, [preset, seed])
                for empties, ms in played["turns"]:
                    turns[empties].append(ms)
                for empties, ms in played["hints"]:
                    hints[empties].append(ms)
                for empties, ms, complete in played["analyses"]:
                    analyses[empties].append(ms)
                    open_[empties] += not complete
            for empties in sorted(set(turns) | set(hints), reverse=True):
                print(f"{preset:9} {empties:5}  {quantiles(turns[empties]):>24}  "
                      f"{quantiles(hints[empties]):>24}  {quantiles(analyses[empties]):>24}  "
                      f"{open_[empties]:10}")
            every = [ms for values in turns.values() for ms in values]
            print(f"{preset:9} {'all':>5}  {quantiles(every):>24}  "
                  f"{quantiles([m for v in hints.values() for m in v]):>24}  "
                  f"{quantiles([m for v in analyses.values() for m in v]):>24}")
        browser.close()


if __name__ == "__main__":
    main()
