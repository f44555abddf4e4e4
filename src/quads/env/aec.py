"""A PettingZoo AEC environment: two agents play a game of Quads under any rule set.

``player_0`` hands over the first piece (:attr:`Player.FIRST`), ``player_1``
places it.  Each step is one action of the game (:mod:`quads.env.actions`):
a placement and the hand-over after it are two steps of the same agent, so an
agent may act twice in a row; :attr:`QuadsAECEnv.agent_selection` always
follows :attr:`Game.to_move`.  The game ends with +1 to the winner and -1 to
the loser, or 0 each for a draw.

:func:`env` wraps the environment as PettingZoo's classic games are wrapped;
:func:`raw_env` (:class:`QuadsAECEnv`) is the bare one, which raises
:class:`~quads.errors.IllegalActionError` on an action that is not allowed.

>>> from quads.env import env
>>> game = env(rules="classic")
>>> game.reset(seed=1)
>>> observation, reward, terminated, truncated, info = game.last()
>>> int(observation["action_mask"].sum()), game.agent_selection
(16, 'player_0')
>>> game.step(7)  # player_0 hands over piece 7
>>> game.agent_selection
'player_1'
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from numpy.typing import NDArray
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from quads.env.actions import action_count, action_mask, action_of, legal_ids
from quads.env.observation import encode, observation_space
from quads.env.text import game_text
from quads.errors import IllegalActionError
from quads.game import Game
from quads.outcome import Player
from quads.position import EMPTY, Position
from quads.rules import Rules

__all__ = ["AGENTS", "QuadsAECEnv", "env", "raw_env", "resolve_rules"]

AGENTS = ("player_0", "player_1")
"""The agents' names: ``player_0`` is :attr:`Player.FIRST`, ``player_1`` :attr:`Player.SECOND`."""

Observation = dict[str, NDArray[np.int8]]
"""What :meth:`QuadsAECEnv.observe` returns: ``observation`` and ``action_mask``."""


def resolve_rules(rules: str | Rules) -> Rules:
    """A :class:`Rules` value from a rule set or its name (see :meth:`Rules.parse`).

    :raises InvalidRulesError: if the name is not understood.
    """
    return rules if isinstance(rules, Rules) else Rules.parse(rules)


class QuadsAECEnv(AECEnv, EzPickle):  # type: ignore[misc]
    """A game of Quads for two agents, one action per step (the raw environment).

    :param rules: a rule set or its name: ``quads``, ``classic``, ``advanced``
        or ``SHAPES:TRAITS:CALLING`` such as ``lines:color,height:auto``.
    :param render_mode: ``None``, ``"ansi"`` (:meth:`render` returns the text)
        or ``"human"`` (it prints it, after every step too).

    The observation of each agent is a dict: ``observation``, the vector of
    :mod:`quads.env.observation`, and ``action_mask``, 1 for each action id
    allowed now (all 0 for the agent that is not to act).  ``reset`` takes
    ``options={"position": "<position string>"}`` to start a game there
    (``player_0`` to act), and a ``seed`` that seeds the agents' spaces.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "quads_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, rules: str | Rules = "quads", render_mode: str | None = None) -> None:
        EzPickle.__init__(self, rules, render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r}: expected None, "
                             "'human' or 'ansi'")
        self.rules = resolve_rules(rules)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {agent: spaces.Discrete(action_count(self.rules))
                              for agent in AGENTS}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": observation_space(),
                "action_mask": spaces.Box(0, 1, (action_count(self.rules),), dtype=np.int8),
            })
            for agent in AGENTS
        }
        self.game = Game(self.rules)
        self._legal: list[int] = []
        self._start(EMPTY)

    # -- the AEC interface ------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(32)``, or 35 under ``declare`` calling."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game, from the empty board or from ``options["position"]``.

        A ``seed`` seeds every agent's action and observation space, so that
        sampled actions repeat; the game itself has no chance in it.

        :raises InvalidPositionError: if the position cannot arise under the rules.
        """
        if seed is not None:
            for index, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + index)
                self.observation_spaces[agent].seed(seed + index)
        text = (options or {}).get("position")
        self._start(EMPTY if text is None else Position.from_string(str(text)))

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: the vector and the mask of its allowed action ids."""
        vector = encode(self.game.state, self.rules)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = action_mask(self.game.state, self.rules, self._legal)
        else:
            mask = np.zeros(action_count(self.rules), dtype=np.int8)
        return {"observation": vector, "action_mask": mask}

    def state(self) -> NDArray[np.int8]:
        """The observation vector, which is the whole state of the game."""
        return encode(self.game.state, self.rules)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` (an id) for :attr:`agent_selection`.

        An agent whose game is over steps with ``None``, as PettingZoo expects.

        :raises IllegalActionError: if the id is not allowed now (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or isinstance(action, bool) or int(action) not in self._legal:
            raise IllegalActionError(
                f"{agent} cannot play action {action!r} now: the allowed ids are "
                f"{self._legal}", "illegal_id")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self.game.apply(action_of(int(action)))
        self._after_action()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as text (``ansi``), or print it (``human``); ``None`` without a mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode: "
                                  "make the environment with render_mode='ansi' or 'human'")
            return None
        text = game_text(self.game, AGENTS)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""

    # -- the game ---------------------------------------------------------------

    def _start(self, start: Position) -> None:
        self.game = Game(self.rules, start)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[Player.FIRST]
        self._after_action()

    def _after_action(self) -> None:
        """Give the turn to the player to move, or the rewards when the game is over."""
        game = self.game
        outcome = game.outcome
        if outcome is None:
            to_move = game.to_move
            assert to_move is not None
            self.agent_selection = AGENTS[to_move]
            self._legal = legal_ids(game.state, game.rules)
            return
        self._legal = []
        if outcome.winner is not None:
            self.rewards[AGENTS[outcome.winner]] = 1.0
            self.rewards[AGENTS[outcome.winner.other]] = -1.0
        self.terminations = dict.fromkeys(self.agents, True)


def raw_env(rules: str | Rules = "quads", render_mode: str | None = None) -> QuadsAECEnv:
    """The bare environment (see :class:`QuadsAECEnv`)."""
    return QuadsAECEnv(rules, render_mode)


def env(rules: str | Rules = "quads", render_mode: str | None = None) -> Any:
    """The environment wrapped as PettingZoo's classic games are.

    An action that is not allowed ends the game: -1 to the agent that played
    it and 0 to the other (``TerminateIllegalWrapper``); an id outside the
    action space fails an assertion (``AssertOutOfBoundsWrapper``); acting
    before ``reset`` is refused (``OrderEnforcingWrapper``).
    """
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(rules, render_mode), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
