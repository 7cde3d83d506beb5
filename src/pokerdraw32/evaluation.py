"""Hand evaluation (R2): categories, comparable hand ranks and their descriptions.

The kernel value of a hand (:func:`pokerdraw32._kernels.evaluate_mask`) is one int,
larger is better, equal exactly when R2 says two hands tie.  It is packed::

    value = category << 22 | r1 << 18 | r2 << 14 | r3 << 10 | r4 << 6 | r5 << 2 | suit

with the category (:class:`HandCategory`), the rank indices in order of significance
and the tie-break suit (0 where R2 has none, and always 0 when option
``suit_tiebreak`` is off, R2.4).

>>> h = evaluate("Ah Kh 7h 8h Jh")
>>> h.category, h.description
(<HandCategory.FLUSH: 6>, 'flush, ace high, hearts')
>>> evaluate("Ah Kh 7h 8h Jh") > evaluate("Ks Kd Kc 9s 9h")   # R2.1
True
>>> evaluate("Ac 7d 8s 9h Th").description                     # R2.2
'straight, ten high (ace low), ten of hearts'
>>> evaluate("Kc Ad 7s 8h 9h").category                          # R2.2: no wrap-around
<HandCategory.HIGH_CARD: 0>
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from functools import lru_cache, total_ordering

from ._kernels import evaluate_mask, evaluate_text
from .cards import DECK, Card, CardsLike, Rank, Suit, format_cards, parse_cards
from .errors import InvalidCardError, PokerDraw32TypeError

__all__ = ["HandCategory", "HandRank", "category_of", "describe_value", "evaluate"]


class HandCategory(IntEnum):
    """The nine hand categories of R2, valued so that a larger value is a better category.

    Note R2.1: FLUSH beats FULL_HOUSE in this game.
    """

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FULL_HOUSE = 5
    FLUSH = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """Lower-case English name (``"full house"``)."""
        return self.name.lower().replace("_", " ")

    def __str__(self) -> str:
        return self.label


def category_of(value: int) -> HandCategory:
    """The :class:`HandCategory` of a kernel value."""
    return HandCategory(value >> 22)


def _ranks(value: int) -> tuple[Rank, ...]:
    return tuple(Rank((value >> shift) & 15) for shift in (18, 14, 10, 6, 2))


def describe_value(value: int, cards: Iterable[int] | None = None, *, suit_tiebreak: bool = True) -> str:
    """Human description of a kernel value, e.g. ``"full house, kings full of nines"``.

    Where R2 breaks ties by suit, the deciding card is named with its suit
    (``"pair of jacks, queen of hearts kicker"``).  The suit is read from ``cards`` when they
    are given, else from the value (whose suit field is 0, spades, when ``suit_tiebreak`` was
    off, R2.4).  With ``suit_tiebreak=False`` no suit decides (R2.4), and none is named.

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
    cat = category_of(value)
    r = _ranks(value)
    suit = Suit(value & 3)
    if cat is HandCategory.STRAIGHT_FLUSH:
        if r[0] is Rank.ACE:
            return f"royal flush, {suit.noun}"
        low = " (ace low)" if r[0] is Rank.TEN else ""
        return f"straight flush, {r[0].noun} high{low}, {suit.noun}"
    if cat is HandCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {r[0].plural}, {r[1].noun} kicker"
    if cat is HandCategory.FLUSH:
        return f"flush, {r[0].noun} high, {suit.noun}"
    if cat is HandCategory.FULL_HOUSE:
        return f"full house, {r[0].plural} full of {r[1].plural}"
    if cat is HandCategory.STRAIGHT:
        low = " (ace low)" if r[0] is Rank.TEN else ""
        return f"straight, {r[0].noun} high{low}, {r[0].noun} of {suit.noun}"
    if cat is HandCategory.THREE_OF_A_KIND:
        return f"three of a kind, {r[0].plural}"
    if cat is HandCategory.TWO_PAIR:
        return f"two pair, {r[0].plural} and {r[1].plural}, {r[2].noun} of {suit.noun} kicker"
    if cat is HandCategory.ONE_PAIR:
        return f"pair of {r[0].plural}, {r[1].noun} of {suit.noun} kicker"
    return f"high card, {r[0].noun} of {suit.noun}"


@lru_cache(maxsize=8192)
def _describe_ranks(value: int) -> str:
    """The description without suits: option ``suit_tiebreak`` off, hands equal in ranks tie (R2.4)."""
    cat = category_of(value)
    r = _ranks(value)
    low = " (ace low)" if r[0] is Rank.TEN else ""
    if cat is HandCategory.STRAIGHT_FLUSH:
        return "royal flush" if r[0] is Rank.ACE else f"straight flush, {r[0].noun} high{low}"
    if cat is HandCategory.FLUSH:
        return f"flush, {r[0].noun} high"
    if cat is HandCategory.STRAIGHT:
        return f"straight, {r[0].noun} high{low}"
    if cat is HandCategory.TWO_PAIR:
        return f"two pair, {r[0].plural} and {r[1].plural}, {r[2].noun} kicker"
    if cat is HandCategory.ONE_PAIR:
        return f"pair of {r[0].plural}, {r[1].noun} kicker"
    if cat is HandCategory.HIGH_CARD:
        return f"high card, {r[0].noun}"
    return _describe(value & ~3)                           # four of a kind, full house, trips: no suit


@total_ordering
class HandRank:
    """The strength of one 5-card hand under R2; immutable and totally ordered.

    ``a < b`` means hand *b* wins; ``a == b`` means they tie (only possible with
    ``suit_tiebreak=False``, R2.4, or for the very same hand).  ``int(h)`` is the
    kernel value.

    :ivar cards: the five cards, as given.
    :ivar value: the kernel value (int).
    :ivar suit_tiebreak: the R2.4 option it was evaluated with (off: the description names no suit).
    """

    __slots__ = ("cards", "suit_tiebreak", "value")

    cards: tuple[Card, ...]
    value: int
    suit_tiebreak: bool

    def __init__(self, cards: tuple[Card, ...], value: int, suit_tiebreak: bool = True) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "suit_tiebreak", suit_tiebreak)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("HandRank is immutable")

    @property
    def category(self) -> HandCategory:
        """The hand's :class:`HandCategory`."""
        return HandCategory(self.value >> 22)

    @property
    def description(self) -> str:
        """Human description, e.g. ``"flush, ace high, hearts"`` (``"flush, ace high"`` when
        evaluated with ``suit_tiebreak=False``: no suit decides, R2.4)."""
        return describe_value(self.value, self.cards, suit_tiebreak=self.suit_tiebreak)

    def __int__(self) -> int:
        return self.value

    def __index__(self) -> int:
        return self.value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandRank):
            return self.value == other.value
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        if isinstance(other, HandRank):
            return self.value < other.value
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value)

    def __reduce__(self) -> tuple[type[HandRank], tuple[tuple[Card, ...], int, bool]]:
        """Pickled as its constructor's arguments (the slots cannot be set after creation)."""
        return (HandRank, (self.cards, self.value, self.suit_tiebreak))

    def __repr__(self) -> str:
        return f"HandRank({format_cards(self.cards)!r}, {self.description!r})"

    def __str__(self) -> str:
        return f"{format_cards(self.cards)}: {self.description}"


# HandRank's slots, set without __init__ (the fast path of evaluate)
_new_rank = object.__new__
_set_cards = HandRank.__dict__["cards"].__set__
_set_value = HandRank.__dict__["value"].__set__
_set_suit_tiebreak = HandRank.__dict__["suit_tiebreak"].__set__


def evaluate(cards: CardsLike, *, suit_tiebreak: bool = True) -> HandRank:
    """Evaluate one 5-card hand (R2).

    :param cards: five distinct cards: a string like ``"Ah Kd 7c 8s 9h"`` or an iterable of
        :class:`~pokerdraw32.cards.Card`, codes or card strings.
    :param suit_tiebreak: R2.4; with ``False`` hands equal in ranks tie.
    :returns: a :class:`HandRank`.
    :raises InvalidCardError: for a bad or repeated card, or not exactly five cards.

    >>> evaluate("Kh Ks Jd Jc 9h") > evaluate("Kd Kc Js Jh 9d")   # suit of the fifth card
    True
    >>> evaluate("Kh Ks Jd Jc 9h", suit_tiebreak=False) == evaluate("Kd Kc Js Jh 9d", suit_tiebreak=False)
    True
    """
    if suit_tiebreak is not True and suit_tiebreak is not False:
        raise PokerDraw32TypeError(f"suit_tiebreak must be True or False, got {suit_tiebreak!r}")
    if type(cards) is str:
        # fast path: the common "Ah Kd 7c 8s 9h" form, parsed and evaluated in one kernel call;
        # every other form, and every error, takes the general path below
        found = evaluate_text(cards, DECK, suit_tiebreak)
        if found is not None:
            rank = _new_rank(HandRank)
            _set_cards(rank, found[0])
            _set_value(rank, found[1])
            _set_suit_tiebreak(rank, suit_tiebreak)
            return rank
    parsed = parse_cards(cards)
    if len(parsed) != 5:
        raise InvalidCardError(f"a hand has exactly 5 cards, got {len(parsed)}: {format_cards(parsed)!r} [R2]", cards)
    mask = 0
    for c in parsed:
        mask |= 1 << c
    return HandRank(parsed, evaluate_mask(mask, suit_tiebreak), suit_tiebreak)
