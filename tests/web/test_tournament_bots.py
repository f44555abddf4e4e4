"""Bots in tournaments: a bot joins a casual arena with its token (a rated one is for
accounts), shows as a bot in the standings, and its event stream tells it of the game
the server's keeper paired it into, which it then plays like any other.  The app is
served over HTTP in this process, so that the stream is a real one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot_helpers import bot, newcomer, next_event, serving
from quads.web.app import create_app
from quads.web.settings import Settings

SETTINGS = Settings(share_core=False, db_wait=30.0, bot_heartbeat=1.0, bot_sweep=600.0,
                    tournament_tick=0.2, scheduled_arenas=False)
"""A keeper that pairs five times a second, and a stream that would look by itself
only every ten minutes: what it hears sooner, it was told."""

ARENA = {"rules": "quads", "clock": "180+2", "minutes": 30}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(tmp_path_factory.mktemp("arena-bots") / "games.sqlite3",
                     static_dir=None, settings=SETTINGS)
    with serving(app) as served:
        yield served


def test_a_bot_joins_a_casual_arena_and_hears_of_its_game(url: str) -> None:
    person = newcomer(url)
    made = person.post("/api/account", json={"name": "Ada", "password": "a quiet heron"})
    assert made.status_code == 201, made.text
    casual = person.post("/api/tournaments", json=ARENA)
    rated = person.post("/api/tournaments", json={**ARENA, "rated": True})
    assert casual.status_code == rated.status_code == 201
    client, upgraded = bot(url)

    refused = client.post(f"/api/tournaments/{rated.json()['id']}/join")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "account_needed"
    arena = casual.json()["id"]
    with client.stream("GET", "/api/bot/stream") as stream:
        assert stream.status_code == 200
        lines = stream.iter_lines()
        joined = client.post(f"/api/tournaments/{arena}/join")
        assert joined.status_code == 200, joined.text
        line = next(s for s in joined.json()["standings"] if s["you"])
        assert (line["name"], line["bot"]) == (upgraded["name"], True)
        assert person.post(f"/api/tournaments/{arena}/join").status_code == 200
        started = next_event(lines, 5.0)
        assert started["type"] == "gameStart"
        view = client.get(f"/api/tournaments/{arena}").json()
        assert [game["id"] for game in view["games"]] == [started["game"]]
        assert view["playing"] == started["game"]
        game = client.get(f"/api/games/{started['game']}").json()
        assert game["tournament"]["id"] == arena
        assert game["you"] == started["side"]
        # The bot plays it like any other: it resigns, and hears the game is over.
        resigned = client.post(f"/api/games/{started['game']}/resign",
                               json={"revision": game["revision"]})
        assert resigned.status_code == 200, resigned.text
        assert next_event(lines, 5.0) == {"type": "gameFinish", "game": started["game"]}
    table = {s["name"]: s for s in person.get(f"/api/tournaments/{arena}").json()["standings"]}
    assert table["Ada"]["points"] == 2
    assert table[upgraded["name"]]["points"] == 0
    assert not table["Ada"]["bot"]
