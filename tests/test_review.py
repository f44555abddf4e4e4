"""Reviewing a game: each turn's value before and after, checked against the solver."""

from __future__ import annotations

import pytest

from quads import QUADS, Game, Position
from quads.outcome import Player
from quads.review import review
from quads.solver import Value, analyse

RANK = {Value.WIN: 2, Value.DRAW: 1, Value.LOSS: 0}
START = [  # benchmark positions with 8 empty cells, and what their worst turn throws away
    ("36.1/B.0./.2FD/.... C", None),  # lost anyway
    ("..7./13.E/9C6./..F. 0", "win"),
]


@pytest.mark.parametrize(("start", "thrown"), START)
def test_each_turn_is_judged_as_the_solver_judges_it(start: str, thrown: str | None) -> None:
    position = Position.from_string(start)
    analysis = analyse(position, QUADS)
    worst = analysis.moves[-1]
    game = Game(QUADS, start=position)
    game.play(worst.turn)
    reply = analyse(game.position, QUADS).moves[0]  # the opponent answers at their best
    game.play(reply.turn)

    first, second = review(game)[:2]
    assert (first.ply, first.player, first.turn) == (0, Player.FIRST, worst.turn)
    assert (first.before, first.before_plies) == (analysis.value, analysis.plies)
    assert (first.after, first.after_plies) == (worst.value, worst.plies)
    best = next(m for m in analysis.moves if m.turn == first.best)
    assert (best.value, best.plies) == (analysis.value, analysis.plies)
    lost = RANK[worst.value] < RANK[analysis.value]
    assert first.threw_away == (analysis.value.value if lost else None) == thrown
    assert (second.player, second.turn, second.threw_away) == (Player.SECOND, reply.turn, None)
    assert (second.after, second.after_plies) == (second.before, second.before_plies)
