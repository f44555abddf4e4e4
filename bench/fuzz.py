"""Fuzz the API against its own contract with schemathesis, on a real ``quads serve``.

One server over a fresh SQLite database, and three identities: a *player*, a
*friend* who joins one of the player's online games, and a *stranger*.

1. As the player (their cookie): every operation, every check schemathesis has
   (``--checks all``), in every phase: examples, coverage, fuzzing and the
   stateful phase, which follows the document's links to create, play, undo,
   resign and review real games.
2. As the stranger, once for each of the player's games (one on one device,
   one against the computer, an online game with a free seat, one with both
   seats taken, a finished one): every operation that takes a game's id, with
   that game's id.  Besides schemathesis's checks, ``fuzz_hooks.py`` fails any
   ``2xx`` answer, except reading an online game, which anyone holding its
   link may watch.  Afterwards every one of those games must be exactly as
   it was.

The status a request that fits the schema may get is ``2xx``, or a refusal that
depends on the game's state or on who asks (``403``, ``404``, ``409``, ``422``);
never ``400``, which means the request does not fit the schema.

    python bench/fuzz.py [--examples 100] [--seed 1] [--max-time SECONDS]

CI runs a short run of the same (``tests/web/test_contract_fuzz.py``).  Prints
schemathesis's reports; the exit status is 0 when no run found a failure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import Server

HOOKS = Path(__file__).resolve().parent / "fuzz_hooks.py"
CONFIG = """\
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "403", "404", "409", "422"]
"""
COOKIE = "quads_player"


def _player(base: str) -> httpx.Client:
    """A new player: a client holding the cookie the server issues on a first call."""
    client = httpx.Client(base_url=base, trust_env=False, timeout=30)
    client.get("/api/games").raise_for_status()
    assert COOKIE in client.cookies, "the server issued no player cookie"
    return client


def _games(player: httpx.Client, friend: httpx.Client) -> dict[str, str]:
    """The player's games, one of each kind: id -> mode."""
    made = [
        player.post("/api/games", json={"mode": "local"}),
        player.post("/api/games", json={"mode": "computer", "level": 1, "human": "first"}),
        player.post("/api/games", json={"mode": "online", "host": "first"}),
    ]
    full = player.post("/api/games", json={"mode": "online", "host": "second"})
    token = full.json()["invite"].rsplit("/", 1)[1]
    friend.post(f"/api/games/{full.json()['id']}/join", json={"invite": token}).raise_for_status()
    made.append(full)
    over = player.post("/api/games/import", json={
        "mode": "local", "record": '[Rules "quads"]\n\n1. 0 A1 *\n'})
    made.append(over)
    games = {}
    for answer in made:
        answer.raise_for_status()
        games[answer.json()["id"]] = answer.json()["mode"]
    view = over.json()
    for turn in ("1", "B1", "2", "C1", "3", "D1"):  # four 0-3 pieces in row 1: a win
        action = ({"action": "give", "piece": turn} if len(turn) == 1
                  else {"action": "place", "cell": turn})
        answer = player.post(f"/api/games/{view['id']}/actions",
                             json={"revision": view["revision"], **action})
        answer.raise_for_status()
        view = answer.json()
    assert view["outcome"] is not None, "the finished game did not finish"
    return games


def _state(player: httpx.Client, games: dict[str, str]) -> dict[str, Any]:
    """What the player sees of each game, but who has it open."""
    state = {}
    for game in games:
        view = player.get(f"/api/games/{game}").json()
        view.pop("connected", None)
        view.pop("opponent_connected", None)
        state[game] = view
    return state


def _schemathesis(base: str, cookie: str, arguments: list[str], workdir: Path,
                  env: dict[str, str]) -> int:
    command = [sys.executable, "-m", "schemathesis.cli", "run", f"{base}/openapi.json",
               "--checks", "all", "--no-color", "--generation-database", "none",
               "--workers", "1", "-H", f"Cookie: {COOKIE}={cookie}", *arguments]
    print("$", " ".join(command[2:]), flush=True)
    return subprocess.run(command, cwd=workdir, env={**os.environ, **env},
                          check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100,
                        help="test cases per operation and phase (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="schemathesis's seed (default 1)")
    parser.add_argument("--max-time", type=int, default=None,
                        help="stop each run after this many seconds")
    args = parser.parse_args(argv)
    budget = ["--seed", str(args.seed), "--max-examples", str(args.examples)]
    if args.max_time:
        budget += ["--max-time", str(args.max_time)]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="quads-fuzz-") as scratch:
        workdir = Path(scratch)
        (workdir / "schemathesis.toml").write_text(CONFIG, encoding="utf-8")
        server = Server(str(workdir / "fuzz.sqlite3"), 1, workdir / "server.log")
        failures: list[str] = []
        try:
            server.wait_ready()
            player, friend, stranger = (_player(server.base) for _ in range(3))
            games = _games(player, friend)
            before = _state(player, games)
            print("== 1. as the player: every operation, every phase", flush=True)
            if _schemathesis(server.base, player.cookies[COOKIE], budget, workdir, {}):
                failures.append("the player's run")
            hooks = {"SCHEMATHESIS_HOOKS": str(HOOKS),
                     "QUADS_FUZZ_FOREIGN": json.dumps(games)}
            for game, mode in games.items():
                print(f"== 2. as a stranger, on the player's {mode} game {game}", flush=True)
                config = CONFIG + f'\n[parameters]\n"path.game_id" = "{game}"\n'
                (workdir / "schemathesis.toml").write_text(config, encoding="utf-8")
                arguments = [*budget, "--include-path-regex", r"\{game_id\}",
                             "--phases", "examples,coverage,fuzzing"]
                if _schemathesis(server.base, stranger.cookies[COOKIE], arguments, workdir,
                                 hooks):
                    failures.append(f"the stranger's run on the {mode} game")
            after = _state(player, games)
            changed = [game for game in games if before[game] != after[game]]
            if changed:
                failures.append(f"the stranger changed the player's games {changed}")
        finally:
            server.stop()
    minutes = (time.monotonic() - started) / 60
    if failures:
        print(f"FAILED in {minutes:.1f} min: " + "; ".join(failures))
        return 1
    print(f"no failure in {minutes:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
