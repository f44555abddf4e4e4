"""Benchmark of the explorer: what counting a game costs when it ends, and how fast the
explorer answers at 10,000 and 100,000 stored games.

Usage (from the repository root, with the ``web`` and ``test`` extras installed)::

    python bench/explorer.py [--games 10000 100000] [--ended 300] [--asks 400]
                             [--db sqlite|postgresql] [--seed 1] [--json]

For each size the script makes a fresh store (a SQLite file in a temporary directory,
or a throwaway PostgreSQL cluster of Debian's server programs) and:

* **cost per ended game**: ``--ended`` games of random legal turns, each stored
  unfinished and then saved with its last action, the save that ends it and counts
  its turns (:func:`quads.storage.explorer.end_game`); the same number of saves of
  the same games one action earlier (which count nothing) beside them, so that the
  difference is the counting's own share of the save.  p50 and p95 of each, ms.
* **the store filled**: the counts of the other games (random legal turns, rules
  ``quads``, kinds of game and results as they come) written in batches as the
  ending saves would have written them (the same rows, without the saves);
* **answer time**: ``--asks`` asks of :func:`quads.site.explorer.service.explore` (the
  store's query and the keys of every legal turn of the position, which the route
  runs) for positions of the stored games, half with a filter (games between people,
  or rated ones in a band); p50, p95 and max, ms.  The goal: p95 under 50 ms.

Progress is printed as the store fills.  Measure alone on the machine: two benchmarks
at once share its cores and their figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from sqlalchemy import func, select  # noqa: E402

from postgres_server import PostgresServer, find_bindir  # noqa: E402
from quads import Game, Rules  # noqa: E402
from quads.outcome import Player  # noqa: E402
from quads.site.explorer.service import explore  # noqa: E402
from quads.storage import GameStore, StoredGame  # noqa: E402
from quads.storage.explorer import Filters, Tally, _add, _tally  # noqa: E402
from quads.storage.stored import now  # noqa: E402
from quads.storage.tables import explored  # noqa: E402

QUADS = Rules.parse("quads")
SOURCES = ("people", "level-1", "level-2", "level-3", "level-4", "level-5")


def random_game(rng: random.Random) -> Game:
    """A game of random legal turns to its end."""
    game = Game(QUADS)
    while not game.is_over():
        game.play(rng.choice(list(game.position.legal_turns(QUADS))))
    return game


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 2), "p95": round(percentile(values, 0.95), 2),
            "max": round(max(values), 2)}


@contextmanager
def opened(kind: str) -> Iterator[GameStore]:
    """A fresh store of ``kind``."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as directory:
            store = GameStore(Path(directory) / "explorer.sqlite3")
            try:
                yield store
            finally:
                store.close()
        return
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
    with PostgresServer(bindir) as server:
        server.start()
        store = GameStore(server.url(server.create_database("explorer")))
        try:
            yield store
        finally:
            store.close()


def ending_saves(store: GameStore, games: list[Game]) -> tuple[list[float], list[float]]:
    """Each game stored, saved one action before its end (counts nothing) and then
    with its last action (the save that ends it): the two saves' times, ms."""
    plain, ending = [], []
    for number, game in enumerate(games):
        begun = Game(QUADS)
        for action in game.actions[:-2]:
            begun.apply(action)
        moment = now()
        stored = StoredGame(id=f"bench-{number}", mode="computer", level=1 + number % 5,
                            human=Player.FIRST, seed=1, game=begun, created=moment,
                            updated=moment)
        store.create(stored)
        stored.game.apply(game.actions[-2])
        start = time.perf_counter()
        store.save(stored)
        plain.append((time.perf_counter() - start) * 1000)
        stored.game.apply(game.actions[-1])
        start = time.perf_counter()
        store.save(stored)
        ending.append((time.perf_counter() - start) * 1000)
    return plain, ending


def fill(store: GameStore, count: int, rng: random.Random) -> list[Game]:
    """The counts of ``count`` random games written as their ending saves would write
    them; a sample of the games, for the asks."""
    sample: list[Game] = []
    tally: Tally = {}
    started = time.monotonic()
    for number in range(count):
        game = random_game(rng)
        source = rng.choice(SOURCES)
        rated = source == "people" and rng.random() < 0.5
        band = rng.choice((1200, 1400, 1600, 1800)) if rated else 0
        _tally(tally, game, source, rated, band)
        if len(sample) < 500:
            sample.append(game)
        if len(tally) > 20_000 or number == count - 1:
            with store.begin(write=True) as connection:
                _add(connection, tally, store.postgres)
            tally = {}
            print(f"  {number + 1:,} games counted ({time.monotonic() - started:.0f} s)",
                  file=sys.stderr, flush=True)
    return sample


def asks(store: GameStore, games: list[Game], count: int, rng: random.Random) -> list[float]:
    """The times of ``count`` asks of the explorer, ms."""
    times = []
    for number in range(count):
        game = rng.choice(games)
        position = game.states[rng.randrange(0, max(1, len(game.states) - 1))].position
        filters = None
        if number % 2:
            filters = (Filters(sources=("people",)) if number % 4 == 1
                       else Filters(rated=True, bands=(1400, 1600)))
        start = time.perf_counter()
        explore(store, position, QUADS, filters)
        times.append((time.perf_counter() - start) * 1000)
    return times


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    results: dict[str, Any] = {"db": args.db, "sizes": {}}
    for size in args.games:
        print(f"{size:,} games ({args.db})", file=sys.stderr, flush=True)
        with opened(args.db) as store:
            ended = [random_game(rng) for _ in range(args.ended)]
            sample = fill(store, size - args.ended, rng)
            plain, ending = ending_saves(store, ended)
            times = asks(store, sample + ended, args.asks, rng)
            with store.begin() as connection:
                rows = connection.execute(select(func.count()).select_from(explored)).scalar()
        results["sizes"][size] = {"rows": rows, "save_not_ending_ms": figures(plain),
                                  "save_ending_ms": figures(ending), "answer_ms": figures(times)}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--ended", type=int, default=300)
    parser.add_argument("--asks", type=int, default=400)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = run(args)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for size, found in results["sizes"].items():
        print(f"{size:>7,} games ({results['db']}), {found['rows']:,} rows")
        for name in ("save_not_ending_ms", "save_ending_ms", "answer_ms"):
            figure = found[name]
            print(f"  {name:<20} p50 {figure['p50']:7.2f}  p95 {figure['p95']:7.2f}  "
                  f"max {figure['max']:7.2f}")


if __name__ == "__main__":
    main()
