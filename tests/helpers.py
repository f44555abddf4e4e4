"""Small helpers for the tests: records as fixtures, and snapshots of a game."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from quads import (
    Action,
    Claim,
    Declare,
    Decline,
    Game,
    Give,
    Place,
    Position,
    Rules,
    parse_cell,
    read_record,
    write_record,
)
from quads.shapes import Shape, shape_by_id

_T = TypeVar("_T")

RULE_SETS = (
    "quads",
    "classic",
    "advanced",
    "lines:color:auto",
    "lines+squares:height,top:declare",
    "lines:shape",
)
"""The presets and a few custom rule sets that every rule-independent test runs under."""

CALL_RULE_SETS = (
    "classic:forfeit-calls",
    "lines+squares:height,top:declare:losing-calls",
)
"""Rule sets whose false calls cost something: the tests of the game's steps, records and
endings run under them too (a false call is a move of those games)."""

ALL_ACTIONS: tuple[Action, ...] = (
    *(Give(piece) for piece in range(16)),
    *(Place(cell) for cell in range(16)),
    Declare(),
    Claim(),
    Decline(),
)
"""Every action there is; in any state, exactly the legal ones must be accepted."""


def call_wins(view: dict[str, Any]) -> bool:
    """Whether a call offered in a game's ``view`` would win, seen on the board as a
    player sees it (no view says so): the last placement completed a winning shape.
    True only where a call is offered (``declare_offered`` or ``claim_offered``)."""
    last = view.get("last")
    if not (view["declare_offered"] or view["claim_offered"]) or not last or not last["place"]:
        return False
    position = Position.from_string(view["position"])
    return bool(position.winning_shapes_through(parse_cell(last["place"]),
                                                Rules.parse(view["rules"])))


def replay(moves: str, rules: str = "quads", position: str | None = None) -> Game:
    """Read a record made of ``moves`` under ``rules``, optionally from a start ``position``."""
    headers = f'[Rules "{rules}"]\n'
    if position is not None:
        headers += f'[Position "{position}"]\n'
    return read_record(f"{headers}\n{moves}\n")


def shapes(*idents: str) -> tuple[Shape, ...]:
    """The shapes with the given identifiers (``row1``, ``sqB2`` ...), in that order."""
    return tuple(shape_by_id(ident) for ident in idents)


def redo_trail(game: Game) -> tuple[Action, ...]:
    """The actions that redo would replay, in order (read on a copy of ``game``)."""
    other = game.copy()
    trail = []
    while other.can_redo():
        trail.append(other.redo())
    return tuple(trail)


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about ``game``, to check that a refused action changed nothing."""
    return (
        game.rules,
        game.start,
        game.states,
        game.actions,
        redo_trail(game),
        game.legal_actions(),
        dict(game.headers),
        write_record(game),
    )


def run_async(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(coroutine)`` on a thread of its own, so that it works whatever runs
    on this one: the browser tests' Playwright keeps an event loop running in the main
    thread for the whole session."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


EXAMPLE_BOT = Path(__file__).resolve().parents[1] / "examples" / "bot.py"


@contextmanager
def example_bot(url: str, *arguments: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``examples/bot.py`` run against the server at ``url`` with ``arguments``, once it
    has become a bot: the program and its first line (``bot NAME (HANDLE), token ...``).
    The program is ended on leaving."""
    program = subprocess.Popen([sys.executable, str(EXAMPLE_BOT), url, *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert program.stdout is not None
        hello = program.stdout.readline()
        assert hello.startswith("bot "), hello
        yield program, hello
    finally:
        program.kill()
        program.wait()
