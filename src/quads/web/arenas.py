"""How many malloc arenas a server process keeps (glibc's allocator).

glibc gives a thread that allocates while another holds an arena an arena of its
own, up to eight per core, and an arena keeps, as resident memory, the most it ever
held: memory freed in one arena serves only that arena's later allocations.  A
server process has many threads that allocate (the event loop, the database lane,
the engine's lanes, the pool that runs plain routes), so its memory under churn crept
up arena by arena long after its caches had filled (``bench/soak.py``,
``docs/performance.md``).  :func:`limit_arenas` caps them at :data:`ARENAS`, as
``MALLOC_ARENA_MAX`` would: the threads then share the freed memory.  An operator's
own ``MALLOC_ARENA_MAX`` is left to rule.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

__all__ = ["ARENAS", "limit_arenas"]

ARENAS = 2
"""Arenas a server process keeps at most."""

_M_ARENA_MAX = -8
"""``mallopt``'s parameter for the most arenas (glibc's ``malloc.h``)."""


def limit_arenas(most: int = ARENAS) -> bool:
    """Have this process's allocator keep ``most`` arenas at most, from now on; whether
    it was done (not where the C library is not glibc, nor where ``MALLOC_ARENA_MAX``
    is set)."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_ARENA_MAX, most))
