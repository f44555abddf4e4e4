"""Benchmark the solver on the shared benchmark positions, and optionally the whole game.

Usage (from the repository root)::

    python bench/solver.py [POSITIONS_FILE] [--threads 1,2] [--pure] [--full-game quads,classic]

``POSITIONS_FILE`` has one position a line, ``RULES ROWS HAND empties=N``
(default: ``../shared/bench/positions.txt`` relative to the repository root).
Every position is solved once with each number of threads in ``--threads``
(a comma list; default: the solver's own choice); the script prints each
result, then the median time per rule set and number of empty cells, with
node counts and node rates.  With two or more thread counts it also prints,
for each position and in all, the wall time of each count as a ratio to the
first, measured in this one run, and checks that every count found the same
value and the same best turn's value.  ``--full-game`` also solves the empty
board (``..../..../..../.... -``) for the named rule sets, which takes about
a minute each, and reports value, nodes, wall and CPU time and peak memory.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from quads.position import Position
from quads.rules import Rules
from quads.solver import Progress, ProgressCallback, Solution, compiled_available, solve
from quads.solver.kernel import load_kernel
from quads.turn import Turn

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_POSITIONS = ROOT.parent / "shared" / "bench" / "positions.txt"
START = "..../..../..../.... -"
REPEATS = 5
REPEAT_BELOW = 0.1
REPEAT_FOR = 0.5


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


@dataclass(frozen=True, slots=True)
class Run:
    """One solve: its answer and what it cost."""

    value: str
    best_value: str
    nodes: int
    seconds: float
    cpu: float


def timed_solves(position: Position, rules: Rules, counts: list[int | None], pure: bool,
                 progress: ProgressCallback | None = None, check: bool = True) -> list[Run]:
    """Solve with each thread count in ``counts``: for each, the value (with distance),
    the best turn's value, nodes, wall and CPU time.

    While a solve takes less than :data:`REPEAT_BELOW` seconds, the solves are
    repeated, taking the counts in turn (in the other order every other round),
    at least :data:`REPEATS` times and for :data:`REPEAT_FOR` seconds a count,
    and each count is timed by its fastest run.  So a millisecond of noise does
    not read as a ratio, and a slow spell of the machine, or of the memory
    allocator (whose state can make the same millisecond solve take one or two
    milliseconds, alternately from one solve to the next), falls on every count
    alike.
    """
    fastest = [(float("inf"), float("inf"))] * len(counts)
    solutions: list[Solution | None] = []
    began = time.perf_counter()
    rounds = 0
    while rounds < REPEATS or time.perf_counter() - began < REPEAT_FOR * len(counts):
        rounds += 1
        solutions = [None] * len(counts)
        order = list(enumerate(counts))
        for index, threads in order if rounds % 2 else order[::-1]:
            began_cpu = time.process_time()
            start = time.perf_counter()
            solutions[index] = solve(position, rules, threads=threads, pure=pure or None,
                                     progress=progress)
            took = time.perf_counter() - start
            if took < fastest[index][0]:
                fastest[index] = (took, time.process_time() - began_cpu)
        if all(seconds >= REPEAT_BELOW for seconds, _ in fastest):
            break
    runs: list[Run] = []
    for solution, (seconds, cpu) in zip(solutions, fastest, strict=True):
        assert solution is not None
        value = solution.value.value
        if solution.plies is not None:
            value += f" in {solution.plies}"
        runs.append(Run(value, best_value(position, rules, solution.best) if check else "-",
                        solution.nodes, seconds, cpu))
    return runs


def best_value(position: Position, rules: Rules, best: Turn | None) -> str:
    """The value of the best turn for the player making it, solved on its own (one thread)."""
    if best is None:
        return "-"
    if best.place is not None and position.hand is not None and (
            position.winning_cells(position.hand, rules) >> best.place & 1):
        return "win"
    after = position.play(best)
    if after.empty_count == 0:
        return "draw"
    return {"win": "loss", "loss": "win"}.get(v := solve(after, rules, threads=1).value.value, v)


def bench_positions(path: Path, counts: list[int | None], pure: bool) -> bool:
    """Solve every position with each thread count; ``False`` if the counts disagree."""
    cases = read_positions(path)
    times: dict[tuple[str, int, int | None], list[float]] = defaultdict(list)
    nodes: dict[tuple[str, int, int | None], list[int]] = defaultdict(list)
    agree = True
    worst = 0.0
    for name, position, empties in cases:
        rules = Rules.parse(name)
        runs = timed_solves(position, rules, counts, pure)
        for threads, run in zip(counts, runs, strict=True):
            times[name, empties, threads].append(run.seconds)
            nodes[name, empties, threads].append(run.nodes)
        first = runs[0]
        line = (f"{name:8} {empties:3} {position.to_string():24} {first.value:12} "
                f"{first.nodes:>13,} nodes {first.seconds:8.3f} s")
        for threads, run in zip(counts[1:], runs[1:], strict=True):
            ratio = run.seconds / first.seconds if first.seconds > 0 else 1.0
            worst = max(worst, ratio)
            line += f" | {threads} threads {run.seconds:7.3f} s x{ratio:.2f}"
            if (run.value.split(" in")[0], run.best_value) != (
                    first.value.split(" in")[0], first.best_value):
                agree = False
                line += f" DIFFERENT: {run.value} / {run.best_value}"
        print(line, flush=True)
    print()
    print(f"{'rules':8} {'empty':>5} {'threads':>7} {'median s':>9} {'max s':>8} "
          f"{'median nodes':>14} {'Mnodes/s':>9}")
    for name, empties, threads in sorted(times, key=lambda k: (k[0], k[1], str(k[2]))):
        t = times[name, empties, threads]
        n = nodes[name, empties, threads]
        rate = sum(n) / sum(t) / 1e6 if sum(t) > 0 else 0.0
        print(f"{name:8} {empties:5} {threads or 'auto':>7} {statistics.median(t):9.3f} "
              f"{max(t):8.3f} {statistics.median(n):>14,.0f} {rate:9.2f}")
    if len(counts) > 1:
        total = [sum(v for (_, _, c), vs in times.items() if c == threads for v in vs)
                 for threads in counts]
        print()
        for threads, seconds in zip(counts, total, strict=True):
            print(f"all positions, {threads} threads: {seconds:.2f} s "
                  f"(x{seconds / total[0]:.2f} of {counts[0]} thread)")
        print(f"slowest position against {counts[0]} thread: x{worst:.2f}")
    return agree


def bench_full_game(names: list[str], counts: list[int | None], pure: bool) -> bool:
    """Solve the empty board of each rule set with each thread count; ``False`` on disagreement."""
    agree = True
    for name in names:
        rules = Rules.parse(name)
        runs: list[Run] = []
        for threads in counts:
            last = [0.0]

            def report(progress: Progress, last: list[float] = last) -> None:
                if progress.seconds - last[0] >= 10:
                    last[0] = progress.seconds
                    print(f"  ... {progress.stage} {progress.done}/{progress.total}, "
                          f"{progress.nodes:,} nodes, {progress.seconds:.0f} s",
                          file=sys.stderr, flush=True)

            [run] = timed_solves(Position.from_string(START), rules, [threads], pure, report, False)
            runs.append(run)
            ratio = run.seconds / runs[0].seconds
            print(f"full game {name}, {threads or 'auto'} threads: {run.value}, "
                  f"{run.nodes:,} nodes, {run.seconds:.1f} s wall (x{ratio:.2f}), "
                  f"{run.cpu:.1f} s CPU, {run.nodes / run.seconds / 1e6:.2f} Mnodes/s, "
                  f"peak memory {peak_mb():.0f} MiB", flush=True)
            agree = agree and run.value == runs[0].value
    return agree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="?", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--threads", default="",
                        help="comma list of thread counts to compare (default: automatic)")
    parser.add_argument("--pure", action="store_true", help="use the pure-Python kernel")
    parser.add_argument("--full-game", metavar="RULES",
                        help="also solve the whole game for these comma-separated rule sets "
                             "(long: about a minute each)")
    parser.add_argument("--skip-positions", action="store_true",
                        help="only run --full-game")
    args = parser.parse_args(argv)
    counts: list[int | None] = [int(t) for t in args.threads.split(",") if t.strip()] or [None]
    kernel = load_kernel(pure=True if args.pure else None)
    print(f"kernel: {kernel.name} (compiled available: {compiled_available()}), "
          f"{os.cpu_count()} cores")
    agree = True
    if not args.skip_positions:
        agree = bench_positions(args.positions, counts, args.pure) and agree
    if args.full_game:
        names = [n.strip() for n in args.full_game.split(",")]
        agree = bench_full_game(names, counts, args.pure) and agree
    if not agree:
        print("the thread counts disagreed on some value", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
