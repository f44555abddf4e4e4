"""What people play: the turns of games keyed up to symmetry, for counting.

The explorer counts, for each position, the turns played from it and how those games
ended.  A position is keyed by :func:`position_key`, the same for every position
symmetric to it under the rules (its canonical key, :mod:`quads.book.positions`);
a turn by the key of the position it leads to.  Two turns of one position that lead
to symmetric positions are one turn here: from then on the game is the same, and so
is their value.  :func:`played_turns` gives what a game adds to the counts;
:func:`turns_from` the other way round, each key of a position's turns with the
turns, in that position's own frame, that lead there.

>>> from quads import read_record
>>> game = read_record('[Rules "quads"]\\n\\n1. 0 A1F 2. B1E *\\n')
>>> turns = played_turns(game)
>>> [turn.turn.text for turn in turns]
['0', 'A1F', 'B1E']
>>> from quads import Position, Rules
>>> empty = Position.from_string("..../..../..../.... -")
>>> len(turns_from(empty, Rules.parse("quads")))  # sixteen pieces, one up to symmetry
1
"""

from __future__ import annotations

from dataclasses import dataclass

from quads.bits import iter_bits
from quads.book.positions import canonical_key
from quads.game import Game
from quads.outcome import Player, Termination
from quads.position import Position
from quads.review import game_turns
from quads.rules import Rules
from quads.turn import Turn

__all__ = ["PlayedTurn", "ending_of", "played_turns", "position_key", "turns_from"]


def position_key(position: Position, rules: Rules) -> str:
    """The key of ``position`` under ``rules``: the same for each position symmetric to
    it (``h`` and hex digits with a piece in hand, ``g`` and hex digits when a piece
    is to be handed over)."""
    _, in_hand, key = canonical_key(position, rules)
    return f"{'h' if in_hand else 'g'}{key:x}"


def _after(position: Position, turn: Turn) -> Position:
    after = position.place(turn.place) if turn.place is not None else position
    return after.give(turn.give) if turn.give is not None else after


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    """One turn of a game as the explorer counts it."""

    position: str
    """The key of the position before the turn."""
    result: str
    """The key of the position after it."""
    player: Player
    turn: Turn
    """The turn as it was played (in the game's own frame)."""


def played_turns(game: Game) -> list[PlayedTurn]:
    """Each turn of ``game`` (a resignation, a timeout and the like are none), keyed."""
    rules = game.rules
    return [PlayedTurn(position_key(position, rules), position_key(_after(position, turn), rules),
                       player, turn)
            for _, player, position, turn in game_turns(game)]


def ending_of(game: Game) -> str | None:
    """How ``game`` ended, as the explorer counts it: ``first`` or ``second`` (the
    winner), ``draw``, or ``None`` if it is not over or was aborted (not counted)."""
    outcome = game.outcome
    if outcome is None or outcome.termination is Termination.ABORTED:
        return None
    if outcome.winner is None:
        return "draw"
    return "first" if outcome.winner is Player.FIRST else "second"


def _candidates(position: Position, rules: Rules) -> list[Turn]:
    """Every turn a player may make here, a winning placement followed by a hand-over
    too (a win missed under the rules where wins are called)."""
    if position.hand is None:
        return [Turn(None, piece) for piece in iter_bits(position.supply)]
    winning = position.winning_cells(position.hand, rules)
    supply = position.supply
    found = []
    for cell in iter_bits(position.empty_cells):
        if winning >> cell & 1 or not supply:
            found.append(Turn(cell, None))
        found.extend(Turn(cell, piece) for piece in iter_bits(supply))
    return found


def turns_from(position: Position, rules: Rules) -> dict[str, list[Turn]]:
    """The keys of the turns of ``position``, each with the turns (in the order of
    cells and pieces) that lead to a position of that key."""
    found: dict[str, list[Turn]] = {}
    for turn in _candidates(position, rules):
        found.setdefault(position_key(_after(position, turn), rules), []).append(turn)
    return found
