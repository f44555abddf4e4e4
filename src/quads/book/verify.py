"""Checking a book: re-solve a random sample of its positions with the solver."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


def verify_book(path: Path, rules: Rules, *, sample: int = 20, seed: int = 0) -> VerifyReport:
    """Check that the book at ``path`` holds exactly the positions it should and
    re-solve ``sample`` of them (all when 0), chosen with ``seed``, comparing
    every value and distance.

    :raises BookError: if the book cannot be read or is for another game.
    """
    book = load_book(path, rules)
    start = time.monotonic()
    nodes: dict[int, BookNode] = {}
    for level in positions_to_solve(rules, book.header.min_empty):
        nodes.update(level.nodes)
    report = VerifyReport(path, len(book.scores))
    for key in sorted(set(nodes) - set(book.scores)):
        report.wrong.append((key, None, None))
    for key in sorted(set(book.scores) - set(nodes)):
        report.wrong.append((key, book.scores[key], None))
    keys = sorted(set(book.scores) & set(nodes))
    chosen = keys if sample <= 0 else random.Random(seed).sample(keys, min(sample, len(keys)))
    for key in sorted(chosen):
        solution = solve(node_position(nodes[key]), rules, threads=1, refine=False)
        solved = score_of(solution.value, solution.plies)
        if solved != book.scores[key]:
            report.wrong.append((key, book.scores[key], solved))
        report.checked += 1
    report.seconds = time.monotonic() - start
    return report
