"""Answering from a book: a position's value, and every turn's, without search.

A turn's value is the value of the position it leads to, seen from the other
side and one placement further away; turns that win, draw or lose at once are
scored as the solver scores them (:func:`quads.solver.root.root_groups`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from quads.book.format import BookError, BookHeader, Scores, cut_records, empties_of, read_book
from quads.book.positions import game_name, key_engine, turn_groups
from quads.position import Position
from quads.rules import Rules
from quads.solver import analyse, solve
from quads.solver.result import Analysis, MoveValue, Solution
from quads.solver.root import Group, cells_of
from quads.solver.value import Value, turn_score, value_of

__all__ = ["Book", "analyse_with_book", "book_for", "load_book", "shipped_path",
           "solve_with_book"]


@dataclass(frozen=True, slots=True)
class Book:
    """A book read into memory: its header and the score of each canonical key (read
    from its records as they are: :class:`~quads.book.format.Scores`)."""

    path: Path
    header: BookHeader
    scores: Mapping[int, int]

    def _key(self, position: Position, rules: Rules) -> int:
        assert position.hand is not None
        engine = key_engine(rules.shape_masks, rules.traits)
        return engine.key(position.occupied, cells_of(position), position.hand, True)

    def score(self, position: Position, rules: Rules) -> int | None:
        """The exact score of ``position`` for its side to move if the book holds
        it (a position with a piece in hand that cannot win at once), else ``None``."""
        if position.hand is None or position.winning_cells(position.hand, rules):
            return None
        return self.scores.get(self._key(position, rules))

    def covers(self, position: Position) -> bool:
        """Whether every turn of ``position`` is judged by the book: those of a
        position with at least ``min_empty`` empty cells, and those of a position
        one cell short of it with no piece in hand (giving a piece leads to a
        position the book holds)."""
        empty = position.empty_count
        return empty >= self.header.min_empty or (
            position.hand is None and empty == self.header.min_empty - 1)

    def reaching(self, min_empty: int) -> Book:
        """This book as if it had been built down to ``min_empty`` empty cells and no
        further: the positions it holds with at least ``min_empty - 1`` empty cells
        (itself if it reaches no deeper).  A smaller book that answers every position
        of at least ``min_empty - 1`` empty cells as this one does."""
        if min_empty <= self.header.min_empty:
            return self
        scores: Mapping[int, int]
        if isinstance(self.scores, Scores):
            scores = Scores(cut_records(self.scores.records, min_empty - 1))
        else:
            scores = {key: score for key, score in self.scores.items()
                      if empties_of(key) >= min_empty - 1}
        header = BookHeader(self.header.game, min_empty, len(scores))
        return Book(self.path, header, scores)

    def _scored_groups(self, position: Position, rules: Rules) -> list[tuple[Group, int]] | None:
        """The turn groups of ``position`` in the solver's search order, each with its
        score; ``None`` if the book does not know them all."""
        position.check(rules)
        scored = []
        for group in turn_groups(position, rules):
            if group.node is None:
                score = group.exact
            else:
                child = self.scores.get(group.key) if group.key is not None else None
                score = None if child is None else turn_score(child, group.node.ply)
            if score is None:
                return None
            scored.append((group, score))
        return scored

    def analysis(self, position: Position, rules: Rules) -> Analysis | None:
        """Every legal turn of ``position`` with its value, best first, as
        :func:`quads.solver.analyse` gives them; ``None`` if the book does not
        know them all."""
        scored = self._scored_groups(position, rules)
        return None if scored is None else _analysis(position, rules, scored)

    def solution(self, position: Position, rules: Rules) -> Solution | None:
        """The value of ``position`` and a best turn, as :func:`quads.solver.solve`
        gives them; ``None`` if the book does not know every turn.  Among drawing
        turns the first in the solver's search order is taken."""
        scored = self._scored_groups(position, rules)
        if scored is None:
            return None
        analysis = _analysis(position, rules, scored)
        best = None
        if analysis.moves:
            best = analysis.moves[0].turn
            if analysis.value is Value.DRAW:
                best = next(group.turns[0] for group, score in scored if score == 0)
        return Solution(position, rules, analysis.value, analysis.plies, best, 0, 0.0)


def _analysis(position: Position, rules: Rules, scored: list[tuple[Group, int]]) -> Analysis:
    """The analysis of ``position`` from the scores of its turn groups."""
    ranked = []
    for group, score in scored:
        value, plies = value_of(score)
        for turn in group.turns:
            order = (-1 if turn.place is None else turn.place,
                     -1 if turn.give is None else turn.give)
            ranked.append((-score, order, MoveValue(turn, value, plies)))
    ranked.sort(key=lambda item: (item[0], item[1]))
    moves = tuple(move for _, _, move in ranked)
    value, plies = (moves[0].value, moves[0].plies) if moves else (Value.DRAW, None)
    return Analysis(position, rules, value, plies, moves, 0, 0.0)


def load_book(path: Path, rules: Rules) -> Book:
    """Read the book at ``path`` for ``rules``.

    :raises BookError: if it cannot be read, is damaged, or was made for another game.
    """
    header, scores = read_book(path)
    if header.game != game_name(rules):
        raise BookError(f"{path}: a book of {header.game}, not of {game_name(rules)}")
    return Book(path, header, scores)


SHIPPED = {
    "lines+squares:color,height,shape,top": "lines-squares.qbook",
    "lines:color,height,shape,top": "lines.qbook",
}
"""The books shipped in the package, by game (quads and advanced share one)."""


def shipped_path(rules: Rules) -> Path:
    """Where the book shipped for ``rules`` is (or would be)."""
    name = SHIPPED.get(game_name(rules), game_name(rules).replace(":", "_") + ".qbook")
    return Path(str(resources.files("quads.book") / "data" / name))


@cache
def _shipped(game: str, rules: Rules) -> Book | None:
    path = shipped_path(rules)
    if not path.exists():
        return None
    try:
        return load_book(path, rules)
    except BookError as exc:
        print(f"quads: {exc}; solving by search instead", file=sys.stderr)
        return None


def book_for(rules: Rules) -> Book | None:
    """The book shipped for ``rules``, or ``None`` (none for this game, or it is
    damaged: then one line on standard error says so, once, and search takes over)."""
    return _shipped(game_name(rules), rules.with_traits(rules.traits))


def solve_with_book(position: Position, rules: Rules, book: Book | None = None,
                    **search: Any) -> tuple[Solution, str]:
    """:func:`quads.solver.solve`, answered by ``book`` (by default the one shipped
    for ``rules``) when it judges every turn of ``position``: the solution and
    ``"book"`` or ``"search"``.  ``search`` holds solve's keyword arguments."""
    book = book if book is not None else book_for(rules)
    if book is not None and book.covers(position):
        known = book.solution(position, rules)
        if known is not None:
            return known, "book"
    solution = solve(position, rules, **search)
    held = None if book is None else book.score(position, rules)
    if solution.value is Value.UNKNOWN and held is not None:
        # out of time, but the book holds the value itself (not yet every turn's)
        value, plies = value_of(held)
        return Solution(position, rules, value, plies, None, solution.nodes, solution.seconds,
                        complete=False), "book"
    return solution, "search"


def analyse_with_book(position: Position, rules: Rules, book: Book | None = None,
                      **search: Any) -> tuple[Analysis, str]:
    """:func:`quads.solver.analyse`, answered by the book where it can (see
    :func:`solve_with_book`)."""
    book = book if book is not None else book_for(rules)
    if book is not None and book.covers(position):
        known = book.analysis(position, rules)
        if known is not None:
            return known, "book"
    return analyse(position, rules, **search), "search"
