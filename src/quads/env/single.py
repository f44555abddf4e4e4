"""A Gymnasium environment for one agent: it plays one side against a computer level.

The agent acts whenever its side is to move, one action id per step
(:mod:`quads.env.actions`); the computer (:func:`quads.players.make_player`)
answers with whole turns between the agent's steps.  The observation is the
vector of :mod:`quads.env.observation`; the mask of allowed ids is in
``info["action_mask"]`` and comes from :meth:`QuadsSingleAgentEnv.action_masks`,
the method that sb3-contrib's ``MaskablePPO`` calls.

Rewards come at the end: +1 when the agent wins, -1 when it loses, 0 for a
draw.  An action id that is not allowed now (masked out, or outside the action
space) ends the episode at once as a loss: reward -1, ``terminated`` true and
``info["illegal_action"]`` true; the game is left as it was before that id.

>>> from quads.env import gym_env
>>> environment = gym_env(rules="quads", level=1, seat=0)
>>> observation, info = environment.reset(seed=3)
>>> int(info["action_mask"].sum()), info["seat"]
(16, 0)
>>> observation, reward, terminated, truncated, info = environment.step(5)
>>> terminated, len(info["opponent_actions"])  # the computer placed 5 and handed a piece back
(False, 2)
>>> int(info["action_mask"].sum())  # 15 empty cells for it
15
"""

from __future__ import annotations

from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from quads.env.actions import action_count, action_id, action_mask, action_of, legal_ids
from quads.env.aec import AGENTS, resolve_rules
from quads.env.observation import encode, observation_space
from quads.env.text import game_text
from quads.game import Game
from quads.outcome import Player
from quads.players import LEVELS, ComputerPlayer, make_player
from quads.position import EMPTY, Position
from quads.rules import Rules

__all__ = ["QuadsSingleAgentEnv", "gym_env"]


class QuadsSingleAgentEnv(gymnasium.Env[NDArray[np.int8], np.int64]):
    """One side of a game of Quads against a computer player.

    :param rules: a rule set or its name (``quads``, ``classic``, ``advanced``,
        ``SHAPES:TRAITS:CALLING``).
    :param level: the computer's level, 1 (beginner) to 5 (perfect).
    :param seat: 0 when the agent hands over the first piece, 1 when the
        computer does; ``None`` draws the seat at every reset.
    :param render_mode: ``None``, ``"ansi"`` (:meth:`render` returns the text)
        or ``"human"`` (it prints it, after every step too).

    ``reset(seed=...)`` seeds the draw of the seat and the computer's own
    seed, so the same seed and the same actions replay the same game.
    ``reset(options={"seat": 1, "position": "<position string>"})`` chooses
    the seat and the start for one game (the first player to act at a
    position).  The computer plays its turns during :meth:`reset` and
    :meth:`step`; their ids are in ``info["opponent_actions"]``.  Stepping
    again after the episode ended raises :class:`RuntimeError`.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, rules: str | Rules = "quads", level: int = 3, seat: int | None = None,
                 render_mode: str | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}: expected one of "
                             f"{', '.join(map(str, sorted(LEVELS)))}")
        if seat not in (0, 1, None):
            raise ValueError(f"unknown seat {seat!r}: expected 0, 1 or None")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r}: expected None, "
                             "'human' or 'ansi'")
        self.rules = resolve_rules(rules)
        self.level = level
        self.seat = seat
        self.render_mode = render_mode
        self.action_count = action_count(self.rules)
        """The number of action ids: 32, or 35 under ``declare`` calling."""
        self.observation_space = cast("spaces.Space[NDArray[np.int8]]", observation_space())
        self.action_space = spaces.Discrete(self.action_count)
        self.game = Game(self.rules)
        self.opponent: ComputerPlayer = make_player(level, 0)
        self.agent_player = Player.FIRST
        self._legal: list[int] = []
        self._over = True

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[NDArray[np.int8], dict[str, Any]]:
        """Start a game, let the computer act if it is first, and return the first observation.

        :raises InvalidPositionError: if ``options["position"]`` cannot arise under the rules.
        """
        super().reset(seed=seed)
        options = options or {}
        seat = options.get("seat", self.seat)
        if seat not in (0, 1, None):
            raise ValueError(f"unknown seat {seat!r}: expected 0, 1 or None")
        if seat is None:
            seat = int(self.np_random.integers(2))
        self.agent_player = Player(seat)
        self.opponent = make_player(self.level, int(self.np_random.integers(2**31)))
        text = options.get("position")
        self.game = Game(self.rules, EMPTY if text is None else Position.from_string(str(text)))
        self._over = False
        replies = self._opponent_turns()
        observation, _, info = self._report(replies)
        return observation, info

    def step(self, action: int | np.integer[Any]) -> tuple[
        NDArray[np.int8], float, bool, bool, dict[str, Any]
    ]:
        """Play the agent's action ``action`` (an id), then the computer's turns until the
        agent is to act again or the game is over.

        :raises RuntimeError: if the episode is over (call :meth:`reset`).
        """
        if self._over:
            raise RuntimeError("the episode is over: call reset() before step()")
        number = int(action)
        if number not in self._legal:
            self._over = True
            self._legal = []
            info = self._info([])
            info["illegal_action"] = True
            return encode(self.game.state, self.rules), -1.0, True, False, info
        self.game.apply(action_of(number))
        replies = self._opponent_turns()
        observation, reward, info = self._report(replies)
        if self.render_mode == "human":
            self.render()
        return observation, reward, self._over, False, info

    def action_masks(self) -> NDArray[np.bool_]:
        """The allowed action ids now, as booleans (all false once the episode is over)."""
        mask = np.zeros(self.action_count, dtype=np.bool_)
        if not self._over:
            mask[self._legal] = True
        return mask

    def render(self) -> str | None:
        """The game as text (``ansi``), or print it (``human``); ``None`` without a mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode: "
                                  "make the environment with render_mode='ansi' or 'human'")
            return None
        names = ("agent", "computer") if self.agent_player is Player.FIRST else (
            "computer", "agent")
        text = game_text(self.game, names)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- the game ---------------------------------------------------------------

    def _opponent_turns(self) -> list[int]:
        """Let the computer play while it is to move; the ids of its actions."""
        played: list[int] = []
        game = self.game
        while game.to_move is not None and game.to_move is not self.agent_player:
            played.extend(action_id(action) for action in self.opponent.play(game))
        return played

    def _report(self, replies: list[int]) -> tuple[NDArray[np.int8], float, dict[str, Any]]:
        """The observation, the reward and the info after the computer's replies."""
        outcome = self.game.outcome
        reward = 0.0
        if outcome is None:
            self._legal = legal_ids(self.game.state, self.game.rules)
        else:
            self._legal = []
            self._over = True
            if outcome.winner is not None:
                reward = 1.0 if outcome.winner is self.agent_player else -1.0
        return encode(self.game.state, self.rules), reward, self._info(replies)

    def _info(self, replies: list[int]) -> dict[str, Any]:
        return {
            "action_mask": action_mask(self.game.state, self.rules, self._legal),
            "seat": int(self.agent_player),
            "agent": AGENTS[self.agent_player],
            "opponent_actions": replies,
            "illegal_action": False,
        }


def gym_env(rules: str | Rules = "quads", level: int = 3, seat: int | None = None,
            render_mode: str | None = None) -> QuadsSingleAgentEnv:
    """The single-agent environment (see :class:`QuadsSingleAgentEnv`)."""
    return QuadsSingleAgentEnv(rules, level, seat, render_mode)
