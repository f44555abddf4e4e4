"""Bots on two ``quads serve`` processes of one PostgreSQL database: a bot's stream on
one process hears at once of what is done through the other (a seat offered, the game
begun and ended, a game started from the lobby)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest

from bot_helpers import BLITZ, bot, hosted, next_event, person
from e2e.quads_server import Server, free_port

pytestmark = pytest.mark.postgres

SETTINGS = "bot_sweep = 600\nbot_heartbeat = 0.5\nseek_linger = 30\n"
"""Streams that would look by themselves only every ten minutes: what they hear sooner,
they were told."""

SOON = 3.0
"""Seconds within which a stream hears of a change made through the other process."""


@contextmanager
def two_servers(url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    with ExitStack() as stack:
        servers = []
        for name in ("one", "two"):
            server = Server(url, free_port(), tmp_path / f"{name}.log", settings=SETTINGS)
            server.start()
            stack.callback(server.stop)
            servers.append(server)
        yield servers[0], servers[1]


def as_bot(url: str, token: str) -> httpx.Client:
    """The bot of ``token``, calling the server of ``url``."""
    return httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {token}"})


def test_a_stream_hears_what_is_done_through_another_process(postgres_url: str,
                                                             tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path) as (one, two):
        client, made = bot(one.url)
        elsewhere = as_bot(two.url, made["token"])
        host = person(two.url)
        game = hosted(host)
        with client.stream("GET", "/api/bot/stream") as stream:
            lines = stream.iter_lines()
            assert next(lines) == ""  # its first look found nothing
            offered = host.post(f"/api/games/{game['id']}/invite-bot",
                                json={"bot": made["bot"]})
            assert offered.status_code == 200, offered.text
            assert next_event(lines, SOON)["type"] == "invitation"
            taken = elsewhere.post(f"/api/bot/invitations/{game['id']}/accept")
            assert taken.status_code == 200, taken.text
            assert next_event(lines, SOON) == {"type": "gameStart", "game": game["id"],
                                               "rules": "classic", "side": "second"}
            view = host.get(f"/api/games/{game['id']}").json()
            resigned = host.post(f"/api/games/{game['id']}/resign",
                                 json={"revision": view["revision"]})
            assert resigned.status_code == 200, resigned.text
            assert next_event(lines, SOON) == {"type": "gameFinish", "game": game["id"]}
            # A seek of the bot's, taken on the other process.
            seek = client.post("/api/seeks", json={"rules": "classic", "clock": BLITZ,
                                                   "side": "first"})
            assert seek.status_code == 201, seek.text
            guest = person(two.url)
            paired = guest.post(f"/api/seeks/{seek.json()['id']}/accept")
            assert paired.status_code == 201, paired.text
            assert next_event(lines, SOON) == {"type": "gameStart",
                                               "game": paired.json()["id"],
                                               "rules": "classic", "side": "first"}
