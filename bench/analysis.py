"""How fast the app judges every turn: the analysis of positions reached in real games.

Usage (from the repository root)::

    python bench/analysis.py [--games 4] [--rules quads,classic,advanced] [--seed 1]
                             [--threads 1] [--seconds 3] [--json]

For each rule set, ``--games`` games are played between computer levels (each
pairing of levels 2 to 5 in turn, seeded), and at every turn the position is
analysed as ``GET /api/analysis`` analyses it: from the opening book where the
book covers it, else by a search of at most ``--seconds`` (the route's own
budget, :data:`quads.web.analysis_api.SECONDS`) on ``--threads`` threads (the
route's: one).  Each analysis starts cold (the route's cache of answers is not
used), so the figures are those of a position nobody asked for before.

Printed, per rule set and number of empty cells: how many positions, the
p50, p95 and max time of their analysis, how many came from the book, and how
many ended with a turn whose value is still unknown (the time budget ran out).
The exit status is 1 when some analysis was not exact.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass

from quads.book import analyse_with_book
from quads.errors import InvalidPositionError
from quads.game import Game
from quads.players import make_player
from quads.rules import Rules
from quads.solver import Value

DEFAULT_SECONDS = 3.0
"""The budget of ``GET /api/analysis`` (``quads.web.analysis_api.SECONDS``)."""
LEVELS = (2, 3, 4, 5)


@dataclass
class Sample:
    """One analysis: the rule set, the empty cells, the time, where it came from."""

    rules: str
    empties: int
    seconds: float
    source: str
    exact: bool


def positions(rules: Rules, games: int, seed: int) -> list[Game]:
    """The games, played to the end between seeded computer levels (every pairing in turn)."""
    pairings = itertools.cycle(itertools.product(LEVELS, repeat=2))
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        first_level, second_level = next(pairings)
        players = (make_player(first_level, rng.randrange(1 << 30)),
                   make_player(second_level, rng.randrange(1 << 30)))
        game = Game(rules)
        side = 0
        while not game.is_over():
            before = len(game.actions)
            players[side].play(game)
            assert len(game.actions) > before
            side = 1 - side
        played.append(game)
    return played


def measure(rules: Rules, games: list[Game], seconds: float, threads: int) -> list[Sample]:
    """Analyse the position before every turn of ``games``, as the route does."""
    samples = []
    seen: set[str] = set()
    for game in games:
        for state in game.states:
            position = state.position
            text = position.to_string()
            if text in seen or position.empty_count == 0:
                continue
            seen.add(text)
            try:
                position.check(rules)
            except InvalidPositionError:
                continue  # a shape completed: the game is over, or a call is due

            start = time.perf_counter()
            analysis, source = analyse_with_book(position, rules, seconds=seconds,
                                                 threads=threads)
            took = time.perf_counter() - start
            exact = analysis.complete and all(m.value is not Value.UNKNOWN
                                              for m in analysis.moves)
            samples.append(Sample(rules.name, position.empty_count, took, source, exact))
            print(f"\r{rules.name}: {len(samples)} positions", end="", file=sys.stderr,
                  flush=True)
    print(file=sys.stderr)
    return samples


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def report(samples: list[Sample]) -> list[dict[str, object]]:
    """One row per rule set and number of empty cells."""
    groups: dict[tuple[str, int], list[Sample]] = defaultdict(list)
    for sample in samples:
        groups[sample.rules, sample.empties].append(sample)
    rows = []
    for (rules, empties), group in sorted(groups.items(), key=lambda item: (item[0][0],
                                                                             -item[0][1])):
        times = [s.seconds for s in group]
        rows.append({
            "rules": rules, "empties": empties, "positions": len(group),
            "p50_ms": round(1000 * statistics.median(times), 1),
            "p95_ms": round(1000 * p95(times), 1), "max_ms": round(1000 * max(times), 1),
            "book": sum(s.source == "book" for s in group),
            "unknown": sum(not s.exact for s in group),
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per rule set")
    parser.add_argument("--rules", default="quads,classic,advanced",
                        help="comma list of rule sets")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="search threads (the route's: 1)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                        help="each analysis's time budget (the route's: 3)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    samples: list[Sample] = []
    for name in args.rules.split(","):
        rules = Rules.parse(name.strip())
        games = positions(rules, args.games, args.seed)
        samples += measure(rules, games, args.seconds, args.threads)
    rows = report(samples)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'rules':10} {'empty':>5} {'positions':>9} {'p50 ms':>8} {'p95 ms':>8} "
              f"{'max ms':>8} {'book':>5} {'unknown':>7}")
        for row in rows:
            print(f"{row['rules']!s:10} {row['empties']:>5} {row['positions']:>9} "
                  f"{row['p50_ms']:>8} {row['p95_ms']:>8} {row['max_ms']:>8} "
                  f"{row['book']:>5} {row['unknown']:>7}")
        total = [s.seconds for s in samples]
        print(f"all: {len(samples)} positions, p95 {1000 * p95(total):.0f} ms, "
              f"{sum(not s.exact for s in samples)} not exact")
    return 0 if all(s.exact for s in samples) else 1


if __name__ == "__main__":
    sys.exit(main())
