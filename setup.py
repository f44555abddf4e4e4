"""Build the optional compiled solver kernel; everything else is in pyproject.toml.

The kernel is a plain C extension using only the CPython API.  It is marked
optional: where it cannot be compiled, the package installs anyway and the
solver runs its pure-Python search (same algorithm, slower).
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup

COMPILE_ARGS = [] if sys.platform == "win32" else ["-O3", "-fno-strict-aliasing"]

setup(
    ext_modules=[
        Extension(
            "quads.solver._kernel",
            sources=["src/quads/solver/_kernel.c"],
            extra_compile_args=COMPILE_ARGS,
            optional=True,
        )
    ],
)
