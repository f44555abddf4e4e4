"""The WebAssembly kernel against the native one on the shared benchmark positions.

Usage (from the repository root)::

    python bench/wasm_kernel.py [POSITIONS_FILE] [--max-empties N] [--limit N]

Every position (``RULES ROWS HAND empties=N`` a line, as for bench/solver.py;
default ``../shared/bench/positions.txt``) is solved by the native kernel
(``quads.solver.solve`` with one thread and no refining of drawing turns, which
is the search the page's kernel makes) and by the page's kernel in node
(bench/wasm_kernel.mjs), both with a fresh table of the default size.  Both
must find the same value, distance and node count; the script prints each
position's two times, then the totals and their ratio (WebAssembly / native)
per rule set and overall, in wall-clock seconds and in CPU seconds of the
process (the second stays meaningful on a machine busy with other work).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from quads.position import Position
from quads.rules import Rules
from quads.solver import compiled_available, default_table_mb, solve

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_POSITIONS = ROOT.parent / "shared" / "bench" / "positions.txt"
NODE_SCRIPT = ROOT / "bench" / "wasm_kernel.mjs"


def read_positions(path: Path) -> list[tuple[str, str, int]]:
    """The ``(rules name, position string, empty cells)`` of each line of ``path``."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rules, rows, hand, empties = line.split()
        cases.append((rules, f"{rows} {hand}", int(empties.removeprefix("empties="))))
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="?", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--max-empties", type=int, default=16,
                        help="leave out positions with more empty cells")
    parser.add_argument("--limit", type=int, default=0, help="at most this many per rule set")
    args = parser.parse_args(argv)
    if not compiled_available():
        print("the native kernel is not built", file=sys.stderr)
        return 2
    cases = [c for c in read_positions(args.positions) if c[2] <= args.max_empties]
    if args.limit:
        kept: dict[str, int] = defaultdict(int)
        chosen = []
        for case in cases:
            if kept[case[0]] < args.limit:
                kept[case[0]] += 1
                chosen.append(case)
        cases = chosen
    native = []
    for name, text, _ in cases:
        start, cpu = time.perf_counter(), time.process_time()
        solution = solve(Position.from_string(text), Rules.parse(name), threads=1, refine=False,
                         pure=False)
        native.append((time.perf_counter() - start, time.process_time() - cpu, solution))
    with tempfile.TemporaryDirectory() as tmp:
        jobs = Path(tmp) / "positions.json"
        jobs.write_text(json.dumps([
            {"rules": name, "position": text, "tableMb": default_table_mb(empties)}
            for name, text, empties in cases
        ]), encoding="utf-8")
        result = subprocess.run(["node", str(NODE_SCRIPT), str(jobs)], capture_output=True,
                                text=True, check=True, cwd=ROOT)
    wasm = json.loads(result.stdout)
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    mismatches = 0
    print(f"{'rules':8} {'empty':>5} {'position':24} {'value':12} {'nodes':>12} "
          f"{'native s':>9} {'wasm s':>8} {'ratio':>6} {'cpu ratio':>9}")
    for (name, text, empties), (seconds, cpu, solution), got in zip(
        cases, native, wasm, strict=True
    ):
        same = (got["value"], got["plies"], got["nodes"]) == (
            solution.value.value, solution.plies, solution.nodes)
        mismatches += not same
        value = solution.value.value + (f" in {solution.plies}" if solution.plies else "")
        ratio = got["seconds"] / seconds if seconds > 0 else 0.0
        cpu_ratio = got["cpu"] / cpu if cpu > 0 else 0.0
        print(f"{name:8} {empties:5} {text:24} {value:12} {solution.nodes:>12,} "
              f"{seconds:9.3f} {got['seconds']:8.3f} {ratio:6.2f} {cpu_ratio:9.2f}"
              f"{'' if same else '  MISMATCH ' + json.dumps(got)}", flush=True)
        for key in (name, "all"):
            for i, amount in enumerate((seconds, got["seconds"], cpu, got["cpu"])):
                totals[key][i] += amount
    print()
    for key, (n_s, w_s, n_cpu, w_cpu) in totals.items():
        print(f"{key:8} native {n_s:8.3f} s  wasm {w_s:8.3f} s  ratio {w_s / n_s:5.2f}   "
              f"cpu: native {n_cpu:8.3f} s  wasm {w_cpu:8.3f} s  ratio {w_cpu / n_cpu:5.2f}")
    if mismatches:
        print(f"{mismatches} positions disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
