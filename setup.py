"""Build the optional compiled solver kernel; everything else is in pyproject.toml.

The kernel is a plain C extension: the search core in plain C
(src/quads/solver/core/, which tools/build_wasm.py also compiles to
WebAssembly for the page) and its CPython binding (_kernel.c).  It is marked
optional: where it cannot be compiled, the package installs anyway and the
solver runs its pure-Python search (same algorithm, slower).

The page's WebAssembly module (quads/web/static/engine/quads.wasm) is rebuilt
from the same core into the build tree where clang with the wasm32-wasi target
is installed; elsewhere the shipped file (checked by CI to match a fresh build)
is packaged as it is.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

COMPILE_ARGS = [] if sys.platform == "win32" else ["-O3", "-fno-strict-aliasing"]
BUILD_WASM = Path(__file__).resolve().parent / "tools" / "build_wasm.py"


class BuildPyWithWasm(build_py):
    """build_py, then the WebAssembly kernel rebuilt into the build tree if clang can."""

    def run(self) -> None:
        super().run()
        if not BUILD_WASM.exists():
            return
        tool = runpy.run_path(str(BUILD_WASM))
        clang = tool["find_clang"]()
        if clang is None:
            print("no clang for wasm32-wasi: packaging the shipped quads.wasm")
            return
        target = Path(self.build_lib) / "quads" / "web" / "static" / "engine" / "quads.wasm"
        try:
            tool["build"](target, clang)
        except RuntimeError as exc:
            print(f"the WebAssembly kernel did not build ({exc}); packaging the shipped one")


setup(
    cmdclass={"build_py": BuildPyWithWasm},
    ext_modules=[
        Extension(
            "quads.solver._kernel",
            sources=["src/quads/solver/_kernel.c", "src/quads/solver/core/search.c"],
            depends=["src/quads/solver/core/search.h"],
            extra_compile_args=COMPILE_ARGS,
            optional=True,
        )
    ],
)
