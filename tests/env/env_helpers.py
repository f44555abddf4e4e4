"""Helpers of the environment tests."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from quads import Game
from quads.env.actions import action_id

RULE_SETS = ["quads", "classic", "advanced", "lines:color,height:auto", "lines+squares:top:declare"]
"""The three presets and two custom rule sets, by name."""

DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)
"""What PettingZoo's checks say of every dict observation with a mask, unless the
environment is one of PettingZoo's own classic games (it lists them by name)."""


def legal_ids_of(game: Game) -> set[int]:
    """The ids of ``game``'s legal actions, worked out from the game alone."""
    return {action_id(action) for action in game.legal_actions()}


def mask_ids(mask: Any) -> set[int]:
    """The ids a 0/1 mask allows."""
    return {int(i) for i in np.flatnonzero(mask)}


@contextmanager
def no_unexpected_warnings(expected: tuple[str, ...] = ()) -> Iterator[None]:
    """Fail if a warning other than ones starting with ``expected`` is issued inside."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [str(w.message) for w in caught
                  if not str(w.message).startswith(expected)]
    assert not unexpected, unexpected
