"""The research encoding with numpy arrays: :class:`Encoding` wraps the engine's compiled (or pure)
encoding functions, :mod:`pokerdraw32._encode`, whose module docstring is the full layout of the
action space and of the observation (also in README.md, "Research interfaces")."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._kernels import encode as _encode
from ..errors import PokerDraw32ValueError
from ..hand import Hand

DEFAULT_BUCKETS: tuple[float, ...] = tuple(_encode.DEFAULT_BUCKETS)
"""Bet/raise buckets as pot fractions: minimum (``0``), half pot, pot, all-in (``< 0``)."""
OBS_SIZE: int = _encode.OBS_SIZE
"""Length of an observation (float32)."""


def action_index(index: Any) -> int | None:
    """``index`` as an action index: a Python or numpy integer, or a 0-d integer array (what
    Stable-Baselines3's ``predict`` returns for one environment); None for anything else (a bool,
    a float, a sequence)."""
    if isinstance(index, (bool, np.bool_)):
        return None
    if isinstance(index, (int, np.integer)):
        return int(index)
    if isinstance(index, np.ndarray) and index.shape == () and np.issubdtype(index.dtype, np.integer):
        return int(index)
    return None


class Encoding:
    """The action space and the observation of :mod:`pokerdraw32._encode`, with numpy arrays.

    :param buckets: the bet/raise buckets as pot fractions, 1 to 16 of them: a bucket ``f``
        raises to ``to_match + f * (pot + call)`` chips (rounded down), ``0`` is the minimum bet
        or raise and a negative value the maximum (all-in, or the pot-limit bound), always
        clipped to the legal bounds; a bucket that repeats an earlier one's amount is masked.
    :raises PokerDraw32ValueError: not 1 to 16 buckets, or a bucket above 1000 (or NaN).

    >>> from pokerdraw32 import Hand, Rules
    >>> enc = Encoding()
    >>> h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    >>> enc.actions, [enc.action_name(i) for i in enc.action_mask(h).nonzero()[0]]   # half pot: the min raise
    (39, ['fold', 'check/call', 'bet/raise min', 'bet/raise 1 pot', 'bet/raise all-in'])
    >>> enc.observation(h, 0, scale=200).shape
    (171,)
    """

    def __init__(self, buckets: Sequence[float] = DEFAULT_BUCKETS) -> None:
        values = [float(b) for b in buckets]
        if not 1 <= len(values) <= _encode.MAX_BUCKETS:
            raise PokerDraw32ValueError(f"{len(values)} bet/raise buckets: use 1 to {_encode.MAX_BUCKETS}")
        for b, f in enumerate(values):
            if math.isnan(f) or f > 1000:
                raise PokerDraw32ValueError(f"bucket {b}: pot fraction {f} must be a number, at most 1000")
        self.buckets: npt.NDArray[np.float64] = np.array(values, dtype=np.float64)
        self.buckets.flags.writeable = False
        self._buckets = np.array(values, dtype=np.float64)   # the writable copy the C functions take
        self.actions: int = _encode.action_count(values)
        """Size of the discrete action space: ``35 + len(buckets)``."""
        self.discard0: int = _encode.BET0 + len(values)
        """Index of the first discard action (stand pat); discard mask ``m`` is ``discard0 + m``."""

    def observation(self, hand: Hand, seat: int, scale: float,
                    out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The observation of ``seat``: ``float32[OBS_SIZE]``, chips divided by ``scale`` (chips,
        normally the starting stack), written into ``out`` when given.

        :raises PokerDraw32ValueError: no such seat, ``scale`` not positive.
        """
        if out is None:
            out = np.empty(OBS_SIZE, dtype=np.float32)
        _encode.observe(hand, seat, out, scale)
        return out

    def action_mask(self, hand: Hand, out: npt.NDArray[np.uint8] | None = None) -> npt.NDArray[np.uint8]:
        """The legal-action mask of the player to act: ``uint8[actions]`` (1 legal), all zero when
        nobody is to act; written into ``out`` when given.  ``.view(np.int8)`` or
        ``.view(bool)`` gives the other dtypes without a copy."""
        if out is None:
            out = np.empty(self.actions, dtype=np.uint8)
        _encode.action_mask(hand, out, self._buckets)
        return out

    def decode(self, hand: Hand, index: int) -> int:
        """The packed decision of ``index`` for the player to act (see
        :func:`pokerdraw32._encode.decode_action`), or -1 when it is outside the mask."""
        number = action_index(index)
        if number is None or not 0 <= number < self.actions:
            return -1
        return int(_encode.decode_action(hand, number, self._buckets))

    def apply(self, hand: Hand, index: Any) -> int:
        """Play action ``index`` for the player to act in ``hand``.

        :returns: the packed decision applied.
        :raises IllegalActionError: ``index`` is outside the legal-action mask (the message names
            the index, the action, the seat and the rule); the hand is unchanged.
        """
        number = action_index(index)
        if number is None or not 0 <= number < self.actions:
            raise _encode.action_error(hand, index if number is None else number, self._buckets)
        decision = int(_encode.apply_action(hand, number, self._buckets))
        if decision < 0:
            raise _encode.action_error(hand, number, self._buckets)
        return decision

    def action_name(self, index: int) -> str:
        """A short text for action ``index`` (``"fold"``, ``"bet/raise 0.5 pot"``, ``"discard 01001"``, ...)."""
        return _encode.action_name(int(index), self._buckets)

    @property
    def action_names(self) -> list[str]:
        """The names of every action index, in order."""
        return [self.action_name(i) for i in range(self.actions)]
