"""A server process keeps two malloc arenas, however many of its threads allocate
(``quads.web.arenas``); an operator's ``MALLOC_ARENA_MAX`` rules instead."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CHURN = """
import ctypes, sys, threading
from quads.web.arenas import limit_arenas

print(limit_arenas() if sys.argv[1] == "limited" else "as glibc has it", flush=True)

libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]

def churn():
    # Through ctypes, which lets go of Python's lock for each call: the threads meet
    # in the allocator at the same moment, as the server's do in C code.
    for _ in range(20000):
        libc.free(libc.malloc(4096))

threads = [threading.Thread(target=churn) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ctypes.CDLL("libc.so.6").malloc_stats()
"""


def arenas(mode: str, **env: str) -> tuple[str, int]:
    """What a process that churns on eight threads said, and the arenas its allocator
    ended with (``malloc_stats``)."""
    clean = {key: value for key, value in os.environ.items() if key != "MALLOC_ARENA_MAX"}
    run = subprocess.run([sys.executable, "-c", CHURN, mode], env={**clean, **env},
                         capture_output=True, text=True, timeout=60, check=True)
    count = sum(1 for line in run.stderr.splitlines() if line.startswith("Arena "))
    return run.stdout.strip(), count


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="glibc's allocator")


def test_eight_threads_share_two_arenas() -> None:
    said, limited = arenas("limited")
    assert said == "True"
    assert 1 <= limited <= 2
    _, unlimited = arenas("default")
    assert unlimited > 2  # what the limit prevents


def test_an_operators_malloc_arena_max_rules() -> None:
    said, count = arenas("limited", MALLOC_ARENA_MAX="3")
    assert said == "False"
    assert count <= 3
