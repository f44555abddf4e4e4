"""Environments for learning agents (install with ``pip install 'quads[rl]'``).

* :func:`env` and :func:`raw_env`: a PettingZoo AEC environment in which two
  agents play each other under any rule set (:mod:`quads.env.aec`);
* :func:`gym_env` (:class:`QuadsSingleAgentEnv`): a Gymnasium environment in
  which one agent plays a computer level (:mod:`quads.env.single`);
* :mod:`quads.env.actions`: the action ids, one per game action, in OpenSpiel's
  numbering of pieces and cells (:mod:`quads.env.openspiel` converts);
* :mod:`quads.env.observation`: the flat observation vector.

Importing the package registers the single-agent environment with Gymnasium
as ``quads/Quads-v0``: ``gymnasium.make("quads/Quads-v0", rules="classic",
level=2)`` makes one (wrapped in Gymnasium's usual checks; its
``action_masks`` is reached through ``get_wrapper_attr``).

See ``docs/learning-agents.md``.
"""

import gymnasium

from quads.env.actions import action_count, action_id, action_of, describe_action
from quads.env.aec import AGENTS, QuadsAECEnv, env, raw_env
from quads.env.observation import OBSERVATION_SIZE, encode
from quads.env.single import QuadsSingleAgentEnv, gym_env

GYM_ID = "quads/Quads-v0"
"""The Gymnasium id of :class:`QuadsSingleAgentEnv`."""

if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point="quads.env.single:QuadsSingleAgentEnv")

__all__ = [
    "AGENTS",
    "GYM_ID",
    "OBSERVATION_SIZE",
    "QuadsAECEnv",
    "QuadsSingleAgentEnv",
    "action_count",
    "action_id",
    "action_of",
    "describe_action",
    "encode",
    "env",
    "gym_env",
    "raw_env",
]
