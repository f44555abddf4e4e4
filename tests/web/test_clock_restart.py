"""Clocks survive a crash: ``quads serve`` killed with SIGKILL mid-game and started
again reads every clock from its stored timestamps (the time while no process ran
counts as the mover's, as docs/web-api.md says), and ends on time a game whose
time ran out meanwhile."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from web.test_postgres_servers import Person
from web.test_serve_restart import serve

CONFIG = ('clock_tick = 0.1\nclock_grace = 30.0\nrate_games = "1000/minute"\n'
          'rate_games_per_address = "1000/minute"\n')


def clocked_game(base: str, host: Person, guest: Person, initial: int) -> dict[str, Any]:
    """A game of ``initial`` seconds, past both grace turns: the first side's time runs."""
    view = host.ok(base, "POST", "/api/games",
                   {"mode": "online", "clock": {"initial": initial, "increment": 0}})
    token = view["invite"].rsplit("/", 1)[1]
    view = guest.ok(base, "POST", f"/api/games/{view['id']}/join", {"invite": token})
    view = host.ok(base, "POST", f"/api/games/{view['id']}/actions",
                   {"revision": view["revision"], "action": "give", "piece": "7"})
    for body in ({"action": "place", "cell": "A1"}, {"action": "give", "piece": "3"}):
        view = guest.ok(base, "POST", f"/api/games/{view['id']}/actions",
                        {"revision": view["revision"], **body})
    assert view["clock"]["running"] == "first"
    assert view["clock"]["grace"] is False
    return view


def test_a_killed_server_resumes_every_clock(tmp_path: Path) -> None:
    db, config = tmp_path / "games.sqlite3", tmp_path / "quads.toml"
    config.write_text(CONFIG)
    host, guest = Person(), Person()
    with serve("--db", str(db), "--config", str(config)) as (base, process):
        long = clocked_game(base, host, guest, 120)
        short = clocked_game(base, host, guest, 5)
        moved = time.monotonic()
        process.kill()
        process.wait()
    time.sleep(6)  # down longer than the short game's 5 s
    with serve("--db", str(db), "--config", str(config)) as (base, _):
        view = host.ok(base, "GET", f"/api/games/{long['id']}")
        down = time.monotonic() - moved
        first = view["clock"]["first_ms"]
        # The first side's time ran on, the server's downtime included; nothing else.
        assert 120_000 - (down + 2) * 1000 <= first <= 120_000 - down * 1000 + 200
        assert view["clock"]["second_ms"] == 120_000
        assert view["clock"]["running"] == "first"
        assert view["outcome"] is None
        deadline = time.monotonic() + 10
        while True:
            ended = guest.ok(base, "GET", f"/api/games/{short['id']}")
            if ended["outcome"] is not None or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert ended["outcome"]["reason"] == "time"
        assert ended["outcome"]["winner"] == "second"
        assert ended["revision"] == short["revision"] + 1
