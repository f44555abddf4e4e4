"""Routes reach the server's parts through the wiring's dependencies
(:mod:`quads.web.wiring`), never by reading the app's state themselves: only the
modules that make and keep those parts read it."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "quads" / "web"

KEEPERS = {"wiring.py", "app.py", "lane.py", "thinking.py", "middleware/rates.py"}
"""The modules that make the app's parts and keep them in its state."""


def _state_reads(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "state"
            and isinstance(node.value, ast.Attribute) and node.value.attr == "app"]


def test_the_check_sees_a_read() -> None:
    assert _state_reads(WEB / "wiring.py")


def test_no_route_reads_the_app_state() -> None:
    readers = {str(path.relative_to(WEB)): lines for path in sorted(WEB.rglob("*.py"))
               if str(path.relative_to(WEB)) not in KEEPERS and (lines := _state_reads(path))}
    assert readers == {}
