"""Cards of the 32-card deck (R1): ranks, suits, parsing and formatting.

A :class:`Card` *is* an ``int``: its value is the kernel card code
``4 * rank + suit`` (rank 0..7 for 7, 8, 9, T, J, Q, K, A; suit 0..3 for spades,
clubs, diamonds, hearts), so cards compare by rank and then by suit (R1.1, R1.2),
hash and sort cheaply, and cross into the compiled kernels without conversion.
A set of cards is a 32-bit mask with bit ``code`` set.

>>> c = Card.parse("Ah")
>>> c, int(c), c.rank, c.suit
(Card('Ah'), 31, <Rank.ACE: 7>, <Suit.HEARTS: 3>)
>>> parse_cards("10h 7S ♠A")
Traceback (most recent call last):
...
pokerdraw32.errors.InvalidCardError: bad card '♠A': expected a rank (7 8 9 T/10 J Q K A) then a suit (...) [R1.3]
>>> format_cards(parse_cards("10h 7S A♠"))
'Th 7s As'
>>> len(DECK), DECK[0], DECK[-1]
(32, Card('7s'), Card('Ah'))
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from .errors import InvalidCardError, PokerDraw32TypeError, shown

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 10 ms) at run time
if TYPE_CHECKING:
    from re import Pattern
    from typing import ClassVar

__all__ = [
    "DECK",
    "FULL_MASK",
    "Card",
    "CardsLike",
    "Rank",
    "Suit",
    "cards_to_mask",
    "format_cards",
    "mask_to_cards",
    "parse_card",
    "parse_cards",
]


class Rank(IntEnum):
    """Card rank, 7 lowest to ace highest (R1.1). The value is the kernel rank index."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def symbol(self) -> str:
        """One-character symbol: ``7 8 9 T J Q K A``."""
        return "789TJQKA"[self]

    @property
    def noun(self) -> str:
        """English name, singular (``"ace"``)."""
        return _RANK_NOUNS[self]

    @property
    def plural(self) -> str:
        """English name, plural (``"sixes"`` style: ``"aces"``)."""
        return _RANK_NOUNS[self] + "s"


class Suit(IntEnum):
    """Card suit; the value is the kernel suit index, so hearts > diamonds > clubs > spades (R1.2)."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        """One-letter symbol: ``s c d h``."""
        return "scdh"[self]

    @property
    def noun(self) -> str:
        """English name, plural (``"hearts"``)."""
        return self.name.lower()


_RANK_NOUNS = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")


class Card(int):
    """One card of the 32-card deck; an ``int`` equal to its kernel code ``4 * rank + suit``.

    The 32 instances are interned: ``Card(31) is Card.parse("Ah")``.

    :param code: 0..31, or a card string such as ``"Ah"``, ``"10d"``, ``"Q♠"`` (R1.3).
    :raises InvalidCardError: for any other value; the message names it.
    """

    __slots__ = ()
    _cache: ClassVar[dict[int, Card]] = {}

    def __new__(cls, code: int | str) -> Card:
        if isinstance(code, str):
            return parse_card(code)
        if type(code) is Card:
            return code
        if isinstance(code, (bool, Rank, Suit)) or not isinstance(code, int):
            raise InvalidCardError(f"bad card {shown(code)}: expected a code 0..31 or a string like 'Ah' [R1.3]",
                                   code)
        try:
            return cls._cache[int(code)]
        except KeyError:
            raise InvalidCardError(f"bad card code {shown(code)}: the 32-card deck has codes 0..31 [R1.1]",
                                   code) from None

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card token (R1.3); same as :func:`parse_card`."""
        return parse_card(token)

    @property
    def rank(self) -> Rank:
        """The card's :class:`Rank`."""
        return Rank(int(self) >> 2)

    @property
    def suit(self) -> Suit:
        """The card's :class:`Suit`."""
        return Suit(int(self) & 3)

    @property
    def mask(self) -> int:
        """The one-bit 32-bit mask of this card."""
        return 1 << int(self)

    def __str__(self) -> str:
        return _NAMES[int(self)]

    def __repr__(self) -> str:
        return f"Card({_NAMES[int(self)]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_NAMES = tuple(r + s for r in "789TJQKA" for s in "scdh")
for _code in range(32):
    Card._cache[_code] = int.__new__(Card, _code)

DECK: tuple[Card, ...] = tuple(Card._cache[i] for i in range(32))
"""The 32 cards in code order (7s first, Ah last)."""
_CANONICAL: dict[str, Card] = {str(card): card for card in DECK}   # "Ah" -> Card('Ah'): parse_cards' fast path

FULL_MASK = 0xFFFFFFFF
"""Mask of the whole deck."""

_RANK_TOKENS = {"7": 0, "8": 1, "9": 2, "T": 3, "10": 3, "J": 4, "Q": 5, "K": 6, "A": 7}
_SUIT_TOKENS = {"S": 0, "C": 1, "D": 2, "H": 3, "♠": 0, "♣": 1, "♦": 2, "♥": 3,
                "♤": 0, "♧": 1, "♢": 2, "♡": 3}
_REGEXES: tuple[Pattern[str], Pattern[str], Pattern[str]] | None = None


def _regexes() -> tuple[Pattern[str], Pattern[str], Pattern[str]]:
    """The general path's regexes (separators, a run of cards, one card), compiled on first use:
    ``import re`` and compiling them cost milliseconds at import, and the common form needs neither."""
    global _REGEXES
    if _REGEXES is None:
        import re

        _REGEXES = (
            re.compile(r"[\s,]+"),
            re.compile(r"(?:(?:10|[0-9TJQKA])[SCDH♠♣♦♥♤♧♢♡])+", re.IGNORECASE),  # a run of cards, e.g. "AhKd7c"
            re.compile(r"(10|[0-9TJQKA])([SCDH♠♣♦♥♤♧♢♡])", re.IGNORECASE),
        )
    return _REGEXES


CardsLike = str | Iterable[Card | int | str]
"""Anything accepted as a set of cards: a string (``"Ah Kd 7c"`` or ``"AhKd7c"``) or an
iterable of :class:`Card`, int codes or card strings."""


def _bad(token: str) -> InvalidCardError:
    return InvalidCardError(
        f"bad card {token!r}: expected a rank (7 8 9 T/10 J Q K A) then a suit (h d c s or ♥ ♦ ♣ ♠) [R1.3]",
        token,
    )


def parse_card(token: str) -> Card:
    """Parse one card: rank then suit, either case, ``10`` for ``T``, suit letters or symbols (R1.3).

    :raises InvalidCardError: naming the token (a 2-6, a joker, two cards, garbage...).

    >>> parse_card("td"), parse_card("10♦"), parse_card(" Qs ")
    (Card('Td'), Card('Td'), Card('Qs'))
    >>> parse_card("6h")
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.InvalidCardError: bad card '6h': rank 6 is not in the 32-card deck (7 to ace) [R1.1]
    """
    if not isinstance(token, str):
        raise InvalidCardError(f"bad card {shown(token)}: expected a string like 'Ah' [R1.3]", token)
    t = token.strip()
    m = (_REGEXES or _regexes())[2].fullmatch(t)
    if m is None:
        raise _bad(token)
    r, s = m.group(1).upper(), m.group(2).upper()
    if r not in _RANK_TOKENS:
        raise InvalidCardError(f"bad card {token!r}: rank {r} is not in the 32-card deck (7 to ace) [R1.1]", token)
    return DECK[4 * _RANK_TOKENS[r] + _SUIT_TOKENS[s]]


def _tokens(text: str) -> list[str]:
    split, run, one = _regexes()
    out: list[str] = []
    for chunk in split.split(text.strip()):
        if not chunk:
            continue
        if len(chunk) > 3 and run.fullmatch(chunk):
            out.extend(m.group(0) for m in one.finditer(chunk))
        else:
            out.append(chunk)
    return out


def parse_cards(cards: CardsLike, *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Parse a set of cards from a string or an iterable (R1.3).

    Strings may separate cards by spaces or commas, or run them together (``"AhKd"``).
    Iterables may hold :class:`Card`, int codes 0..31 or card strings.

    :returns: the cards, in the order given.
    :raises InvalidCardError: for a bad token or code, or a repeated card (naming it).

    >>> parse_cards("AhKd, 7c")
    (Card('Ah'), Card('Kd'), Card('7c'))
    >>> parse_cards(["Ah", 0, Card("Kd")])
    (Card('Ah'), Card('7s'), Card('Kd'))
    >>> parse_cards("Ah Kd ah")
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.InvalidCardError: duplicate card 'ah' (Ah appears twice) [R1.3]
    """
    if type(cards) is tuple:
        # fast path: a tuple of Card objects (as the engine hands them out), checked for repeats
        seen = 0
        for card in cards:
            if type(card) is not Card or seen >> card & 1:
                break
            seen |= 1 << card
        else:
            return cards
    items: Iterable[Card | int | str]
    if type(cards) is str:
        # fast path: the common "Ah Kd 7c" form, canonical tokens without a repeat; anything
        # else (other spellings, commas, run-together cards, errors) takes the general path below
        out_fast = tuple(map(_CANONICAL.get, cards.split()))
        if None not in out_fast:
            seen = 0
            for card in out_fast:
                seen |= 1 << card   # type: ignore[operator]
            if seen.bit_count() == len(out_fast):
                return out_fast   # type: ignore[return-value]
    if isinstance(cards, str):
        items = _tokens(cards)
    elif isinstance(cards, Card):
        items = (cards,)
    else:
        try:
            items = iter(cards)
        except TypeError:
            raise InvalidCardError(f"bad cards {shown(cards)}: expected a string or an iterable of cards",
                                   cards) from None
    out: list[Card] = []
    seen = 0
    for item in items:
        card = parse_card(item) if isinstance(item, str) else Card(item)
        bit = 1 << card
        if seen & bit and not allow_duplicates:
            given = str(item) if isinstance(item, str) else str(card)
            same = "" if given == str(card) else f" ({card} appears twice)"
            raise InvalidCardError(f"duplicate card {given!r}{same} [R1.3]", item)
        seen |= bit
        out.append(card)
    return tuple(out)


def format_cards(cards: Iterable[int]) -> str:
    """Format cards (or codes 0..31) as space-separated text, e.g. ``"Ah Kd 7c"``.

    :raises InvalidCardError: for a value that is not a card.
    :raises PokerDraw32TypeError: ``cards`` is not iterable.
    """
    if type(cards) is tuple:                # the engine's own cards (an action's, an event's): no check to make
        names = [_NAMES[c] for c in cards if type(c) is Card]
        if len(names) == len(cards):
            return " ".join(names)
    if not isinstance(cards, Iterable):
        raise PokerDraw32TypeError(f"cards must be an iterable of cards or codes 0..31, not {type(cards).__name__}")
    return " ".join(str(Card(c)) for c in cards)


def cards_to_mask(cards: CardsLike) -> int:
    """OR the bits of the given cards into a 32-bit mask: a card string (``"Ah Kd 7c"``) or an
    iterable of cards, codes 0..31 or card strings (R1.3; duplicates are not checked).

    >>> cards_to_mask("7s 7h") == 1 << 0 | 1 << 3
    True

    :raises InvalidCardError: for a value that is not a card.
    """
    m = 0
    for c in parse_cards(cards, allow_duplicates=True):
        m |= 1 << c
    return m


def mask_to_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a 32-bit mask, in ascending code order.

    >>> mask_to_cards(0x80000003)
    (Card('7s'), Card('7c'), Card('Ah'))

    :raises InvalidCardError: ``mask`` is not an int in 0..2**32-1.
    """
    if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= FULL_MASK:
        raise InvalidCardError(f"bad card mask {shown(mask)}: expected an int 0..0xFFFFFFFF", mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)
