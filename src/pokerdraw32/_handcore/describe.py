"""The names of hand values (R2): ``describe_value``, as the public
:func:`pokerdraw32.evaluation.describe_value` (re-exported there unchanged) and the hand's core
(the SHOW event's ``hand`` info) both read them.

A low module of its own (it needs only the cards' ranks and suits), so that the hand's core names a
shown hand without importing the evaluation façade above it.  A kernel value is packed as
:mod:`pokerdraw32.evaluation` says: ``category << 22 | r1 << 18 | ... | r5 << 2 | suit``, the
categories numbered as :class:`pokerdraw32.evaluation.HandCategory` (0 high card .. 8 straight flush).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from ..cards import Rank, Suit

__all__ = ["describe_value"]

# the categories of R2 (pokerdraw32.evaluation.HandCategory's values)
_HIGH_CARD, _ONE_PAIR, _TWO_PAIR, _THREE_OF_A_KIND, _STRAIGHT, _FULL_HOUSE, _FLUSH, _FOUR_OF_A_KIND, \
    _STRAIGHT_FLUSH = range(9)


def _category(value: int) -> int:
    """The category of a kernel value, refused as ``HandCategory(value >> 22)`` refuses it."""
    cat = value >> 22
    if not 0 <= cat <= _STRAIGHT_FLUSH:
        raise ValueError(f"{cat!r} is not a valid HandCategory")
    return cat


def _ranks(value: int) -> tuple[Rank, ...]:
    return tuple(Rank((value >> shift) & 15) for shift in (18, 14, 10, 6, 2))


def describe_value(value: int, cards: Iterable[int] | None = None, *, suit_tiebreak: bool = True) -> str:
    """Human description of a kernel value, e.g. ``"full house, kings full of nines"``.

    Where R2 breaks ties by suit, the deciding card is named with its suit
    (``"pair of jacks, queen of hearts kicker"``).  The suit is read from ``cards`` when they
    are given, else from the value (whose suit field is 0, spades, when ``suit_tiebreak`` was
    off, R2.4).  With ``suit_tiebreak=False`` no suit decides (R2.4), and none is named.

    >>> from pokerdraw32.evaluation import evaluate
    >>> describe_value(evaluate("Kh Ks Jd Jc 9h").value)
    'two pair, kings and jacks, nine of hearts kicker'
    >>> describe_value(evaluate("Kh Ks Jd Jc 9h").value, suit_tiebreak=False)
    'two pair, kings and jacks, nine kicker'
    """
    if not suit_tiebreak:
        return _describe_ranks(value)
    if cards is not None:
        held = [int(c) for c in cards]
        cat = value >> 22
        if cat in (8, 6):                                    # straight flush, flush: any card's suit
            value = (value & ~3) | (held[0] & 3)
        elif cat in (4, 2, 1, 0):                            # the deciding card: top, kicker, highest odd card
            key = (value >> (10 if cat == 2 else 14 if cat == 1 else 18)) & 15
            value = (value & ~3) | next(c & 3 for c in held if c >> 2 == key)
    return _describe(value)


@lru_cache(maxsize=8192)
def _describe(value: int) -> str:
    cat = _category(value)
    r = _ranks(value)
    suit = Suit(value & 3)
    if cat == _STRAIGHT_FLUSH:
        if r[0] is Rank.ACE:
            return f"royal flush, {suit.noun}"
        low = " (ace low)" if r[0] is Rank.TEN else ""
        return f"straight flush, {r[0].noun} high{low}, {suit.noun}"
    if cat == _FOUR_OF_A_KIND:
        return f"four of a kind, {r[0].plural}, {r[1].noun} kicker"
    if cat == _FLUSH:
        return f"flush, {r[0].noun} high, {suit.noun}"
    if cat == _FULL_HOUSE:
        return f"full house, {r[0].plural} full of {r[1].plural}"
    if cat == _STRAIGHT:
        low = " (ace low)" if r[0] is Rank.TEN else ""
        return f"straight, {r[0].noun} high{low}, {r[0].noun} of {suit.noun}"
    if cat == _THREE_OF_A_KIND:
        return f"three of a kind, {r[0].plural}"
    if cat == _TWO_PAIR:
        return f"two pair, {r[0].plural} and {r[1].plural}, {r[2].noun} of {suit.noun} kicker"
    if cat == _ONE_PAIR:
        return f"pair of {r[0].plural}, {r[1].noun} of {suit.noun} kicker"
    return f"high card, {r[0].noun} of {suit.noun}"


@lru_cache(maxsize=8192)
def _describe_ranks(value: int) -> str:
    """The description without suits: option ``suit_tiebreak`` off, hands equal in ranks tie (R2.4)."""
    cat = _category(value)
    r = _ranks(value)
    low = " (ace low)" if r[0] is Rank.TEN else ""
    if cat == _STRAIGHT_FLUSH:
        return "royal flush" if r[0] is Rank.ACE else f"straight flush, {r[0].noun} high{low}"
    if cat == _FLUSH:
        return f"flush, {r[0].noun} high"
    if cat == _STRAIGHT:
        return f"straight, {r[0].noun} high{low}"
    if cat == _TWO_PAIR:
        return f"two pair, {r[0].plural} and {r[1].plural}, {r[2].noun} kicker"
    if cat == _ONE_PAIR:
        return f"pair of {r[0].plural}, {r[1].noun} kicker"
    if cat == _HIGH_CARD:
        return f"high card, {r[0].noun}"
    return _describe(value & ~3)                           # four of a kind, full house, trips: no suit
