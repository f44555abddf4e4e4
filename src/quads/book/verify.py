"""Checking a book: re-solve a random sample of its positions with the solver."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quads.book.format import empties_of
from quads.book.positions import BookNode, node_position, positions_to_solve
from quads.book.probe import load_book
from quads.rules import Rules
from quads.solver import solve
from quads.solver.value import score_of

__all__ = ["VerifyReport", "verify_book"]


@dataclass(slots=True)
class VerifyReport:
    """What a verification found."""

    path: Path
    positions: int
    checked: int = 0
    seconds: float = 0.0
    wrong: list[tuple[int, int | None, int | None]] = field(default_factory=list)
    """``(key, stored score, solved score)`` of each position that disagrees (``None``: a
    position the book lacks, or holds but should not)."""

    def as_json(self) -> dict[str, Any]:
        return {"file": str(self.path), "positions": self.positions, "checked": self.checked,
                "seconds": round(self.seconds, 3),
                "wrong": [{"key": f"{key:#x}", "stored": stored, "solved": solved}
                          for key, stored, solved in self.wrong]}


def verify_book(path: Path, rules: Rules, *, sample: int = 20, seed: int = 0,
                down_to: int | None = None) -> VerifyReport:
    """Check that the book at ``path`` holds exactly the positions it should and
    re-solve ``sample`` of them (all when 0), chosen with ``seed``, comparing
    every value and distance.

    ``down_to`` checks only the positions with at least that many empty cells: finding
    all of a deep book's positions takes minutes (1.8 million positions of 11 empty
    cells for classic's book down to 12), those nearer the empty board seconds.

    :raises BookError: if the book cannot be read or is for another game.
    :raises ValueError: if ``down_to`` is not between 1 and 16.
    """
    book = load_book(path, rules)
    deepest = book.header.min_empty - 1
    if down_to is not None and not 1 <= down_to <= 16:
        raise ValueError(f"invalid down_to {down_to!r}: expected 1 to 16")
    floor = deepest if down_to is None else max(deepest, down_to)
    start = time.monotonic()
    nodes: dict[int, BookNode] = {}
    for level in positions_to_solve(rules, floor + 1):
        if level.empty >= floor:
            nodes.update(level.nodes)
    held = {key for key in book.scores if empties_of(key) >= floor}
    report = VerifyReport(path, len(book.scores))
    for key in sorted(set(nodes) - held):
        report.wrong.append((key, None, None))
    for key in sorted(held - set(nodes)):
        report.wrong.append((key, book.scores[key], None))
    keys = sorted(held & set(nodes))
    chosen = keys if sample <= 0 else random.Random(seed).sample(keys, min(sample, len(keys)))
    for key in sorted(chosen):
        solution = solve(node_position(nodes[key]), rules, threads=1, refine=False)
        solved = score_of(solution.value, solution.plies)
        if solved != book.scores[key]:
            report.wrong.append((key, book.scores[key], solved))
        report.checked += 1
    report.seconds = time.monotonic() - start
    return report
