"""No import cycle anywhere in the package: every module of :mod:`quads` can be read
(and changed) knowing only the modules it imports, never one that imports it back.

Every import counts, at the top of a module, inside a function, or for the type
checker alone: a cycle hidden in a function is still a cycle of meaning.  An import
of a package counts as one of its ``__init__`` module; ``from package import module``
as one of that module alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SOURCE / "quads").rglob("*.py"):
        parts = path.relative_to(SOURCE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _is_module(name: str, known: set[str]) -> bool:
    """Whether ``name`` is a module: one of Python or a compiled one (``_kernel``)."""
    if name in known:
        return True
    folder = SOURCE.joinpath(*name.split(".")[:-1])
    stem = name.rpartition(".")[2]
    return any(folder.glob(f"{stem}.*.so")) or folder.joinpath(f"{stem}.pyi").exists()


def _imported(module: str, path: Path, known: set[str]) -> Iterator[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            # ``from package import module`` needs the module; an attribute, its owner.
            names = [f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}", known)
                     else base for alias in node.names]
        else:
            continue
        for name in names:
            if name in known and name != module:
                yield name


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: set(_imported(name, path, known)) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in sorted(graph[node]):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read_whole() -> None:
    graph = _graph()
    assert "quads.site.games.service" in graph["quads.web.wiring"]
    assert "quads.game" in graph["quads.site.games.play"]


def test_a_cycle_is_found() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_itself_back() -> None:
    assert _cycles(_graph()) == []
