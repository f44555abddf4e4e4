"""Analyses remembered by canonical position, so that asking again costs nothing.

The key is the opening book's: the position's canonical key under the board
symmetries of the rules' shapes and the relabelings of the counted traits
(:func:`quads.book.positions.key_engine`), so a position symmetric to one
already analysed is answered from it too.  The remembered answer names the
cells and pieces of the position it was computed for; on a hit the symmetry
that carries the asked position onto that one is found (a board symmetry and
a relabeling of the pieces, checked piece by piece), and every turn is carried
back through it, then ordered as the solver orders them.  When no symmetry
carries one exactly onto the other (positions that differ in uncounted traits
share a key), it is a miss.

Only complete analyses are kept: an analysis cut short by its time budget
depends on the machine's load, a complete one only on the position and rules.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from quads.book.positions import canonical_key
from quads.position import Position
from quads.rules import Rules
from quads.solver.result import Analysis, MoveValue
from quads.solver.symmetry import board_symmetries, permute_mask, trait_transforms
from quads.solver.value import Value
from quads.turn import Turn

__all__ = ["AnalysisCache", "Known", "canonical_key"]

_Key = tuple[str, bool, int]

_SAME = tuple(range(16))


def _order(turn: Turn) -> tuple[int, int]:
    return (-1 if turn.place is None else turn.place, -1 if turn.give is None else turn.give)


_VALUES = tuple(Value)
_NONE = 255
"""A missing cell, piece or count in a packed turn."""


@dataclass(frozen=True, slots=True)
class Known:
    """A complete analysis as remembered: the position it was made for, its value,
    its turns packed four bytes each (cell, piece, value, plies; 255 for none), best
    first, and where it came from (``book`` or ``search``).  Packed, 4,096 analyses
    of early positions (240 turns each) take 4 MB instead of some 100."""

    position: Position
    rules: Rules
    value: Value
    plies: int | None
    moves: bytes
    source: str

    @classmethod
    def of(cls, analysis: Analysis, source: str) -> Known:
        """``analysis`` packed."""
        packed = bytearray()
        for move in analysis.moves:
            turn = move.turn
            packed += bytes((_NONE if turn.place is None else turn.place,
                             _NONE if turn.give is None else turn.give,
                             _VALUES.index(move.value),
                             _NONE if move.plies is None else move.plies))
        return cls(analysis.position, analysis.rules, analysis.value, analysis.plies,
                   bytes(packed), source)

    def analysis(self, position: Position, cell_back: Sequence[int] = _SAME,
                 piece_back: Sequence[int] = _SAME) -> Analysis:
        """The analysis as it reads for ``position``, whose cells ``cell_back`` and pieces
        ``piece_back`` are those of :attr:`position` carried back; its turns in the
        solver's order: by value, then by cell and piece."""
        moves: list[MoveValue] = []
        run: list[MoveValue] = []
        packed = self.moves
        for index in range(0, len(packed), 4):
            place, give, value, plies = packed[index:index + 4]
            move = MoveValue(Turn(None if place == _NONE else cell_back[place],
                                  None if give == _NONE else piece_back[give]),
                             _VALUES[value], None if plies == _NONE else plies)
            if run and (run[0].value, run[0].plies) != (move.value, move.plies):
                moves.extend(sorted(run, key=lambda m: _order(m.turn)))
                run = []
            run.append(move)
        moves.extend(sorted(run, key=lambda m: _order(m.turn)))
        return Analysis(position, self.rules, self.value, self.plies, tuple(moves), 0, 0.0)


@cache
def _relabelings(traits: int) -> dict[tuple[int, int], tuple[tuple[int, ...], ...]]:
    """Each relabeling of the pieces that keeps ``traits`` counted, as a table, by
    the pair ``(piece, image)`` of each piece it carries."""
    tables = [tuple(t.apply(piece) for piece in range(16)) for t in trait_transforms(traits)]
    return {(piece, image): tuple(t for t in tables if t[piece] == image)
            for piece in range(16) for image in range(16)}


def _carrying(position: Position, onto: Position,
              rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A board symmetry and a relabeling (as tables) that carry ``position`` onto
    ``onto`` exactly, or ``None``."""
    if (position.hand is None) != (onto.hand is None):
        return None
    board, target = position.board, onto.board
    relabelings = _relabelings(rules.traits)
    for perm in board_symmetries(rules.shape_masks):
        if permute_mask(position.occupied, perm) != onto.occupied:
            continue
        if position.hand is not None and onto.hand is not None:
            tables = relabelings[position.hand, onto.hand]
        elif board:
            cell, piece = next(iter(board.items()))
            tables = relabelings[piece, target[perm[cell]]]
        else:
            tables = relabelings[0, 0]
        for table in tables:
            if all(table[piece] == target[perm[cell]] for cell, piece in board.items()):
                return perm, table
    return None


def _inverse(table: Sequence[int]) -> list[int]:
    back = [0] * 16
    for item, image in enumerate(table):
        back[image] = item
    return back


class AnalysisCache:
    """At most ``size`` complete analyses, the least recently used forgotten first;
    safe to use from several threads.  :attr:`hits` and :attr:`misses` count the
    lookups."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._known: OrderedDict[_Key, Known] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._known)

    def get(self, position: Position, rules: Rules, *,
            again: bool = False) -> tuple[Analysis, str] | None:
        """The analysis of ``position`` under ``rules`` and its source, if it or a
        symmetric position was analysed completely; else ``None``.  ``again``: a
        second look for a request already counted as a miss (a miss again is not
        counted twice)."""
        key = canonical_key(position, rules)
        with self._lock:
            known = self._known.get(key)
            if known is not None:
                self._known.move_to_end(key)
        if known is not None and known.position == position:
            with self._lock:
                self.hits += 1
            return known.analysis(position), known.source
        carrying = None if known is None else _carrying(position, known.position, rules)
        with self._lock:
            if known is None or carrying is None:
                self.misses += 0 if again else 1
                return None
            self.hits += 1
        perm, table = carrying
        return known.analysis(position, _inverse(perm), _inverse(table)), known.source

    def put(self, analysis: Analysis, source: str) -> None:
        """Remember ``analysis`` (of its position under its rules) if it is complete."""
        if self.size == 0 or not analysis.complete:
            return
        key = canonical_key(analysis.position, analysis.rules)
        with self._lock:
            self._known[key] = Known.of(analysis, source)
            self._known.move_to_end(key)
            while len(self._known) > self.size:
                self._known.popitem(last=False)

    def stats(self) -> dict[str, int]:
        """Entries, hits and misses."""
        with self._lock:
            return {"entries": len(self._known), "hits": self.hits, "misses": self.misses}
