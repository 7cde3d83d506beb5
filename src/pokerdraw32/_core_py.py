"""Pure-Python twin of the compiled kernels in ``pokerdraw32._core``.

This module and ``src/_core.pyx`` have the same public names, the same signatures, the same
results and the same exceptions (type and message). Tests check both against each other and
against golden values. Code outside the package should not import either module directly:
:mod:`pokerdraw32._kernels` chooses one of them.

Everything at this boundary is an ``int``:

* a card is a *code* ``4 * rank_index + suit_index``, with rank indices 0..7 for
  7 8 9 T J Q K A and suit indices 0..3 for s c d h (R1.1, R1.2);
* a set of cards is a 32-bit mask with bit ``code`` set;
* a hand's strength is one packed int (see :func:`evaluate_mask`);
* a set of seats is a bitmask with bit ``seat`` set.

The kernels:

* :func:`evaluate_mask` and :func:`evaluate_codes` rank a 5-card hand (R2);
* :class:`Rng` is the xoshiro256** generator behind shuffles (R11);
* :func:`split_pots` builds and awards the main and side pots (R8.3, R9.1, R9.2, R9.4).
"""

from __future__ import annotations

import operator
import os
import sys
import zlib
from _thread import RLock
from array import array
from collections import Counter
from collections.abc import Iterable
from itertools import combinations
from math import comb
from typing import Any

from .errors import PokerDraw32TypeError, PokerDraw32ValueError

__all__ = ["Rng", "evaluate_codes", "evaluate_mask", "evaluate_text", "split_pots"]

_U64 = 0xFFFFFFFFFFFFFFFF
_DECK = 0xFFFFFFFF
_SPADES = 0x11111111  # the bit of every rank in suit 0; shift left by the suit index
_MAX_AMOUNT = (1 << 53) - 1

# Rank bits (bit r set for rank index r) of the five straights -> rank index of the top card.
# R2.2: A-7-8-9-T is the lowest straight and its top card is the ten.
_STRAIGHT_TOP = {0x8F: 3, 0x1F: 4, 0x3E: 5, 0x7C: 6, 0xF8: 7}


# --------------------------------------------------------------------------------------
# shared argument checks (the compiled twin raises the same types with the same messages)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain(value: Any) -> int:
    """An int (``_is_int``) as an exact int: an ``int`` subclass whose comparisons or
    ``__int__`` lie is read by its value, as the compiled twin's C conversions read it."""
    return operator.index(value)


def _tuple_of(value: object, what: str) -> tuple[Any, ...]:
    try:
        return tuple(value)  # type: ignore[arg-type]
    except TypeError:
        raise PokerDraw32TypeError(f"{what} must be a sequence, not {type(value).__name__}") from None


def _check_deck_mask(mask: object, what: str) -> int:
    if not _is_int(mask):
        raise PokerDraw32TypeError(f"{what} must be an int, not {type(mask).__name__}")
    mask = _plain(mask)
    if mask < 0 or mask > _DECK:
        raise PokerDraw32ValueError(f"{what} {mask:#x} has bits outside the 32-card deck")
    return mask


def _check_amount(value: object, what: str) -> int:
    if not _is_int(value):
        raise PokerDraw32TypeError(f"{what} must be an int, not {type(value).__name__}")
    value = _plain(value)
    if value < 0:
        raise PokerDraw32ValueError(f"{what} is negative: {value}")
    if value > _MAX_AMOUNT:
        raise PokerDraw32ValueError(f"{what} is too large: {value} (limit 2**53 - 1)")
    return value


def _seat_mask(value: object, what: str) -> int:
    if not _is_int(value):
        raise PokerDraw32TypeError(f"{what} must be an int bitmask, not {type(value).__name__}")
    return _plain(value)


# --------------------------------------------------------------------------------------
# Kernel 1: hand evaluation (R2)


def evaluate_mask(mask: int, suit_tiebreak: bool = True) -> int:
    """Strength of the 5-card hand whose cards are the set bits of ``mask`` (R2).

    Larger is better; two hands tie exactly when their values are equal, which with
    ``suit_tiebreak`` on (R2.4, the default) never happens for two different hands.
    The value is packed::

        category << 22 | r1 << 18 | r2 << 14 | r3 << 10 | r4 << 6 | r5 << 2 | suit

    ``category`` is 0 high card, 1 one pair, 2 two pair, 3 three of a kind, 4 straight,
    5 full house, 6 flush, 7 four of a kind, 8 straight flush (R2, R2.1: a flush beats a
    full house). ``r1``..``r5`` are rank indices (0 = seven .. 7 = ace) in order of
    significance, unused slots 0:

    * straight flush, straight: r1 = top card; A-7-8-9-T has top card the ten (R2.2);
    * four of a kind: r1 = the four, r2 = the odd card;
    * flush, high card: the five ranks, highest first;
    * full house: r1 = the three, r2 = the pair;
    * three of a kind: r1 = the three, r2, r3 = the other two, highest first;
    * two pair: r1 = higher pair, r2 = lower pair, r3 = odd card;
    * one pair: r1 = the pair, r2..r4 = the other three, highest first.

    ``suit`` is the suit index (0 s, 1 c, 2 d, 3 h) that R2 breaks ties with: the flush
    suit (straight flush, flush), the top card's (straight), the odd card's (two pair), the
    highest unpaired card's (one pair, high card); 0 for four of a kind, full house, three of
    a kind, and always 0 when ``suit_tiebreak`` is false.

    :param mask: 32-bit card mask with exactly 5 bits set (bit ``4 * rank + suit``).
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: the packed value, ``0 <= value < 2**26``.
    :raises TypeError: ``mask`` is not an int (bools are refused).
    :raises ValueError: ``mask`` has bits outside 0..31 or does not have 5 bits set.

    >>> evaluate_mask(1 << 31 | 1 << 27 | 1 << 23 | 1 << 19 | 1 << 15) >> 22  # Ah Kh Qh Jh Th
    8
    >>> v = evaluate_mask(1 << 28 | 1 << 3 | 1 << 7 | 1 << 11 | 1 << 14)  # As 7h 8h 9h Td
    >>> v >> 22, v >> 18 & 15, v & 3   # straight, top card the ten, of diamonds (R2.2)
    (4, 3, 2)
    >>> evaluate_mask(0x7)
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: hand mask 0x7 has 3 cards, expected 5
    """
    if type(mask) is int:
        value = _BY_MASK.get(mask)
        if value is not None:
            return value if suit_tiebreak else value & ~3
        if mask < 0 or mask > _DECK:
            raise PokerDraw32ValueError(f"hand mask {mask:#x} has bits outside the 32-card deck")
    else:
        mask = _check_deck_mask(mask, "hand mask")
    n = mask.bit_count()
    if n != 5:
        raise PokerDraw32ValueError(f"hand mask {mask:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    value = _by_mask()[mask]  # first call: load the table
    return value if suit_tiebreak else value & ~3


def evaluate_codes(codes: Iterable[int], suit_tiebreak: bool = True) -> int:
    """Strength of a 5-card hand given as card codes (R2); see :func:`evaluate_mask`.

    Equal to ``evaluate_mask(sum(1 << c for c in codes), suit_tiebreak)``; the order of
    the codes does not matter.

    :param codes: a sequence (tuple, list, ...) of exactly 5 distinct ints in 0..31.
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: the packed value.
    :raises TypeError: ``codes`` is not iterable, or a code is not an int.
    :raises ValueError: not 5 codes, a code outside 0..31, or a repeated code.

    >>> evaluate_codes([0, 1, 2, 4, 5]) >> 22   # 7s 7c 7d 8s 8c: full house
    5
    >>> evaluate_codes((1, 2, 3, 4, 4))
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: duplicate card code 4
    """
    if (type(codes) is tuple or type(codes) is list) and len(codes) == 5:
        a, b, c, d, e = codes
        if type(a) is type(b) is type(c) is type(d) is type(e) is int:     # no bools, no floats
            bit = _CODE_BIT
            try:            # a code outside 0..31 or a repeated one misses: the checks below name it
                value = _BY_MASK[bit[a] | bit[b] | bit[c] | bit[d] | bit[e]]
            except KeyError:
                pass
            else:
                return value if suit_tiebreak else value & ~3
    items = _tuple_of(codes, "codes")
    if len(items) != 5:
        raise PokerDraw32ValueError(f"expected 5 card codes, got {len(items)}")
    mask = 0
    for code in items:
        if not _is_int(code):
            raise PokerDraw32TypeError(f"card code must be an int, not {type(code).__name__}")
        code = _plain(code)
        if code < 0 or code > 31:
            raise PokerDraw32ValueError(f"card code {code} is outside 0..31")
        card = 1 << code
        if mask & card:
            raise PokerDraw32ValueError(f"duplicate card code {code}")
        mask |= card
    value = _by_mask()[mask]  # first call: load the table
    return value if suit_tiebreak else value & ~3


_TEXT_CODES = {rank + suit: 4 * r + s for r, rank in enumerate("789TJQKA") for s, suit in enumerate("scdh")}


def _shown_deck(deck: object) -> str:
    return f"a tuple of {len(deck)} items" if type(deck) is tuple else f"a {type(deck).__name__}"


def evaluate_text(
    text: object, deck: tuple[Any, ...], suit_tiebreak: bool = True
) -> tuple[tuple[Any, ...], int] | None:
    """The cards and value of a hand written in the common form, or None (R1.3, R2).

    The common form is ASCII text holding exactly 5 canonical card tokens (rank ``7 8 9 T J
    Q K A``, then suit ``s c d h``: ``"Ah Kd 7c 8s 9h"``), none repeated, separated by what
    ``str.split()`` splits ASCII text on. Anything else (other spellings, commas, cards run
    together, not 5 cards, a repeat, an error) gives None: the caller then takes its general
    path, which accepts every form of R1.3 and names every error.

    :param text: the hand (any object: only a ``str`` can match).
    :param deck: the 32 card objects by code (``pokerdraw32.DECK``); the result's cards are
        its items.
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: ``(cards, value)``, ``cards`` a tuple of 5 items of ``deck`` in the order
        written, ``value`` as :func:`evaluate_mask` gives it; or None.
    :raises TypeError: ``deck`` is not a tuple of 32 items.

    >>> cards, value = evaluate_text("Ah Kh Qh Jh Th", tuple(range(32)))
    >>> cards, value == evaluate_mask(0x88888000)
    ((31, 27, 23, 19, 15), True)
    >>> evaluate_text("Ah Kh Qh Jh 10h", tuple(range(32))) is None
    True
    """
    if type(deck) is not tuple or len(deck) != 32:
        raise PokerDraw32TypeError(f"deck must be a tuple of the 32 cards, not {_shown_deck(deck)}")
    if type(text) is not str or not text.isascii():
        return None
    tokens = text.split()
    if len(tokens) != 5:
        return None
    get = _TEXT_CODES.get
    a, b, c, d, e = map(get, tokens)
    if a is None or b is None or c is None or d is None or e is None:
        return None
    value = _by_mask().get(1 << a | 1 << b | 1 << c | 1 << d | 1 << e)
    if value is None:   # a repeated card
        return None
    return (deck[a], deck[b], deck[c], deck[d], deck[e]), value if suit_tiebreak else value & ~3


# The table behind evaluate_mask: mask -> value (R2.4 on) of all C(32, 5) hands, loaded on
# first use (about 0.1 s) from the package file _hand_values.zlib, which holds, zlib-compressed,
# the 2,520 distinct values (uint32, little-endian, ascending) and then, for each hand in the
# order of itertools.combinations(range(32), 5), the index of its value (uint16, little-endian).
# tools/make_hand_values.py writes the file from _evaluate, the sort-and-count evaluator below,
# and the tests check the table against an independent evaluator.
_BY_MASK: dict[int, int] = {}
_CODE_BIT = {code: 1 << code for code in range(32)}
_U32_CODE = "I" if array("I").itemsize == 4 else "L"
_NATIVE_LITTLE = sys.byteorder == "little"
_HAND_VALUES_FILE = "_hand_values.zlib"
# Builds the tables loaded on first use (_BY_MASK, _SCORES, _PLAIN_SCORES) once, however many
# threads ask at once. Each table is complete before it is published (one global rebinding),
# so a thread that sees it non-empty reads it without the lock. Reentrant: a finalizer that runs
# in the middle of a build may itself evaluate a hand.
_TABLES_LOCK = RLock()


def _by_mask() -> dict[int, int]:
    """The mask -> value table, loaded on the first call."""
    global _BY_MASK
    if not _BY_MASK:
        with _TABLES_LOCK:
            if not _BY_MASK:
                _BY_MASK = _load_hand_values()
    return _BY_MASK


def _load_hand_values() -> dict[int, int]:
    import pkgutil

    try:
        raw = pkgutil.get_data(__package__ or "pokerdraw32", _HAND_VALUES_FILE)
        if raw is None:  # pragma: no cover - a loader without get_data
            raise OSError("the package's loader cannot read files")
        data = zlib.decompress(raw)
    except (OSError, zlib.error) as e:   # as the compiled kernels say it
        raise RuntimeError(f"cannot read the package file {_HAND_VALUES_FILE}: {e}") from e
    values = array(_U32_CODE)
    values.frombytes(data[: 4 * 2520])
    index = array("H")
    index.frombytes(data[4 * 2520 :])
    if not _NATIVE_LITTLE:  # pragma: no cover - big-endian machines
        values.byteswap()
        index.byteswap()
    if len(values) != 2520 or len(index) != 201376:
        raise RuntimeError(f"the package file {_HAND_VALUES_FILE} is damaged ({len(data)} bytes, expected "
                           f"{4 * 2520 + 2 * 201376})")
    if max(index) >= 2520:
        raise RuntimeError(f"the package file {_HAND_VALUES_FILE} is damaged (an index out of range)")
    bits = [1 << code for code in range(32)]
    masks = [
        abcd | bit
        for a in range(28)
        for b in range(a + 1, 29)
        for ab in (bits[a] | bits[b],)
        for c in range(b + 1, 30)
        for abc in (ab | bits[c],)
        for d in range(c + 1, 31)
        for abcd in (abc | bits[d],)
        for bit in bits[d + 1 :]
    ]
    return dict(zip(masks, map(values.__getitem__, index), strict=False))


def _hand_values_blob() -> bytes:
    """The uncompressed content of _hand_values.zlib, computed by _evaluate (about 1 s)."""
    by_hand = [_evaluate(sum(1 << code for code in hand), True) for hand in combinations(range(32), 5)]
    distinct = sorted(set(by_hand))
    position = {value: i for i, value in enumerate(distinct)}
    values = array(_U32_CODE, distinct)
    index = array("H", [position[value] for value in by_hand])
    if not _NATIVE_LITTLE:  # pragma: no cover - big-endian machines
        values.byteswap()
        index.byteswap()
    return values.tobytes() + index.tobytes()


def _evaluate(mask: int, suit_tiebreak: bool) -> int:
    """Packed value of a valid 5-card mask (no checks)."""
    quad = trip = pair_hi = pair_lo = -1
    singles: list[int] = []  # ranks of unpaired cards, highest first
    single_suit = 0  # suit of the highest unpaired card
    rank_bits = 0
    for rank in range(7, -1, -1):
        nibble = (mask >> (rank << 2)) & 15
        if not nibble:
            continue
        rank_bits |= 1 << rank
        count = nibble.bit_count()
        if count == 1:
            if not singles:
                single_suit = nibble.bit_length() - 1
            singles.append(rank)
        elif count == 2:
            if pair_hi < 0:
                pair_hi = rank
            else:
                pair_lo = rank
        elif count == 3:
            trip = rank
        else:
            quad = rank

    flush = -1
    low_suit = ((mask & -mask).bit_length() - 1) & 3
    if mask & (_SPADES << low_suit) == mask:
        flush = low_suit
    top = _STRAIGHT_TOP.get(rank_bits, -1) if len(singles) == 5 else -1

    if top >= 0:
        if flush >= 0:
            category, ranks, suit = 8, top << 16, flush
        else:
            category, ranks = 4, top << 16
            suit = ((mask >> (top << 2)) & 15).bit_length() - 1
    elif quad >= 0:
        category, ranks, suit = 7, quad << 16 | singles[0] << 12, 0
    elif flush >= 0:
        category, ranks, suit = 6, _pack_ranks(singles), flush
    elif trip >= 0:
        if pair_hi >= 0:
            category, ranks, suit = 5, trip << 16 | pair_hi << 12, 0
        else:
            category, ranks, suit = 3, trip << 16 | singles[0] << 12 | singles[1] << 8, 0
    elif pair_lo >= 0:
        category, ranks, suit = 2, pair_hi << 16 | pair_lo << 12 | singles[0] << 8, single_suit
    elif pair_hi >= 0:
        category, suit = 1, single_suit
        ranks = pair_hi << 16 | singles[0] << 12 | singles[1] << 8 | singles[2] << 4
    else:
        category, ranks, suit = 0, _pack_ranks(singles), single_suit
    return category << 22 | ranks << 2 | (suit if suit_tiebreak else 0)


def _pack_ranks(ranks: list[int]) -> int:
    r1, r2, r3, r4, r5 = ranks
    return r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5


# --------------------------------------------------------------------------------------
# Kernel 2: randomness (R11)


def _splitmix64(x: int) -> tuple[int, int]:
    """One SplitMix64 step: (new counter, output)."""
    x = (x + 0x9E3779B97F4A7C15) & _U64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return x, z ^ (z >> 31)


class Rng:
    """xoshiro256** 1.0 (Blackman & Vigna): the engine's source of randomness (R11).

    Both kernel implementations compute the same sequence bit for bit, so a seed
    reproduces a table whichever is in use, and :meth:`getstate` of one can be given to
    :meth:`setstate` of the other.

    :param seed: ``None`` (default) seeds from :func:`os.urandom` (R11.1); an int
        ``0 <= seed < 2**64`` seeds the 256-bit state with the first four outputs of
        SplitMix64 started at ``seed`` (the authors' recommended seeding).
    :raises TypeError: ``seed`` is not an int or None (bools are refused).
    :raises ValueError: ``seed`` is outside ``0 <= seed < 2**64``.

    Copies, deep copies and pickles carry the state (a pickle names the implementation's
    class, so it loads only where that implementation is available).

    A generator belongs to one thread. It has no lock: threads drawing from one generator
    at the same time can be handed the same numbers, hence the same decks (``deal_many``
    reads the state, releases the GIL and writes it back). Give each thread its own,
    derived in the parent thread with :meth:`spawn` (reproducible from the parent's seed)
    or seeded independently.

    >>> rng = Rng(7)
    >>> [rng.below(6) for _ in range(5)]
    [5, 2, 0, 0, 3]
    """

    __slots__ = ("_s0", "_s1", "_s2", "_s3")

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            words: tuple[int, ...] = (0, 0, 0, 0)
            while not any(words):
                raw = os.urandom(32)
                words = tuple(int.from_bytes(raw[i : i + 8], "little") for i in range(0, 32, 8))
            self._s0, self._s1, self._s2, self._s3 = words
            return
        if not _is_int(seed):
            raise PokerDraw32TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        seed = _plain(seed)
        if seed < 0 or seed > _U64:
            raise PokerDraw32ValueError(f"seed must be in 0 <= seed < 2**64, got {seed}")
        x, self._s0 = _splitmix64(seed)
        x, self._s1 = _splitmix64(x)
        x, self._s2 = _splitmix64(x)
        x, self._s3 = _splitmix64(x)

    def spawn(self) -> Rng:
        """A new generator for another thread (or task), seeded with :meth:`next_u64` of
        this one: this one advances by one step; the same parent state gives the same child
        in both implementations.

        >>> parent = Rng(1)
        >>> children = [parent.spawn() for _ in range(4)]   # in the parent thread, one per worker
        >>> len({tuple(child.shuffled(0xFFFFFFFF)) for child in children})
        4
        """
        return type(self)(self.next_u64())

    def next_u64(self) -> int:
        """The next 64-bit output, ``0 <= value < 2**64`` (one xoshiro256** step)."""
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        r = (s1 * 5) & _U64
        result = (((r << 7) | (r >> 57)) * 9) & _U64
        t = (s1 << 17) & _U64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self._s0, self._s1, self._s2 = s0, s1, s2
        self._s3 = ((s3 << 45) & _U64) | (s3 >> 19)
        return result

    def below(self, n: int) -> int:
        """A uniform random int in ``[0, n)``, without bias (R11.1).

        Bitmask rejection: with ``k`` the bit length of ``n - 1``, draw the top ``k`` bits
        of :meth:`next_u64` until they are below ``n`` (fewer than 2 draws on average).
        ``below(1)`` returns 0 without drawing.

        :param n: ``1 <= n <= 2**32``.
        :raises TypeError: ``n`` is not an int.
        :raises ValueError: ``n`` is out of range.
        """
        if not _is_int(n):
            raise PokerDraw32TypeError(f"n must be an int, not {type(n).__name__}")
        n = _plain(n)
        if n < 1 or n > 1 << 32:
            raise PokerDraw32ValueError(f"below() needs 1 <= n <= 2**32, got {n}")
        if n == 1:
            return 0
        shift = 64 - (n - 1).bit_length()
        while True:
            r = self.next_u64() >> shift
            if r < n:
                return r

    def shuffle(self, cards: list[Any]) -> None:
        """Shuffle a list in place, uniformly (Fisher-Yates, R11.1).

        For ``i`` from ``len(cards) - 1`` down to 1, swap items ``i`` and ``below(i + 1)``.
        The items can be anything.

        :raises TypeError: ``cards`` is not a list.
        """
        if not isinstance(cards, list):
            raise PokerDraw32TypeError(f"cards must be a list, not {type(cards).__name__}")
        # the hot path of every deal: below(i + 1) with next_u64 inlined, the state in locals
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        for i in range(len(cards) - 1, 0, -1):
            shift = 64 - i.bit_length()
            while True:
                r = (s1 * 5) & _U64
                r = ((((r << 7) | (r >> 57)) * 9) & _U64) >> shift
                t = (s1 << 17) & _U64
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = ((s3 << 45) & _U64) | (s3 >> 19)
                if r <= i:
                    break
            cards[i], cards[r] = cards[r], cards[i]
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, s3

    def shuffled(self, mask: int) -> list[int]:
        """The card codes of ``mask`` in a uniformly random order (the deck; R6.2 reshuffles).

        The codes are listed in ascending order, then shuffled as by :meth:`shuffle`.

        :param mask: 32-bit card mask (any number of cards, 0 to 32).
        :returns: a new list of card codes.
        :raises TypeError: ``mask`` is not an int.
        :raises ValueError: ``mask`` has bits outside 0..31.

        >>> sorted(Rng(1).shuffled(0b1011))
        [0, 1, 3]
        """
        mask = _check_deck_mask(mask, "deck mask")
        cards = [code for code in range(32) if mask >> code & 1]
        self.shuffle(cards)
        return cards

    def getstate(self) -> tuple[int, int, int, int]:
        """The 256-bit state as four 64-bit ints (for :meth:`setstate`)."""
        return (self._s0, self._s1, self._s2, self._s3)

    def setstate(self, state: Iterable[int]) -> None:
        """Restore a state returned by :meth:`getstate` (of either implementation).

        :param state: four ints ``0 <= w < 2**64``, not all zero.
        :raises TypeError: ``state`` is not iterable, or a word is not an int.
        :raises ValueError: not 4 words, a word out of range, or all words zero.
        """
        words = _tuple_of(state, "state")
        if len(words) != 4:
            raise PokerDraw32ValueError(f"state must have 4 words, got {len(words)}")
        plain = []
        for i, word in enumerate(words):
            if not _is_int(word):
                raise PokerDraw32TypeError(f"state word {i} must be an int, not {type(word).__name__}")
            word = _plain(word)
            plain.append(word)
            if word < 0 or word > _U64:
                raise PokerDraw32ValueError(f"state word {i} is outside 0 <= w < 2**64: {word}")
        if not any(plain):
            raise PokerDraw32ValueError("state must not be all zero")
        self._s0, self._s1, self._s2, self._s3 = plain

    def __setstate__(self, state: Iterable[int]) -> None:
        """Pickle support: same as :meth:`setstate`."""
        self.setstate(state)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy support: the class, a cheap seed, then the state."""
        return (type(self), (0,), self.getstate())

    def __copy__(self) -> Rng:
        """``copy.copy``: a generator of the same class in the same state (what :meth:`__reduce__`
        gives, without the pickle protocol's round trip: a hand's clone copies its generator)."""
        if type(self) is not Rng:    # a subclass: made as __reduce__ makes it
            made = type(self)(0)
            made.__setstate__(self.getstate())
            return made
        new = Rng.__new__(Rng)
        new._s0, new._s1, new._s2, new._s3 = self._s0, self._s1, self._s2, self._s3
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Rng:
        """``copy.deepcopy``: as :meth:`__copy__` (the state is four integers)."""
        return self.__copy__()


# --------------------------------------------------------------------------------------
# Kernel 3: pots (R9.1, R9.2, R9.4, R8.3)


def split_pots(
    contributions: Iterable[int],
    strengths: Iterable[Any],
    live: int,
    sharers: int,
    first: int,
    dead: int = 0,
) -> tuple[list[int], list[tuple[int, int, int, bool]], list[int]]:
    """Return uncalled chips, build the main and side pots, and award them.

    1. R9.2: the seat with the single largest contribution gets back what no other seat
       matched (largest minus second largest, over all seats, folded ones included).
    2. R9.1: the pot levels are the distinct contributions (after step 1) of live seats
       above 0, ascending. The pot of level ``L`` (previous level ``P``, first ``P = 0``)
       holds ``min(c, L) - min(c, P)`` from every seat and is open to the live seats that
       put in ``L`` or more. Chips of folded seats above the top level go to the top pot,
       ``dead`` chips (R10.3) to the main pot. Every pot is therefore non-empty and each
       is open to fewer seats than the one before. If no live seat put in a chip, there is
       one pot of everything, open to all live seats (none if it would be empty).
    3. Each pot is awarded: to its only eligible seat; else shared by its eligible seats
       if all of them are ``sharers`` (Parole, R8.3); else to the best strength among them.
       Equal best strengths (possible only with R2.4 off) share. A share gives every sharer
       the same whole number of chips and the odd chips one at a time, in seat order from
       ``first`` (R9.4).

    Chips are conserved: ``sum(returned) + sum(winnings) == sum(contributions) + dead``.
    The arguments are not modified.

    :param contributions: chips each seat put in during the hand, seat ``i`` at index
        ``i``; 2 to 32 ints, each ``0 <= c <= 2**53 - 1`` (0 for seats not in the hand).
    :param strengths: one entry per seat; for live seats an int (an
        :func:`evaluate_mask` value, larger wins), any value for the other seats.
    :param live: bitmask of the seats still in the hand (not folded); non-empty, within
        ``range(len(contributions))``.
    :param sharers: bitmask of the live seats that chose to split (R8.3); 0 for none.
    :param first: the seat that receives the first odd chip (the first seat left of the
        button), ``0 <= first < len(contributions)``; then ``first + 1`` and so on, mod n.
    :param dead: dead chips (R10.3) for the main pot, ``0 <= dead <= 2**53 - 1``.
    :returns: ``(returned, pots, winnings)``: ``returned[i]`` is the uncalled chips given
        back to seat ``i``; ``pots`` lists ``(amount, eligible_mask, winners_mask,
        shared)``, main pot first, with ``shared`` true for a pot shared by agreement
        (R8.3); ``winnings[i]`` is what seat ``i`` receives from the pots.
    :raises TypeError: an argument or entry is not an int (bools are refused), or a
        sequence argument is not iterable.
    :raises ValueError: a wrong number of entries, a negative or too large amount, an
        empty or out-of-range ``live``, ``sharers`` not within ``live``, or ``first`` out
        of range.

    Seat 2 is all-in for 50 and holds the best hand; seats 0 and 1 put in 100 each
    and seat 0 beats seat 1 for the side pot:

    >>> split_pots([100, 100, 50], [300, 200, 500], 0b111, 0, 0)
    ([0, 0, 0], [(150, 7, 4, False), (100, 3, 1, False)], [100, 0, 150])
    """
    contribs = _tuple_of(contributions, "contributions")
    n = len(contribs)
    if n < 2 or n > 32:
        raise PokerDraw32ValueError(f"contributions must have 2 to 32 entries, got {n}")
    contribs = tuple(_check_amount(amount, f"contribution of seat {seat}") for seat, amount in enumerate(contribs))
    power = _tuple_of(strengths, "strengths")
    if len(power) != n:
        raise PokerDraw32ValueError(f"strengths must have {n} entries (one per seat), got {len(power)}")
    live = _seat_mask(live, "live")
    if live == 0:
        raise PokerDraw32ValueError("live mask 0x0 names no seat")
    if live < 0 or live >> n:
        raise PokerDraw32ValueError(f"live mask {live:#x} names seats outside 0..{n - 1}")
    for seat in range(n):
        if live >> seat & 1 and not _is_int(power[seat]):
            raise PokerDraw32TypeError(f"strength of seat {seat} must be an int, not {type(power[seat]).__name__}")
    power = tuple(_plain(power[seat]) if live >> seat & 1 else power[seat] for seat in range(n))
    sharers = _seat_mask(sharers, "sharers")
    if sharers & ~live:
        raise PokerDraw32ValueError(f"sharers mask {sharers:#x} is not within live mask {live:#x}")
    if not _is_int(first):
        raise PokerDraw32TypeError(f"first must be an int, not {type(first).__name__}")
    first = _plain(first)
    if first < 0 or first >= n:
        raise PokerDraw32ValueError(f"first seat {first} is outside 0..{n - 1}")
    dead = _check_amount(dead, "dead")

    # R9.2: the uncalled part of the largest contribution goes back.
    chips = list(contribs)
    returned = [0] * n
    top = max(range(n), key=chips.__getitem__)
    second = max(chips[seat] for seat in range(n) if seat != top)
    if chips[top] > second:
        returned[top] = chips[top] - second
        chips[top] = second

    # R9.1: one pot per distinct live contribution.
    levels = sorted({chips[seat] for seat in range(n) if live >> seat & 1 and chips[seat] > 0})
    pots: list[list[int]] = []
    if not levels:
        total = sum(chips) + dead
        if total:
            pots.append([total, live])
    else:
        below = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, below) for c in chips)
            eligible = 0
            for seat in range(n):
                if live >> seat & 1 and chips[seat] >= level:
                    eligible |= 1 << seat
            pots.append([amount, eligible])
            below = level
        pots[-1][0] += sum(c - below for c in chips if c > below)
        pots[0][0] += dead

    # R8.3, R9.4: award each pot.
    winnings = [0] * n
    result: list[tuple[int, int, int, bool]] = []
    for amount, eligible in pots:
        shared = False
        if eligible & (eligible - 1) == 0:
            winners = eligible
        elif eligible & ~sharers == 0:
            winners, shared = eligible, True
        else:
            best = None
            winners = 0
            for seat in range(n):
                if eligible >> seat & 1:
                    strength = power[seat]
                    if best is None or strength > best:
                        best, winners = strength, 1 << seat
                    elif strength == best:
                        winners |= 1 << seat
        share, odd = divmod(amount, winners.bit_count())
        for seat in range(n):
            if winners >> seat & 1:
                winnings[seat] += share
        seat = first
        while odd:
            if winners >> seat & 1:
                winnings[seat] += 1
                odd -= 1
            seat = seat + 1 if seat + 1 < n else 0
        result.append((amount, eligible, winners, shared))
    return returned, result, winnings


# --------------------------------------------------------------------------------------
# Kernel 4: exact draw odds (R6.1, R2)

__all__ += ["draw_outcomes", "draw_summary", "strength_score"]

_NHANDS = 201376  # C(32, 5) hands
_SCORES: dict[int, int] = {}  # value (R2.4 on) -> strength score; built on first use
_PLAIN_SCORES: dict[int, int] = {}  # the same with R2.4 off


def _score_table(suit_tiebreak: object) -> dict[int, int]:
    """Value -> ``2 * below + equal`` over all hands; counted once from the evaluation table.

    Both tables are filled before either is published (they were filled in place, so another
    thread could read a part of ``_SCORES`` and miss a value); ``_PLAIN_SCORES`` first, as
    ``_SCORES`` is the one tested."""
    global _SCORES, _PLAIN_SCORES
    if not _SCORES:
        with _TABLES_LOCK:
            if not _SCORES:
                per_value = Counter(_by_mask().values())
                per_plain: Counter[int] = Counter()
                for value, n in per_value.items():
                    per_plain[value & ~3] += n
                scores: dict[int, int] = {}
                plain: dict[int, int] = {}
                for table, counts in ((plain, per_plain), (scores, per_value)):
                    below = 0
                    for value in sorted(counts):
                        table[value] = 2 * below + counts[value]
                        below += counts[value]
                _PLAIN_SCORES = plain
                _SCORES = scores
    return _SCORES if suit_tiebreak else _PLAIN_SCORES


def _draw_args(hand: object, discard: object, excluded: object) -> tuple[int, int, int]:
    """Check the arguments of a draw; return ``(kept, k, unseen)`` masks and count."""
    hand = _check_deck_mask(hand, "hand mask")
    n = hand.bit_count()
    if n != 5:
        raise PokerDraw32ValueError(f"hand mask {hand:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    discard = _check_deck_mask(discard, "discard mask")
    if discard & ~hand:
        raise PokerDraw32ValueError(f"discard mask {discard:#x} is not within hand mask {hand:#x}")
    k = discard.bit_count()
    if k > 4:
        raise PokerDraw32ValueError(f"discard mask {discard:#x} has 5 cards; at most 4 may be discarded (R6.1)")
    excluded = _check_deck_mask(excluded, "excluded mask")
    unseen = _DECK & ~(hand | excluded)
    if unseen.bit_count() < k:
        raise PokerDraw32ValueError(f"only {unseen.bit_count()} unseen cards for a draw of {k}")
    return hand & ~discard, k, unseen


def _draw_counts(kept: int, k: int, unseen: int, suit_tiebreak: object) -> dict[int, int]:
    bits = [1 << code for code in range(32) if unseen >> code & 1]
    counts = Counter(map(_by_mask().__getitem__, map(kept.__or__, map(sum, combinations(bits, k)))))
    if not suit_tiebreak:
        plain: Counter[int] = Counter()
        for value, n in counts.items():
            plain[value & ~3] += n
        counts = plain
    return {value: counts[value] for value in sorted(counts)}


def draw_outcomes(hand: int, discard: int, excluded: int, suit_tiebreak: bool = True) -> tuple[int, dict[int, int]]:
    """Exact distribution of the final hand after a draw (R6.1): every replacement set, counted.

    The player holds the 5 cards of ``hand``, throws away the ``k`` cards of ``discard``
    and is dealt ``k`` of the *unseen* cards: the deck minus ``hand`` minus ``excluded``
    (dead cards, other players' known discards). A player never draws their own cards
    (R6.2), whether ``excluded`` names them or not. Each of the ``C(unseen, k)`` sets of
    replacement cards is equally likely, and every one is evaluated (R2).

    :param hand: 32-bit card mask with exactly 5 bits set (bit ``4 * rank + suit``).
    :param discard: mask of the cards thrown away: within ``hand``, 0 to 4 cards
        (0 is standing pat).
    :param excluded: mask of cards that cannot be drawn; any cards of the deck.
    :param suit_tiebreak: R2.4; false zeroes the suit field of the values.
    :returns: ``(total, counts)``: ``total`` is the number of replacement sets,
        ``C(unseen, k)``; ``counts`` is a dict mapping each final value (as
        :func:`evaluate_mask` gives it) to the number of sets that give it, in ascending
        order of value; the counts sum to ``total``.
    :raises TypeError: a mask is not an int (bools are refused).
    :raises ValueError: a mask has bits outside 0..31, ``hand`` does not have 5 cards,
        ``discard`` is not within ``hand`` or has 5 cards, or fewer unseen cards remain
        than ``discard`` has.

    Ah Kh Qh Th 7s throws the seven away: of the 27 unseen cards, 7h 8h 9h make a flush.

    >>> hand = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 15 | 1 << 0
    >>> total, counts = draw_outcomes(hand, 1 << 0, 0)
    >>> total, sum(n for value, n in counts.items() if value >> 22 == 6)
    (27, 3)
    >>> draw_outcomes(hand, hand, 0)
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: discard mask 0x88808001 has 5 cards; at most 4 may be discarded (R6.1)
    """
    kept, k, unseen = _draw_args(hand, discard, excluded)
    return comb(unseen.bit_count(), k), _draw_counts(kept, k, unseen, suit_tiebreak)


def draw_summary(
    hand: int, discard: int, excluded: int, suit_tiebreak: bool = True
) -> tuple[int, tuple[int, ...], int]:
    """Exact category counts and total strength score of a draw: :func:`draw_outcomes` summed up.

    Same arguments, checks and errors as :func:`draw_outcomes`. The strength score of a
    final value is :func:`strength_score`, so that ``score / (total * 402752)`` is the
    expected percentile of the final hand among all 201,376 hands (the fraction of them
    it beats, ties counting half).

    :returns: ``(total, categories, score)``: ``total`` replacement sets; ``categories``
        a tuple of 9 ints, at index ``c`` the number of sets whose final hand has
        category ``c`` (0 high card .. 8 straight flush, as in :func:`evaluate_mask`);
        ``score`` the sum over all sets of the final hand's strength score.
    :raises TypeError: a mask is not an int (bools are refused).
    :raises ValueError: as :func:`draw_outcomes`.

    Ah Kh Qh Th 7s throws the seven away: Jh makes the royal flush, 7h 8h 9h a flush, the
    other jacks a straight, 12 cards a pair, the other 8 leave ace high.

    >>> hand = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 15 | 1 << 0
    >>> total, categories, score = draw_summary(hand, 1 << 0, 0)
    >>> total, categories
    (27, (8, 12, 0, 0, 3, 0, 3, 0, 1))
    """
    kept, k, unseen = _draw_args(hand, discard, excluded)
    scores = _score_table(suit_tiebreak)
    categories = [0] * 9
    score = 0
    for value, n in _draw_counts(kept, k, unseen, suit_tiebreak).items():
        categories[value >> 22] += n
        score += n * scores[value]
    return comb(unseen.bit_count(), k), tuple(categories), score


def strength_score(value: int, suit_tiebreak: bool = True) -> int:
    """Strength score of a hand value: ``2 * below + equal`` over all 201,376 hands (R2).

    ``below`` counts the 5-card hands with a smaller value and ``equal`` those with the
    same value (the hand itself included), under the given ``suit_tiebreak`` (R2.4).
    Ties count half, so ``strength_score(v) / 402752`` is the hand's percentile: the
    fraction of all hands it beats.

    :param value: a value given by :func:`evaluate_mask` with the same ``suit_tiebreak``.
    :param suit_tiebreak: R2.4; with false, hands equal in ranks tie.
    :returns: an int, ``0 < score < 402752``.
    :raises TypeError: ``value`` is not an int (bools are refused).
    :raises ValueError: ``value`` is not the value of a 5-card hand.

    >>> strength_score(evaluate_mask(1 << 31 | 1 << 27 | 1 << 23 | 1 << 19 | 1 << 15))  # royal, hearts
    402751
    >>> strength_score(evaluate_codes([20, 12, 8, 4, 1]))   # Qs Ts 9s 8s 7c: 255 such hands
    255
    """
    if not _is_int(value):
        raise PokerDraw32TypeError(f"value must be an int, not {type(value).__name__}")
    value = _plain(value)
    score = _score_table(suit_tiebreak).get(value)
    if score is None:
        state = "on" if suit_tiebreak else "off"
        raise PokerDraw32ValueError(f"{value} is not the value of a 5-card hand (suit_tiebreak {state})")
    return score


# --------------------------------------------------------------------------------------
# Kernel 5: batches (evaluate_many R2, deal_many R11)

__all__ += ["deal_many", "evaluate_many"]

_ROW_BIT = [1 << code for code in range(256)]  # a byte -> its card bit (bits above 31: not a card)


def _native_format(fmt: str) -> str:
    """The struct code of a one-item native-order format ('' if it is something else).
    ctypes writes its formats with an explicit byte order ('<B', '<I'); for one-byte items
    any byte order is native."""
    if len(fmt) == 2 and fmt[0] in "@=<>!" and fmt[1] in "Bbc?":
        return fmt[1]
    if fmt[:1] in ("@", "=") or (fmt[:1] == "<" and _NATIVE_LITTLE) or (fmt[:1] in (">", "!") and not _NATIVE_LITTLE):
        fmt = fmt[1:]
    return fmt if len(fmt) == 1 else ""


def _row_problem(i: int, row: int | list[int]) -> str:
    """The message for a bad row: its 5 codes (a list) or its mask (an int)."""
    if isinstance(row, int):
        n = row.bit_count()
        return f"row {i}: hand mask {row:#x} has {n} card{'' if n == 1 else 's'}, expected 5"
    for code in row:
        if code > 31:
            return f"row {i}: card code {code} is not 0..31"
    seen = set()
    for code in row:
        if code in seen:
            return f"row {i}: card code {code} appears twice"
        seen.add(code)
    raise AssertionError("row is valid")  # pragma: no cover


def _check_out(target: memoryview, n: int) -> None:
    code = _native_format(target.format)
    if target.readonly:
        raise PokerDraw32TypeError("out must be a writable buffer, not a read-only one")
    if not (code in ("I", "L") and target.itemsize == 4):
        raise PokerDraw32TypeError(
            f"out must hold uint32, not format {target.format!r} with itemsize {target.itemsize}"
        )
    if target.ndim != 1 or target.shape[0] != n:  # type: ignore[index]
        raise PokerDraw32ValueError(f"out must be 1-D with {n} items, got shape {target.shape}")
    if n > 1 and target.strides[0] != 4:  # type: ignore[index]
        raise PokerDraw32ValueError("out must be C-contiguous")


def evaluate_many(hands: Any, out: Any = None, suit_tiebreak: bool = True) -> Any:
    """Values of many 5-card hands at once (R2): ``evaluate_mask`` of each row, in order.

    ``hands`` is any object with the buffer protocol (numpy array, ``bytes``,
    ``bytearray``, ``array.array``, ``memoryview``, ...), in one of two layouts:

    * card codes, uint8 (format ``B``): a 2-D buffer of shape ``(N, 5)``, or a 1-D one
      of ``5 * N`` codes (row ``i`` is items ``5 * i`` to ``5 * i + 4``); the codes of
      a row are distinct, ``0..31``, in any order;
    * card masks, uint32 (itemsize 4, format ``I`` or ``L``, native byte order): a 1-D
      buffer of ``N`` masks with exactly 5 bits set.

    Any strides are accepted (C-contiguous input is fastest). The compiled kernels
    release the GIL while they work, so threads evaluating different batches run in
    parallel; a batch of at most 256 rows in an exact ``bytes``, ``bytearray`` or
    ``array('I')`` (``out`` None or an ``array('I')``) is evaluated with the GIL held,
    without the buffer protocol's fixed cost (free-threaded CPython: only ``bytes``).

    :param hands: the ``N`` hands, as above.
    :param out: optional writable C-contiguous 1-D buffer of ``N`` uint32 (format ``I``
        or ``L``, itemsize 4) that receives the values; it is returned. It may share
        memory with ``hands`` (masks evaluated in place, a shifted or reversed view): every
        row is read before a value is written. If the call raises, its content is
        unspecified.
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: ``out`` if given; else a numpy ``uint32`` array if ``hands`` is a numpy
        array; else an ``array.array('I')``. Item ``i`` is the packed value of row ``i``
        (see :func:`evaluate_mask`).
    :raises TypeError: ``hands`` or ``out`` is not a buffer, holds the wrong item type,
        or ``out`` is read-only.
    :raises ValueError: a wrong shape or size, or a bad row: a card code above 31, a
        card twice, or a mask without exactly 5 bits. The message names the first bad
        row, as in ``row 17: card code 40 is not 0..31``.

    >>> values = evaluate_many(bytes([31, 27, 23, 19, 15,  0, 1, 2, 4, 5]))  # Ah Kh Qh Jh Th; 7s 7c 7d 8s 8c
    >>> [value >> 22 for value in values], values[0] == evaluate_mask(0x88888000)
    ([8, 5], True)
    >>> evaluate_many(bytes([0, 1, 2, 3, 40]))
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: row 0: card code 40 is not 0..31
    """
    try:
        view = memoryview(hands)
    except TypeError:
        raise PokerDraw32TypeError(
            f"hands must be a buffer of uint8 card codes or uint32 masks, not {type(hands).__name__}"
        ) from None
    with view:
        code = _native_format(view.format)
        shape = view.shape or ()
        if code == "B" and view.itemsize == 1:
            codes = True
            if view.ndim == 2:
                if shape[1] != 5:
                    raise PokerDraw32ValueError(f"hands must have shape (N, 5), got {shape}")
            elif view.ndim == 1:
                if shape[0] % 5:
                    raise PokerDraw32ValueError(f"hands holds {shape[0]} card codes, not a multiple of 5")
            else:
                raise PokerDraw32ValueError(f"hands of card codes must be 1-D or 2-D, got shape {shape}")
            data: Any = view.tobytes()
            n = len(data) // 5
        elif code in ("I", "L") and view.itemsize == 4:
            codes = False
            if view.ndim != 1:
                raise PokerDraw32ValueError(f"hands of masks must be 1-D, got shape {shape}")
            data = array(_U32_CODE)
            data.frombytes(view.tobytes())
            n = len(data)
        else:
            raise PokerDraw32TypeError(
                f"hands must hold uint8 card codes or uint32 masks, not format {view.format!r} "
                f"with itemsize {view.itemsize}"
            )
    if out is None:
        np = sys.modules.get("numpy")
        result: Any = np.empty(n, dtype=np.uint32) if np is not None and isinstance(hands, np.ndarray) else None
    else:
        try:
            target = memoryview(out)
        except TypeError:
            raise PokerDraw32TypeError(f"out must be a writable buffer of uint32, not {type(out).__name__}") from None
        with target:
            _check_out(target, n)
        result = out
    get = _by_mask().get
    if codes:
        bit = _ROW_BIT
        rows = iter(data)
        values: list[Any] = [
            get(bit[a] | bit[b] | bit[c] | bit[d] | bit[e]) for a, b, c, d, e in zip(*(rows,) * 5, strict=False)
        ]
    else:
        values = list(map(get, data))
    if None in values:
        bad = values.index(None)
        raise PokerDraw32ValueError(_row_problem(bad, list(data[5 * bad : 5 * bad + 5]) if codes else data[bad]))
    if not suit_tiebreak:
        values = [value & ~3 for value in values]
    packed = array(_U32_CODE, values)
    if result is None:
        return packed
    with memoryview(result) as target:
        target.cast("B")[:] = memoryview(packed).cast("B")
    return result


def deal_many(rng: Rng, n: int, out: Any = None) -> Any:
    """``n`` shuffled 32-card decks from ``rng`` (R11): the same cards, in the same order,
    and the same final state of ``rng``, as ``n`` calls of ``rng.shuffled(0xFFFFFFFF)``.

    Deck ``d`` is bytes ``32 * d`` to ``32 * d + 31`` of the result, one card code each.

    :param rng: an :class:`Rng` of this implementation.
    :param n: number of decks, ``0 <= n <= 2**40``.
    :param out: optional writable C-contiguous buffer of ``32 * n`` bytes (any shape,
        itemsize 1, e.g. a numpy ``uint8`` array of shape ``(n, 32)``); it is returned.
    :returns: ``out`` if given, else a new ``bytearray`` of ``32 * n`` card codes.
    :raises TypeError: ``rng`` is not an :class:`Rng`, ``n`` is not an int, or ``out``
        is not a writable buffer of bytes.
    :raises ValueError: ``n`` is out of range, or ``out`` has the wrong size or is not
        C-contiguous.

    >>> one, other = Rng(5), Rng(5)
    >>> decks = deal_many(one, 2)
    >>> list(decks[:32]) == other.shuffled(0xFFFFFFFF) and list(decks[32:]) == other.shuffled(0xFFFFFFFF)
    True
    >>> one.getstate() == other.getstate()
    True
    """
    if not isinstance(rng, Rng):
        raise PokerDraw32TypeError(f"rng must be an Rng, not {type(rng).__name__}")
    if not _is_int(n):
        raise PokerDraw32TypeError(f"n must be an int, not {type(n).__name__}")
    n = _plain(n)
    if n < 0 or n > 1 << 40:
        raise PokerDraw32ValueError(f"n must be in 0 <= n <= 2**40, got {n}")
    target = None
    if out is not None:
        try:
            target = memoryview(out)
        except TypeError:
            raise PokerDraw32TypeError(f"out must be a writable buffer of bytes, not {type(out).__name__}") from None
        with target:
            if target.readonly:
                raise PokerDraw32TypeError("out must be a writable buffer, not a read-only one")
            if target.itemsize != 1:
                raise PokerDraw32TypeError(f"out must hold bytes, not items of size {target.itemsize}")
            if target.nbytes != 32 * n:
                raise PokerDraw32ValueError(f"out must have {32 * n} bytes (32 per deck), got {target.nbytes}")
            if not target.c_contiguous:
                raise PokerDraw32ValueError("out must be C-contiguous")
    decks = bytearray(32 * n)
    start = list(range(32))
    for deck in range(0, 32 * n, 32):
        cards = start[:]
        rng.shuffle(cards)
        decks[deck : deck + 32] = bytes(cards)
    if out is None:
        return decks
    with memoryview(out) as target:
        target.cast("B")[:] = decks
    return out


# --------------------------------------------------------------------------------------
# Kernel 6: Monte Carlo equity against opponents who draw by a policy (R6.1, R6.2, R2, R9.4, R11)

__all__ += ["equity_trials", "rule_discard"]

_STRAIGHT_RANK_SETS = (0xF8, 0x7C, 0x3E, 0x1F, 0x8F)  # rank bits of the five straights (R2.2)
# hand mask -> rule_discard, filled as hands are met. No lock: an entry is the same whichever
# thread computes it, and one dict get or set is atomic (with or without the GIL).
_RULE_DISCARDS: dict[int, int] = {}
_MAX_TRIALS = 1 << 40


def _rule_discard(mask: int) -> int:
    """:func:`rule_discard` of a valid 5-card mask (no checks), computed once per hand."""
    d = _RULE_DISCARDS.get(mask)
    if d is not None:
        return d
    category = _by_mask()[mask] >> 22
    d = 0
    if category >= 4:  # straight or better: stand pat
        pass
    elif category >= 1:  # pairs, trips: throw the unmatched cards
        for shift in range(0, 32, 4):
            nibble = mask >> shift & 15
            if nibble and not nibble & (nibble - 1):
                d |= nibble << shift
    else:
        for suit in range(4):
            same = mask & (_SPADES << suit)
            if same.bit_count() == 4:  # four to a flush: throw the odd card
                d = mask & ~same
                break
        else:
            rank_bits = 0
            for rank in range(8):
                if mask >> (rank << 2) & 15:
                    rank_bits |= 1 << rank
            for rank in range(7, -1, -1):  # highest card first: four to a straight
                if rank_bits >> rank & 1:
                    rest = rank_bits & ~(1 << rank)
                    if any(not rest & ~ranks for ranks in _STRAIGHT_RANK_SETS):
                        d = mask & (15 << (rank << 2))
                        break
            else:  # keep the highest card, draw four
                d = mask & ~(1 << (mask.bit_length() - 1))
    _RULE_DISCARDS[mask] = d
    return d


def rule_discard(hand: int) -> int:
    """The discard of the ``"rule"`` draw policy for a 5-card hand (R6.1: 0 to 4 cards).

    The rule is :func:`pokerdraw32.bots.choose_discards` applied to the cards highest
    first (so that of two straight draws the one keeping the lower four cards, the open
    one, is taken):

    * straight, flush, full house, four of a kind, straight flush: stand pat;
    * three of a kind, two pair, one pair: throw every card whose rank is not matched;
    * high card with four cards of one suit: throw the fifth card;
    * high card with four cards inside one straight's ranks (R2.2, A-7-8-9-T included):
      throw the fifth card, trying the cards highest first;
    * otherwise keep the highest card and throw the other four.

    :param hand: 32-bit card mask with exactly 5 bits set.
    :returns: the mask of the cards thrown away, within ``hand`` (0 is standing pat).
    :raises TypeError: ``hand`` is not an int (bools are refused).
    :raises ValueError: ``hand`` has bits outside 0..31 or does not have 5 bits set.

    >>> rule_discard(1 << 31 | 1 << 30 | 1 << 2 | 1 << 4 | 1 << 10)   # Ah Ad 7d 8s 9d: keep the aces
    1044
    >>> rule_discard(1 << 31 | 1 << 27 | 1 << 3 | 1 << 7 | 1 << 10) == 1 << 10   # four hearts: throw 9d
    True
    """
    hand = _check_deck_mask(hand, "hand mask")
    n = hand.bit_count()
    if n != 5:
        raise PokerDraw32ValueError(f"hand mask {hand:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    return _rule_discard(hand)


def equity_trials(
    rng: Rng,
    trials: int,
    hand: int,
    discard: int,
    excluded: int,
    opponents: int,
    policy: int,
    position: int,
    folded: int = 0,
    reshuffle_folded: bool = False,
    suit_tiebreak: bool = True,
) -> tuple[int, int, int, int, int, int]:
    """Play ``trials`` random draws and showdowns of one hand against ``opponents`` (Monte Carlo).

    The hero holds the 5 cards of ``hand`` and will throw away those of ``discard``. The
    *unseen* cards are the deck minus ``hand`` minus ``excluded`` (dead cards: never dealt,
    never drawn, never reshuffled). Each trial:

    1. takes its own generator ``Rng(rng.next_u64())`` (so trial ``t`` of a run is the same
       whatever the hero discards: common random numbers), and keeps the unseen cards as
       the stub, in ascending code order; "a card from the stub" below is always the card
       at index ``below(n)`` of the ``n`` stub cards, which is then replaced by the last
       one (a uniform draw without replacement, the same as dealing from a shuffled stub,
       R11.1);
    2. deals 5 stub cards to each opponent in turn, then 5 to each of ``folded`` players
       who fold before the draw: their cards are dead, or with ``reshuffle_folded`` go to
       the discard pile (R6.2 option);
    3. the draw (R6.1), the ``opponents + 1`` players in draw order, the hero at index
       ``position`` (0: first, left of the button): a player discards (the hero
       ``discard``; an opponent by ``policy``) and is dealt as many cards one at a time
       from the stub; when the stub is empty the discard pile is "reshuffled": its cards,
       in ascending code order, become the stub (R6.2). A player's discards join the pile
       after the player is served, so nobody receives their own discards;
    4. the showdown (R2; with ``suit_tiebreak`` false, equal ranks tie and split, R9.4).

    Policies: 0 ``pat`` (stand pat), 1 ``rule`` (:func:`rule_discard`), 2 ``random`` (the
    number of cards ``below(5)``, then that many of the hand's cards in ascending code
    order, chosen by a partial Fisher-Yates shuffle: for ``i`` from 0, swap item ``i``
    with item ``i + below(5 - i)``).

    :param rng: an :class:`Rng` of this implementation; advanced by one ``next_u64`` per trial.
    :param trials: number of trials, ``0 <= trials <= 2**40``.
    :param hand: the hero's 32-bit card mask, exactly 5 bits set.
    :param discard: the cards the hero throws away: within ``hand``, 0 to 4 of them.
    :param excluded: mask of dead cards; any cards of the deck (those of ``hand`` change nothing).
    :param opponents: 1 to 4 opponents (R3.1: 2 to 5 players).
    :param policy: the opponents' draw policy, 0, 1 or 2 as above.
    :param position: the hero's index in the draw order, ``0 <= position <= opponents``.
    :param folded: players dealt in who fold before the draw, ``0 <= folded`` and
        ``1 + opponents + folded <= 5`` (R3.1).
    :param reshuffle_folded: R6.2 option: the folded hands join the discard pile.
    :param suit_tiebreak: R2.4; false: hands equal in ranks tie.
    :returns: 6 ints ``counts``: ``counts[0]`` trials lost, ``counts[m]`` (m = 1..5) trials in
        which the hero won a 1/m share of the pot (``counts[1]``: won alone). They sum to
        ``trials``; the hero's equity (mean pot share) is ``sum(counts[m] / m) / trials``.
    :raises TypeError: ``rng`` is not an :class:`Rng`, or another argument is not an int.
    :raises ValueError: an argument is out of range, ``discard`` is not within ``hand`` or
        has 5 cards, or there are too few unseen cards to deal the hands or to complete
        a draw of 4 (of the hero's ``discard`` when ``policy`` is 0) (R6.2).

    >>> hand = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 19 | 1 << 15   # Ah Kh Qh Jh Th: a royal flush
    >>> equity_trials(Rng(1), 1000, hand, 0, 0, 4, 1, 0)
    (0, 1000, 0, 0, 0, 0)
    """
    if not isinstance(rng, Rng):
        raise PokerDraw32TypeError(f"rng must be an Rng, not {type(rng).__name__}")
    if not _is_int(trials):
        raise PokerDraw32TypeError(f"trials must be an int, not {type(trials).__name__}")
    trials = _plain(trials)
    if trials < 0 or trials > _MAX_TRIALS:
        raise PokerDraw32ValueError(f"trials must be in 0 <= trials <= 2**40, got {trials}")
    _, k, unseen = _draw_args(hand, discard, excluded)
    for name, value in (("opponents", opponents), ("policy", policy), ("position", position), ("folded", folded)):
        if not _is_int(value):
            raise PokerDraw32TypeError(f"{name} must be an int, not {type(value).__name__}")
    opponents, policy, position, folded = _plain(opponents), _plain(policy), _plain(position), _plain(folded)
    if opponents < 1 or opponents > 4:
        raise PokerDraw32ValueError(f"opponents must be 1 to 4 (2 to 5 players, R3.1), got {opponents}")
    if policy < 0 or policy > 2:
        raise PokerDraw32ValueError(f"policy must be 0 (pat), 1 (rule) or 2 (random), got {policy}")
    if position < 0 or position > opponents:
        raise PokerDraw32ValueError(
            f"position must be 0 to {opponents} (the hero's place in the draw order), got {position}"
        )
    if folded < 0 or 1 + opponents + folded > 5:
        raise PokerDraw32ValueError(f"{1 + opponents} players and {folded} folded: 2 to 5 players are dealt in (R3.1)")
    n_unseen = unseen.bit_count()
    dealt = 5 * (opponents + folded)
    if n_unseen < dealt:
        raise PokerDraw32ValueError(f"only {n_unseen} unseen cards, too few to deal {opponents + folded} hands of 5")
    available = n_unseen - dealt + (5 * folded if reshuffle_folded else 0)
    need = k if policy == 0 else 4
    if available < need:
        raise PokerDraw32ValueError(f"only {available} cards for the draw, too few for a draw of {need} (R6.2)")

    table = _by_mask()
    keep = ~0 if suit_tiebreak else ~3
    rule = _rule_discard
    start = [code for code in range(32) if unseen >> code & 1]
    # draw order: -1 is the hero, 0.. the opponents in turn
    drawers = [-1 if seat == position else (seat if seat < position else seat - 1) for seat in range(opponents + 1)]
    counts = [0] * 6
    for _ in range(trials):
        s0, s1, s2, s3 = _seeded(rng.next_u64())
        stub = start[:]
        n = len(stub)
        pile = 0
        holdings = [0] * opponents
        for i in range(opponents + folded):
            cards = 0
            for _ in range(5):
                r = 0
                if n > 1:  # below(n), next_u64 inlined (as Rng.shuffle)
                    shift = 64 - (n - 1).bit_length()
                    while True:
                        r = (s1 * 5) & _U64
                        r = ((((r << 7) | (r >> 57)) * 9) & _U64) >> shift
                        t = (s1 << 17) & _U64
                        s2 ^= s0
                        s3 ^= s1
                        s1 ^= s2
                        s0 ^= s3
                        s2 ^= t
                        s3 = ((s3 << 45) & _U64) | (s3 >> 19)
                        if r < n:
                            break
                n -= 1
                cards |= 1 << stub[r]
                stub[r] = stub[n]
            if i < opponents:
                holdings[i] = cards
            elif reshuffle_folded:
                pile |= cards
        hero = hand
        for who in drawers:
            if who < 0:
                held, thrown = hero, discard
            else:
                held = holdings[who]
                if policy == 1:
                    thrown = rule(held)
                elif policy == 0:
                    thrown = 0
                else:
                    thrown, s0, s1, s2, s3 = _random_discard(held, s0, s1, s2, s3)
            if thrown:
                held &= ~thrown
                for _ in range(thrown.bit_count()):
                    if n == 0:  # R6.2: the stub is exhausted; the discard pile becomes the stub
                        stub = [code for code in range(32) if pile >> code & 1]
                        n = len(stub)
                        pile = 0
                    r = 0
                    if n > 1:
                        shift = 64 - (n - 1).bit_length()
                        while True:
                            r = (s1 * 5) & _U64
                            r = ((((r << 7) | (r >> 57)) * 9) & _U64) >> shift
                            t = (s1 << 17) & _U64
                            s2 ^= s0
                            s3 ^= s1
                            s1 ^= s2
                            s0 ^= s3
                            s2 ^= t
                            s3 = ((s3 << 45) & _U64) | (s3 >> 19)
                            if r < n:
                                break
                    n -= 1
                    held |= 1 << stub[r]
                    stub[r] = stub[n]
                pile |= thrown  # the player's discards join the pile only after they are served (R6.2)
            if who < 0:
                hero = held
            else:
                holdings[who] = held
        hero_value = table[hero] & keep
        best = -1
        ways = 0
        for held in holdings:
            value = table[held] & keep
            if value > best:
                best, ways = value, 1
            elif value == best:
                ways += 1
        if hero_value > best:
            counts[1] += 1
        elif hero_value == best:
            counts[ways + 1] += 1
        else:
            counts[0] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]


def _seeded(seed: int) -> tuple[int, int, int, int]:
    """The state of ``Rng(seed)``: the next four SplitMix64 outputs."""
    x, s0 = _splitmix64(seed)
    x, s1 = _splitmix64(x)
    x, s2 = _splitmix64(x)
    x, s3 = _splitmix64(x)
    return s0, s1, s2, s3


def _below_state(n: int, s0: int, s1: int, s2: int, s3: int) -> tuple[int, int, int, int, int]:
    """``below(n)`` (n >= 2) of the generator with state ``s0..s3``: (result, new state)."""
    shift = 64 - (n - 1).bit_length()
    while True:
        r = (s1 * 5) & _U64
        r = ((((r << 7) | (r >> 57)) * 9) & _U64) >> shift
        t = (s1 << 17) & _U64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) & _U64) | (s3 >> 19)
        if r < n:
            return r, s0, s1, s2, s3


def _random_discard(held: int, s0: int, s1: int, s2: int, s3: int) -> tuple[int, int, int, int, int]:
    """The ``random`` policy: ``below(5)`` cards, picked by a partial Fisher-Yates shuffle."""
    size, s0, s1, s2, s3 = _below_state(5, s0, s1, s2, s3)
    cards = [code for code in range(32) if held >> code & 1]
    thrown = 0
    for i in range(size):
        r, s0, s1, s2, s3 = _below_state(5 - i, s0, s1, s2, s3)
        cards[i], cards[i + r] = cards[i + r], cards[i]
        thrown |= 1 << cards[i]
    return thrown, s0, s1, s2, s3
