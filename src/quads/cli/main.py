"""The ``quads`` command: argument parsing and error reporting for every command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from quads import __version__
from quads.cli import admin, book, engine, match, puzzle, replay, serve, show, solve
from quads.errors import QuadsError

__all__ = ["build_parser", "main"]

COMMANDS = (show, replay, solve, book, match, engine, puzzle, serve, admin)
"""The command modules; each has ``register(subparsers)``."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command registered."""
    parser = argparse.ArgumentParser(
        prog="quads", description="Play, study and solve Quarto-family games.",
    )
    parser.add_argument("--version", action="version", version=f"quads {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except QuadsError as exc:
        print(f"quads: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
