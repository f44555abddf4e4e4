"""The engine protocol's lines, read exactly: one value type per command that carries
arguments, and a :class:`ProtocolError` naming what is wrong.

The protocol is described in ``docs/engine-protocol.md``; it follows UGI (UCI for
any game).  This module only reads and writes lines; :mod:`quads.engine.session`
acts on them.

>>> parse_go("go movetime 100".split())
Go(movetime=100, nodes=None, depth=None, p1time=None, p2time=None, p1inc=0, p2inc=0, infinite=False)
>>> parse_position("position ..../..../..../.... 3 moves A1F".split())
PositionCommand(start='..../..../..../.... 3', moves=('A1F',))
"""

from __future__ import annotations

from dataclasses import dataclass

from quads.errors import QuadsError

__all__ = ["Go", "PositionCommand", "ProtocolError", "SetOption", "parse_go", "parse_position",
           "parse_setoption"]

MAX_LINE = 4096
"""Longer lines are refused unread (a whole game's moves take some 150 characters)."""
MAX_MILLISECONDS = 86_400_000 * 30
"""The largest time a ``go`` accepts (30 days)."""
MAX_NODES = 10**15


class ProtocolError(QuadsError):
    """A line the engine cannot act on; the engine answers it and goes on."""


@dataclass(frozen=True, slots=True)
class Go:
    """The limits of one ``go``: times in milliseconds, ``None`` where not given."""

    movetime: int | None = None
    nodes: int | None = None
    depth: int | None = None
    p1time: int | None = None
    p2time: int | None = None
    p1inc: int = 0
    p2inc: int = 0
    infinite: bool = False


@dataclass(frozen=True, slots=True)
class PositionCommand:
    """``position``: the start (``None`` for ``startpos``, else a position string) and
    the turn tokens played from it."""

    start: str | None
    moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetOption:
    """``setoption name NAME [value VALUE]`` (``NAME`` as written; ``VALUE`` ``None``
    for a button)."""

    name: str
    value: str | None


_GO_NUMBERS = {"movetime": (1, MAX_MILLISECONDS), "nodes": (1, MAX_NODES), "depth": (0, 16),
               "p1time": (0, MAX_MILLISECONDS), "p2time": (0, MAX_MILLISECONDS),
               "p1inc": (0, MAX_MILLISECONDS), "p2inc": (0, MAX_MILLISECONDS)}
_GO_ALIASES = {"wtime": "p1time", "btime": "p2time", "winc": "p1inc", "binc": "p2inc"}


def _number(word: str, value: str | None, low: int, high: int) -> int:
    if value is None or not value.isdigit() or len(value) > 16:
        raise ProtocolError(f"go: {word} needs a whole number, not {value!r}", "go_number",
                            word=word)
    number = int(value)
    if not low <= number <= high:
        raise ProtocolError(f"go: {word} {number} is out of range ({low} to {high})",
                            "go_range", word=word)
    return number


def parse_go(words: list[str]) -> Go:
    """Read ``go [movetime MS] [nodes N] [depth D] [p1time MS p2time MS p1inc MS p2inc MS]
    [infinite]`` (UCI's ``wtime``/``btime``/``winc``/``binc`` are read as p1/p2).

    :raises ProtocolError: for an unknown word, a missing or bad number, or a word twice.
    """
    assert words[:1] == ["go"]
    found: dict[str, int] = {}
    infinite = False
    index = 1
    while index < len(words):
        word = _GO_ALIASES.get(words[index], words[index])
        if word == "infinite":
            infinite = True
            index += 1
            continue
        if word not in _GO_NUMBERS:
            raise ProtocolError(f"go: unknown limit {words[index]!r}", "go_word",
                                word=words[index])
        if word in found:
            raise ProtocolError(f"go: {word} given twice", "go_twice", word=word)
        value = words[index + 1] if index + 1 < len(words) else None
        found[word] = _number(word, value, *_GO_NUMBERS[word])
        index += 2
    return Go(movetime=found.get("movetime"), nodes=found.get("nodes"),
              depth=found.get("depth"), p1time=found.get("p1time"), p2time=found.get("p2time"),
              p1inc=found.get("p1inc", 0), p2inc=found.get("p2inc", 0), infinite=infinite)


def parse_position(words: list[str]) -> PositionCommand:
    """Read ``position startpos|<position string> [moves <tokens>]``.

    The position string is the library's (two words: the board and the piece in
    hand, ``..../..../..../.... -``).

    :raises ProtocolError: if the start is missing.
    """
    assert words[:1] == ["position"]
    rest = words[1:]
    cut = rest.index("moves") if "moves" in rest else len(rest)
    start, moves = rest[:cut], tuple(rest[cut + 1:])
    if not start:
        raise ProtocolError("position: expected startpos or a position string", "position_start")
    if start == ["startpos"]:
        return PositionCommand(None, moves)
    if start[0] == "fen":
        start = start[1:]
    return PositionCommand(" ".join(start), moves)


def parse_setoption(words: list[str]) -> SetOption:
    """Read ``setoption name NAME [value VALUE]`` (either may be several words).

    :raises ProtocolError: if ``name`` is missing.
    """
    assert words[:1] == ["setoption"]
    if len(words) < 3 or words[1] != "name":
        raise ProtocolError("setoption: expected setoption name NAME [value VALUE]",
                            "setoption")
    rest = words[2:]
    cut = rest.index("value") if "value" in rest else len(rest)
    name = " ".join(rest[:cut])
    if not name:
        raise ProtocolError("setoption: the option's name is missing", "setoption")
    value = " ".join(rest[cut + 1:]) if cut < len(rest) else None
    return SetOption(name, value)
