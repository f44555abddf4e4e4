"""What every computer player shares: turning a chosen turn into game actions."""

from __future__ import annotations

import abc
import random
from typing import ClassVar

from quads.errors import IllegalActionError
from quads.game import Action, Claim, Declare, Game, GameState, Give, Place, Step
from quads.position import Position
from quads.rules import Rules
from quads.turn import Turn

__all__ = ["ComputerPlayer"]


class ComputerPlayer(abc.ABC):
    """A computer opponent of some level.

    Subclasses choose a :class:`~quads.turn.Turn` for a position
    (:meth:`choose_turn`); this class turns it into the game's actions.  Every
    level declares at once whenever it may, and claims every missed shape.
    A player made with the same ``seed`` plays the same game again.
    """

    level: ClassVar[int]
    """1 (beginner) to 5 (perfect)."""
    name: ClassVar[str]
    """An identifier: ``beginner``, ``casual``, ``club``, ``expert``, ``perfect``."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.random = random.Random(seed)

    @abc.abstractmethod
    def choose_turn(self, position: Position, rules: Rules) -> Turn:
        """Choose a turn in ``position`` (which must not be over).

        With a piece in hand the turn places it, and hands over a piece
        unless the placement wins or nothing is left; at a ``-`` position it
        only hands over.
        """

    def actions(self, game: Game) -> list[Action]:
        """The actions of this player's whole turn in ``game``.

        :raises IllegalActionError: if the game is over.
        """
        state = game.state
        if state.step is Step.OVER:
            raise IllegalActionError("cannot choose a turn: the game is over", "game_over")
        if state.step is Step.GIVE and state.declarable:
            return [Declare()]
        if state.step is Step.PLACE and state.claimable:
            return [Claim()]
        turn = self.choose_turn(state.position, game.rules)
        return _actions_for(turn, state, game.rules)

    def play(self, game: Game) -> list[Action]:
        """Choose this player's turn in ``game``, play it and return its actions."""
        actions = self.actions(game)
        for action in actions:
            game.apply(action)
        return actions

    def __repr__(self) -> str:
        return f"<{type(self).__name__} level {self.level} seed {self.seed}>"


def _actions_for(turn: Turn, state: GameState, rules: Rules) -> list[Action]:
    if turn.place is None:
        assert turn.give is not None
        return [Give(turn.give)]
    actions: list[Action] = [Place(turn.place)]
    after = state.apply(actions[0], rules)
    if after.outcome is not None:
        return actions
    if after.declarable:
        return [*actions, Declare()]
    give = turn.give
    if give is None or not after.position.supply >> give & 1:
        # The chosen turn came from a view that did not see the end; hand over anything.
        give = min(after.position.legal_handovers())
    return [*actions, Give(give)]
