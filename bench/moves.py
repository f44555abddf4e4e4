"""Benchmark the computer's turns: how long each level takes to choose one.

Usage (from the repository root)::

    python bench/moves.py [--rules quads,classic] [--levels 3,5] [--positions 6]

For each rule set, level and number of empty cells from 15 down to 8, the script
lets the level choose a turn in ``--positions`` positions reached by random play
that wins nowhere (the same positions every run), and prints the mean and the
largest milliseconds of a choice.  That is the CPU a server spends on one move
of a game against the computer, before any saving or sending.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from quads.players import make_player
from quads.rules import Rules

sys.path.insert(0, str(Path(__file__).resolve().parent))

from small_solves import positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="quads,classic")
    parser.add_argument("--levels", default="3,5")
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args(argv)
    print(f"{'rules':8} {'level':>5} {'empty':>5} {'mean ms':>8} {'max ms':>8}")
    for name in args.rules.split(","):
        rules = Rules.parse(name)
        for level in (int(text) for text in args.levels.split(",")):
            for empties in range(15, 7, -1):
                taken = []
                chosen = positions(rules, empties, args.positions,
                                   random.Random(f"{name} {empties}"))
                for index, position in enumerate(chosen):
                    player = make_player(level, seed=index)
                    start = time.perf_counter()
                    player.choose_turn(position, rules)
                    taken.append(time.perf_counter() - start)
                print(f"{name:8} {level:5} {empties:5} {statistics.mean(taken) * 1e3:8.1f} "
                      f"{max(taken) * 1e3:8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
