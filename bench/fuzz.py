"""Fuzz the API against its own contract with schemathesis, on a real ``quads serve``.

One server over a fresh SQLite database, and three identities: a *player*, a
*friend* who joins one of the player's online games, and a *stranger*.

1. As the player (their cookie): every operation (but a bot's endless event stream,
   and the change of a bot's own token, after which the player would be nobody),
   every check schemathesis has
   (``--checks all``; an answer may take two minutes before it counts as hung, not
   schemathesis's ten seconds: speed is measured by the benchmarks on a quiet
   machine, and under a test suite's load it says nothing of the contract), in
   every phase: examples, coverage, fuzzing and the
   stateful phase, which follows the document's links to create, play, undo,
   resign and review real games.  ``fuzz_hooks.py`` puts a date or an integer of
   a case at an extreme now and then (year 1 or 9999 with an offset, an integer
   at the edge of 32 or 64 bits or beyond), and checks that every answer of 400
   or more is the API's JSON error.
2. As the stranger, once for each of the player's games (one on one device,
   one against the computer, an online game with a free seat, one with both
   seats taken, a finished one): every operation that takes a game's id, with
   that game's id.  Besides those checks, ``fuzz_hooks.py`` fails any
   ``2xx`` answer, except reading an online game, which anyone holding its
   link may watch.  Afterwards every one of those games must be exactly as
   it was.

3. The account routes (``/api/account...``, ``/api/session...``, ``/api/passkeys...``),
   left out of the player's run (whose cookie an account made of it would retire):
   as an *account* (signed in, its password unknown to the fuzzer; signing itself
   out, ``DELETE /api/session`` or its own session by id, is left out), then as a
   newcomer who has none.  There a request that fits may also be ``401`` (not
   signed in, wrong credentials) or ``429`` (the throttles of sign-ins);
   afterwards the account must still be signed in and hold what it held.

The status a request that fits the schema may get is ``2xx``, or a refusal that
depends on the game's state or on who asks (``403``, ``404``, ``409``, ``422``), or
``413`` for a body over the documented 64 KiB (the schema bounds no size); never
``400``, which means the request does not fit the schema.  One that does not fit
it is refused, ``413`` counting as a refusal like the others.

    python bench/fuzz.py [--examples 100] [--seed 1] [--max-time SECONDS] [--base URL]
                         [--ca PEM] [--host NAME] [--player-only] [--stranger-on KINDS]
                         [--without-coverage]

With ``--base`` it fuzzes a server that already runs there (a site behind its
reverse proxy, ``tests/deploy``) instead of starting its own; such a site may also
answer ``429`` (over its limits).

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
expected-statuses = ["2xx", "403", "404", "409", "413", "422"]

[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422",
                     "428", "429", "5xx"]
"""
COOKIE = "quads_player"
HUNG = 120
"""Seconds after which an answer counts as hung (schemathesis's ``max_response_time``)."""
CONNECTION: list[str] = []
"""schemathesis's options for ``--ca`` and ``--host``."""


def _player(base: str, verify: str | bool = True, host: str | None = None) -> httpx.Client:
    """A new player: a client holding the cookie that ``POST /api/players`` issues."""
    client = httpx.Client(base_url=base, trust_env=False, timeout=30, verify=verify,
                          headers={"Host": host} if host else None)
    client.post("/api/players").raise_for_status()
    assert COOKIE in client.cookies, "the server issued no player cookie"
    return client


KINDS = ("local", "computer", "invited", "seated", "over")
"""The kinds of the player's games, in the order ``_games`` makes them: on one device,
against the computer, online with a free seat, online with both seats taken, finished."""


def _games(player: httpx.Client, friend: httpx.Client) -> dict[str, str]:
    """The player's games, one of each kind of ``KINDS``, in that order: id -> mode."""
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


LEFT_OUT: set[str] = set()
"""The phases a run leaves out (``--without-coverage``)."""


def _phases(names: str) -> str:
    """The phases ``names`` (comma-separated) but those left out."""
    return ",".join(name for name in names.split(",") if name not in LEFT_OUT)


def _schemathesis(base: str, cookie: str, arguments: list[str], workdir: Path,
                  env: dict[str, str]) -> int:
    command = [sys.executable, "-m", "schemathesis.cli", "run", f"{base}/openapi.json",
               "--checks", "all", "--max-response-time", str(HUNG),
               "--no-color", "--generation-database", "none",
               "--workers", "1", "-H", f"Cookie: {COOKIE}={cookie}", *arguments]
    if CONNECTION:
        command += CONNECTION
    print("$", " ".join(command[2:]), flush=True)
    return subprocess.run(command, cwd=workdir, env={**os.environ, **env},
                          check=False).returncode


ACCOUNT_PATHS = r"^/api/(account|session|passkeys)"
"""The routes of accounts: fuzzed apart (step 3)."""

ACCOUNT_STATUSES = '"2xx", "401", "403", "404", "409", "413", "422", "429"'
"""What a request that fits may get on the account routes."""


def _accounts(base: str, config: str, budget: list[str], workdir: Path, hooks: dict[str, str],
              verify: str | bool, host: str | None) -> list[str]:
    """Step 3: the account routes as an account and as a newcomer; the failures."""
    failures = []
    accepted = config.replace('"2xx", "403", "404", "409", "413", "422"', ACCOUNT_STATUSES, 1)
    (workdir / "schemathesis.toml").write_text(accepted, encoding="utf-8")
    account = _player(base, verify, host)
    password = "a quiet heron by the lake of fuzz"
    account.post("/api/account", json={"name": "Fuzzed", "password": password}
                 ).raise_for_status()
    before = account.get("/api/account").json()
    # Signing itself out (this device, or its session by the id the list shows) would
    # leave the run without its account: tests/web/test_accounts_api.py tests both.
    arguments = [*budget, "--include-path-regex", ACCOUNT_PATHS, "--exclude-path",
                 "/api/session", "--exclude-name", "DELETE /api/account/sessions/{session}",
                 "--phases", "examples,coverage,fuzzing"]
    print("== 3. the account routes as an account", flush=True)
    if _schemathesis(base, account.cookies[COOKIE], arguments, workdir, hooks):
        failures.append("the account's run")
    after = account.get("/api/account")
    if after.status_code != 200 or after.json()["name"] != before["name"]:
        failures.append(f"the account's run signed it out or changed it: {after.text}")
    print("== 3. the account routes as a newcomer without one", flush=True)
    newcomer = _player(base, verify, host)
    arguments = [*budget, "--include-path-regex", ACCOUNT_PATHS,
                 "--phases", "examples,coverage,fuzzing"]
    if _schemathesis(base, newcomer.cookies[COOKIE], arguments, workdir, hooks):
        failures.append("the newcomer's run on the account routes")
    if account.get("/api/account").status_code != 200:
        failures.append("the newcomer's run signed the account out")
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100,
                        help="test cases per operation and phase (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="schemathesis's seed (default 1)")
    parser.add_argument("--max-time", type=int, default=None,
                        help="stop each run after this many seconds")
    parser.add_argument("--base", default=None, metavar="URL",
                        help="fuzz the server running at URL instead of starting one")
    parser.add_argument("--ca", default=None, metavar="PEM",
                        help="the certificate that --base's TLS is checked against")
    parser.add_argument("--host", default=None, metavar="NAME",
                        help="the Host header to send (a site's name, with --base)")
    parser.add_argument("--player-only", action="store_true",
                        help="only the player's run, not the stranger's (a quick check of a site)")
    parser.add_argument("--without-coverage", action="store_true",
                        help="leave out schemathesis's coverage phase (the boundary values "
                             "of every parameter, many cases whatever --examples says) from "
                             "the player's and the stranger's runs: a short run")
    parser.add_argument("--stranger-on", default=",".join(KINDS), metavar="KINDS",
                        help="the kinds of the player's games the stranger fuzzes, among "
                             f"{', '.join(KINDS)} (default: all)")
    args = parser.parse_args(argv)
    if args.without_coverage:
        LEFT_OUT.add("coverage")
    kinds = {kind.strip() for kind in args.stranger_on.split(",") if kind.strip()}
    if not kinds <= set(KINDS):
        parser.error(f"--stranger-on: unknown kinds {sorted(kinds - set(KINDS))}")
    if args.ca:
        CONNECTION.extend(["--tls-verify", args.ca])
    if args.host:
        CONNECTION.extend(["-H", f"Host: {args.host}"])
    budget = ["--seed", str(args.seed), "--max-examples", str(args.examples)]
    if args.max_time:
        budget += ["--max-time", str(args.max_time)]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="quads-fuzz-") as scratch:
        workdir = Path(scratch)
        config = (CONFIG if not args.base
                  else CONFIG.replace('"413", "422"]', '"413", "422", "429"]', 1))
        (workdir / "schemathesis.toml").write_text(config, encoding="utf-8")
        server = (None if args.base else
                  Server(str(workdir / "fuzz.sqlite3"), 1, workdir / "server.log"))
        base = args.base.rstrip("/") if args.base else server.base if server else ""
        failures: list[str] = []
        try:
            if server is not None:
                server.wait_ready()
            player, friend, stranger = (_player(base, args.ca or True, args.host)
                                        for _ in range(3))
            games = _games(player, friend)
            print("== 1. as the player: every operation, every phase", flush=True)
            # A bot's event stream answers for as long as the bot listens: no request
            # and answer to fuzz (tests/web/test_bot_api.py tests it, refusals and all).
            # A bot's token replaced or revoked would leave the run without its
            # identity (tests/web/test_bot_keys.py tests those routes).
            endless = ["--exclude-path", "/api/bot/stream", "--exclude-path", "/api/bot/token",
                       "--exclude-path-regex", ACCOUNT_PATHS]
            hooks = {"SCHEMATHESIS_HOOKS": str(HOOKS)}
            every = ["--phases", _phases("examples,coverage,fuzzing,stateful")]
            if _schemathesis(base, player.cookies[COOKIE], [*budget, *endless, *every], workdir,
                             hooks):
                failures.append("the player's run")
            # Taken after the player's own run, which may rename the player (a game's
            # view names its seats' players): only what the stranger did counts.
            before = _state(player, games)
            hooks["QUADS_FUZZ_FOREIGN"] = json.dumps(games)
            chosen = {game: mode for (game, mode), kind in zip(games.items(), KINDS, strict=True)
                      if kind in kinds and not args.player_only}
            for game, mode in chosen.items():
                print(f"== 2. as a stranger, on the player's {mode} game {game}", flush=True)
                stranger_config = config + f'\n[parameters]\n"path.game_id" = "{game}"\n'
                (workdir / "schemathesis.toml").write_text(stranger_config, encoding="utf-8")
                arguments = [*budget, "--include-path-regex", r"\{game_id\}",
                             "--phases", _phases("examples,coverage,fuzzing")]
                if _schemathesis(base, stranger.cookies[COOKIE], arguments, workdir, hooks):
                    failures.append(f"the stranger's run on the {mode} game")
            after = _state(player, games)
            changed = [game for game in games if before[game] != after[game]]
            if changed:
                failures.append(f"the stranger changed the player's games {changed}")
            if not args.player_only:
                failures += _accounts(base, config, budget, workdir, hooks, args.ca or True,
                                      args.host)
        finally:
            if server is not None:
                server.stop()
    minutes = (time.monotonic() - started) / 60
    if failures:
        print(f"FAILED in {minutes:.1f} min: " + "; ".join(failures))
        return 1
    print(f"no failure in {minutes:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
