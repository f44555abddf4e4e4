"""The correspondence with OpenSpiel's ``quarto`` game.

OpenSpiel numbers its 16 actions by phase: in the select phase an action is
the piece handed over, in the place phase the cell (``row * 4 + column``).
Its pieces and cells are numbered as Quads numbers them, and its game is
Quads' ``lines:auto`` rule set (lines only, all four traits, wins spotted at
once): player 0 hands over the first piece, a win is +1 to the placer and -1
to the other.  Quads gives each action its own id (:mod:`quads.env.actions`),
so an OpenSpiel action needs the step to be read:

>>> from quads.game import Step
>>> from_openspiel(5, Step.PLACE), to_openspiel(21)
(21, 5)
"""

from __future__ import annotations

from quads.env.actions import DECLARE, GIVE, PLACE, action_of
from quads.game import Step
from quads.rules import Rules

__all__ = ["OPENSPIEL_RULES", "from_openspiel", "to_openspiel"]

OPENSPIEL_RULES = Rules.parse("lines:auto")
"""The rule set of OpenSpiel's ``quarto``: classic Quarto with wins called at once."""


def to_openspiel(number: int) -> int:
    """The OpenSpiel action of id ``number``: the piece of a hand-over, the cell of a placement.

    :raises ValueError: for a declaration, claim or decline (OpenSpiel has none),
        or a number that is no id.
    """
    action_of(number)  # validates
    if number >= DECLARE:
        raise ValueError(f"action id {number} ({action_of(number)}) has no OpenSpiel action")
    return number - PLACE if number >= PLACE else number - GIVE


def from_openspiel(action: int, step: Step) -> int:
    """The id of OpenSpiel action ``action`` (0-15) played at ``step``.

    :raises ValueError: if ``action`` is not 0-15 or ``step`` is :attr:`Step.OVER`.
    """
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 16:
        raise ValueError(f"OpenSpiel's quarto has no action {action!r}: they run from 0 to 15")
    if step is Step.GIVE:
        return GIVE + action
    if step is Step.PLACE:
        return PLACE + action
    raise ValueError("no action is played once the game is over")
