"""Write the cases that tests/js/kernel.test.mjs checks the WebAssembly kernel against.

Python is the reference: random positions under every preset and several
``SHAPES:TRAITS:CALLING`` rule sets, each with what the Python library says of
it: the danger and safe pieces, the winning cells of the piece in hand, the
solve (value, distance, node count: with one thread, no refining of drawing
turns and the same 2 MiB table the single-threaded kernel in the page
searches exactly the same nodes) and the analysis of every turn.  ``.ci/run``
writes them before ``node --test``::

    python tests/js/make_kernel_cases.py [--per-rules N] [--seed S] [--output FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from quads.position import EMPTY, Position
from quads.rules import Rules
from quads.solver import analyse, solve

OUTPUT = Path(__file__).resolve().parent / "cases" / "kernel.json"
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from solver.solver_helpers import RULE_SETS as SOLVER_RULE_SETS  # noqa: E402

RULE_SETS = (*SOLVER_RULE_SETS, "lines+squares:height,color,top:declare")
"""The solver tests' rule sets (tests/solver/solver_helpers.py) and one more that
calls by declaration: the presets, fewer traits, both shape sets, both callings."""
TABLE_MB = 2


def max_empties(rules: Rules) -> int:
    """The most empty cells of a case: the analysis of every turn stays quick."""
    return {1: 7, 2: 8, 3: 9}.get(len(rules.counted_traits), 11)


def play(rules: Rules, empties: int, rng: random.Random, hand: bool) -> Position:
    """A position with ``empties`` empty cells after random play that never ends the game
    (under ``declare`` completed shapes may stay on the board, dead)."""
    while True:
        position = EMPTY.give(rng.randrange(16))
        while True:
            assert position.hand is not None
            cells = [c for c in range(16) if not position.occupied >> c & 1]
            if not rules.declare:
                winning = position.winning_cells(position.hand, rules)
                cells = [c for c in cells if not winning >> c & 1]
            if not cells:
                break
            placed = position.place(rng.choice(cells))
            if not hand and placed.empty_count == empties:
                return placed
            supply = [p for p in range(16) if placed.supply >> p & 1]
            if not supply:
                break
            position = placed.give(rng.choice(supply))
            if hand and position.empty_count == empties:
                return position


def turn_json(place: int | None, give: int | None) -> dict[str, int | None]:
    return {"place": place, "give": give}


def case(rules: Rules, position: Position) -> dict[str, object]:
    """What the Python library says of ``position``."""
    solution = solve(position, rules, threads=1, refine=False, table_mb=TABLE_MB)
    analysis = analyse(position, rules, threads=1, table_mb=TABLE_MB)
    quick = solve(position, rules, threads=1, refine=False, table_mb=TABLE_MB, distance=False)
    hand = position.hand
    return {
        "rules": rules.name,
        "position": position.to_string(),
        "danger": position.danger(rules),
        "safe": position.safe_pieces(rules),
        "winning": None if hand is None else position.winning_cells(hand, rules),
        "solve": {"value": solution.value.value, "plies": solution.plies,
                  "nodes": solution.nodes},
        "value_only": {"value": quick.value.value, "nodes": quick.nodes},
        "analyse": {
            "value": analysis.value.value,
            "plies": analysis.plies,
            "nodes": analysis.nodes,
            "moves": [{**turn_json(m.turn.place, m.turn.give), "value": m.value.value,
                       "plies": m.plies} for m in analysis.moves],
        },
    }


def make_cases(per_rules: int, seed: int) -> list[dict[str, object]]:
    """``per_rules`` cases for each rule set: empty counts from 1 up, a third of them
    with the side to move handing over first."""
    rng = random.Random(seed)
    cases = []
    for name in RULE_SETS:
        rules = Rules.parse(name)
        top = max_empties(rules)
        for i in range(per_rules):
            empties = 1 + i % top
            hand = i % 3 != 2 or empties == 16
            cases.append(case(rules, play(rules, empties, rng, hand)))
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-rules", type=int, default=40, help="cases per rule set")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    cases = make_cases(args.per_rules, args.seed)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"table_mb": TABLE_MB, "cases": cases}) + "\n",
                           encoding="utf-8")
    print(f"wrote {len(cases)} kernel cases to {args.output} "
          f"in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
