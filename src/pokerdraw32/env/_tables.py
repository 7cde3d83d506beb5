"""The vector environment's tables played in Python: its core when an opponent is not a rule or
random bot (a ``"call"``, ``"cfr"``, ... bot of :func:`pokerdraw32.bots.bot_names`).

:class:`PythonTables` has the methods of :class:`pokerdraw32._handcore.vector.VectorCore` that
:class:`~pokerdraw32.env.DrawVectorEnv` calls, and the same behaviour: table ``i`` is a
:class:`~pokerdraw32.env.DrawEnv` reset with seed ``seeds[i]``, each later hand dealt from the same
generator, so it is exactly what the compiled core plays when every opponent is a rule or random
bot (the suite compares the two).  The tables are stepped one after the other, holding the GIL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from threading import Lock
from typing import Any

from .._kernels import Rng
from ..errors import PokerDraw32ValueError
from ..hand import Hand
from ._table import CHECK_CALL
from .single import DrawEnv


class PythonTables:
    """``count`` tables, each a :class:`~pokerdraw32.env.DrawEnv` made by ``make_env()``.

    :param count: tables, 1 or more (checked by the caller).
    """

    def __init__(self, count: int, make_env: Callable[[], DrawEnv]) -> None:
        self._envs = [make_env() for _ in range(count)]
        self._count = count
        self._actions = self._envs[0].encoding.actions
        self._done = [False] * count        # the hand ended at the last step: the next step deals (NEXT_STEP)
        self._nodec = [False] * count       # the current hand gives the learning seat no decision
        self._ready = False
        self._lock = Lock()

    @property
    def actions(self) -> int:
        """The size of the action space (``35 + len(buckets)``)."""
        return self._actions

    @property
    def decisions(self) -> int:
        """Decisions made so far by every seat of every table (learning seats and opponents)."""
        return sum(env._decisions for env in self._envs)

    @property
    def hands(self) -> list[Hand]:
        """The tables' current hands (the dealer's objects: every card)."""
        return [env.hand for env in self._envs if env.hand is not None]

    def _enter(self) -> None:
        if not self._lock.acquire(False):
            raise PokerDraw32ValueError("the tables are being stepped in another thread: an environment belongs to "
                                        "one thread at a time")

    def _deal(self, i: int, obs: Any, mask: Any, seed: int | None = None) -> None:
        """Deal table ``i`` its next hand (from ``Rng(seed)`` when a seed is given, else from the
        table's generator) and write its row."""
        env = self._envs[i]
        o, info = env.reset(seed=seed)
        self._done[i] = False
        self._nodec[i] = bool(info["no_decision"])
        obs[i, :len(o)] = o
        mask[i, :self._actions] = info["action_mask"]

    def reset(self, seeds: Sequence[int | None], obs: Any, mask: Any) -> int:
        """Seed table ``i`` with ``Rng(seeds[i])`` (None: from the operating system), deal each a
        hand, and write the observations and masks (as :meth:`VectorCore.reset`)."""
        if len(seeds) != self._count:
            raise PokerDraw32ValueError(f"{len(seeds)} seeds for {self._count} tables")
        self._enter()
        try:
            for i, seed in enumerate(seeds):
                self._deal(i, obs, mask, seed if seed is not None else Rng().next_u64())
            self._ready = True
        finally:
            self._lock.release()
        return 0

    def _validate(self, actions: Any) -> int:
        """The first table whose action is outside its mask, or -1 (nothing changes)."""
        for i, env in enumerate(self._envs):
            if self._done[i]:
                continue
            a = int(actions[i])
            if not 0 <= a < self._actions:
                return i
            if self._nodec[i]:
                if a != CHECK_CALL:
                    return i
                continue
            hand = env.hand
            if hand is None or hand.actor != env.seat or env.encoding.decode(hand, a) < 0:
                return i
        return -1

    def step(self, actions: Any, obs: Any, mask: Any, rewards: Any, terminated: Any) -> int:
        """One step of every table (as :meth:`VectorCore.step`): -1, or the first table whose
        action is outside its mask (then nothing changed)."""
        if not self._ready:
            raise PokerDraw32ValueError("call reset() before step()")
        self._enter()
        try:
            bad = self._validate(actions)
            if bad >= 0:
                return bad
            for i, env in enumerate(self._envs):
                if self._done[i]:
                    self._deal(i, obs, mask)
                    rewards[i] = 0.0
                    terminated[i] = 0
                    continue
                o, reward, ended, _, info = env.step(int(actions[i]))
                obs[i, :len(o)] = o
                mask[i, :self._actions] = info["action_mask"]
                rewards[i] = reward
                terminated[i] = 1 if ended else 0
                self._done[i] = bool(ended)
        finally:
            self._lock.release()
        return -1

    def deal_ended(self, obs: Any, mask: Any) -> int:
        """Deal every table whose hand ended at the last step its next hand now, writing those rows
        (as :meth:`VectorCore.deal_ended`); the number of tables dealt."""
        if not self._ready:
            raise PokerDraw32ValueError("call reset() before deal_ended()")
        self._enter()
        try:
            ended = [i for i in range(self._count) if self._done[i]]
            for i in ended:
                self._deal(i, obs, mask)
        finally:
            self._lock.release()
        return len(ended)

    def no_decision(self, out: Any) -> int:
        """Write into ``out`` 1 for each table whose current hand gives its learning seat no decision
        (the acknowledge step, or that hand's end), else 0; the number of such tables."""
        if not self._ready:
            raise PokerDraw32ValueError("call reset() before no_decision()")
        for i, flag in enumerate(self._nodec):
            out[i] = 1 if flag else 0
        return sum(self._nodec)
