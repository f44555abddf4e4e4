"""The exact solver: perfect play for every rule set.

:func:`solve` gives the value of a position for the side to move (win, draw
or loss, and how many placements until the end) and a best turn;
:func:`analyse` gives the value of every legal turn.  Both take a node or time
budget and report progress on long solves.

The search is an alpha-beta over bitboards in a compiled kernel
(``_kernel.c``), with a pure-Python twin (``_pure.py``) where no compiler was
available; see :mod:`quads.solver.kernel`.

>>> from quads import Position, QUADS
>>> from quads.solver import solve
>>> solve(Position.from_string("0.../1.../2.../.... 3"), QUADS).value
<Value.WIN: 'win'>
"""

from quads.solver.kernel import compiled_available
from quads.solver.result import Analysis, MoveValue, Progress, Solution
from quads.solver.search import ProgressCallback, analyse, default_table_mb, solve
from quads.solver.stop import StopSignal
from quads.solver.value import Value

__all__ = [
    "Analysis",
    "MoveValue",
    "Progress",
    "ProgressCallback",
    "Solution",
    "StopSignal",
    "Value",
    "analyse",
    "compiled_available",
    "default_table_mb",
    "solve",
]
