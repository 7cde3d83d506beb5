"""The solver's abstraction: bet sizes, card buckets and the translation of real bets (issue 26).

An :class:`Abstraction` is a small immutable record, saved and loaded as JSON
(:meth:`Abstraction.save`, :meth:`Abstraction.load`):

* **stakes**: the classic preset's no-limit blinds (small blind 1 chip, big blind 2, R3.2, R4.3)
  and ``stack_bb`` big blinds behind each player (default 100);
* **betting** (``structure="no-limit"``, the default): raise sizes as fractions of the pot after
  calling (``bet_fractions``, multiples of 1/1000, ascending, default 0.5, 1, 2), plus all-in, at
  most ``raise_cap`` raises a betting round (1..4; the blinds do not count), the Parole split where
  it is legal (``parole``, R8);
* **fixed-limit betting** (``structure="fixed-limit"``, R3.4): one raise, to the current bet plus
  ``L`` (the big blind, 2 chips) in the first round and ``2 L`` in the second (R7.2), the all-in
  instead only when the stack cannot make it; ``raise_cap`` is the rules' cap (R3.4): at most
  ``raise_cap`` bets and raises a round, the big blind counting as the first round's first bet
  (the rules' default cap is 4: give ``raise_cap=4`` to play :class:`~pokerdraw32.Rules`'s
  default fixed-limit game; the field's default stays 3).  ``bet_fractions`` has no use there and
  must be left at its default (anything else is refused);
* **cards before the draw** (first round and the draw): ``pre_strength`` x ``pre_potential``
  buckets: the hand's strength percentile now (:func:`~pokerdraw32._kernels.strength_score`)
  cut in ``pre_strength`` equal slices, and its draw potential (the exact expected percentile
  of the final hand after the ``"rule"`` draw, :func:`~pokerdraw32._kernels.draw_summary`,
  precomputed for the 201,376 hands in ``_potential.zlib`` by tools/make_cfr_potential.py)
  cut in ``pre_potential`` slices of equal numbers of hands: of all hands, or, with
  ``potential_within_strength``, of the hands of each strength slice (strength and potential are
  correlated, so over all hands some pairs are empty: 6 of the 12 buckets of 3 x 4; within each
  slice every bucket holds a ``1 / (pre_strength * pre_potential)`` share of the hands, give or
  take one);
* **cards after the draw**: the final strength percentile cut in ``post_buckets`` equal slices;
  both players' draw counts are in the information set's history;
* **the draw**: "draw ``k``" for ``k`` = 0..4, the cards by
  :func:`pokerdraw32.cfr._mccfr.draw_discard` (the ``"rule"`` draw's cards when ``k`` is its count).

:func:`pseudo_harmonic` maps a real bet between two abstract sizes (Ganzfried & Sandholm 2013).
"""

from __future__ import annotations

import json
import math
import zlib
from array import array
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

from ..errors import PokerDraw32TypeError, PokerDraw32ValueError, shown
from ..rules import Structure

__all__ = ["Abstraction", "CardTables", "card_tables", "potential_table", "pseudo_harmonic"]

HANDS = 201376
"""C(32, 5): the number of 5-card hands."""

FORMAT = "pokerdraw32-cfr-abstraction"

STRUCTURES = ("no-limit", "fixed-limit")
"""The betting structures an :class:`Abstraction` models (R3.4)."""

DEFAULT_FRACTIONS = (0.5, 1.0, 2.0)
"""``Abstraction.bet_fractions``'s default (the only value allowed in fixed-limit)."""


@dataclass(frozen=True)
class Abstraction:
    """The game the solver solves: stakes, bet sizes and card buckets (see the module's docstring).

    :raises PokerDraw32ValueError: a field out of range (the message names it); at most 127
        buckets a round, 12 bet sizes and 4 raises a round (the information set key's room); a
        structure other than ``"no-limit"`` and ``"fixed-limit"``, or fixed-limit with other
        ``bet_fractions`` than the default (R3.4).
    :raises PokerDraw32TypeError: a field of the wrong type.
    """

    stack_bb: int = 100
    """Chips behind each player at the start, in big blinds (the big blind is 2 chips)."""
    bet_fractions: tuple[float, ...] = DEFAULT_FRACTIONS
    """Raise sizes: fractions of the pot after calling (multiples of 0.001, ascending); all-in is always there."""
    raise_cap: int = 3
    """Most raises (and bets) in one betting round, 1..4 (the blinds do not count); in fixed-limit the
    rules' cap (R3.4): bets and raises, the big blind counting as the first round's first bet."""
    parole: bool = True
    """Offer the Parole split (R8) where it is legal."""
    pre_strength: int = 4
    """Buckets of the strength percentile before the draw."""
    pre_potential: int = 6
    """Buckets of the draw potential before the draw (pre_strength * pre_potential <= 127)."""
    post_buckets: int = 16
    """Buckets of the final strength percentile after the draw (<= 127)."""
    potential_within_strength: bool = False
    """Cut the draw potential in equal slices within each strength slice (no empty bucket) rather
    than over all hands (the first abstractions' way, kept as the default so that their files and
    strategies mean what they meant); saved in the JSON only when True."""
    structure: str = "no-limit"
    """The betting structure (R3.4, a string; a :class:`~pokerdraw32.rules.Structure` is taken as its
    value): ``"no-limit"`` (pot-fraction raises and all-in) or
    ``"fixed-limit"`` (the one fixed raise; ``raise_cap`` is then the rules' cap, the big blind
    counting as the first round's first bet); saved in the JSON only when not ``"no-limit"``, so
    the files and strategies of before load unchanged."""

    def __post_init__(self) -> None:
        for name in ("stack_bb", "raise_cap", "pre_strength", "pre_potential", "post_buckets"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise PokerDraw32TypeError(f"Abstraction.{name} must be an int, got {shown(value)}")
        for name in ("parole", "potential_within_strength"):
            flag = getattr(self, name)
            if not isinstance(flag, bool):
                raise PokerDraw32TypeError(f"Abstraction.{name} must be True or False, got {shown(flag)}")
        if not 1 <= self.stack_bb <= 100000:
            raise PokerDraw32ValueError(f"Abstraction.stack_bb={self.stack_bb}: use 1 to 100000 big blinds")
        if not 1 <= self.raise_cap <= 4:
            raise PokerDraw32ValueError(f"Abstraction.raise_cap={self.raise_cap}: use 1 to 4 raises a round "
                                        "(fixed-limit: bets and raises, R3.4)")
        if not 1 <= self.pre_strength * self.pre_potential <= 127 or min(self.pre_strength, self.pre_potential) < 1:
            raise PokerDraw32ValueError(f"Abstraction: pre_strength={self.pre_strength} x pre_potential="
                                        f"{self.pre_potential} must make 1 to 127 buckets")
        if not 1 <= self.post_buckets <= 127:
            raise PokerDraw32ValueError(f"Abstraction.post_buckets={self.post_buckets}: use 1 to 127")
        fr = self.bet_fractions
        if not isinstance(fr, (tuple, list)) or not all(isinstance(f, (int, float)) and not isinstance(f, bool)
                                                        for f in fr):
            raise PokerDraw32TypeError(f"Abstraction.bet_fractions must be a tuple of numbers, got {shown(fr)}")
        if not all(isinstance(f, int) or math.isfinite(f) for f in fr):    # (isfinite overflows on a huge int)
            raise PokerDraw32ValueError(f"Abstraction.bet_fractions={shown(fr)}: each pot fraction must be a finite "
                                        "number from 0.001 to 1000")
        # in range before scaling: 1e308 * 1000 is inf, which round() cannot make an int
        milli = [round(f * 1000) if -2000 < f < 2000 else 0 for f in fr]
        exact = all(0 < m <= 1000000 and abs(m - f * 1000) <= 1e-6 for m, f in zip(milli, fr, strict=True))
        if len(fr) > 12 or not exact or any(a >= b for a, b in pairwise(milli)):
            raise PokerDraw32ValueError(f"Abstraction.bet_fractions={shown(fr)}: at most 12 ascending pot fractions, "
                                        "each a multiple of 0.001 from 0.001 to 1000")
        object.__setattr__(self, "bet_fractions", tuple(m / 1000 for m in milli))
        if isinstance(self.structure, Structure):
            object.__setattr__(self, "structure", self.structure.value)
        if not isinstance(self.structure, str):
            raise PokerDraw32TypeError(f"Abstraction.structure must be a string, got {shown(self.structure)}")
        if self.structure not in STRUCTURES:
            raise PokerDraw32ValueError(f"Abstraction.structure={shown(self.structure)}: use 'no-limit' or "
                                        "'fixed-limit' [R3.4] (the solver has no pot-limit game)")
        if self.structure == "fixed-limit" and self.bet_fractions != DEFAULT_FRACTIONS:
            raise PokerDraw32ValueError(f"Abstraction.bet_fractions={shown(fr)}: not used in fixed-limit (its one "
                                        "raise is fixed, R3.4): leave bet_fractions at its default "
                                        f"{DEFAULT_FRACTIONS}")

    @property
    def fixed_limit(self) -> bool:
        """Whether the structure is fixed-limit (R3.4)."""
        return self.structure == "fixed-limit"

    @property
    def raise_slots(self) -> int:
        """The betting slots before the all-in's: 1 in fixed-limit (the fixed raise, slot 3; the all-in
        is slot 4), else ``len(bet_fractions)``."""
        return 1 if self.fixed_limit else len(self.bet_fractions)

    @property
    def milli(self) -> tuple[int, ...]:
        """The bet fractions in thousandths of the pot (the solver's integer form)."""
        return tuple(round(f * 1000) for f in self.bet_fractions)

    @property
    def stack(self) -> int:
        """Chips behind each player at the start (``2 * stack_bb``)."""
        return 2 * self.stack_bb

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"format": ..., "version": 1, <fields>}``."""
        out: dict[str, Any] = {"format": FORMAT, "version": 1}
        out.update(asdict(self))
        out["bet_fractions"] = list(self.bet_fractions)
        if not self.potential_within_strength:
            del out["potential_within_strength"]
        if self.structure == "no-limit":
            del out["structure"]
        return out

    def tables(self) -> CardTables:
        """Its card tables: :func:`card_tables` of its bucket counts (cached)."""
        return card_tables(self.pre_strength, self.pre_potential, self.post_buckets,
                           within=self.potential_within_strength)

    @classmethod
    def from_dict(cls, data: Any) -> Abstraction:
        """:raises PokerDraw32ValueError: not an abstraction's JSON form, or an unknown field."""
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != 1:
            raise PokerDraw32ValueError(f"not a {FORMAT} version 1 object: {shown(data)}")
        known = {f.name for f in fields(cls)}
        extra = set(data) - known - {"format", "version"}
        if extra:
            raise PokerDraw32ValueError(f"unknown abstraction field(s): {', '.join(sorted(extra))}")
        kwargs = {k: v for k, v in data.items() if k in known}
        if "bet_fractions" in kwargs and isinstance(kwargs["bet_fractions"], list):
            kwargs["bet_fractions"] = tuple(kwargs["bet_fractions"])
        return cls(**kwargs)

    def save(self, path: str | Path) -> None:
        """Write the JSON form to ``path``."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Abstraction:
        """Read an abstraction written by :meth:`save`.

        :raises PokerDraw32ValueError: the file is not one (bad JSON, wrong format, bad field)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise PokerDraw32ValueError(f"cannot read the abstraction {str(path)!r}: {e}") from None
        return cls.from_dict(data)


@lru_cache(maxsize=1)
def potential_table() -> array:  # type: ignore[type-arg]
    """The 201,376 draw potentials (``array('H')``, 65535 = certain to beat every hand), by hand index."""
    raw = zlib.decompress((Path(__file__).parent / "_potential.zlib").read_bytes())
    table = array("H")
    table.frombytes(raw)
    if table.itemsize != 2 or len(table) != HANDS:
        raise PokerDraw32ValueError("pokerdraw32/cfr/_potential.zlib is damaged: reinstall pokerdraw32")
    import sys
    if sys.byteorder != "little":
        table.byteswap()
    return table


@dataclass(frozen=True)
class CardTables:
    """Per-hand tables by :func:`~pokerdraw32.cfr._mccfr.hand_index` (201,376 entries each)."""

    pre: array  # type: ignore[type-arg]
    """``array('B')``: the bucket before the draw (``strength * pre_potential + potential``)."""
    post: array  # type: ignore[type-arg]
    """``array('B')``: the bucket after the draw."""
    value: array  # type: ignore[type-arg]
    """``array('I')``: the hand's value (:func:`~pokerdraw32._kernels.evaluate_mask`, R2.4 on)."""
    ruled: array  # type: ignore[type-arg]
    """``array('I')``: the ``"rule"`` draw's discard mask (:func:`~pokerdraw32._kernels.rule_discard`)."""


@lru_cache(maxsize=4)
def card_tables(pre_strength: int, pre_potential: int, post_buckets: int, *, within: bool = False) -> CardTables:
    """The bucket, value and draw tables of an abstraction's card buckets (cached: a few seconds
    in the pure-Python build, a fraction of one compiled).  ``within``: the potential slices cut
    within each strength slice (:attr:`Abstraction.potential_within_strength`)."""
    from .._kernels import evaluate_mask, rule_discard, strength_score
    from ._select import mccfr

    index = mccfr.hand_index
    value = array("I", [0]) * HANDS
    ruled = array("I", [0]) * HANDS
    strength = array("I", [0]) * HANDS
    for cards in combinations(range(32), 5):
        mask = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]) | (1 << cards[3]) | (1 << cards[4])
        i = index(mask)
        v = evaluate_mask(mask)
        value[i] = v
        ruled[i] = rule_discard(mask)
        strength[i] = strength_score(v)
    pot = potential_table()
    pot_bucket = array("B", [0]) * HANDS
    if within:
        slices: list[list[int]] = [[] for _ in range(pre_strength)]
        for i in range(HANDS):
            slices[strength[i] * pre_strength // 402752].append(i)
        groups = slices
    else:
        groups = [list(range(HANDS))]
    for group in groups:
        group.sort(key=lambda i: (pot[i], i))
        for rank, i in enumerate(group):
            pot_bucket[i] = rank * pre_potential // len(group)
    pre = array("B", [0]) * HANDS
    post = array("B", [0]) * HANDS
    for i in range(HANDS):
        s = strength[i]                     # 2 * below + equal: s / 402752 is the percentile
        pre[i] = (s * pre_strength // 402752) * pre_potential + pot_bucket[i]
        post[i] = s * post_buckets // 402752
    return CardTables(pre, post, value, ruled)


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """The probability of mapping a bet of size ``x`` to the smaller abstract size ``a`` rather than
    ``b`` (sizes in fractions of the pot, ``a <= x <= b``): ``(b - x)(1 + a) / ((b - a)(1 + x))``
    (Ganzfried & Sandholm, IJCAI 2013).  1 at ``x = a``, 0 at ``x = b``.

    :raises PokerDraw32ValueError: not ``0 <= a <= x <= b`` with ``a < b``.
    """
    if not 0 <= a <= x <= b or a >= b:
        raise PokerDraw32ValueError(f"pseudo_harmonic needs 0 <= a <= x <= b and a < b, got x={x}, a={a}, b={b}")
    return (b - x) * (1 + a) / ((b - a) * (1 + x))
