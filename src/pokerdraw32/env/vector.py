"""The vector environment: many tables stepped by one compiled call (issue 12, item 4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._kernels import encode as _encode
from .._kernels import play as _play
from .._kernels import vector as _vector
from ..errors import IllegalActionError, PokerDraw32ValueError, integer
from ..hand import Hand
from ..rules import Rules
from ._table import (
    acknowledge_error,
    learning_seat,
    observation_bound,
    opponent_bots,
    opponent_list,
    render_text,
    supported_render_mode,
    table_rules,
)
from ._tables import PythonTables
from .encoding import DEFAULT_BUCKETS, OBS_SIZE, Encoding
from .single import DrawEnv


class DrawVectorEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables of :class:`~pokerdraw32.env.DrawEnv`, advanced together by one compiled
    call that releases the GIL (:mod:`pokerdraw32._handcore.vector`).

    Table ``i`` is exactly ``DrawEnv(...)`` reset with seed ``seed + i`` (the same hands, the same
    opponents' choices, the same observations, masks and rewards for the same actions; the suite
    checks it).  As there, one episode is one hand dealt: a hand in which a table's learning seat
    has no decision (everyone folds to its big blind) is one acknowledge step, its final
    observation with one legal action, index 1 (check/call), which ends the episode with the
    hand's result; ``info["no_decision"]`` (``bool[num_envs]``) marks those tables, at that step
    and at the hand's end.  So a mean over episodes is a mean per hand dealt.

    Autoreset (``autoreset_mode``): ``"next_step"`` (Gymnasium's ``NEXT_STEP``, the default): the
    step after a table's hand ended deals it the next hand, ignores its action and returns reward
    0 (the observation at the end is the hand's final one, its mask all False).  ``"same_step"``
    (Gymnasium's ``SAME_STEP``, Stable-Baselines3's): a table whose hand ends is dealt its next
    hand in the same step: the observation and mask are the new hand's, the final observation is
    ``info["final_obs"]`` (an object array: ``float32[171]`` for those tables, None for the
    others; ``info["_final_obs"]`` marks them) and ``info["final_info"]["no_decision"]`` tells
    whether that hand had a decision.  The same hands are dealt either way.

    * observations: ``float32[num_envs, 171]`` (:data:`~pokerdraw32.env.OBS_SIZE`), the learning
      seat's encoding, chips divided by the starting stack;
    * actions: ``int64[num_envs]``, indices of the encoding (``Discrete(35 + B)`` each);
    * ``info["action_mask"]``: ``bool[num_envs, 35 + B]``, the legal actions of each table's
      learning seat (only index 1 at an acknowledge step; all False for a table whose hand just
      ended, in ``"next_step"`` mode); also :meth:`action_masks`;
    * rewards: ``float64[num_envs]``, the learning seat's result in big blinds when its hand ends;
      terminations: ``bool[num_envs]``; truncations: always False.

    Opponents are bot names (:func:`pokerdraw32.bots.bot_names`).  When every one is ``"rule"`` or
    ``"random"``, the tables are played inside the compiled loop; with any other name (``"call"``,
    ``"cfr"``, ...) they are :class:`~pokerdraw32.env.DrawEnv` tables stepped one after the other in
    Python (:class:`pokerdraw32.env._tables.PythonTables`: the same hands, slower).  For opponents
    given as callables use :class:`~pokerdraw32.env.DrawEnv` (or Gymnasium's ``SyncVectorEnv`` of
    them).

    :param num_envs: tables, 1 or more.
    :param copy: return copies of the observations, masks, rewards and terminations (default
        True); ``False`` returns the environment's own arrays, overwritten by the next step (faster).
    :param illegal_action: ``"raise"`` (default): an action outside a table's mask raises
        :class:`~pokerdraw32.errors.IllegalActionError` naming the table, the index and the rule,
        and no table moves.
    :param autoreset_mode: ``"next_step"`` (default) or ``"same_step"`` (or the
        ``gymnasium.vector.AutoresetMode`` of that name), see above.
    :param render_mode: ``"ansi"``: :meth:`render` gives every table as text; another mode warns
        and renders nothing (as :class:`~pokerdraw32.env.DrawEnv`).
    :raises PokerDraw32ValueError: bad players, seat, stack, buckets, opponents (not a bot name:
        the message lists them; a bot that cannot be loaded), ``num_envs`` or ``autoreset_mode``.

    The other parameters are :class:`~pokerdraw32.env.DrawEnv`'s.

    >>> from pokerdraw32.env import DrawVectorEnv
    >>> envs = DrawVectorEnv(4, players=3, opponents="random")
    >>> obs, info = envs.reset(seed=7)
    >>> obs.shape, info["action_mask"].shape
    ((4, 171), (4, 39))
    >>> actions = info["action_mask"].argmax(axis=1)          # the first legal action of each table
    >>> obs, rewards, terminated, truncated, info = envs.step(actions)
    >>> rewards.dtype, terminated.shape
    (dtype('float64'), (4,))
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, num_envs: int, players: int = 3, opponents: str | Sequence[str] = "rule", seat: int = 0,
                 rules: Rules | None = None, preset: str = "classic", structure: str | None = None,
                 stack: int = 100, buckets: Sequence[float] = DEFAULT_BUCKETS, copy: bool = True,
                 illegal_action: str = "raise", render_mode: str | None = None,
                 autoreset_mode: str | AutoresetMode = "next_step") -> None:
        count = integer(num_envs)
        if count is None or count < 1:
            raise PokerDraw32ValueError(f"num_envs={num_envs!r} must be 1 or more tables")
        self.players, self.rules, self.stack = table_rules(players, rules, preset, structure, stack)
        n = self.players
        self.seat = learner = learning_seat(seat, n)
        chosen = opponent_list(opponents, n)
        compiled = all(o in ("rule", "random") for o in chosen)
        if not compiled:
            opponent_bots(chosen, self.rules, n, callables=False)   # names only: known, loadable, fit
        self.opponents = chosen
        if illegal_action != "raise":
            raise PokerDraw32ValueError(f"illegal_action={illegal_action!r}: the vector environment raises ('raise')")
        modes = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
        mode = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else autoreset_mode
        if mode not in modes:
            raise PokerDraw32ValueError(f"autoreset_mode={autoreset_mode!r}: use 'next_step' or 'same_step'")
        self.autoreset_mode: AutoresetMode = modes[mode]
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = supported_render_mode(render_mode, self.metadata["render_modes"], "DrawVectorEnv")
        self.encoding = Encoding(buckets)
        self.big_blind: int = self.rules.big_blind
        self.num_envs = count
        self.copy = bool(copy)
        self._core: Any
        if compiled:
            policies = [-1] * n
            others = [s for s in range(n) if s != learner]
            for s, o in zip(others, chosen, strict=True):
                policies[s] = _play.RULE if o == "rule" else _play.RANDOM
            policies[learner] = _play.RULE   # not read: the learning seat's decisions are the actions
            self._core = _vector.VectorCore(Hand, self.rules, n, learner, self.stack, self.big_blind, policies,
                                            list(self.encoding.buckets), count)
        else:                                 # other bots: DrawEnv tables stepped in Python (same hands)
            rules_used = self.rules
            self._core = PythonTables(count, lambda: DrawEnv(n, chosen, learner, rules=rules_used, stack=stack,
                                                             buckets=buckets))
        high = observation_bound(n, self.rules, self.stack)
        self.single_observation_space = spaces.Box(0.0, high, (OBS_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(self.encoding.actions)
        self.observation_space = batch_space(self.single_observation_space, count)
        self.action_space = batch_space(self.single_action_space, count)
        self._obs = np.zeros((count, OBS_SIZE), dtype=np.float32)
        self._mask = np.zeros((count, self.encoding.actions), dtype=np.uint8)
        self._rewards = np.zeros(count, dtype=np.float64)
        self._terminated = np.zeros(count, dtype=np.bool_)
        self._truncated = np.zeros(count, dtype=np.bool_)
        self._no_decision = np.zeros(count, dtype=np.uint8)
        self._reset_once = False

    def _out(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        mask = self._mask.view(np.bool_)
        no_decision = self._no_decision.view(np.bool_)
        if self.copy:
            return self._obs.copy(), {"action_mask": mask.copy(), "no_decision": no_decision.copy()}
        return self._obs, {"action_mask": mask, "no_decision": no_decision}

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every table a new hand: table ``i`` seeded with ``seed + i`` (a list: one seed a
        table; None: seeds drawn from the environment's ``np_random``)."""
        if seed is None or isinstance(seed, (int, np.integer)):
            super().reset(seed=None if seed is None else int(seed))
            if seed is None:
                seeds: list[int | None] = [int(x) for x in self.np_random.integers(2**63, size=self.num_envs)]
            else:
                seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise PokerDraw32ValueError(f"{len(seeds)} seeds for {self.num_envs} tables")
            super().reset(seed=None)
        self._core.reset(seeds, self._obs, self._mask)
        self._core.no_decision(self._no_decision)
        self._reset_once = True
        return self._out()

    def step(self, actions: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                          npt.NDArray[np.bool_], dict[str, Any]]:
        """Play one action of each table's learning seat, then its opponents (see the class).

        :raises IllegalActionError: a table's action is outside its mask; no table moved.
        """
        ended, final_obs, final_no_decision = self._advance(actions)
        obs, info = self._out()
        if final_obs is not None:               # SAME_STEP: the tables whose hand ended were dealt again
            finals = np.full(self.num_envs, None, dtype=object)
            for k, i in enumerate(np.flatnonzero(ended)):
                finals[i] = final_obs[k]
            flags = np.zeros(self.num_envs, dtype=np.bool_)
            flags[ended] = final_no_decision
            info["final_obs"] = finals
            info["_final_obs"] = ended.copy()
            info["final_info"] = {"no_decision": flags, "_no_decision": ended.copy()}
        if self.copy:
            return obs, self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), info
        return obs, self._rewards, self._terminated, self._truncated, info

    def _advance(self, actions: Any) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float32] | None,
                                             npt.NDArray[np.bool_] | None]:
        """One step of the core into the environment's own buffers: ``(terminated, final
        observations, their no-decision flags)``, the last two, in ``"same_step"`` mode only, the
        rows of the tables whose hand ended (in table order; those tables are dealt again).

        :raises IllegalActionError: a table's action is outside its mask; no table moved.
        """
        if not self._reset_once:
            raise PokerDraw32ValueError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise PokerDraw32ValueError(f"actions must be {self.num_envs} integers (an action index a table), "
                                        f"got {chosen.dtype} of shape {chosen.shape}")
        chosen = np.ascontiguousarray(chosen, dtype=np.int64)
        bad = self._core.step(chosen, self._obs, self._mask, self._rewards, self._terminated.view(np.uint8))
        if bad >= 0:
            if self._no_decision[bad]:
                raise acknowledge_error(self.encoding, self.seat, int(chosen[bad]), table=bad) from None
            hand = self._core.hands[bad]
            error = _encode.action_error(hand, int(chosen[bad]), self.encoding._buckets)
            named = IllegalActionError(f"table {bad}: {error}", seat=error.seat)
            named.rule = error.rule
            raise named from None
        ended = self._terminated
        if self.autoreset_mode is AutoresetMode.SAME_STEP and ended.any():
            final_obs = self._obs[ended]                    # copies (boolean indexing)
            final_no_decision = self._no_decision.view(np.bool_)[ended]
            self._core.deal_ended(self._obs, self._mask)
            self._core.no_decision(self._no_decision)
            return ended, final_obs, final_no_decision
        self._core.no_decision(self._no_decision)
        return ended, None, None

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action masks now: ``bool[num_envs, 35 + B]`` (a copy), as ``info["action_mask"]``."""
        return self._mask.view(np.bool_).copy()

    @property
    def hands(self) -> list[Hand]:
        """A copy of each table's current hand (the dealer's view, every card: for inspection and
        tests; copies, so that acting on them cannot move a table behind the environment's back)."""
        return [h.clone() for h in self._core.hands]

    @property
    def decisions(self) -> int:
        """Decisions made so far at every table, the learning seats' and the opponents'."""
        return int(self._core.decisions)

    def render(self) -> str | None:  # type: ignore[override]  # text, as DrawEnv's ansi mode
        """``"ansi"``: every table as text (the dealer's view: every card)."""
        if self.render_mode != "ansi":
            return None
        return "\n\n".join(f"table {i}\n{text}" for i, text in enumerate(self._texts()))

    def _texts(self) -> list[str]:
        """Every table's text (the dealer's view), in table order."""
        names = [("you" if s == self.seat else f"seat {s}") for s in range(self.players)]
        return [render_text(h, names) for h in self._core.hands]
