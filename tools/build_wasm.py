"""Build the solver's search core to WebAssembly for the page.

The same C files as the Python extension's core (``src/quads/solver/core/``:
``search.c`` and ``root.c``) plus the module's exports (``wasm.c``) are
compiled by clang for ``wasm32-wasi`` as a reactor (no ``main``; the module
exports ``_initialize``), against Debian's ``wasi-libc`` (packages ``clang``,
``lld``, ``wasi-libc`` and ``libclang-rt-14-dev-wasm32``)::

    python tools/build_wasm.py            # writes the shipped file
    python tools/build_wasm.py --check    # rebuilds into a temporary file, fails if it differs
    python tools/build_wasm.py --output x.wasm

The shipped file is ``src/quads/web/static/engine/quads.wasm``.  The build is
reproducible: no debug information, no names or producer sections, sources
named relative to their directory, so the same source and compiler give the
same bytes wherever the checkout lies.  The module imports one function,
``env.now`` (monotonic seconds, for the time budget), and nothing of WASI.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "quads" / "solver" / "core"
SHIPPED = ROOT / "src" / "quads" / "web" / "static" / "engine" / "quads.wasm"
SOURCES = ("search.c", "root.c", "wasm.c")
FLAGS = (
    "--target=wasm32-wasi",
    "-mexec-model=reactor",
    "-O3",
    "-std=c11",
    "-DNDEBUG",
    "-DQK_EXTERNAL_CLOCK",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wl,-z,stack-size=1048576",  # the search recurses 16 deep with a few kB a level
    "-Wl,--strip-all",
)


def find_clang() -> str | None:
    """The clang that can build for ``wasm32-wasi`` here, or ``None``."""
    for name in ("clang", "clang-14", "clang-15", "clang-16"):
        path = shutil.which(name)
        if path is None:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            probe = Path(tmp) / "probe.c"
            probe.write_text("#include <stdlib.h>\nint f(void) { return abs(-1); }\n")
            result = subprocess.run(
                [path, "--target=wasm32-wasi", "-mexec-model=reactor", "-o",
                 str(Path(tmp) / "probe.wasm"), str(probe)],
                capture_output=True, check=False,
            )
            if result.returncode == 0:
                return path
    return None


def build(output: Path, clang: str | None = None) -> None:
    """Compile the core to ``output``.

    :raises RuntimeError: if no clang with the wasm32-wasi target is found, or it fails.
    """
    compiler = clang or find_clang()
    if compiler is None:
        raise RuntimeError("no clang with the wasm32-wasi target and wasi-libc was found")
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "quads.wasm"
        result = subprocess.run(
            [compiler, *FLAGS, f"-ffile-prefix-map={CORE}=.", "-o", str(target), *SOURCES],
            cwd=CORE, capture_output=True, text=True, check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"clang failed:\n{result.stderr}")
        shutil.copyfile(target, output)


def check(shipped: Path = SHIPPED) -> bool:
    """Rebuild into a temporary file; whether it is byte for byte the shipped file."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "quads.wasm"
        build(fresh)
        return shipped.exists() and filecmp.cmp(fresh, shipped, shallow=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=SHIPPED, help="where to write the module")
    parser.add_argument("--check", action="store_true",
                        help="rebuild into a temporary file and fail if the shipped file differs")
    args = parser.parse_args(argv)
    try:
        if args.check:
            if not check(args.output):
                print(f"{args.output} is stale: it differs from a fresh build of "
                      f"{CORE.relative_to(ROOT)}; run python tools/build_wasm.py", file=sys.stderr)
                return 1
            print(f"{args.output.relative_to(ROOT)} matches a fresh build")
            return 0
        build(args.output)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"wrote {args.output} ({args.output.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
