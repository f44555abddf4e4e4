"""Solve the whole game for every shape set and every set of counted traits.

Usage (from the repository root)::

    python bench/solved.py [--shapes lines,lines+squares] [--out docs/solved.md]

For each shape set (the ten lines; lines and the nine 2x2 squares) and each of
the 15 non-empty sets of counted traits, the empty board is solved (the first
player hands over a piece: by the symmetry of the traits every first piece is
alike), and the value, the nodes searched and the time are printed as they
come, then written as a Markdown table to ``--out`` (keeping the sections
after it, such as the one of bench/draws.py) and, for the learning
pages, as JSON to ``src/quads/web/static/data/solved.json``.  Which traits are
counted matters only by how many (any two sets of the same size are carried
onto each other by relabelling the traits), and the script checks that too:
every set of one size must give the same value.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
from itertools import combinations
from pathlib import Path

from quads.position import Position
from quads.rules import Rules
from quads.solver import solve

ROOT = Path(__file__).resolve().parent.parent
TRAITS = ("height", "color", "shape", "top")
SHAPES = ("lines", "lines+squares")
PAGE_DATA = ROOT / "src" / "quads" / "web" / "static" / "data" / "solved.json"


def trait_sets() -> list[tuple[str, ...]]:
    """The 15 non-empty sets of traits, smallest first."""
    return [names for size in range(1, 5) for names in combinations(TRAITS, size)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default=",".join(SHAPES),
                        help="comma list of shape sets (default: both)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "solved.md",
                        help="the Markdown file to write (default: docs/solved.md)")
    args = parser.parse_args(argv)
    start = Position.from_string("..../..../..../.... -")
    rows = []
    for shapes in args.shapes.split(","):
        by_size: dict[int, str] = {}
        for names in trait_sets():
            rules = Rules.parse(f"{shapes}:{','.join(names)}:auto")
            began = time.monotonic()
            solution = solve(start, rules, threads=1, refine=False)
            seconds = time.monotonic() - began
            value = solution.value.value
            if solution.plies is not None:
                value += f" in {solution.plies}"
            row = (shapes, ", ".join(names), value, solution.nodes, seconds,
                   solution.value.value, solution.plies)
            rows.append(row)
            print(f"{shapes:<14} {row[1]:<26} {value:<12} {solution.nodes:>14,} nodes "
                  f"{seconds:8.1f} s", flush=True)
            if by_size.setdefault(len(names), value) != value:
                print(f"error: {names} gives {value}, other sets of {len(names)} traits "
                      f"{by_size[len(names)]}", file=sys.stderr)
                return 1
    lines = [
        "# The whole game, solved for every variant",
        "",
        "The value of the empty board for the first player (who hands over the first",
        "piece) with perfect play, for each shape set and each set of counted traits,",
        "with the nodes the solver searched and the time it took on one core of a",
        f"2-core machine ({platform.machine()}, Python {platform.python_version()}).",
        "Made by `python bench/solved.py`.",
        "",
        "| shapes | counted traits | value | nodes | seconds |",
        "|---|---|---|---:|---:|",
    ]
    for shapes, listed, value, nodes, seconds, _, _ in rows:
        lines.append(f"| {shapes} | {listed} | {value} | {nodes:,} | {seconds:.1f} |")
    # Sections after the table (## headings, such as bench/draws.py's) are kept.
    old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    later = re.search(r"^## ", old, re.MULTILINE)
    kept = "\n" + old[later.start():] if later else ""
    args.out.write_text("\n".join(lines) + "\n" + kept, encoding="utf-8")
    data = [{"shapes": shapes, "traits": names.split(", "), "value": result, "plies": plies,
             "nodes": nodes, "seconds": round(seconds, 1)}
            for shapes, names, _, nodes, seconds, result, plies in rows]
    PAGE_DATA.parent.mkdir(parents=True, exist_ok=True)
    PAGE_DATA.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"written: {args.out}, {PAGE_DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
