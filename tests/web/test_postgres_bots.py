"""Bots on two ``quads serve`` processes of one PostgreSQL database: a bot's stream on
one process hears at once of what is done through the other (a seat offered, the game
begun and ended, a game started from the lobby), and a token replaced or revoked
through one is refused by the other at once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest

from bot_helpers import BLITZ, bot, ended, hosted, next_event, person, seated_then_resigned
from e2e.quads_server import Server, free_port
from quads.web.middleware.identity import COOKIE

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
            seated_then_resigned(lines, host, elsewhere, game, made["bot"], SOON)
            # A seek of the bot's, taken on the other process.
            seek = client.post("/api/seeks", json={"rules": "classic", "clock": BLITZ,
                                                   "side": "first"})
            assert seek.status_code == 201, seek.text
            guest = person(two.url)
            paired = guest.post(f"/api/seeks/{seek.json()['id']}/accept")
            assert paired.status_code == 201, paired.text
            assert next_event(lines, SOON) == {"type": "gameStart",
                                               "game": paired.json()["id"],
                                               "rules": "classic:losing-calls",
                                               "side": "first"}


def test_a_token_changed_through_one_process_is_refused_by_the_other_at_once(
        postgres_url: str, tmp_path: Path) -> None:
    with two_servers(postgres_url, tmp_path) as (one, two):
        # A person whose token both processes checked (and may remember) makes itself a
        # bot through one, then replaces its token there.
        browser = person(one.url)
        old = browser.cookies[COOKIE]
        elsewhere = as_bot(two.url, old)
        assert elsewhere.get("/api/players/me").status_code == 200
        made = browser.post("/api/bot/upgrade").json()
        replaced = browser.post("/api/bot/token")
        assert replaced.status_code == 200, replaced.text
        refused = elsewhere.get("/api/players/me")
        assert refused.status_code == 401, refused.text
        assert refused.json()["error"]["code"] == "unknown_player"
        token = replaced.json()["token"]
        assert as_bot(two.url, token).get("/api/players/me").json()["bot"] == made["bot"]
        # Its owner revokes it through two: one refuses it at once, and its stream there
        # ends.
        client = as_bot(one.url, token)
        with client.stream("GET", "/api/bot/stream") as stream:
            assert stream.status_code == 200
            lines = stream.iter_lines()
            assert next(lines) == ""
            owner = httpx.Client(base_url=two.url, timeout=30)
            revoked = owner.post(f"/api/bots/{made['bot']}/revoke",
                                 json={"owner_key": made["owner_key"]})
            assert revoked.status_code == 204, revoked.text
            assert client.get("/api/players/me").status_code == 401
            assert not any(ended(lines, SOON))  # it ended, with nothing to say
