"""What every computer player shares: turning a chosen turn into game actions."""

from __future__ import annotations

import abc
import random
from dataclasses import dataclass
from typing import ClassVar

from quads.errors import IllegalActionError, QuadsError
from quads.game import Action, Claim, Declare, Game, GameState, Give, Place, Step
from quads.outcome import Player
from quads.position import Position
from quads.rules import Rules
from quads.turn import Turn

__all__ = ["Clocks", "ComputerPlayer", "PlayerError"]


class PlayerError(QuadsError):
    """A player that could not make its turn: a program that broke the rules or its
    protocol (see :class:`quads.engine.client.EngineError`).  A match adjudicates it
    as a loss."""


@dataclass(frozen=True, slots=True)
class Clocks:
    """What each side has left and gains per turn, in milliseconds."""

    p1time: int
    p2time: int
    p1inc: int = 0
    p2inc: int = 0

    def left(self, side: Player) -> int:
        """What ``side`` has left."""
        return self.p1time if side is Player.FIRST else self.p2time


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

    def new_game(self, rules: Rules) -> None:
        """Get ready for a new game under ``rules`` (nothing to do for a computer level)."""
        return

    def timed_actions(self, game: Game, clocks: Clocks | None) -> list[Action]:
        """:meth:`actions`, told what the clocks say (a computer level does not look).

        :raises PlayerError: if the player could not make its turn.
        """
        return self.actions(game)

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
