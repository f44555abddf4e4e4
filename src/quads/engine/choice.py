"""What the engine plays: a turn chosen by the book, the solver or a computer level,
with what is known of its value, written as a record token.

:func:`think` is the whole of one ``go``: it never raises for a hard position,
and ends as soon as its :class:`~quads.solver.StopSignal` is raised or its
budget is spent, falling back on the club player's squeeze when the solver could
not finish.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from quads.book import book_for
from quads.game import Action, Game, Step
from quads.notation import write_tokens
from quads.players import Club, make_player
from quads.players.base import ComputerPlayer
from quads.position import Position
from quads.rules import Rules
from quads.solver import Progress, Solution, StopSignal, Value, default_table_mb, solve
from quads.turn import Turn

__all__ = ["Limits", "Thought", "think", "token_of", "turn_actions", "warm_up"]

PV_NODES = 2_000_000
"""Node budget of each further turn of the best line (once the value is known)."""
PV_TURNS = 16
PV_TABLE_MB = 2
"""The table of each further turn of the best line: small, made in no time."""
PV_RESERVE = 0.01
"""Seconds of the budget left unused rather than begin one more turn of the best line."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How one ``go`` may search: seconds and nodes (``None``: no limit), the
    largest number of empty cells it solves (``None``: any), threads and table."""

    seconds: float | None = None
    nodes: int | None = None
    depth: int | None = None
    threads: int = 1
    table_mb: float | None = None
    """The largest table; a search takes the size the solver finds best for its number
    of empty cells and budget (:func:`quads.solver.default_table_mb`), up to this."""


@dataclass(frozen=True, slots=True)
class Thought:
    """The result of one ``go``: the token to play and what backs it."""

    token: str
    value: Value
    """The value of the position for the side to move (``UNKNOWN`` if not solved)."""
    plies: int | None
    """Placements to the end of a won or lost game under best play."""
    source: str
    """``book``, ``search``, ``level N``, ``squeeze`` (the solver ran out) or ``rule``
    (a claim or declaration, which wins at once)."""
    nodes: int
    seconds: float
    line: tuple[str, ...]
    """The best line, from the token played on, as far as it is known."""


class _Fixed(ComputerPlayer):
    """A player whose turn was chosen elsewhere: turns it into the game's actions."""

    level = 0
    name = "fixed"

    def __init__(self, turn: Turn) -> None:
        super().__init__(0)
        self.turn = turn

    def choose_turn(self, position: Position, rules: Rules) -> Turn:
        return self.turn


def turn_actions(game: Game, turn: Turn | None) -> list[Action]:
    """The actions of a whole turn in ``game``: a claim or declaration when one is
    due (every level calls a win it may), else ``turn``'s placement and hand-over."""
    state = game.state
    if turn is None:
        assert (state.step is Step.GIVE and state.declarable) or (
            state.step is Step.PLACE and state.claimable)
        turn = Turn(None, 0)  # never used: the call comes first
    return _Fixed(turn).actions(game)


def token_of(game: Game, actions: list[Action]) -> str:
    """The record token of ``actions``, one whole turn played in ``game`` (a claim
    or a declaration right after a placement is ``!``)."""
    after = game.copy()
    states = [after.state]
    for action in actions:
        after.apply(action)
        states.append(after.state)
    tokens = write_tokens(tuple(states), tuple(actions))
    if len(tokens) != 1:
        raise AssertionError(f"a turn gave the tokens {tokens!r}")
    return tokens[0]


def _calling(game: Game) -> bool:
    state = game.state
    return bool((state.step is Step.GIVE and state.declarable) or (
        state.step is Step.PLACE and state.claimable))


def think(game: Game, level: int, limits: Limits, stop: StopSignal, *, seed: int = 0,
          progress: Callable[[Progress], None] | None = None) -> Thought:
    """Choose the turn to play in ``game`` (which must not be over).

    Level 5 asks the book, then the solver within ``limits``; if it cannot finish
    it plays the club player's tightest squeeze (chosen before the search when the
    time is limited, so that the answer keeps to it).  Levels 1 to 4 play as the
    app's computer players of that level do (``seed`` makes them repeatable).
    """
    start = time.monotonic()
    position, rules = game.position, game.rules
    if _calling(game):
        actions = turn_actions(game, None)
        return Thought(token_of(game, actions), Value.WIN, 0, "rule", 0, 0.0,
                       (token_of(game, actions),))
    if level != 5:
        actions = make_player(level, seed).actions(game)
        token = token_of(game, actions)
        return Thought(token, Value.UNKNOWN, None, f"level {level}", 0,
                       time.monotonic() - start, (token,))
    squeeze: Turn | None = None
    book = book_for(rules)
    if limits.seconds is not None and not (book is not None and book.covers(position)):
        squeeze = Club(seed).choose_turn(position, rules)
        spent = time.monotonic() - start
        limits = replace(limits, seconds=max(0.001, limits.seconds - spent))
    solution, source = _solve(position, rules, limits, stop, progress)
    if solution is None or solution.best is None or solution.value is Value.UNKNOWN:
        turn = squeeze if squeeze is not None else Club(seed).choose_turn(position, rules)
        token = token_of(game, turn_actions(game, turn))
        nodes = 0 if solution is None else solution.nodes
        return Thought(token, Value.UNKNOWN, None, "squeeze", nodes,
                       time.monotonic() - start, (token,))
    actions = turn_actions(game, solution.best)
    token = token_of(game, actions)
    line = _line(game, actions, limits, stop, start)
    return Thought(token, solution.value, solution.plies, source, solution.nodes,
                   time.monotonic() - start, (token, *line))


def _solve(position: Position, rules: Rules, limits: Limits, stop: StopSignal,
           progress: Callable[[Progress], None] | None) -> tuple[Solution | None, str]:
    book = book_for(rules)
    if book is not None and book.covers(position):
        known = book.solution(position, rules)
        if known is not None:
            return known, "book"
    if limits.depth is not None and position.empty_count > limits.depth:
        return None, "squeeze"
    table_mb = default_table_mb(position.empty_count, seconds=limits.seconds,
                                nodes=limits.nodes, threads=limits.threads)
    if limits.table_mb is not None:
        table_mb = min(table_mb, limits.table_mb)
    solution = solve(position, rules, nodes=limits.nodes, seconds=limits.seconds,
                     table_mb=table_mb, threads=limits.threads, progress=progress,
                     stop=stop)
    return solution, "search"


def warm_up(rules: Rules) -> None:
    """Make the first search of a session as quick as the next ones: the book read,
    the kernel's tables of the rules made."""
    book_for(rules)
    solve(Position.from_pieces({}, 0), rules, nodes=1, threads=1, table_mb=PV_TABLE_MB)


def _line(game: Game, actions: list[Action], limits: Limits, stop: StopSignal,
          start: float) -> tuple[str, ...]:
    """The best line after ``actions``, while each turn is solved within what is left
    of the time budget (and :data:`PV_NODES`)."""
    after = game.copy()
    for action in actions:
        after.apply(action)
    line: list[str] = []
    while not after.is_over() and len(line) < PV_TURNS and not stop.stopped:
        if _calling(after):
            turn = None
        else:
            left = None if limits.seconds is None else limits.seconds - (time.monotonic() - start)
            if left is not None and left <= PV_RESERVE:
                break
            solution, _ = _solve(after.position, after.rules,
                                 Limits(left, PV_NODES, limits.depth, 1, PV_TABLE_MB),
                                 stop, None)
            if solution is None or solution.best is None or solution.value is Value.UNKNOWN:
                break
            turn = solution.best
        played = turn_actions(after, turn)
        line.append(token_of(after, played))
        for action in played:
            after.apply(action)
    return tuple(line)
