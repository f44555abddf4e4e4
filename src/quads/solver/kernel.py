"""Choosing the search kernel: the compiled one, or the pure-Python fallback.

Both ``_kernel`` (C) and ``_pure`` (Python) offer the same two classes,
``Engine`` and ``Control``; :class:`Kernel` gives typed access to whichever is
in use.  The compiled kernel is used when it was built and imports; setting
the environment variable ``QUADS_PURE_SOLVER=1`` (or passing ``pure=True``)
forces the fallback.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

__all__ = ["PURE_ENV", "Control", "Engine", "Kernel", "compiled_available", "load_kernel"]

PURE_ENV = "QUADS_PURE_SOLVER"

if TYPE_CHECKING:
    from quads.solver import _kernel as _compiled
else:
    try:
        from quads.solver import _kernel as _compiled
    except ImportError:  # not built: no compiler where the package was installed
        _compiled = None


class Control(Protocol):
    """A node and time budget; child controls pass their counts on to their parent."""

    @property
    def nodes(self) -> int: ...
    @property
    def stopped(self) -> bool: ...
    def stop(self) -> None: ...


class Engine(Protocol):
    """The rules of one solve, its transposition table, and the search itself."""

    @property
    def table_bytes(self) -> int: ...
    def search(
        self, control: Any, occupied: int, cells: int, hand: int, supply: int,
        ply: int, alpha: int, beta: int, threads: int = 1, /,
    ) -> int | None: ...
    def moves(
        self, occupied: int, cells: int, hand: int, supply: int, /
    ) -> list[tuple[int, int, int, int]]: ...
    def key(self, occupied: int, cells: int, hand: int, canonical: bool, /) -> int: ...


class _EngineFactory(Protocol):
    def __call__(
        self, shapes: Sequence[int], traits: int, symmetries: Sequence[Sequence[int]],
        table_entries: int, tt_min: int, canon_min: int, order_min: int,
    ) -> Engine: ...


class _ControlFactory(Protocol):
    def __call__(self, node_limit: int = 0, seconds: float = 0.0, parent: Any = None) -> Control:
        ...


@dataclass(frozen=True, slots=True)
class Kernel:
    """One kernel implementation."""

    name: str
    """``compiled`` or ``pure``."""
    engine: _EngineFactory
    control: _ControlFactory

    @property
    def compiled(self) -> bool:
        """Whether this is the compiled kernel (searches then run outside the GIL)."""
        return self.name == "compiled"


def compiled_available() -> bool:
    """Whether the compiled kernel was built and imports."""
    return _compiled is not None


def load_kernel(pure: bool | None = None) -> Kernel:
    """The kernel to use.

    ``pure=None`` picks the compiled kernel unless it is missing or the
    environment variable ``QUADS_PURE_SOLVER`` is set to something other than
    ``""`` or ``"0"``; ``True`` or ``False`` choose explicitly.

    :raises RuntimeError: if ``pure=False`` but the compiled kernel is not available.
    """
    if pure is None:
        pure = os.environ.get(PURE_ENV, "") not in ("", "0") or _compiled is None
    if pure:
        from quads.solver import _pure

        return Kernel("pure", _pure.Engine, _pure.Control)
    if _compiled is None:
        raise RuntimeError("the compiled solver kernel is not available in this installation")
    return Kernel("compiled", _compiled.Engine, _compiled.Control)
