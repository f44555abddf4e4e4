"""The solver's WebAssembly kernel runs in Chromium: in a Web Worker started by the
page, under the page's content security policy, with the answers of the Python
solver; the engine's client reads the opening books the server serves."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from e2e.quads_page import watch_errors
from e2e.quads_server import Server
from quads.position import Position
from quads.rules import Rules
from quads.solver import analyse, solve

ASK_WORKER = """async ([method, args]) => {
    const worker = new Worker("/js/engine/worker.js", { type: "module" });
    try {
        return await new Promise((resolve, reject) => {
            worker.onmessage = ({ data }) => resolve(data);
            worker.onerror = (event) => reject(new Error(event.message || "worker failed"));
            worker.postMessage({ id: 7, method, args });
        });
    } finally {
        worker.terminate();
    }
}"""

POSITIONS = (("classic", ".73./..../2.../6.0. 8"), ("quads", "..1./..../D.4./...0 F"),
             ("lines:color,height:auto", "...9/7..8/..F4/.... -"))


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    context = browser.new_context(base_url=server.url, locale="en-GB")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto("/")
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.mark.parametrize(("rules", "position"), POSITIONS)
def test_the_worker_solves_as_the_python_solver(page: Page, rules: str, position: str) -> None:
    answer = page.evaluate(ASK_WORKER, ["solve", [position, rules]])
    assert "error" not in answer, answer["error"]
    assert answer["id"] == 7
    expected = solve(Position.from_string(position), Rules.parse(rules), threads=1,
                     refine=False)
    got = answer["result"]
    assert (got["value"], got["plies"], got["complete"]) == (
        expected.value.value, expected.plies, True)


def test_the_worker_analyses_every_turn(page: Page) -> None:
    rules, position = POSITIONS[0]
    answer = page.evaluate(ASK_WORKER, ["analyse", [position, rules]])
    assert "error" not in answer, answer["error"]
    expected = analyse(Position.from_string(position), Rules.parse(rules), threads=1)
    assert [(m["place"], m["give"], m["value"], m["plies"]) for m in answer["result"]["moves"]] \
        == [(m.turn.place, m.turn.give, m.value.value, m.plies) for m in expected.moves]


def test_the_worker_refuses_what_it_does_not_know(page: Page) -> None:
    answer = page.evaluate(ASK_WORKER, ["eval", ["1 + 1"]])
    assert (answer["id"], answer["error"]) == (7, "unknown method eval")


def test_the_worker_reads_the_opening_book_the_server_serves(page: Page) -> None:
    answer = page.evaluate(ASK_WORKER, ["analysis", ["..../..../..../.... -", "classic"]])
    assert "error" not in answer, answer["error"]
    result = answer["result"]
    assert (result["source"], result["value"], result["complete"]) == ("book", "draw", True)
    assert len(result["moves"]) == 16


ASK_CLIENT = """async () => {
    const { engineClient } = await import("/js/engine/client.js");
    const game = { rules: "quads", actions: ["give 7"] };
    const actions = await engineClient.computerActions(game, 5, { seed: 3 });
    const advice = await engineClient.hint({ ...game, actions: [...game.actions, ...actions] });
    engineClient.stop();
    return { actions, advice };
}"""


def test_the_client_plays_level_5_and_hints_from_the_book(page: Page) -> None:
    answer = page.evaluate(ASK_CLIENT)
    assert len(answer["actions"]) == 2
    assert answer["advice"]["value"] == "draw"
    assert answer["advice"]["reason_key"] == "hint.draw"
