"""What a timed analysis gets from its transposition table, by size.

Usage (from the repository root)::

    python bench/table.py [--rules lines+squares:height,color,shape:declare]
                          [--seconds 3] [--sizes 1024,256,64,16,4] [--default]

Analyses (one thread, ``--seconds`` each, as ``GET /api/analysis`` does beyond
the books) the first positions of one game of ``--rules``, a rule set no shipped
book covers (16, 15, 14 and 13 empty cells), once with each table size of
``--sizes`` (MiB), and prints for each: wall and CPU time, nodes, and how many
turns were judged.  ``--default`` adds the size the solver takes by itself for
that budget (:func:`quads.solver.default_table_mb`).

A table's memory is touched for the first time during the search; where that
is slow (on a virtual machine, about 3 s a GiB in 2 MiB pages), a large table
leaves a short search no time to search, which is why the default shrinks with
the budget.
"""

from __future__ import annotations

import argparse
import time

from quads.position import Position
from quads.rules import Rules
from quads.solver import Value, analyse, default_table_mb

POSITIONS = ("..../..../..../.... 0", "0.../..../..../.... 5", "0.../.5../..../.... 9",
             "0.../.5../..9./.... 3")
"""The first positions of one game, after 0, 1, 2 and 3 placements."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="lines+squares:height,color,shape:declare",
                        type=Rules.parse, help="a rule set (default: one without a book)")
    parser.add_argument("--seconds", type=float, default=3.0, help="budget of each analysis")
    parser.add_argument("--sizes", default="1024,256,64,16,4",
                        help="table sizes in MiB, a comma list")
    parser.add_argument("--default", action="store_true",
                        help="also the size the solver takes for the budget by itself")
    args = parser.parse_args(argv)
    sizes: list[float | None] = [float(size) for size in args.sizes.split(",") if size]
    if args.default:
        sizes.append(None)
    print(f"rules {args.rules.name}, {args.seconds} s an analysis, one thread")
    print(f"{'empty':>5} {'table MiB':>10} {'wall s':>7} {'CPU s':>6} {'nodes':>12} "
          f"{'judged':>7}")
    for text in POSITIONS:
        position = Position.from_string(text)
        for size in sizes:
            shown = size if size is not None else default_table_mb(
                position.empty_count, seconds=args.seconds)
            began, began_cpu = time.perf_counter(), time.process_time()
            analysis = analyse(position, args.rules, seconds=args.seconds, threads=1,
                               table_mb=size)
            wall, cpu = time.perf_counter() - began, time.process_time() - began_cpu
            judged = sum(move.value is not Value.UNKNOWN for move in analysis.moves)
            label = f"{shown:g}" + ("" if size is not None else " (default)")
            print(f"{position.empty_count:>5} {label:>10} {wall:>7.2f} {cpu:>6.2f} "
                  f"{analysis.nodes:>12,} {judged:>3}/{len(analysis.moves):<3}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
