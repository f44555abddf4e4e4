"""``quads engine``: the engine protocol on standard input and output."""

from __future__ import annotations

import argparse
import sys

from quads.engine import Session

__all__ = ["register"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``engine`` command."""
    parser = commands.add_parser(
        "engine", help="speak the engine protocol (UGI) on standard input and output",
        description="Read engine protocol commands (ugi, isready, setoption, uginewgame, "
                    "position, go, stop, query, quit) one per line and answer them, as "
                    "described in docs/engine-protocol.md.",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``quads engine`` until ``quit`` or the end of the input."""

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    session = Session(write)
    for line in sys.stdin:
        if not session.handle(line):
            return 0
    session.handle("quit")
    return 0
