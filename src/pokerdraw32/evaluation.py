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

from enum import IntEnum
from functools import total_ordering

from ._handcore.describe import describe_value
from ._kernels import evaluate_mask, evaluate_text
from .cards import DECK, Card, CardsLike, format_cards, parse_cards
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
