"""Benchmark the solver on the shared benchmark positions, and optionally the whole game.

Usage (from the repository root)::

    python bench/solver.py [POSITIONS_FILE] [--threads N] [--pure] [--full-game quads,classic]

``POSITIONS_FILE`` has one position a line, ``RULES ROWS HAND empties=N``
(default: ``../shared/bench/positions.txt`` relative to the repository root).
Every position is solved once; the script prints each result, then the median
time per rule set and number of empty cells, with node counts and node rates.
``--full-game`` also solves the empty board (``..../..../..../.... -``) for the
named rule sets, which takes minutes, and reports value, time and peak memory.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from quads.position import Position
from quads.rules import Rules
from quads.solver import Progress, compiled_available, solve
from quads.solver.kernel import load_kernel

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_POSITIONS = ROOT.parent / "shared" / "bench" / "positions.txt"
START = "..../..../..../.... -"


def read_positions(path: Path) -> list[tuple[str, Position, int]]:
    """The ``(rules name, position, empty cells)`` of each line of ``path``."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rules, rows, hand, empties = line.split()
        position = Position.from_string(f"{rows} {hand}")
        cases.append((rules, position, int(empties.removeprefix("empties="))))
    return cases


def peak_mb() -> float:
    """Peak resident memory of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_positions(path: Path, threads: int | None, pure: bool) -> None:
    cases = read_positions(path)
    times: dict[tuple[str, int], list[float]] = defaultdict(list)
    nodes: dict[tuple[str, int], list[int]] = defaultdict(list)
    for name, position, empties in cases:
        rules = Rules.parse(name)
        start = time.perf_counter()
        solution = solve(position, rules, threads=threads, pure=pure or None)
        seconds = time.perf_counter() - start
        times[name, empties].append(seconds)
        nodes[name, empties].append(solution.nodes)
        value = solution.value.value
        if solution.plies is not None:
            value += f" in {solution.plies}"
        best = solution.best.text if solution.best else "-"
        print(f"{name:8} {empties:3} {position.to_string():24} {value:12} {best:5} "
              f"{solution.nodes:>13,} nodes {seconds:8.3f} s", flush=True)
    print()
    print(f"{'rules':8} {'empty':>5} {'median s':>9} {'max s':>8} {'median nodes':>14} "
          f"{'Mnodes/s':>9}")
    for name, empties in sorted(times, key=lambda k: (k[0], k[1])):
        t = times[name, empties]
        n = nodes[name, empties]
        rate = sum(n) / sum(t) / 1e6 if sum(t) > 0 else 0.0
        print(f"{name:8} {empties:5} {statistics.median(t):9.3f} {max(t):8.3f} "
              f"{statistics.median(n):>14,.0f} {rate:9.2f}")


def bench_full_game(names: list[str], threads: int | None, pure: bool) -> None:
    for name in names:
        rules = Rules.parse(name)
        last = [0.0]

        def report(progress: Progress, last: list[float] = last) -> None:
            if progress.seconds - last[0] >= 30:
                last[0] = progress.seconds
                print(f"  ... {progress.stage} {progress.done}/{progress.total}, "
                      f"{progress.nodes:,} nodes, {progress.seconds:.0f} s", flush=True)

        start = time.perf_counter()
        solution = solve(Position.from_string(START), rules, threads=threads, pure=pure or None,
                         progress=report)
        seconds = time.perf_counter() - start
        print(f"full game {name}: {solution.value.value}, {solution.nodes:,} nodes, "
              f"{seconds:.1f} s, {solution.nodes / seconds / 1e6:.2f} Mnodes/s, "
              f"peak memory {peak_mb():.0f} MiB", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="?", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--threads", type=int, help="search threads (default: automatic)")
    parser.add_argument("--pure", action="store_true", help="use the pure-Python kernel")
    parser.add_argument("--full-game", metavar="RULES",
                        help="also solve the whole game for these comma-separated rule sets "
                             "(long: minutes each)")
    parser.add_argument("--skip-positions", action="store_true",
                        help="only run --full-game")
    args = parser.parse_args(argv)
    kernel = load_kernel(pure=True if args.pure else None)
    print(f"kernel: {kernel.name} (compiled available: {compiled_available()})")
    if not args.skip_positions:
        bench_positions(args.positions, args.threads, args.pure)
    if args.full_game:
        bench_full_game([n.strip() for n in args.full_game.split(",")], args.threads, args.pure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
