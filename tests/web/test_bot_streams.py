"""Bots' event streams driven by their games' changes: an idle stream asks the database
nothing, and a stream hears at once of a seat offered to its bot, of the bot's games
begun and ended, and (by its look of every ``bot_sweep`` seconds) of a change nobody
told it of.  The app is served over HTTP in this process, so that the tests can count
the statements its store sends."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from bot_helpers import BLITZ, bot, hosted, next_event, person, seated_then_resigned, serving
from quads.storage import GameStore
from quads.web.app import create_app
from quads.web.middleware.identity import player_id
from quads.web.settings import Settings

SETTINGS = Settings(share_core=False, db_wait=30.0, bot_heartbeat=1.0, bot_sweep=600.0,
                    rate_identities="10000/minute", rate_games="10000/minute",
                    rate_joins="10000/minute", rate_seeks="10000/minute", seek_linger=30.0)
"""A stream that would look by itself only every ten minutes: what it hears sooner, it
was told."""

SOON = 3.0
"""Seconds within which a stream hears of a change (its heartbeat is 1 s)."""


class Served:
    """The app served, and the statements its store sent (with their parameters)."""

    def __init__(self, app: Any, url: str) -> None:
        self.app = app
        self.url = url
        self.statements: list[tuple[str, Any]] = []


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    app = create_app(tmp_path_factory.mktemp("streams") / "games.sqlite3", static_dir=None,
                     settings=SETTINGS)
    with serving(app) as url:
        own = Served(app, url)

        def count(connection: Any, cursor: Any, statement: str, parameters: Any,
                  context: Any, executemany: bool) -> None:
            own.statements.append((statement, parameters))

        event.listen(app.state.store.engine, "before_cursor_execute", count)
        yield own


def _names(parameters: Any) -> set[str]:
    values = parameters.values() if isinstance(parameters, dict) else parameters or ()
    return {value for value in values if isinstance(value, str)}


def test_idle_streams_ask_the_database_nothing(served: Served) -> None:
    bots = [bot(served.url) for _ in range(8)]
    ids = {player_id(made["token"]) for _, made in bots}
    with ExitStack() as stack:
        lines = []
        for client, _ in bots:
            stream = stack.enter_context(client.stream("GET", "/api/bot/stream"))
            assert stream.status_code == 200
            lines.append(stream.iter_lines())
        for each in lines:  # each stream has looked and sent its first heartbeat
            assert next(each) == ""
        served.statements.clear()
        time.sleep(3.5)
        idle = list(served.statements)
        # Something happens: the stream concerned looks at once, and only then.
        host = person(served.url)
        game = hosted(host)
        handle = bots[0][1]["bot"]
        offered = host.post(f"/api/games/{game['id']}/invite-bot", json={"bot": handle})
        assert offered.status_code == 200, offered.text
        assert next_event(lines[0], SOON)["type"] == "invitation"
    about_bots = [statement for statement, parameters in idle if _names(parameters) & ids]
    # Nothing but the writes, for all the players here together, of their being here:
    # the bots' streams' every heartbeat, and the lobby's own (their seeks stay).
    written = [s for s in about_bots if s.startswith("UPDATE players SET bot_seen")]
    kept = [s for s in about_bots if s.startswith("UPDATE seeks SET seen")]
    assert len(written) + len(kept) == len(about_bots), about_bots
    assert len(written) <= 4, written


def test_a_stream_hears_a_seat_offered_and_the_game_begun_and_ended(served: Served) -> None:
    client, made = bot(served.url)
    host = person(served.url)
    game = hosted(host)
    with client.stream("GET", "/api/bot/stream") as stream:
        lines = stream.iter_lines()
        assert next(lines) == ""  # its first look found nothing
        invitation = seated_then_resigned(lines, host, client, game, made["bot"], SOON)
        assert invitation == {
            "type": "invitation", "game": game["id"], "rules": "classic:losing-calls",
            "clock": BLITZ,
            "side": "second", "host": host.get("/api/players/me").json()["name"]}


def test_a_stream_hears_of_a_game_begun_from_the_lobby_and_of_play_again(
        served: Served) -> None:
    client, _ = bot(served.url)
    seek = client.post("/api/seeks", json={"rules": "classic", "clock": BLITZ,
                                           "side": "second"})
    assert seek.status_code == 201, seek.text
    guest = person(served.url)
    with client.stream("GET", "/api/bot/stream") as stream:
        lines = stream.iter_lines()
        assert next(lines) == ""
        game = guest.post(f"/api/seeks/{seek.json()['id']}/accept").json()
        assert next_event(lines, SOON)["game"] == game["id"]
        guest.post(f"/api/games/{game['id']}/resign", json={"revision": game["revision"]})
        assert next_event(lines, SOON) == {"type": "gameFinish", "game": game["id"]}
        again = guest.post(f"/api/games/{game['id']}/rematch")
        assert again.status_code == 201, again.text
        assert next_event(lines, SOON) == {"type": "gameStart", "game": again.json()["id"],
                                           "rules": "classic:losing-calls", "side": "first"}


def test_a_stream_looks_again_when_told_it_may_have_missed_a_change(served: Served,
                                                                   tmp_path: Path) -> None:
    client, made = bot(served.url)
    host = person(served.url)
    game = hosted(host)
    behind = GameStore(served.app.state.store.url)  # writes that no server process tells
    try:
        with client.stream("GET", "/api/bot/stream") as stream:
            lines = stream.iter_lines()
            assert next(lines) == ""
            stored = behind.load(game["id"])
            stored.bot_invited = player_id(made["token"])
            behind.save(stored)
            # Nobody told the stream: it sends heartbeats only.  The notifications'
            # listener, connecting again, has every stream look once.
            assert [next(lines), next(lines)] == ["", ""]
            served.app.state.hub.reload_all()
            assert next_event(lines, SOON)["type"] == "invitation"
    finally:
        behind.close()


def test_a_stream_looks_by_itself_every_sweep(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3", static_dir=None,
                     settings=SETTINGS.replace(bot_sweep=1.0, bot_heartbeat=0.5))
    with serving(app) as url:
        client, made = bot(url)
        host = person(url)
        game = hosted(host)
        behind = GameStore(app.state.store.url)
        try:
            with client.stream("GET", "/api/bot/stream") as stream:
                lines = stream.iter_lines()
                assert next(lines) == ""
                stored = behind.load(game["id"])
                stored.bot_invited = player_id(made["token"])
                behind.save(stored)
                assert next_event(lines, SOON)["type"] == "invitation"
        finally:
            behind.close()
