"""Bots and people over HTTP for the tests of bots, and an app served in this process.

:func:`serving` runs the app that a test made (``create_app``) under uvicorn on a
free loopback port, in a thread of the test's process, so that the test can watch
the app's own objects (the store's engine) while it talks to it over HTTP like any
client.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from e2e.quads_server import free_port

BLITZ = {"initial": 300, "increment": 5}
"""A clock of the lobby's and of online games."""


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` on a free port of 127.0.0.1 until the block ends; its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=5))
    thread = threading.Thread(target=server.run, name="test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive(), "the server stopped"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def newcomer(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=30)


def bot(url: str) -> tuple[httpx.Client, dict[str, Any]]:
    """A new bot, calling with its bearer token only, and the upgrade's answer."""
    client = newcomer(url)
    made = client.post("/api/bot/upgrade")
    assert made.status_code == 200, made.text
    body: dict[str, Any] = made.json()
    client.cookies.clear()
    client.headers["Authorization"] = f"Bearer {body['token']}"
    return client, body


def person(url: str) -> httpx.Client:
    """A new person, calling with the cookie of ``url``'s server."""
    client = newcomer(url)
    assert client.post("/api/players").status_code == 204
    return client


def hosted(host: httpx.Client) -> dict[str, Any]:
    """A new online game of ``host`` (the second seat free), as ``host`` sees it."""
    game = host.post("/api/games", json={"mode": "online", "rules": "classic",
                                          "clock": BLITZ})
    assert game.status_code == 201, game.text
    view: dict[str, Any] = game.json()
    return view


def next_event(lines: Iterator[str], within: float) -> dict[str, Any]:
    """The next event of a bot's stream (heartbeats aside), which must come within
    ``within`` seconds (the stream's heartbeat bounds the wait past it)."""
    deadline = time.monotonic() + within
    for line in lines:
        assert time.monotonic() < deadline, f"no event within {within} s"
        if line:
            event: dict[str, Any] = json.loads(line)
            return event
    raise AssertionError("the stream ended")


def ended(lines: Iterator[str], within: float) -> list[str]:
    """The rest of a bot's stream, which the server must end within ``within`` seconds
    (its heartbeat bounds the wait past them)."""
    deadline = time.monotonic() + within
    rest = []
    for line in lines:
        assert time.monotonic() < deadline, f"the stream did not end within {within} s"
        rest.append(line)
    return rest


def seated_then_resigned(lines: Iterator[str], host: httpx.Client, taker: httpx.Client,
                         game: dict[str, Any], bot_id: str,
                         within: float) -> dict[str, Any]:
    """The host offers ``game``'s free seat to the bot ``bot_id``, which takes it through
    ``taker``, then resigns: the bot's stream (``lines``) hears the offer, the start and
    the end, each within ``within`` seconds.  The offer as the stream told it."""
    offered = host.post(f"/api/games/{game['id']}/invite-bot", json={"bot": bot_id})
    assert offered.status_code == 200, offered.text
    invitation = next_event(lines, within)
    assert (invitation["type"], invitation["game"]) == ("invitation", game["id"])
    taken = taker.post(f"/api/bot/invitations/{game['id']}/accept")
    assert taken.status_code == 200, taken.text
    assert next_event(lines, within) == {"type": "gameStart", "game": game["id"],
                                         "rules": "classic:losing-calls", "side": "second"}
    view = host.get(f"/api/games/{game['id']}").json()
    resigned = host.post(f"/api/games/{game['id']}/resign", json={"revision": view["revision"]})
    assert resigned.status_code == 200, resigned.text
    assert next_event(lines, within) == {"type": "gameFinish", "game": game["id"]}
    return invitation
