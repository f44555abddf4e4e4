"""Generating the puzzle of a date, deterministically and without any stored list.

The date seeds a :class:`random.Random` (:func:`seed_of`: the digits
``YYYYMMDD`` and a fixed salt, never :func:`hash`).  From that stream the
generator lets two seeded computer players (levels 2 and 3, so that the
positions look like real games) play game after game from the empty board.
Every position of a game whose number of empty cells suits the day's goal
(:func:`empties_window`) is a candidate, tried in the order the game reaches
them.  A candidate becomes the puzzle when

1. :func:`~quads.solver.solve` finds a forced win for the side to move in
   exactly the day's goal (:func:`~quads.puzzles.puzzle.plies_for`), and
2. :func:`~quads.solver.analyse` finds exactly one winning first turn up to the
   symmetries of the position (:func:`winning_classes`); every other turn
   fails to win at all, so slower wins do not count as answers either.

Every search runs single-threaded within a fixed node budget, with a fixed
table size, so the same date gives the same puzzle on every run and machine
(a candidate whose search runs out of budget is skipped, not retried).  When
:data:`GAMES_PER_GOAL` games bring no puzzle the goal drops by one own
placement and the search goes on in the same stream; a goal of one placement
is always found in practice.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator, Sequence

from quads.players import make_player
from quads.position import EMPTY, Position
from quads.puzzles.puzzle import Puzzle, plies_for, rules_for, target_moves
from quads.rules import Rules
from quads.solver import Value, analyse, solve
from quads.solver.symmetry import (
    TraitTransform,
    board_symmetries,
    permute_mask,
    trait_transforms,
    transform_turn,
)
from quads.turn import Turn

__all__ = [
    "ANALYSE_NODES",
    "GAMES_PER_GOAL",
    "LEVELS",
    "SALT",
    "SOLVE_NODES",
    "TABLE_MB",
    "empties_window",
    "position_symmetries",
    "puzzle_for",
    "seed_of",
    "solution_line",
    "verify",
    "winning_classes",
]

SALT = 0x5155_4144
"""Mixed into every date's seed, so that the puzzle stream is Quads' own."""

LEVELS = (2, 3)
"""The computer levels that play the games the puzzles are taken from."""

SOLVE_NODES = 400_000
"""Node budget of the solve that checks a candidate's value and distance."""

ANALYSE_NODES = 2_000_000
"""Node budget of the analysis that checks that the winning first turn is unique."""

TABLE_MB = 2
"""Transposition table size of every search, fixed so that budgets end at the same node."""

GAMES_PER_GOAL = 40
"""Games played in search of a puzzle before the goal drops by one own placement."""

MAX_EMPTIES = 11
"""No candidate has more empty cells than this (larger solves cost too much)."""

_CellPermutation = tuple[int, ...]


def seed_of(date: datetime.date) -> int:
    """The seed of ``date``'s random stream: ``YYYYMMDD`` and :data:`SALT`."""
    return int(date.strftime("%Y%m%d")) * (1 << 32) + SALT


def empties_window(plies: int) -> tuple[int, int]:
    """The numbers of empty cells (least, most) of a candidate for a win in ``plies``.

    A win in ``plies`` needs at least that many empty cells; a few more make
    the position less bare, and more than :data:`MAX_EMPTIES` make it too
    costly to verify.
    """
    return max(plies, 4), min(MAX_EMPTIES, max(plies + 5, 8))


def position_symmetries(
    position: Position, rules: Rules
) -> tuple[tuple[_CellPermutation, TraitTransform], ...]:
    """The board symmetries and trait relabelings that leave ``position`` unchanged.

    Each is a pair ``(perm, transform)`` as :func:`~quads.solver.symmetry.transform_position`
    takes them; the identity is always among them.
    """
    board = position.board
    found = []
    for perm in board_symmetries(rules.shape_masks):
        if permute_mask(position.occupied, perm) != position.occupied:
            continue
        for transform in trait_transforms(rules.traits):
            if position.hand is not None and transform.apply(position.hand) != position.hand:
                continue
            if all(board[perm[cell]] == transform.apply(piece) for cell, piece in board.items()):
                found.append((perm, transform))
    return tuple(found)


def winning_classes(position: Position, rules: Rules, turns: Sequence[Turn]) -> list[list[Turn]]:
    """``turns`` grouped into classes of turns that a symmetry of ``position`` maps onto each
    other; the classes and the turns in each keep the order of ``turns``."""
    symmetries = position_symmetries(position, rules)
    classes: list[list[Turn]] = []
    seen: dict[Turn, int] = {}
    for turn in turns:
        if turn in seen:
            classes[seen[turn]].append(turn)
            continue
        index = len(classes)
        classes.append([turn])
        for perm, transform in symmetries:
            seen.setdefault(transform_turn(turn, perm, transform), index)
    return classes


def solution_line(position: Position, rules: Rules) -> tuple[Turn, ...]:
    """The solver's line from ``position`` to the end: the fastest win for the side to
    move, the longest resistance for the other.

    :raises ValueError: if the side to move has no forced win.
    """
    first = solve(position, rules, threads=1, table_mb=TABLE_MB)
    if first.value is not Value.WIN or first.plies is None:
        raise ValueError(f"no forced win in {position.to_string()!r} under {rules.name!r}")
    line: list[Turn] = []
    for _ in range(first.plies):
        best = solve(position, rules, threads=1, table_mb=TABLE_MB).best
        if best is None:  # pragma: no cover - a won position always has a best turn
            break
        line.append(best)
        if best.give is None:
            break
        position = position.play(best)
    return tuple(line)


def verify(position: Position, rules: Rules, plies: int) -> tuple[Turn, ...] | None:
    """The solution line if ``position`` makes a puzzle with a goal of ``plies``, else ``None``.

    It does when the side to move has a piece in hand, its fastest forced win
    takes exactly ``plies`` placements, and exactly one first turn wins at all,
    up to the symmetries of the position.  Both checks run within node budgets
    (:data:`SOLVE_NODES`, :data:`ANALYSE_NODES`); a search that runs out gives ``None``.
    """
    if position.hand is None or position.empty_count < plies:
        return None
    solution = solve(position, rules, nodes=SOLVE_NODES, threads=1, table_mb=TABLE_MB)
    if not solution.complete or solution.value is not Value.WIN or solution.plies != plies:
        return None
    analysis = analyse(position, rules, nodes=ANALYSE_NODES, threads=1, table_mb=TABLE_MB)
    if not analysis.complete:
        return None
    wins = [move.turn for move in analysis.moves if move.value is Value.WIN]
    if len(winning_classes(position, rules, wins)) != 1:
        return None
    line = solution_line(position, rules)
    if len(line) != plies or line[0] not in wins:  # pragma: no cover - solver consistency
        return None
    return line


def _candidates(rng: random.Random, rules: Rules, window: tuple[int, int]) -> Iterator[Position]:
    """The positions of one seeded game whose empty cells lie in ``window``."""
    players = [make_player(rng.choice(LEVELS), rng.getrandbits(32)) for _ in range(2)]
    position = EMPTY
    least, most = window
    for ply in range(17):
        turn = players[ply % 2].choose_turn(position, rules)
        if turn.give is None:
            return
        position = position.play(turn)
        if position.empty_count < least:
            return
        if position.empty_count <= most:
            yield position


def puzzle_for(date: datetime.date) -> Puzzle:
    """The puzzle of ``date``: the same for everyone, on every run.

    The rule set and goal come from the weekday (:func:`~quads.puzzles.puzzle.rules_for`,
    :func:`~quads.puzzles.puzzle.target_moves`).

    :raises RuntimeError: if no puzzle at all is found (never seen in practice).
    """
    rules = rules_for(date)
    rng = random.Random(seed_of(date))
    for moves in range(target_moves(date), 0, -1):
        plies = plies_for(moves)
        window = empties_window(plies)
        for _ in range(GAMES_PER_GOAL):
            for position in _candidates(rng, rules, window):
                line = verify(position, rules, plies)
                if line is not None:
                    return Puzzle(date, rules, position, plies, line)
    raise RuntimeError(f"no puzzle found for {date.isoformat()}")  # pragma: no cover
