"""Action ids: one integer for each move of a game, as learning agents choose them.

Every id names exactly one :mod:`quads.game` action, whatever the step:

========  =====================  ==========================================
id        action                 OpenSpiel ``quarto`` action
========  =====================  ==========================================
0-15      ``Give(piece)``        the same number in its select phase
16-31     ``Place(id - 16)``     ``id - 16`` in its place phase
32        ``Declare()``          none (declare calling only)
33        ``Claim()``            none (declare calling only)
34        ``Decline()``          none (declare calling only)
========  =====================  ==========================================

A piece is its 4-bit code (``F`` = 15 is tall dark square hollow) and a cell
is ``(row - 1) * 4 + column`` (``A1`` = 0, ``D4`` = 15), as everywhere in
Quads.  A rule set with ``auto`` calling has the 32 ids of hand-overs and
placements; one with ``declare`` calling has all 35.

>>> from quads.game import Give, Place
>>> action_of(23), action_id(Give(10)), describe_action(32)
(Place(cell=7), 10, 'declare')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from quads.game import Action, Claim, Declare, Decline, GameState, Give, Place
from quads.rules import Rules

__all__ = [
    "AUTO_ACTIONS",
    "CLAIM",
    "DECLARE",
    "DECLARE_ACTIONS",
    "DECLINE",
    "GIVE",
    "PLACE",
    "action_count",
    "action_id",
    "action_mask",
    "action_of",
    "describe_action",
    "legal_ids",
]

GIVE = 0
"""The first hand-over id: ``GIVE + piece`` hands over ``piece``."""
PLACE = 16
"""The first placement id: ``PLACE + cell`` places the piece in hand on ``cell``."""
DECLARE = 32
"""Declare the shape one's own placement just completed."""
CLAIM = 33
"""Claim the shape the opponent completed and did not declare."""
DECLINE = 34
"""End the game as a draw after the sixteenth piece completed a shape, without declaring."""
AUTO_ACTIONS = 32
"""The number of action ids under ``auto`` calling (hand-overs and placements)."""
DECLARE_ACTIONS = 35
"""The number of action ids under ``declare`` calling (with declare, claim and decline)."""

_ACTIONS: tuple[Action, ...] = (
    *(Give(piece) for piece in range(16)),
    *(Place(cell) for cell in range(16)),
    Declare(),
    Claim(),
    Decline(),
)
_IDS: dict[Action, int] = {action: number for number, action in enumerate(_ACTIONS)}


def action_count(rules: Rules) -> int:
    """The number of action ids under ``rules``: 35 with ``declare`` calling, else 32."""
    return DECLARE_ACTIONS if rules.declare else AUTO_ACTIONS


def action_of(number: int | np.integer[Any]) -> Action:
    """The game action of id ``number`` (0-34).

    :raises ValueError: if ``number`` is no action id.
    """
    if (isinstance(number, bool) or not isinstance(number, int | np.integer)
            or not 0 <= number < DECLARE_ACTIONS):
        raise ValueError(f"no action has id {number!r}: ids run from 0 to {DECLARE_ACTIONS - 1}")
    return _ACTIONS[int(number)]


def action_id(action: Action) -> int:
    """The id of a game action (a move on the board or a call, not an ending).

    :raises ValueError: for an ending (resignation, timeout, ...), which has no id.
    """
    try:
        return _IDS[action]
    except (KeyError, TypeError):
        raise ValueError(f"{action!r} has no action id: only moves and calls have one") from None


def describe_action(number: int | np.integer[Any]) -> str:
    """The action of id ``number`` in words, e.g. ``give 7``, ``place B2``, ``claim``.

    :raises ValueError: if ``number`` is no action id.
    """
    return str(action_of(number))


def legal_ids(state: GameState, rules: Rules | None = None) -> list[int]:
    """The ids of the actions allowed in ``state`` under ``rules``, in increasing order
    (a false call among them where ``rules`` make it cost something)."""
    return sorted(_IDS[action] for action in state.legal_actions(rules))


def action_mask(state: GameState, rules: Rules, ids: Iterable[int] | None = None) -> NDArray[
    np.int8
]:
    """A 0/1 vector over the ids of ``rules``: 1 where the action is allowed in ``state``.

    ``ids``, when given, are the allowed ids already worked out (:func:`legal_ids`).
    """
    mask = np.zeros(action_count(rules), dtype=np.int8)
    mask[list(legal_ids(state, rules) if ids is None else ids)] = 1
    return mask
