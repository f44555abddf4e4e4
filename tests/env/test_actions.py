"""Action ids: each id names one game action, and back."""

from __future__ import annotations

import numpy as np
import pytest

from quads import ADVANCED, CLASSIC, QUADS, Rules
from quads.env.actions import (
    AUTO_ACTIONS,
    DECLARE_ACTIONS,
    action_count,
    action_id,
    action_of,
    describe_action,
)
from quads.env.openspiel import OPENSPIEL_RULES, from_openspiel, to_openspiel
from quads.game import Abort, Claim, Declare, Decline, Give, Place, Resign, Step
from quads.outcome import Player


def test_every_id_names_its_own_action() -> None:
    expected = ([Give(piece) for piece in range(16)] + [Place(cell) for cell in range(16)]
                + [Declare(), Claim(), Decline()])
    assert [action_of(number) for number in range(DECLARE_ACTIONS)] == expected
    assert len(set(expected)) == DECLARE_ACTIONS
    for number, action in enumerate(expected):
        assert action_id(action) == number
        assert action_of(np.int64(number)) == action


def test_descriptions_name_pieces_and_cells() -> None:
    assert describe_action(10) == "give A"
    assert describe_action(16) == "place A1"
    assert describe_action(31) == "place D4"
    assert [describe_action(n) for n in (32, 33, 34)] == ["declare", "claim", "decline"]


@pytest.mark.parametrize("number", [-1, 35, 100, True, 3.0, "3"])
def test_a_number_that_is_no_id_is_refused(number: object) -> None:
    with pytest.raises(ValueError, match="no action has id"):
        action_of(number)  # type: ignore[arg-type]


@pytest.mark.parametrize("ending", [Resign(Player.FIRST), Abort()])
def test_endings_have_no_id(ending: object) -> None:
    with pytest.raises(ValueError, match="has no action id"):
        action_id(ending)  # type: ignore[arg-type]


def test_calls_have_ids_only_under_declare_calling() -> None:
    assert action_count(QUADS) == AUTO_ACTIONS == 32
    assert action_count(Rules.parse("lines:color:auto")) == 32
    assert action_count(CLASSIC) == action_count(ADVANCED) == DECLARE_ACTIONS == 35


def test_openspiel_numbers_are_pieces_and_cells() -> None:
    assert Rules.parse("lines:height,color,shape,top:auto") == OPENSPIEL_RULES
    for number in range(16):
        assert to_openspiel(number) == number
        assert to_openspiel(16 + number) == number
        assert from_openspiel(number, Step.GIVE) == number
        assert from_openspiel(number, Step.PLACE) == 16 + number
    for call in (32, 33, 34):
        with pytest.raises(ValueError, match="no OpenSpiel action"):
            to_openspiel(call)
    with pytest.raises(ValueError, match="once the game is over"):
        from_openspiel(0, Step.OVER)
    with pytest.raises(ValueError, match="run from 0 to 15"):
        from_openspiel(16, Step.GIVE)
