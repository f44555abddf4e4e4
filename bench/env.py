"""Steps per second of the learning environments, with agents that pick legal ids at random.

Usage (from the repository root)::

    python bench/env.py [--seconds 3] [--rules quads classic advanced lines:color,height:auto]
                        [--levels 1 3]

For each rule set, the PettingZoo environment (``quads.env.env``, wrapped as
PettingZoo's classic games are) plays whole games between two random agents
for ``--seconds``: every agent turn reads ``last()`` and steps one id.  Then
the Gymnasium environment (``quads.env.gym_env``) plays a random agent against
each computer level of ``--levels`` under ``quads``; one of its steps includes
the computer's replies, so its figure is of the agent's steps.  A random agent
samples from its action space with the mask, as PettingZoo's own checks do.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

from quads.env import env, gym_env

DEFAULT_RULES = ["quads", "classic", "advanced", "lines:color,height:auto"]


def measure(play_game: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Play games until ``seconds`` have passed: steps and games per second."""
    steps = games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += play_game()
        games += 1
    return steps / elapsed, games / elapsed


def aec_game(rules: str, seed: int) -> Callable[[], int]:
    """One random game of the AEC environment per call; returns its steps."""
    environment = env(rules=rules)
    environment.reset(seed=seed)

    def play() -> int:
        environment.reset()
        steps = 0
        for agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(environment.action_space(agent).sample(observation["action_mask"]))
            steps += 1
        return steps

    return play


def single_game(rules: str, level: int, seed: int) -> Callable[[], int]:
    """One random episode of the single-agent environment per call; returns its steps."""
    environment = gym_env(rules=rules, level=level)
    environment.reset(seed=seed)
    environment.action_space.seed(seed)

    def play() -> int:
        _, info = environment.reset()
        steps = 0
        terminated = False
        while not terminated:
            action = environment.action_space.sample(info["action_mask"])
            _, _, terminated, _, info = environment.step(action)
            steps += 1
        return steps

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--rules", nargs="+", default=DEFAULT_RULES,
                        help="rule sets of the AEC figures")
    parser.add_argument("--levels", nargs="+", type=int, default=[1, 3],
                        help="computer levels of the Gymnasium figures")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"# Python {platform.python_version()} on {platform.machine()}, "
          f"{args.seconds:g} s per figure")
    print(f"{'environment':<46} {'steps/s':>10} {'games/s':>9}")
    for name in args.rules:
        steps, games = measure(aec_game(name, args.seed), args.seconds)
        print(f"{'AEC, two random agents, ' + name:<46} {steps:>10,.0f} {games:>9,.0f}")
    for level in args.levels:
        steps, games = measure(single_game("quads", level, args.seed), args.seconds)
        print(f"{f'Gymnasium, random agent vs level {level}, quads':<46} "
              f"{steps:>10,.0f} {games:>9,.0f}")


if __name__ == "__main__":
    main()
