"""Benchmark small solves: their searches on the calling thread, or on a worker thread.

Usage (from the repository root)::

    python bench/small_solves.py [--rules quads,classic] [--positions 8] [--rounds 5]

A solve on one thread with no progress reports asked, of a position with fewer
than ``quads.solver.search.THREADS_MIN_EMPTIES`` empty cells, runs its group
searches on the calling thread.  Asking for progress reports puts them on a
worker thread, as every solve did before.  The script times ``analyse`` and then
``solve`` for ``--positions`` positions per rule set and number of empty cells,
both ways.  The two ways take turns position by position, in the other order
every other round, and each position keeps its fastest of ``--rounds`` rounds.

It prints, per rule set and number of empty cells, the mean milliseconds each
way and their ratio, and checks that both ways found the same values and
searched the same nodes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from quads.position import EMPTY, Position
from quads.rules import Rules
from quads.solver import Progress, analyse, solve
from quads.solver.search import THREADS_MIN_EMPTIES


def positions(rules: Rules, empties: int, count: int, rng: random.Random) -> list[Position]:
    """``count`` positions with ``empties`` empty cells and a piece in hand, by random play
    that wins nowhere and hands over a safe piece where there is one (the same positions
    for the same ``rng`` seed)."""
    found: list[Position] = []
    while len(found) < count:
        position = EMPTY.give(rng.randrange(16))
        while position.hand is not None and position.empty_count > empties:
            winning = position.winning_cells(position.hand, rules)
            cells = [c for c in range(16) if not (position.occupied | winning) >> c & 1]
            if not cells:
                break
            placed = position.place(rng.choice(cells))
            gives = placed.safe_pieces(rules) or placed.supply
            if not gives:
                break
            position = placed.give(rng.choice([p for p in range(16) if gives >> p & 1]))
        if position.empty_count == empties and position.hand is not None:
            found.append(position)
    return found


def ignore(_: Progress) -> None:
    """A progress callback that keeps nothing: it only puts the searches on a worker."""


def timed(position: Position, rules: Rules, worker: bool) -> tuple[float, tuple[object, ...]]:
    """Seconds of ``analyse`` then ``solve``, and what they found."""
    progress = ignore if worker else None
    start = time.perf_counter()
    analysis = analyse(position, rules, threads=1, progress=progress)
    solution = solve(position, rules, threads=1, progress=progress)
    took = time.perf_counter() - start
    found = (analysis.moves, analysis.nodes, solution.value, solution.plies, solution.best,
             solution.nodes)
    return took, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="quads,classic")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    same = True
    print(f"{'rules':8} {'empty':>5} {'calling thread ms':>18} {'worker ms':>10} {'ratio':>6}")
    for name in args.rules.split(","):
        rules = Rules.parse(name)
        for empties in range(4, THREADS_MIN_EMPTIES):
            fastest: dict[bool, dict[int, float]] = defaultdict(dict)
            for round_ in range(args.rounds):
                for index, position in enumerate(positions(rules, empties, args.positions,
                                                           random.Random(f"{name} {empties}"))):
                    answers = []
                    for worker in (False, True) if round_ % 2 else (True, False):
                        took, found = timed(position, rules, worker)
                        best = fastest[worker].get(index, float("inf"))
                        fastest[worker][index] = min(best, took)
                        answers.append(found)
                    same = same and answers[0] == answers[1]
            alone = statistics.mean(fastest[False].values()) * 1e3
            worker_ms = statistics.mean(fastest[True].values()) * 1e3
            print(f"{name:8} {empties:5} {alone:18.2f} {worker_ms:10.2f} "
                  f"{alone / worker_ms:6.2f}", flush=True)
    print("same values and nodes both ways" if same else "DIFFERENT answers")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
