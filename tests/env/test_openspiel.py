"""Quads' ``lines:auto`` against OpenSpiel's ``quarto``: the same game, action for action.

The game is played at once in the AEC environment and in OpenSpiel's rules (a
plain model of them always, and OpenSpiel itself when its Python package has
the game): at every step the same player acts, the legal actions are the same
once mapped (:mod:`quads.env.openspiel`), and the games end alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from tests.env.env_helpers import mask_ids
from tests.env.openspiel_quarto import QuartoModel

from quads.env import AGENTS, raw_env
from quads.env.openspiel import OPENSPIEL_RULES, from_openspiel, to_openspiel

GAMES = 300

PLAYTHROUGH = [15, 9, 9, 1, 1, 11, 13, 7, 8, 15, 14, 3, 6, 12, 3, 5, 2, 14, 4, 8, 11, 4, 0, 6,
               10, 13]
"""The actions of the game that OpenSpiel's own test plays through
(``open_spiel/integration_tests/playthroughs/quarto.txt`` in pull request 1557)."""
RECORDED = {
    0: (0, list(range(16))),
    1: (1, list(range(16))),
    2: (1, list(range(15))),
    3: (0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15]),
    4: (0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14]),
    5: (1, [0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15]),
    20: (0, [0, 5, 7, 10, 11, 12]),
    21: (1, [0, 2, 4, 6, 10, 13]),
}
"""The player to act and the legal actions at the states the playthrough shows them."""
PLAYTHROUGH_END = ".9.E/B30D/4F.1/6A28 -"
"""Its last board: player_1 won with row 4, all solid."""


def pyspiel_quarto() -> Callable[[], Any]:
    """New states of OpenSpiel's own quarto, or a skip when it cannot be had."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="OpenSpiel's Python package (pip install open_spiel) is not installed")
    if "quarto" not in pyspiel.registered_names():
        pytest.skip("the installed OpenSpiel has no quarto game: it is only in OpenSpiel's "
                    "pull request 1557, in no release yet (open_spiel 2.0.2 lacks it)")
    game = pyspiel.load_game("quarto")
    return game.new_initial_state  # type: ignore[no-any-return]


def play_both(new_state: Callable[[], Any], seed: int) -> tuple[list[float], int]:
    """Play one random game in both; the OpenSpiel returns and the number of actions."""
    rng = random.Random(seed)
    environment = raw_env(rules=OPENSPIEL_RULES)
    environment.reset()
    state = new_state()
    actions = 0
    while not state.is_terminal():
        agent = environment.agent_selection
        assert not environment.terminations[agent]
        assert AGENTS.index(agent) == state.current_player()
        ours = mask_ids(environment.observe(agent)["action_mask"])
        assert sorted(to_openspiel(number) for number in ours) == sorted(state.legal_actions())
        action = rng.choice(state.legal_actions())
        environment.step(from_openspiel(action, environment.game.step))
        state.apply_action(action)
        actions += 1
    assert all(environment.terminations.values())
    returns = list(state.returns())
    assert [environment.rewards[agent] for agent in AGENTS] == returns
    return returns, actions


def check_many_games(new_state: Callable[[], Any]) -> None:
    endings = set()
    for seed in range(GAMES):
        returns, actions = play_both(new_state, seed)
        endings.add((tuple(returns), actions == 32))
    # Both players won, and some game filled the board (a draw, or a win at the last piece).
    assert (1.0, -1.0) in {returns for returns, _ in endings}
    assert (-1.0, 1.0) in {returns for returns, _ in endings}
    assert any(full for _, full in endings)


def test_openspiels_recorded_game() -> None:
    environment = raw_env(rules=OPENSPIEL_RULES)
    environment.reset()
    model = QuartoModel()
    for index, action in enumerate(PLAYTHROUGH):
        agent = environment.agent_selection
        ours = sorted(to_openspiel(n) for n in mask_ids(environment.observe(agent)["action_mask"]))
        assert ours == model.legal_actions()
        assert AGENTS.index(agent) == model.current_player()
        if index in RECORDED:
            assert (model.current_player(), model.legal_actions()) == RECORDED[index]
        environment.step(from_openspiel(action, environment.game.step))
        model.apply_action(action)
    assert model.is_terminal()
    assert model.returns() == [-1.0, 1.0]
    assert environment.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert environment.game.position.to_string() == PLAYTHROUGH_END
    assert environment.game.outcome is not None
    assert environment.game.outcome.describe() == "row 4: all solid"


def test_the_same_game_as_a_model_of_openspiels_rules() -> None:
    check_many_games(QuartoModel)


def test_the_same_game_as_openspiel() -> None:
    check_many_games(pyspiel_quarto())
