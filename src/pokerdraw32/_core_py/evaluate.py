"""Kernel 1 of the pure kernels: hand evaluation (R2).

:func:`evaluate_mask`, :func:`evaluate_codes`, :func:`evaluate_text` and the table behind them
(loaded on first use from ``_hand_values.zlib``), and ``_evaluate``, the sort-and-count
evaluator that states R2 once (``tools/make_hand_values.py`` writes the table from it). Twin of
``src/_core_evaluate.pxi``. Re-exported by :mod:`pokerdraw32._core_py`, which the rest imports.
"""

from __future__ import annotations

import sys
import zlib
from _thread import RLock
from array import array
from collections.abc import Iterable
from itertools import combinations
from typing import Any

from ..errors import PokerDraw32TypeError, PokerDraw32ValueError
from .checks import _DECK, _SPADES, _check_deck_mask, _is_int, _plain, _tuple_of

# Rank bits (bit r set for rank index r) of the five straights -> rank index of the top card.
# R2.2: A-7-8-9-T is the lowest straight and its top card is the ten.
_STRAIGHT_TOP = {0x8F: 3, 0x1F: 4, 0x3E: 5, 0x7C: 6, 0xF8: 7}



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
        if value is not None:   # (no Python code ran before suit_tiebreak's truth is read here)
            return value if suit_tiebreak else value & ~3
    if suit_tiebreak is not True:   # its truth read before any check, as the compiled twin's bint argument
        suit_tiebreak = bool(suit_tiebreak)
    if type(mask) is int:
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
            else:   # (no Python code ran before suit_tiebreak's truth is read here)
                return value if suit_tiebreak else value & ~3
    if suit_tiebreak is not True:   # its truth read before any check, as the compiled twin's bint argument
        suit_tiebreak = bool(suit_tiebreak)
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
        # the file sits in the package's folder (the compiled kernels read it there too), above this one
        raw = pkgutil.get_data((__package__ or "pokerdraw32._core_py").rpartition(".")[0], _HAND_VALUES_FILE)
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
