"""Research interfaces (issue 12; the ``pokerdraw32[rl]`` extra: numpy, gymnasium, pettingzoo).

* :func:`env` / :class:`raw_env`: a PettingZoo AEC environment, one hand a game, every seat an agent;
* :class:`DrawEnv`: a Gymnasium environment, one learning seat against bots by name or given opponents,
  registered as ``"pokerdraw32/Draw-v0"`` when this package is imported;
* :class:`DrawVectorEnv`: ``num_envs`` DrawEnv tables stepped by one compiled call without the GIL
  (a ``gymnasium.vector.VectorEnv``; rule and random opponents, other bot names in Python);
* :class:`Encoding`: the shared action space, legal-action mask and observation as numpy arrays,
  from a :class:`~pokerdraw32.hand.Hand` or a bot's :class:`~pokerdraw32.bots.SeatView` (the
  layout: :mod:`pokerdraw32._handcore.encode`, and the documentation's "The environments" page);
* :class:`PolicyBot`: a trained policy (a function of the observation and mask, or a
  Stable-Baselines3 model) as a bot, for :func:`pokerdraw32.simulate`, the command line's
  ``--bots module:attr`` and DrawEnv's opponents.

The engine never imports this package; numpy, gymnasium and pettingzoo are imported here only.

>>> from pokerdraw32.env import DrawEnv
>>> e = DrawEnv(players=3, opponents="random")
>>> obs, info = e.reset(seed=7)
>>> obs.shape, obs.dtype, info["action_mask"].shape
((171,), dtype('float32'), (39,))
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # type: ignore[import-untyped] # noqa: F401
except ImportError as _exc:   # pragma: no cover - depends on the installation
    raise ImportError(f"pokerdraw32.env needs the [rl] extra (numpy, gymnasium, pettingzoo): "
                      f"pip install 'pokerdraw32[rl]' ({_exc})") from _exc

from .aec import env, raw_env
from .encoding import DEFAULT_BUCKETS, OBS_SIZE, Encoding
from .policy import PolicyBot
from .single import DrawEnv
from .vector import DrawVectorEnv

__all__ = ["DEFAULT_BUCKETS", "OBS_SIZE", "DrawEnv", "DrawVectorEnv", "Encoding", "PolicyBot", "env", "raw_env"]

ENV_ID = "pokerdraw32/Draw-v0"
"""The Gymnasium id of :class:`DrawEnv`."""

if ENV_ID not in _gymnasium.registry:
    _gymnasium.register(id=ENV_ID, entry_point="pokerdraw32.env.single:DrawEnv")
