"""The observation: one flat vector of 0/1 values that says everything about a moment.

The vector has :data:`OBSERVATION_SIZE` (109) ``int8`` entries, in five parts:

==========  =======  =====================================================
slice       size     contents
==========  =======  =====================================================
``BOARD``   80       16 cells in reading order (A1 B1 C1 D1 A2 ... D4), five
                     entries each: trait bits 0-3 of the piece on the cell
                     (0 top: hollow, 1 shape: square, 2 colour: dark, 3
                     height: tall), then 1 when the cell is empty
``HAND``    5        the piece to place now, as the four trait bits, then 1
                     when there is none (a piece must be handed over)
``SUPPLY``  16       1 for each piece still off the board and not in hand
``CALLS``   2        1 when a declaration, then a claim, would win now; under
                     false calls that cost something, 1 where it may be made
                     (noticing the win is then the agent's own)
``RULES``   6        the counted traits (bits 0-3), squares win, declare
                     calling
==========  =======  =====================================================

``observation[BOARD].reshape(16, 5)`` gives the board as a table.  Pieces
belong to nobody, so both players see the same vector.

>>> from quads import QUADS, Game
>>> game = Game(QUADS)
>>> game.give(7)
>>> vector = encode(game.state, QUADS)
>>> vector[HAND].tolist(), int(vector[SUPPLY].sum())
([1, 1, 1, 0, 0], 15)
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from quads.game import Claim, Declare, GameState, Step
from quads.rules import Rules, ShapeSet

__all__ = [
    "BOARD",
    "CALLS",
    "HAND",
    "OBSERVATION_SIZE",
    "RULES",
    "SUPPLY",
    "encode",
    "observation_space",
    "rules_part",
]

BOARD = slice(0, 80)
"""Five entries per cell: trait bits 0-3 of its piece, then 1 if the cell is empty."""
HAND = slice(80, 85)
"""The trait bits of the piece in hand, then 1 if there is none."""
SUPPLY = slice(85, 101)
"""1 for each piece (by code) still to be handed over."""
CALLS = slice(101, 103)
"""Whether a declaration, then a claim, would win now."""
RULES = slice(103, 109)
"""The counted traits (bits 0-3), whether squares win, whether wins are declared."""
OBSERVATION_SIZE = 109
"""The length of the vector."""

# Row m holds the sixteen bits of the 16-bit mask m, lowest first: a mask of cells or
# pieces becomes sixteen entries with one look-up (1 MiB, built on first use).
_UNPACKED: NDArray[np.int8] | None = None


def _unpacked() -> NDArray[np.int8]:
    global _UNPACKED
    if _UNPACKED is None:
        masks = np.arange(1 << 16, dtype="<u2").view(np.uint8).reshape(-1, 2)
        _UNPACKED = np.unpackbits(masks, axis=1, bitorder="little").astype(np.int8)
    return _UNPACKED


def observation_space() -> spaces.Box:
    """The space of the vectors :func:`encode` makes (the same for every rule set)."""
    return spaces.Box(low=0, high=1, shape=(OBSERVATION_SIZE,), dtype=np.int8)


def rules_part(rules: Rules) -> NDArray[np.int8]:
    """The :data:`RULES` part of the vector for ``rules``."""
    traits = [rules.traits >> bit & 1 for bit in range(4)]
    squares = int(rules.shapes is ShapeSet.LINES_SQUARES)
    return np.array([*traits, squares, int(rules.declare)], dtype=np.int8)


def encode(state: GameState, rules: Rules) -> NDArray[np.int8]:
    """The observation vector of ``state`` under ``rules`` (a new array)."""
    unpacked = _unpacked()
    position = state.position
    vector = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    board = vector[BOARD].reshape(16, 5)
    for bit in range(4):
        board[:, bit] = unpacked[position.bits[bit]]
    board[:, 4] = unpacked[0xFFFF & ~position.occupied]
    hand = position.hand
    if hand is None:
        vector[HAND.stop - 1] = 1
    else:
        vector[HAND.start:HAND.stop - 1] = unpacked[hand][:4]
    vector[SUPPLY] = unpacked[position.supply]
    step = state.step
    if rules.free_calls:
        vector[CALLS.start] = step is Step.GIVE and bool(state.declarable)
        vector[CALLS.start + 1] = step is Step.PLACE and bool(state.claimable)
    else:
        calls = state.legal_actions(rules)
        vector[CALLS.start] = Declare() in calls
        vector[CALLS.start + 1] = Claim() in calls
    vector[RULES] = rules_part(rules)
    return vector
