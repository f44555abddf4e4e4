"""The Gymnasium environment: one agent against a computer level."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from tests.env.env_helpers import legal_ids_of, mask_ids, no_unexpected_warnings

from quads import Game, Rules
from quads.env import GYM_ID, QuadsSingleAgentEnv, gym_env
from quads.env.actions import action_of
from quads.env.observation import encode
from quads.outcome import Player


@pytest.mark.parametrize("rules", ["quads", "classic", "lines:color,height:auto"])
@pytest.mark.parametrize("seat", [0, 1, None])
def test_gymnasium_check_env_passes(rules: str, seat: int | None,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with no_unexpected_warnings():
        check_env(gym_env(rules=rules, level=1, seat=seat), skip_render_check=True)
        # Made through the registry it has a spec, and its render modes are checked too.
        made = gymnasium.make(GYM_ID, rules=rules, level=2, seat=seat)
        check_env(made.unwrapped, skip_render_check=False)
    assert "Rules:" in capsys.readouterr().out  # the "human" mode printed the game


def play_episode(environment: QuadsSingleAgentEnv, seed: int) -> tuple[float, Game]:
    """A whole game of random legal ids; checks every step against a game kept beside it."""
    rng = random.Random(seed)
    observation, info = environment.reset(seed=seed)
    shadow = Game(environment.rules)
    for number in info["opponent_actions"]:
        shadow.apply(action_of(number))
    agent = Player(info["seat"])
    reward = 0.0
    while True:
        assert shadow.position == environment.game.position
        assert np.array_equal(observation, encode(shadow.state, shadow.rules))
        assert mask_ids(info["action_mask"]) == mask_ids(environment.action_masks())
        if shadow.is_over():
            return reward, shadow
        assert shadow.to_move is agent
        assert mask_ids(info["action_mask"]) == legal_ids_of(shadow)
        number = rng.choice(sorted(legal_ids_of(shadow)))
        observation, reward, terminated, truncated, info = environment.step(number)
        assert not truncated
        assert not info["illegal_action"]
        shadow.apply(action_of(number))
        for reply in info["opponent_actions"]:
            shadow.apply(action_of(reply))
        assert terminated == shadow.is_over()
        if not terminated:
            assert reward == 0


@pytest.mark.parametrize("rules", ["quads", "classic", "advanced", "lines:shape:declare"])
def test_whole_episodes_against_level_1(rules: str) -> None:
    environment = gym_env(rules=rules, level=1)
    results = []
    for seed in range(12):
        reward, game = play_episode(environment, seed)
        outcome = game.outcome
        assert outcome is not None
        seat = Player(environment.agent_player)
        assert reward == (0 if outcome.winner is None else 1 if outcome.winner is seat else -1)
        results.append((int(seat), reward))
        assert not environment.action_masks().any()
        with pytest.raises(RuntimeError, match="call reset"):
            environment.step(0)
    assert {seat for seat, _ in results} == {0, 1}  # seat=None draws both seats


def test_the_computers_win_is_the_agents_loss() -> None:
    environment = gym_env(rules="classic", level=3, seat=0)
    _, info = environment.reset(seed=1, options={"position": "89A./..../..../.... -"})
    assert info["opponent_actions"] == []
    _observation, reward, terminated, _, info = environment.step(11)  # hands over B
    assert info["opponent_actions"] == [19, 32]  # places it on D1 and declares
    assert (reward, terminated) == (-1.0, True)


def test_a_win_of_the_agent_is_rewarded() -> None:
    environment = gym_env(rules="quads", level=1, seat=0)
    environment.reset(seed=1, options={"position": "89A./..../..../.... B"})
    _observation, reward, terminated, _, info = environment.step(19)  # B on D1: row 1 tall
    assert (reward, terminated, info["opponent_actions"]) == (1.0, True, [])
    assert environment.game.outcome is not None
    assert environment.game.outcome.winner is Player.FIRST


def test_seeds_replay_the_same_games() -> None:
    def trace(seed: int) -> list[object]:
        environment = gym_env(rules="advanced", level=3)
        _, info = environment.reset(seed=seed)
        seen: list[object] = [info["seat"], *info["opponent_actions"]]
        rng = random.Random(0)
        terminated = False
        while not terminated:
            number = rng.choice(sorted(mask_ids(environment.action_masks())))
            _observation, reward, terminated, _, info = environment.step(number)
            seen.extend([number, *info["opponent_actions"], reward])
        return seen

    assert trace(11) == trace(11)
    assert len({tuple(trace(seed)) for seed in range(6)}) > 1


@pytest.mark.parametrize("number", [16, 34, 99, -1])
def test_an_action_that_is_not_allowed_loses_the_episode(number: int) -> None:
    environment = gym_env(rules="quads", level=1, seat=0)
    observation, info = environment.reset(seed=0)
    assert number not in mask_ids(info["action_mask"])
    after, reward, terminated, truncated, info = environment.step(number)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not info["action_mask"].any()
    assert not environment.action_masks().any()
    assert environment.game.actions == ()  # the game is left as it was
    assert np.array_equal(after, observation)
    with pytest.raises(RuntimeError, match="call reset"):
        environment.step(0)
    observation, info = environment.reset()
    assert mask_ids(info["action_mask"]) == set(range(16))


def test_options_choose_the_seat_for_one_game() -> None:
    environment = gym_env(rules="quads", level=2, seat=0)
    _, info = environment.reset(seed=3, options={"seat": 1})
    assert info["seat"] == 1
    assert info["agent"] == "player_1"
    assert len(info["opponent_actions"]) == 1  # the computer handed over the first piece
    assert environment.game.step.value == "place"
    _, info = environment.reset(seed=3)
    assert info["seat"] == 0
    assert info["opponent_actions"] == []


def test_made_through_the_registry() -> None:
    environment = gymnasium.make(GYM_ID, rules="classic", level=1, seat=1)
    _observation, info = environment.reset(seed=0)
    masks = environment.get_wrapper_attr("action_masks")()
    assert masks.dtype == np.bool_
    assert masks.shape == (35,)
    assert mask_ids(masks) == mask_ids(info["action_mask"])
    assert environment.unwrapped.rules == Rules.parse("classic")


def test_render_names_the_agent_and_the_computer() -> None:
    environment = gym_env(rules="quads", level=1, seat=1, render_mode="ansi")
    environment.reset(seed=0)
    text = environment.render()
    assert text is not None
    assert "To act: agent places the piece in hand" in text
    with pytest.warns(UserWarning, match="without a render mode"):
        assert gym_env().render() is None


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        gym_env(level=6)
    with pytest.raises(ValueError, match="unknown seat"):
        gym_env(seat=2)
    with pytest.raises(ValueError, match="unknown render mode"):
        gym_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="unknown seat"):
        gym_env().reset(options={"seat": "first"})
