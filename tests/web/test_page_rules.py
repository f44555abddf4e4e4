"""The page holds no rules of its own: its rules are js/rules/, proven equal to the
library (here for the shapes, and by tests/js/rules.test.mjs for the rest), and
every other module takes what it needs from there."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from quads.rules import Rules, ShapeSet
from quads.shapes import SHAPES

JS = Path(__file__).parents[2] / "src" / "quads" / "web" / "static" / "js"
RULES = JS / "rules"

_IMPORT = re.compile(r"import\s*\{([^}]*)\}\s*from\s*\"([^\"]+)\"")


def _modules() -> list[Path]:
    """Every module of the page outside its rules (js/**, js/rules/ left out)."""
    modules = [m for m in sorted(JS.rglob("*.js")) if not m.is_relative_to(RULES)]
    assert len(modules) > 20
    return modules


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_pages_shapes_are_the_librarys() -> None:
    script = (f"import {{ SHAPES, LINES }} from {json.dumps((RULES / 'shapes.js').as_uri())};"
              "const ids = (list) => list.map((s) => s.id);"
              "console.log(JSON.stringify({ shapes: SHAPES.map(({ id, kind, cells }) =>"
              " ({ id, kind, cells })), lines: ids(LINES), all: ids(SHAPES) }));")
    answer = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                            text=True, check=True, timeout=60)
    data = json.loads(answer.stdout)
    assert [(s["id"], s["kind"], s["cells"]) for s in data["shapes"]] == [
        (shape.id, shape.kind.value, shape.cells) for shape in SHAPES]
    assert {"lines": data["lines"], "lines+squares": data["all"]} == {
        shape_set.value: [shape.id for shape in Rules(shapes=shape_set).winning_shapes]
        for shape_set in ShapeSet}


def test_the_page_takes_the_shapes_from_its_rules() -> None:
    # One copy of the shapes: whatever module uses them imports them from js/rules/.
    for module in _modules():
        for names, source in _IMPORT.findall(module.read_text(encoding="utf-8")):
            imported = {name.split(" as ")[0].strip() for name in names.split(",")}
            if imported & {"SHAPES", "SHAPE_SETS", "LINES", "SQUARES", "shapeById"}:
                target = (module.parent / source).resolve()
                assert target.is_relative_to(RULES), f"{module.relative_to(JS)} imports {source}"


def test_no_page_module_builds_shapes_of_its_own() -> None:
    # Shapes are built from the cells' rows and columns (r * 4 + c) nowhere but in
    # the rules: the other modules import them.
    for module in _modules():
        text = module.read_text(encoding="utf-8")
        assert not re.search(r"\br\s*\*\s*4\s*\+\s*c\b", text), module.relative_to(JS)
