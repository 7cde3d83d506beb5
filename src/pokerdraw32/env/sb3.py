"""Stable-Baselines3 on the compiled vector core (issue 24, item 2; the ``pokerdraw32[sb3]`` extra).

:class:`MaskableDrawVecEnv` is a ``stable_baselines3.common.vec_env.VecEnv`` whose tables are those
of :class:`~pokerdraw32.env.DrawVectorEnv` (every table's step in one compiled call without the
GIL), with the legal-action masks that sb3-contrib's ``MaskablePPO`` reads:

>>> from pokerdraw32.env.sb3 import MaskableDrawVecEnv
>>> envs = MaskableDrawVecEnv(4, players=3, opponents="random", seed=7)
>>> obs = envs.reset()
>>> obs.shape, envs.action_masks().shape
((4, 171), (4, 39))
>>> obs, rewards, dones, infos = envs.step(envs.action_masks().argmax(axis=1))
>>> rewards.dtype, dones.shape
(dtype('float32'), (4,))

so that ``MaskablePPO("MlpPolicy", MaskableDrawVecEnv(256, players=3), gamma=1.0).learn(200_000)``
trains at the vector environment's speed instead of through ``DummyVecEnv``/``SubprocVecEnv``
copies of :class:`~pokerdraw32.env.DrawEnv` (``bench/sb3.py`` measures both;
``examples/maskable_ppo.py`` trains and measures an agent).

This module is the only one of pokerdraw32 that imports stable_baselines3 (``pokerdraw32.env``
imports without it); without the extra, importing it raises an ImportError naming the extra.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as _exc:   # pragma: no cover - depends on the installation
    raise ImportError(
        "pokerdraw32.env.sb3 needs the [sb3] extra (stable-baselines3, sb3-contrib and torch): "
        "pip install 'pokerdraw32[rl,sb3]'; for a CPU-only torch (about 200 MB instead of several GB "
        "with CUDA) install it first: pip install torch --index-url https://download.pytorch.org/whl/cpu "
        f"({_exc})") from _exc

from ..errors import PokerDraw32ValueError
from ..rules import Rules
from .encoding import DEFAULT_BUCKETS
from .vector import DrawVectorEnv

__all__ = ["MaskableDrawVecEnv"]


class MaskableDrawVecEnv(VecEnv):  # type: ignore[misc]  # stable_baselines3 is typed Any here (pyproject.toml)
    """``num_envs`` tables of :class:`~pokerdraw32.env.DrawEnv` as a Stable-Baselines3 ``VecEnv``,
    stepped by :class:`~pokerdraw32.env.DrawVectorEnv` (its compiled core with ``"rule"`` and
    ``"random"`` opponents; with any other bot name, such as ``"cfr"``, its tables in Python).

    * observations: ``float32[num_envs, 171]`` (the learning seat's encoding, chips divided by the
      starting stack); actions: ``Discrete(35 + B)`` indices, given as ``int[num_envs]``;
    * :meth:`action_masks`: ``bool[num_envs, 35 + B]``, the legal actions of every table (what
      sb3-contrib's ``get_action_masks`` reads, through ``env_method("action_masks")``);
    * rewards: ``float32[num_envs]``, the learning seat's result in big blinds when its hand ends,
      else 0; dones: ``bool[num_envs]``.

    Stable-Baselines3's autoreset: a table whose hand ends is dealt its next hand in the same
    step; the observation (and mask) returned is the new hand's, the final one is
    ``infos[i]["terminal_observation"]`` (with ``infos[i]["TimeLimit.truncated"] = False``: a hand
    always ends, never truncated).  **One episode is one hand dealt**: a hand in which the learning
    seat has no decision (everyone folds to its big blind) is an episode of one acknowledge step
    (its final observation; the only legal action, 1, check/call, ends it with the hand's result;
    ``infos[i]["no_decision"]`` is True at its end), so ``evaluate_policy``'s mean per episode is the
    mean per hand dealt.

    Seeds: :meth:`reset` seeds table ``i`` with ``self._seeds[i]`` (``seed(s)`` sets them to
    ``s + i``, as SB3 does; ``seed=`` here calls it), so table ``i`` plays exactly the hands of
    ``DrawEnv(...)`` reset with ``s + i`` and then reset without a seed after every hand (the
    suite compares it with SB3's ``DummyVecEnv`` of such DrawEnvs, hand by hand).  A reset
    without seeds draws them from the environment's generator.

    :param num_envs: tables, 1 or more.
    :param seed: the seed of the first :meth:`reset` (None: drawn at random).
    :param render_mode: ``"ansi"`` (:meth:`render` returns every table as text) or None.
    :raises PokerDraw32ValueError: bad ``num_envs``, players, seat, stack, buckets or opponents.

    The other parameters are :class:`~pokerdraw32.env.DrawEnv`'s (``stack`` in big blinds).

    An action outside a table's mask raises :class:`~pokerdraw32.errors.IllegalActionError`
    naming the table (no table moves): with masking, MaskablePPO never gives one.
    ``get_attr``/``set_attr`` read and set attributes shared by every table (this object's, then
    the :class:`~pokerdraw32.env.DrawVectorEnv`'s, ``vector_env``); ``env_method`` calls
    ``"action_masks"`` and ``"render"`` per table.
    """

    def __init__(self, num_envs: int, players: int = 3, opponents: str | Sequence[str] = "rule", seat: int = 0,
                 rules: Rules | None = None, preset: str = "classic", structure: str | None = None,
                 stack: int = 100, buckets: Sequence[float] = DEFAULT_BUCKETS, seed: int | None = None,
                 render_mode: str | None = None) -> None:
        self.vector_env = DrawVectorEnv(num_envs, players=players, opponents=opponents, seat=seat, rules=rules,
                                        preset=preset, structure=structure, stack=stack, buckets=buckets,
                                        copy=False, autoreset_mode="same_step", render_mode=render_mode)
        """The :class:`~pokerdraw32.env.DrawVectorEnv` whose tables these are (its arrays are this
        environment's own; do not step it behind this one's back)."""
        venv = self.vector_env
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)
        self._actions: npt.NDArray[np.int64] | None = None
        self._closed = False
        if seed is not None:
            self.seed(seed)

    # -- the VecEnv protocol ----------------------------------------------------------------------

    def reset(self) -> npt.NDArray[np.float32]:
        """Deal every table a new hand (seeds: see the class); the observations, ``float32[num_envs, 171]``.
        ``reset_infos[i]["no_decision"]`` tells a table whose first hand is an acknowledge step."""
        seeds = list(self._seeds)
        first = seeds[0]
        seed: int | list[int | None] | None
        if all(s is None for s in seeds):
            seed = None
        elif isinstance(first, int) and seeds == list(range(first, first + self.num_envs)):
            seed = first                     # as seed(s) gives: the vector environment's own generator too
        else:
            seed = seeds
        obs, info = self.vector_env.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{"no_decision": bool(flag)} for flag in info["no_decision"]]
        self._actions = None
        return obs.copy()

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Take every table's action (``int[num_envs]``); :meth:`step_wait` plays them."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                 list[dict[str, Any]]]:
        """Play the actions of :meth:`step_async`: ``(observations, rewards, dones, infos)`` (see
        the class; the arrays are new every step).

        :raises IllegalActionError: a table's action is outside its mask; no table moved.
        :raises PokerDraw32ValueError: no reset yet, no actions, not ``num_envs`` integers, or the
            environment was closed.
        """
        if getattr(self, "_closed", False):
            raise PokerDraw32ValueError("this MaskableDrawVecEnv was closed: it steps no more")
        if self._actions is None:
            raise PokerDraw32ValueError("step_wait() without step_async(actions) since the last reset or step")
        actions, self._actions = self._actions, None
        ended, final_obs, final_no_decision = self.vector_env._advance(actions)
        venv = self.vector_env
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if final_obs is not None and final_no_decision is not None:
            for k, i in enumerate(np.flatnonzero(ended).tolist()):
                infos[i] = {"terminal_observation": final_obs[k], "TimeLimit.truncated": False,
                            "no_decision": bool(final_no_decision[k])}
        return venv._obs.copy(), venv._rewards.astype(np.float32), ended.copy(), infos

    def close(self) -> None:
        """Nothing to release (no process, no file); the environment steps no more."""
        self._closed = True

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action masks now: ``bool[num_envs, 35 + B]`` (a copy; one row a table)."""
        return self.vector_env.action_masks()

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        """``attr_name`` of this environment (or else of ``vector_env``), once for each table of
        ``indices``: the tables share one configuration.

        :raises AttributeError: neither has it.
        """
        owner = self if hasattr(self, attr_name) else self.vector_env
        value = getattr(owner, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None) -> None:
        """Set ``attr_name`` of this environment, for every table at once.

        :raises PokerDraw32ValueError: ``indices`` name some tables only (they share one configuration).
        """
        if sorted(set(self._indices(indices))) != list(range(self.num_envs)):
            raise PokerDraw32ValueError(f"set_attr({attr_name!r}) for some tables only: the tables of a "
                                        "MaskableDrawVecEnv share one configuration (give indices=None)")
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: int | Iterable[int] | None = None,
                   **method_kwargs: Any) -> list[Any]:
        """A table method for each table of ``indices``: ``"action_masks"`` (``bool[35 + B]`` each,
        as ``DrawEnv.action_masks``) or ``"render"`` (each table's text in ``"ansi"`` mode, else None).

        :raises AttributeError: another method (the tables are compiled, not Python environments).
        """
        chosen = self._indices(indices)
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self.action_masks()
            return list(masks) if len(chosen) == self.num_envs and chosen == list(range(self.num_envs)) \
                else [masks[i] for i in chosen]
        if method_name == "render" and not method_args and not method_kwargs:
            texts = self._texts()
            return [None if texts is None else texts[i] for i in chosen]
        raise AttributeError(f"MaskableDrawVecEnv.env_method({method_name!r}): its tables are compiled, not Python "
                             "environments; the table methods are 'action_masks' and 'render' (no arguments)")

    def env_is_wrapped(self, wrapper_class: type, indices: int | Iterable[int] | None = None) -> list[bool]:
        """False for every table: no Gymnasium wrapper (wrap this VecEnv in ``VecMonitor`` for
        episode statistics)."""
        return [False for _ in self._indices(indices)]

    def render(self, mode: str | None = None) -> str | None:
        """``"ansi"``: every table as text (the dealer's view: every card); else None."""
        if (mode or self.render_mode) != "ansi" or self.render_mode != "ansi":
            return None
        return self.vector_env.render()

    # -- helpers -----------------------------------------------------------------------------------

    def _indices(self, indices: int | Iterable[int] | None) -> list[int]:
        chosen = list(self._get_indices(indices))
        for i in chosen:
            if not isinstance(i, (int, np.integer)) or isinstance(i, bool) or not 0 <= i < self.num_envs:
                raise PokerDraw32ValueError(f"table index {i!r}: the tables are 0..{self.num_envs - 1}")
        return [int(i) for i in chosen]

    def _texts(self) -> list[str] | None:
        return self.vector_env._texts() if self.render_mode == "ansi" else None

    @property
    def hands(self) -> list[Any]:
        """Copies of the tables' current hands (:attr:`pokerdraw32.env.DrawVectorEnv.hands`)."""
        return self.vector_env.hands
