"""Many hands at once: evaluate a batch (R2), shuffle and deal many decks (R11).

Card codes are the kernels' ints ``4 * rank_index + suit_index`` (ranks 7..A = 0..7,
suits s c d h = 0..3, R1); a batch of hands is a buffer (``bytes``, ``bytearray``,
``array.array``, numpy array, ...) of 5 codes per hand, or of one uint32 card mask per
hand. Nothing here imports numpy; numpy arrays are accepted and returned when given.

>>> from pokerdraw32 import deal_many, evaluate_many, evaluate
>>> deals = deal_many(1000, seed=7, hands=3)      # 1000 deals of 3 hands: 3000 rows of 5 codes
>>> len(deals), len(evaluate_many(deals))
(15000, 3000)
>>> evaluate_many(bytes([31, 27, 23, 19, 15]))[0] == evaluate("Ah Kh Qh Jh Th").value
True
"""

from __future__ import annotations

import operator

from . import _kernels
from ._kernels import evaluate_many as _evaluate_many
from .errors import PokerDraw32TypeError, PokerDraw32ValueError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 10 ms) at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = ["deal_many", "evaluate_many"]


def evaluate_many(hands: Any, out: Any = None, *, suit_tiebreak: bool = True) -> Any:
    """The values of ``N`` 5-card hands (R2), the same ints as :func:`pokerdraw32.evaluate`'s
    ``HandRank.value``: larger is better, equal only for the same hand with R2.4 on.

    :param hands: a buffer in one of two layouts:

        * uint8 card codes: shape ``(N, 5)``, or 1-D with ``5 * N`` codes (hand ``i`` is
          items ``5 * i`` to ``5 * i + 4``; this is what :func:`deal_many` returns);
          the 5 codes of a hand are distinct, in 0..31, in any order;
        * uint32 card masks (format ``I``/``L``, itemsize 4): 1-D, ``N`` masks with exactly
          5 bits set.

    :param out: optional writable C-contiguous 1-D uint32 buffer of ``N`` items to fill;
        it is returned. It may overlap ``hands`` (``out=hands`` evaluates masks in place).
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: ``out`` if given; else a numpy ``uint32`` array when ``hands`` is a numpy
        array; else an ``array.array('I')``.
    :raises TypeError: not a buffer, a wrong item type, a read-only ``out``, or ``suit_tiebreak``
        not a bool.
    :raises ValueError: a wrong shape or size, or a bad hand (a code above 31, a card twice,
        a mask without 5 cards): the message names the first bad row.

    The compiled kernels release the GIL, so threads scale. A small batch (up to 256 rows)
    in a ``bytes``, ``bytearray`` or ``array('I')``, with ``out`` None or an ``array('I')``,
    skips the buffer protocol: 8 hands in one call cost less than 8 calls of ``evaluate``'s
    kernel (bench/evaluate.py).

    >>> from pokerdraw32 import HandCategory
    >>> values = evaluate_many(bytes([0, 1, 2, 4, 5,   28, 0, 4, 8, 12]))  # 7s 7c 7d 8s 8c; As 7s 8s 9s Ts
    >>> [HandCategory(v >> 22).label for v in values]
    ['full house', 'straight flush']
    >>> evaluate_many(bytes([0, 1, 2, 4, 5,   3, 3, 4, 5, 6]))
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: row 1: card code 3 appears twice
    """
    if suit_tiebreak is not True and suit_tiebreak is not False:   # as evaluate() checks it
        raise PokerDraw32TypeError(f"suit_tiebreak must be True or False, got {suit_tiebreak!r}")
    return _evaluate_many(hands, out, suit_tiebreak)


def deal_many(n_decks: int, seed: int | None = None, *, hands: int | None = None, rng: Any = None) -> bytearray:
    """Shuffle ``n_decks`` 32-card decks (R11), and optionally deal hands from each.

    Deck ``d`` is exactly what the ``d``-th call of ``Rng(seed).shuffled(0xFFFFFFFF)``
    returns, in both kernel implementations: unbiased (Fisher-Yates over the xoshiro256**
    generator), reproducible with a seed.

    :param n_decks: number of decks, ``n_decks >= 0``.
    :param seed: seed of a new :class:`pokerdraw32.Rng`; ``None`` seeds from the OS.
    :param hands: ``None`` returns whole decks. An int ``1 <= k <= 6`` deals ``k`` hands
        of 5 from each deck as a :class:`pokerdraw32.Hand` does (R5.1, one card at a time
        round the table): seat ``s`` gets the deck's cards ``s, s + k, ..., s + 4k``.
    :param rng: an existing ``Rng`` to draw from instead of ``seed`` (advanced as by the
        same number of ``shuffled`` calls); give one or the other.
    :returns: a ``bytearray`` of card codes: ``32 * n_decks`` (deck ``d`` at
        ``[32 * d, 32 * d + 32)``), or with ``hands=k``, ``5 * k * n_decks`` (the hand of
        seat ``s`` in deal ``d`` at row ``d * k + s``, i.e. ``[5 * (d * k + s), ... + 5)``),
        ready for :func:`evaluate_many`. With numpy:
        ``numpy.frombuffer(result, numpy.uint8).reshape(n_decks, k, 5)``.
    :raises TypeError: an argument of the wrong type.
    :raises ValueError: ``n_decks`` out of range, ``hands`` not in 1..6, or both ``seed``
        and ``rng`` given.

    >>> from pokerdraw32 import Rng
    >>> decks = deal_many(2, seed=11)
    >>> rng = Rng(11)
    >>> list(decks[:32]) == rng.shuffled(0xFFFFFFFF) and list(decks[32:]) == rng.shuffled(0xFFFFFFFF)
    True
    >>> deal = deal_many(1, seed=11, hands=2)          # 2 seats: cards 0, 2, 4, 6, 8 and 1, 3, 5, 7, 9
    >>> list(deal[:5]) == list(decks[0:10:2]) and list(deal[5:]) == list(decks[1:10:2])
    True
    """
    if rng is None:
        rng = _kernels.Rng(seed)
    elif seed is not None:
        raise PokerDraw32ValueError("give a seed or an rng, not both")
    if hands is not None:
        if not isinstance(hands, int) or isinstance(hands, bool):
            raise PokerDraw32TypeError(f"hands must be an int or None, not {type(hands).__name__}")
        hands = int(operator.index(hands))   # an int subclass by its value
        if not 1 <= hands <= 6:
            raise PokerDraw32ValueError(f"hands must be 1 to 6 (5 cards each from 32), got {hands}")
    decks = _kernels.deal_many(rng, n_decks)   # checks n_decks: an int from 0 to 2**40
    n_decks = int(operator.index(n_decks))
    if hands is None:
        return decks  # type: ignore[no-any-return]
    k = hands
    dealt = bytearray(5 * k * n_decks)
    for seat in range(k):
        for card in range(5):
            # card `card` of seat `seat` is deck card seat + card * k (R5.1), in every deck
            dealt[5 * seat + card :: 5 * k] = decks[seat + card * k :: 32]
    return dealt
