"""The PettingZoo environment: PettingZoo's own checks, the game it plays, its rewards."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from tests.env.env_helpers import (
    DICT_OBSERVATION_WARNINGS,
    RULE_SETS,
    legal_ids_of,
    mask_ids,
    no_unexpected_warnings,
)

from quads import CLASSIC, Game, IllegalActionError, Rules
from quads.env import AGENTS, env, raw_env
from quads.env.actions import action_of
from quads.env.observation import CALLS, HAND, SUPPLY

ROW_1_TALL = [8, 16, 9, 17, 10, 18, 11, 19]
"""Give 8, place A1, give 9, place B1, give A, place C1, give B, place D1: the last
placement fills row 1 with four tall pieces, by player_0."""
ROW_1_ACTORS = ["player_0", "player_1", "player_1", "player_0", "player_0", "player_1",
                "player_1", "player_0"]
LAST_PIECE_WINS = ".80A/F417/52BC/63DE 9"
"""Fifteen pieces and no line won; piece 9 on A1 completes row 1 (all light)."""


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_api_test_passes(rules: str) -> None:
    with no_unexpected_warnings(DICT_OBSERVATION_WARNINGS):
        api_test(env(rules=rules), num_cycles=100)
        api_test(raw_env(rules=rules), num_cycles=100)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_seed_test_passes(rules: str) -> None:
    with no_unexpected_warnings():
        seed_test(lambda: env(rules=rules), num_cycles=100)


def test_rules_may_be_given_as_a_value() -> None:
    rules = Rules.parse("lines:shape:declare")
    assert raw_env(rules=rules).rules is rules
    assert raw_env(rules="advanced").rules == Rules.parse("lines+squares:declare")
    assert raw_env().rules == Rules.parse("quads")


@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULE_SETS))
def test_the_mask_is_the_games_legal_actions(seed: int, rules: str) -> None:
    rng = random.Random(seed)
    environment = env(rules=rules)
    environment.reset(seed=seed)
    game = Game(Rules.parse(rules))  # played beside the environment, action for action
    steps = 0
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, info = environment.last()
        other = AGENTS[1 - AGENTS.index(agent)]
        if game.is_over():
            assert terminated
            assert not truncated
            outcome = game.outcome
            assert outcome is not None
            winner = None if outcome.winner is None else AGENTS[outcome.winner]
            assert reward == (0 if winner is None else 1 if agent == winner else -1)
            assert not observation["action_mask"].any()
            environment.step(None)
            continue
        assert not terminated
        assert reward == 0
        assert info == {}
        assert agent == AGENTS[game.to_move]
        assert mask_ids(observation["action_mask"]) == legal_ids_of(game)
        assert not environment.observe(other)["action_mask"].any()
        assert observation["observation"][SUPPLY].tolist() == [
            game.position.supply >> piece & 1 for piece in range(16)]
        assert observation["observation"][CALLS].tolist() == [
            int(game.can_declare()), int(game.can_claim())]
        number = rng.choice(sorted(legal_ids_of(game)))
        environment.step(number)
        game.apply(action_of(number))
        steps += 1
    assert game.is_over()
    assert environment.agents == []
    assert steps <= 35


def play(environment: Any, ids: list[int], actors: list[str] | None = None) -> None:
    """Step ``ids`` in turn; with ``actors``, check who acts before each."""
    for index, number in enumerate(ids):
        if actors is not None:
            assert environment.agent_selection == actors[index]
        environment.step(number)


def test_a_winning_line_ends_the_game_with_the_right_rewards() -> None:
    environment = env(rules="quads")
    environment.reset()
    play(environment, ROW_1_TALL[:-1], ROW_1_ACTORS[:-1])
    assert environment.agent_selection == "player_0"
    assert not any(environment.terminations.values())
    assert environment.rewards == {"player_0": 0, "player_1": 0}
    environment.step(ROW_1_TALL[-1])
    assert environment.terminations == {"player_0": True, "player_1": True}
    assert environment.rewards == {"player_0": 1, "player_1": -1}
    assert environment.unwrapped.game.outcome.describe() == "row 1: all tall and light"
    seen = {}
    for agent in environment.agent_iter():
        _observation, reward, terminated, _, _ = environment.last()
        assert terminated
        seen[agent] = reward
        environment.step(None)
    assert seen == {"player_0": 1, "player_1": -1}


def test_a_declaration_wins_under_declare_calling() -> None:
    environment = env(rules="classic")
    environment.reset()
    play(environment, ROW_1_TALL, ROW_1_ACTORS)
    assert not any(environment.terminations.values())
    observation, *_ = environment.last()
    assert environment.agent_selection == "player_0"
    assert mask_ids(observation["action_mask"]) == {32} | set(range(8)) | set(range(12, 16))
    assert observation["observation"][CALLS].tolist() == [1, 0]
    environment.step(32)
    assert environment.rewards == {"player_0": 1, "player_1": -1}
    assert all(environment.terminations.values())


def test_a_missed_declaration_may_be_claimed_once() -> None:
    environment = env(rules="classic")
    environment.reset()
    play(environment, [*ROW_1_TALL, 12])  # player_0 hands over C without declaring
    observation, *_ = environment.last()
    assert environment.agent_selection == "player_1"
    assert mask_ids(observation["action_mask"]) == {33} | set(range(20, 32))
    assert observation["observation"][CALLS].tolist() == [0, 1]
    claimed = pickle.loads(pickle.dumps(environment.unwrapped.game))
    environment.step(33)
    assert environment.rewards == {"player_0": -1, "player_1": 1}
    # Placing instead lets the chance go: the row is dead for good.
    assert claimed.can_claim()
    environment.reset()
    play(environment, [*ROW_1_TALL, 12, 20, 13])  # player_1 places on A2, hands over D
    observation, *_ = environment.last()
    assert 33 not in mask_ids(observation["action_mask"])
    assert not any(environment.terminations.values())


def test_after_the_sixteenth_piece_a_shape_may_be_declined() -> None:
    environment = env(rules=CLASSIC)
    for call, rewards in ((34, {"player_0": 0, "player_1": 0}),
                          (32, {"player_0": 1, "player_1": -1})):
        environment.reset(options={"position": LAST_PIECE_WINS})
        assert environment.agent_selection == "player_0"
        environment.step(16)
        observation, *_ = environment.last()
        assert mask_ids(observation["action_mask"]) == {32, 34}
        environment.step(call)
        assert environment.rewards == rewards
        assert all(environment.terminations.values())


def test_the_raw_environment_refuses_an_action_that_is_not_allowed() -> None:
    environment = raw_env(rules="quads")
    environment.reset()
    for number in (16, 40, -1, None):  # a placement before any piece was handed over
        with pytest.raises(IllegalActionError, match="cannot play action"):
            environment.step(number)
    assert environment.game.actions == ()
    assert environment.agent_selection == "player_0"


def test_the_wrapped_environment_ends_the_game_on_an_action_that_is_not_allowed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    environment = env(rules="classic")
    environment.reset()
    play(environment, [8, 16])
    environment.step(16)  # player_1 places again on A1 instead of handing over a piece
    assert "Illegal move" in caplog.text
    assert all(environment.terminations.values())
    assert environment.rewards == {"player_0": 0, "player_1": -1}
    environment.reset()
    with pytest.raises(AssertionError):
        environment.step(35)  # outside the action space


def test_observations_show_the_board_and_the_hand() -> None:
    environment = raw_env(rules="quads")
    environment.reset(options={"position": "F..0/..A./..../.3.. 7"})
    vector = environment.observe("player_0")["observation"]
    board = vector[:80].reshape(16, 5)
    assert board[0].tolist() == [1, 1, 1, 1, 0]  # F on A1
    assert board[3].tolist() == [0, 0, 0, 0, 0]  # 0 on D1
    assert board[6].tolist() == [0, 1, 0, 1, 0]  # A on C2
    assert board[1].tolist() == [0, 0, 0, 0, 1]  # B1 is empty
    assert vector[HAND].tolist() == [1, 1, 1, 0, 0]  # 7 in hand
    assert np.array_equal(environment.state(), vector)
    assert mask_ids(environment.observe("player_0")["action_mask"]) == {
        16 + cell for cell in range(16) if cell not in (0, 3, 6, 13)}


def test_reset_with_a_seed_repeats_sampled_actions() -> None:
    def sampled(seed: int) -> list[int]:
        environment = env(rules="advanced")
        environment.reset(seed=seed)
        ids = []
        for agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            action = None if terminated or truncated else int(
                environment.action_space(agent).sample(observation["action_mask"]))
            ids.append(action)
            environment.step(action)
        return ids

    assert sampled(7) == sampled(7)
    assert len({tuple(sampled(seed)) for seed in range(5)}) > 1


def test_render_shows_the_game_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    environment = env(rules="classic", render_mode="ansi")
    environment.reset()
    text = environment.render()
    assert "Rules:  classic" in text
    assert "To act: player_0 hands over a piece" in text
    play(environment, ROW_1_TALL)
    text = environment.render()
    assert "To act: player_0 hands over a piece (or may declare)" in text
    assert " 1 |  8   |  9   |  A   |  B   |" in text
    environment.step(32)
    assert "Over:   player_0 wins (row 1: all tall and light)" in environment.render()
    assert " 1 |* 8  *|* 9  *|* A  *|* B  *|" in environment.render()

    human = env(rules="quads", render_mode="human")
    human.reset()
    human.step(3)
    assert "To act: player_1 places the piece in hand" in capsys.readouterr().out

    with pytest.warns(UserWarning, match="without a render mode"):
        assert raw_env().render() is None
    with pytest.raises(ValueError, match="unknown render mode"):
        raw_env(render_mode="rgb_array")


def test_the_raw_environment_pickles() -> None:
    environment = pickle.loads(pickle.dumps(raw_env(rules="lines:color,height:auto")))
    assert environment.rules == Rules.parse("lines:color,height:auto")
    environment.reset()
    assert environment.agent_selection == "player_0"
