"""Time the daily puzzle's generation over consecutive dates.

Usage (from the repository root)::

    python bench/puzzles.py [--start YYYY-MM-DD] [--days N]

Generates the puzzle of each of ``N`` consecutive dates (default 60, from
2025-03-03, a Monday), printing each date's weekday, rule set, goal and
seconds, then the median and maximum seconds per date and the mean goal of
each weekday.  Every date's generation should stay under 5 seconds.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time
from collections import defaultdict

from quads.puzzles import WEEKDAYS, puzzle_for
from quads.solver import compiled_available


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", default="2025-03-03", help="first date (default 2025-03-03)")
    parser.add_argument("--days", type=int, default=60, help="number of dates (default 60)")
    args = parser.parse_args()
    start = datetime.date.fromisoformat(args.start)
    print(f"compiled kernel: {compiled_available()}")
    seconds: list[float] = []
    goals: dict[int, list[int]] = defaultdict(list)
    for offset in range(args.days):
        date = start + datetime.timedelta(days=offset)
        began = time.perf_counter()
        puzzle = puzzle_for(date)
        elapsed = time.perf_counter() - began
        seconds.append(elapsed)
        goals[date.weekday()].append(puzzle.moves)
        print(f"{date} {puzzle.weekday[:3]} {puzzle.rules.name:<8} {puzzle.position} "
              f"win in {puzzle.moves} ({puzzle.plies} plies)  {elapsed:6.2f} s", flush=True)
    print(f"{len(seconds)} dates: median {statistics.median(seconds):.2f} s, "
          f"max {max(seconds):.2f} s, total {sum(seconds):.1f} s")
    for weekday in sorted(goals):
        print(f"  {WEEKDAYS[weekday]:<9} mean goal {statistics.mean(goals[weekday]):.2f} own "
              f"placements over {len(goals[weekday])} dates")


if __name__ == "__main__":
    main()
