"""A player's mistakes in a game, as exercises.

A turn that threw away a win or a draw (:func:`quads.review.review`) becomes an
exercise for the player who made it: the position before it and the value to keep,
and every turn that keeps that value is right.  When the placement itself kept the
value and only the piece handed over threw it away, the exercise is the hand-over
alone, from the position after the placement: "which piece is safe to give?".  A
turn whose values the solver could not reach in its time gets no exercise, as it gets
no verdict in the review.  An exercise's :attr:`Exercise.key` is the same for every
position symmetric to its own, so the same mistake made twice is one exercise.

Values assume perfect calls, as the review's do.

>>> from quads import Position, Rules
>>> from quads.game import Game
>>> game = Game(Rules.parse("quads"), Position.from_string("A0../1F.D/27../4.BC 8"))
>>> game.play(Turn.parse("B43"))  # a good cell, but 3 hands the win away: only 6 keeps it
>>> [(e.kind, e.keep, e.played.text, [t.text for t in e.right]) for e in exercises(game)]
[('give', 'win', '3', ['6'])]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from quads.book import analyse_with_book
from quads.book.positions import canonical_key
from quads.game import Game
from quads.outcome import Player
from quads.position import Position
from quads.review import TurnReview, review
from quads.rules import Rules
from quads.solver import Value
from quads.turn import Turn

__all__ = ["Exercise", "exercise_key", "exercises"]

_KEPT = {"win": Value.WIN, "draw": Value.DRAW}


@dataclass(frozen=True, slots=True)
class Exercise:
    """A position in which a player threw away ``keep``: find a turn that keeps it."""

    position: Position
    """Where the player is to act: before the turn, or for a ``give`` exercise after
    its placement (no piece in hand)."""
    rules: Rules
    kind: Literal["turn", "give"]
    """``turn``: place the piece in hand and hand one over; ``give``: hand one over."""
    keep: Literal["win", "draw"]
    played: Turn
    """What was played there (for a ``give`` exercise, the piece handed over)."""
    right: tuple[Turn, ...]
    """Every turn (or hand-over) that keeps ``keep``."""
    ply: int
    """The index in the game's actions of the turn's first action."""
    player: Player

    @property
    def key(self) -> str:
        """The same for every exercise of a position symmetric to this one (under the
        same rules and kind): a mistake made twice, or in a mirrored board, is one
        exercise."""
        return exercise_key(self.position, self.rules, self.kind)

    def is_right(self, turn: Turn) -> bool:
        """Whether ``turn`` keeps the value (for a ``give`` exercise, its piece alone
        counts)."""
        if self.kind == "give":
            turn = Turn(None, turn.give)
        return turn in self.right


def exercise_key(position: Position, rules: Rules, kind: Literal["turn", "give"]) -> str:
    """The key of the exercise of ``kind`` at ``position`` under ``rules``
    (:attr:`Exercise.key`): the same for every position symmetric to it."""
    name, in_hand, key = canonical_key(position, rules)
    return f"{name} {kind} {'hand' if in_hand else 'give'} {key:x}"


def _keeping(position: Position, rules: Rules, value: Value,
             seconds: float) -> tuple[Turn, ...] | None:
    """The turns of ``position`` worth ``value`` for the player making them, or
    ``None`` when some turn's value is unknown (no verdict)."""
    analysis, _ = analyse_with_book(position, rules, seconds=seconds, threads=1)
    if not analysis.complete:
        return None
    return tuple(move.turn for move in analysis.moves if move.value is value)


def _exercise(turn: TurnReview, rules: Rules, seconds: float) -> Exercise | None:
    assert turn.threw_away is not None
    keep = turn.threw_away
    value = _KEPT[keep]
    played = turn.turn
    if played.place is not None and played.give is not None:
        placed = turn.position.place(played.place)
        gives = _keeping(placed, rules, value, seconds)
        if gives:  # the placement kept the value: the piece handed over threw it away
            return Exercise(placed, rules, "give", keep, Turn(None, played.give), gives,
                            turn.ply, turn.player)
    right = _keeping(turn.position, rules, value, seconds)
    if not right:
        return None
    return Exercise(turn.position, rules, "turn", keep, played, right, turn.ply, turn.player)


def exercises(game: Game, player: Player | None = None, *, seconds: float = 5.0,
              reviewed: Sequence[TurnReview] | None = None) -> list[Exercise]:
    """The exercises of ``game``'s turns that threw away a win or a draw, in order:
    ``player``'s only, or both players'; ``reviewed``: the game's review if it is at
    hand (else it is made, ``seconds`` bounding each position's solve)."""
    found = []
    for turn in review(game, seconds=seconds) if reviewed is None else reviewed:
        if turn.threw_away is None or (player is not None and turn.player is not player):
            continue
        exercise = _exercise(turn, game.rules, seconds)
        if exercise is not None:
            found.append(exercise)
    return found
