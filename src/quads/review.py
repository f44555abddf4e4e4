"""Reviewing a game: the value of each turn before and after it was played.

For every turn of a game (a placement and the hand-over that follows it, or
the first hand-over), :func:`review` gives the value of the position for the
player about to move, the value of the turn they played, and a best turn; a
turn that leaves a worse value than the position had *threw away* a win or a
draw.  Values come from the opening book near the empty board and from the
solver elsewhere (within a time budget per position: a value it cannot reach
in time is unknown, and such a turn gets no verdict).

Values assume perfect calls: under the rules where wins must be declared, a
placement that completes a shape counts as won.

>>> from quads import read_record
>>> game = read_record('[Rules "quads"]\\n\\n1. 0 A1F 2. B1E C1D *\\n')
>>> [turn.turn.text for turn in review(game)]
['0', 'A1F', 'B1E', 'C1D']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from quads.book import solve_with_book
from quads.game import ENDINGS, Game, Give, Place
from quads.outcome import Player
from quads.position import Position
from quads.rules import Rules
from quads.solver import Value
from quads.solver.value import score_of, turn_score, value_of
from quads.turn import Turn

__all__ = ["TurnReview", "game_turns", "review"]

_RANK = {Value.WIN: 2, Value.DRAW: 1, Value.LOSS: 0}


@dataclass(frozen=True, slots=True)
class TurnReview:
    """One turn of a game, judged."""

    ply: int
    """The index in the game's actions of the turn's first action."""
    position: Position
    """The position before the turn."""
    player: Player
    turn: Turn
    before: Value
    """The value of the position for ``player`` before the turn."""
    before_plies: int | None
    after: Value
    """The value of the turn played, for ``player``."""
    after_plies: int | None
    best: Turn | None
    """A best turn (the fastest win, a draw, the longest resistance)."""
    threw_away: Literal["win", "draw"] | None
    """``win`` or ``draw`` when the turn left a worse value than the position had."""


def game_turns(game: Game) -> list[tuple[int, Player, Position, Turn]]:
    """Each turn: where it starts, who plays it, the position before it, the turn."""
    found = []
    states, actions = game.states, game.actions
    if actions and isinstance(actions[-1], ENDINGS):
        actions = actions[:-1]  # a resignation or a timeout is no turn
    index = 0
    while index < len(actions):
        start, state = index, states[index]
        place = give = None
        while index < len(actions) and states[index].to_move is state.to_move:
            action = actions[index]
            if isinstance(action, Place):
                place = action.cell
            elif isinstance(action, Give):
                give = action.piece
            index += 1
        if place is not None or give is not None:
            found.append((start, state.to_move, state.position, Turn(place, give)))
    return found


def _turn_value(position: Position, turn: Turn, rules: Rules,
                seconds: float) -> tuple[Value, int | None]:
    """The value of ``turn`` in ``position`` for the player making it."""
    after = position
    placements = 0
    if turn.place is not None:
        if position.winning_cells(position.hand, rules) >> turn.place & 1:  # type: ignore[arg-type]
            return Value.WIN, 1
        after = position.place(turn.place)
        placements = 1
    if turn.give is None:
        return Value.DRAW, None  # the board is full
    child, _ = solve_with_book(after.give(turn.give), rules, seconds=seconds, threads=1)
    if child.value is Value.UNKNOWN:
        return Value.UNKNOWN, None
    return value_of(turn_score(score_of(child.value, child.plies), placements))


def review(game: Game, *, seconds: float = 5.0) -> list[TurnReview]:
    """Every turn of ``game`` judged, in order; ``seconds`` bounds the solver's time
    for each position it has to search."""
    rules = game.rules
    reviews = []
    for ply, player, position, turn in game_turns(game):
        solution, _ = solve_with_book(position, rules, seconds=seconds, threads=1)
        after, after_plies = _turn_value(position, turn, rules, seconds)
        threw_away: Literal["win", "draw"] | None = None
        if solution.value in _RANK and after in _RANK and _RANK[after] < _RANK[solution.value]:
            threw_away = "win" if solution.value is Value.WIN else "draw"
        reviews.append(TurnReview(ply, position, player, turn, solution.value,
                                  solution.plies, after, after_plies, solution.best, threw_away))
    return reviews
