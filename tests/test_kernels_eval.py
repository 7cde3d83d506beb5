"""Kernel 1, hand evaluation (R2), for both implementations.

The proof of R2 is ``test_order_matches_naive_evaluator``: over all C(32,5) hands, the
kernel's values order the hands exactly as an independent sort-and-count evaluator,
written here from the R2 table, does.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

Outcome = Callable[..., tuple[Any, Any]]  # the conftest fixture

RANKS = "789TJQKA"  # rank index 0..7 (R1.1)
SUITS = "scdh"  # suit index 0..3, hearts highest (R1.2)
DECK = [rank + suit for rank in RANKS for suit in SUITS]  # DECK[code] is the card with that code

# R2.5
CATEGORY_COUNTS = {
    8: 20,  # straight flush
    7: 224,  # four of a kind
    6: 204,  # flush
    5: 1_344,  # full house
    4: 5_100,  # straight
    3: 10_752,  # three of a kind
    2: 24_192,  # two pair
    1: 107_520,  # one pair
    0: 52_020,  # high card
}
# sha256 of the values of all hands in colex order, each as 4 little-endian bytes
DIGEST = {
    True: "dfd8056837e151f61813c7d5bef78783051e4ee226f08a4c3b4ed778d903df79",
    False: "69861d2e523cb4452bc349e94c485eca2ea416a765320fb2c4e1e7da56aada7b",
}


def mask_of(text: str) -> int:
    """'Ah 7s 8s 9s Tc' -> card mask."""
    return sum(1 << DECK.index(card) for card in text.split())


def value(kernels: ModuleType, text: str, suit_tiebreak: bool = True) -> int:
    return kernels.evaluate_mask(mask_of(text), suit_tiebreak)


def fields(v: int) -> tuple[int, tuple[int, ...], int]:
    """(category, (r1..r5), suit) of a packed value."""
    return v >> 22, tuple(v >> shift & 15 for shift in (18, 14, 10, 6, 2)), v & 3


@cache
def all_hands() -> tuple[tuple[int, ...], ...]:
    """Every 5-card hand as a sorted tuple of codes, in colex order."""
    return tuple(sorted(itertools.combinations(range(32), 5), key=lambda hand: hand[::-1]))


@cache
def all_masks() -> tuple[int, ...]:
    return tuple(sum(1 << code for code in hand) for hand in all_hands())


@cache
def all_values(kernels: ModuleType, suit_tiebreak: bool) -> tuple[int, ...]:
    evaluate = kernels.evaluate_mask
    return tuple(evaluate(mask, suit_tiebreak) for mask in all_masks())


def naive_key(cards: list[str]) -> tuple[int, tuple[int, ...], int]:
    """R2 read literally: (row from the bottom of the table, rank columns, tie-break suit)."""
    ranks = sorted((RANKS.index(card[0]) for card in cards), reverse=True)
    suit_of = {RANKS.index(card[0]): SUITS.index(card[1]) for card in cards}  # for unpaired ranks
    counts = Counter(ranks)
    grouped = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({card[1] for card in cards}) == 1
    flush_suit = SUITS.index(cards[0][1])
    top = None
    if shape == [1] * 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif set(ranks) == {7, 0, 1, 2, 3}:  # A-7-8-9-T, the ten on top (R2.2)
            top = 3
    singles = [rank for rank in grouped if counts[rank] == 1]
    if top is not None and flush:
        return (9, (top,), flush_suit)
    if shape == [4, 1]:
        return (8, tuple(grouped), 0)
    if flush:
        return (7, tuple(ranks), flush_suit)
    if shape == [3, 2]:
        return (6, tuple(grouped), 0)
    if top is not None:
        return (5, (top,), suit_of[top])
    if shape == [3, 1, 1]:
        return (4, tuple(grouped), 0)
    if shape == [2, 2, 1]:
        return (3, tuple(grouped), suit_of[singles[0]])
    if shape == [2, 1, 1, 1]:
        return (2, tuple(grouped), suit_of[singles[0]])
    return (1, tuple(ranks), suit_of[ranks[0]])


@cache
def naive_keys() -> list[tuple[int, tuple[int, ...], int]]:
    """naive_key of every hand, in colex order (a cached function, not a fixture: the
    kernels fixture regroups tests across modules, which would rebuild a module fixture)."""
    return [naive_key([DECK[code] for code in hand]) for hand in all_hands()]


# ---------------------------------------------------------------------------------------
# exhaustive facts


def test_category_counts(kernels: ModuleType) -> None:
    counts = Counter(v >> 22 for v in all_values(kernels, True))
    assert dict(counts) == CATEGORY_COUNTS
    assert sum(counts.values()) == 201_376


def test_distinct_values(kernels: ModuleType) -> None:
    assert len(set(all_values(kernels, True))) == 2_520  # R2.5
    assert len(set(all_values(kernels, False))) == 840


@pytest.mark.parametrize("suit_tiebreak", [True, False], ids=["suits", "nosuits"])
def test_pinned_digest(kernels: ModuleType, suit_tiebreak: bool) -> None:
    data = b"".join(v.to_bytes(4, "little") for v in all_values(kernels, suit_tiebreak))
    assert hashlib.sha256(data).hexdigest() == DIGEST[suit_tiebreak]


def test_suit_field_only(kernels: ModuleType) -> None:
    """R2.4 off clears exactly the suit field."""
    on, off = all_values(kernels, True), all_values(kernels, False)
    assert all(b == a & ~3 for a, b in zip(on, off, strict=True))


@pytest.mark.parametrize("suit_tiebreak", [True, False], ids=["suits", "nosuits"])
def test_core_equals_pure_on_every_hand(core: ModuleType, pure: ModuleType, suit_tiebreak: bool) -> None:
    assert all_values(core, suit_tiebreak) == all_values(pure, suit_tiebreak)


@pytest.mark.parametrize("suit_tiebreak", [True, False], ids=["suits", "nosuits"])
def test_order_matches_naive_evaluator(kernels: ModuleType, suit_tiebreak: bool) -> None:
    keys = naive_keys() if suit_tiebreak else [(*key[:2], 0) for key in naive_keys()]
    pairs = set(zip(all_values(kernels, suit_tiebreak), keys, strict=True))
    # a bijection between distinct values and distinct keys ...
    assert len(pairs) == len({v for v, _ in pairs}) == len({k for _, k in pairs})
    # ... that preserves order: sorting by value sorts the keys
    by_value = [key for _, key in sorted(pairs)]
    assert by_value == sorted(by_value)


def test_naive_evaluator_counts() -> None:
    """The reference itself reproduces R2.5."""
    counts = Counter(key[0] for key in naive_keys())
    assert {row - 1: n for row, n in counts.items()} == CATEGORY_COUNTS
    assert len(set(naive_keys())) == 2_520


# ---------------------------------------------------------------------------------------
# examples (R2.1 - R2.4) and the packed layout


@pytest.mark.parametrize(
    ("hand", "category", "ranks", "suit"),
    [
        ("Ah Kh Qh Jh Th", 8, "A", "h"),  # royal flush
        ("As 7s 8s 9s Ts", 8, "T", "s"),  # lowest straight flush: the ten is on top
        ("9s 9c 9d 9h Ks", 7, "9K", "s"),
        ("Ad Kd 9d 8d 7d", 6, "AK987", "d"),
        ("Ks Kd Kc 9s 9h", 5, "K9", "s"),
        ("Ac Kd Qh Js Tc", 4, "A", "c"),
        ("Ah 7s 8s 9c Td", 4, "T", "d"),  # R2.2: the ten's suit, not the ace's
        ("Qs Qd Qh 8c 7c", 3, "Q87", "s"),
        ("Ks Kd Js Jd 9h", 2, "KJ9", "h"),
        ("As Ad Kh 8s 7s", 1, "AK87", "h"),
        ("Ac Kd 9c 8c 7c", 0, "AK987", "c"),
        ("Kc Ad 7s 8h 9h", 0, "AK987", "d"),  # R2.2: K-A-7-8-9 is no straight
    ],
)
def test_packed_layout(kernels: ModuleType, hand: str, category: int, ranks: str, suit: str) -> None:
    expected_ranks = tuple(RANKS.index(r) for r in ranks) + (0,) * (5 - len(ranks))
    no_suit = category in (3, 5, 7)
    assert fields(value(kernels, hand)) == (category, expected_ranks, 0 if no_suit else SUITS.index(suit))
    assert fields(value(kernels, hand, False)) == (category, expected_ranks, 0)


def test_flush_beats_full_house(kernels: ModuleType) -> None:  # R2.1
    assert value(kernels, "9s 8s 7s Js Qs") > value(kernels, "As Ad Ac Ks Kd")
    assert value(kernels, "9s 8s 7s Js Qs") < value(kernels, "7h 7d 7c 7s 8h")


def test_ace_low_straight(kernels: ModuleType) -> None:  # R2.2
    wheel = value(kernels, "Ah 7s 8s 9s Tc")
    assert wheel < value(kernels, "7h 8h 9h Td Jc")  # the lowest straight
    assert wheel > value(kernels, "Ah Ad Ac Kh Qd")  # beats three of a kind
    assert wheel < value(kernels, "As 7h 8h 9h Td")  # tie-break: ten of clubs < ten of diamonds
    assert wheel == value(kernels, "As 7h 8h 9h Tc")  # the ace's suit plays no part
    assert value(kernels, "Ts Jd Qd Kd Ah") > value(kernels, "9h Ts Jd Qd Kh")  # T-J-Q-K-A highest
    assert fields(value(kernels, "Kc Ad 7s 8h 9h"))[0] == 0  # no wrap-around
    assert fields(value(kernels, "Kc Ac 7c 8c 9c"))[0] == 6  # a flush, not a straight flush


def test_two_pair_decided_by_odd_suit(kernels: ModuleType) -> None:  # R2 row 7, R2.4
    high, low = "Ks Kd Js Jd 9h", "Kc Kh Jc Jh 9c"
    assert value(kernels, high) > value(kernels, low)
    assert value(kernels, high, False) == value(kernels, low, False)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ad Kh 8s 7s", "Ac Ah Kd 8c 7c"),  # one pair: suit of the highest other card
        ("Ah Kd 9c 8s 7s", "As Kh 9d 8c 7c"),  # high card: suit of the highest card
        ("Ah Kh 9h 8h 7h", "As Ks 9s 8s 7s"),  # flush: suit
        ("7h 8h 9h Th Jh", "7d 8d 9d Td Jd"),  # straight flush: suit
        ("7s 8c 9d Th Jh", "7h 8d 9c Ts Jd"),  # straight: suit of the top card
    ],
)
def test_suit_tiebreaks(kernels: ModuleType, better: str, worse: str) -> None:
    assert set(better.split()).isdisjoint(worse.split())
    assert value(kernels, better) > value(kernels, worse)
    assert value(kernels, better, False) == value(kernels, worse, False)  # R2.4 off: a tie


def test_never_by_suit(kernels: ModuleType) -> None:  # R2.3
    assert value(kernels, "Qs Qd Qh 8c 7c") == value(kernels, "Qs Qd Qc 8h 7h")
    assert value(kernels, "Ks Kd Kc 9s 9h") == value(kernels, "Ks Kd Kh 9c 9d")
    assert value(kernels, "9s 9c 9d 9h Ks") == value(kernels, "9s 9c 9d 9h Kh")


# ---------------------------------------------------------------------------------------
# evaluate_codes


@settings(max_examples=300, deadline=None)
@given(hand=st.permutations(range(32)).map(lambda deck: deck[:5]), suit_tiebreak=st.booleans())
def test_codes_equal_mask(kernels: ModuleType, hand: list[int], suit_tiebreak: bool) -> None:
    mask = sum(1 << code for code in hand)
    expected = kernels.evaluate_mask(mask, suit_tiebreak)
    assert kernels.evaluate_codes(hand, suit_tiebreak) == expected
    assert kernels.evaluate_codes(tuple(reversed(hand)), suit_tiebreak=suit_tiebreak) == expected
    assert kernels.evaluate_codes(iter(hand), suit_tiebreak) == expected


# ---------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    ("mask", "error", "message"),
    [
        (0x1F000000F, ValueError, "hand mask 0x1f000000f has bits outside the 32-card deck"),
        (1 << 32 | 0xF, ValueError, "hand mask 0x10000000f has bits outside the 32-card deck"),
        (-0x1F, ValueError, "hand mask -0x1f has bits outside the 32-card deck"),
        (1 << 100, ValueError, f"hand mask {1 << 100:#x} has bits outside the 32-card deck"),
        (0x7, ValueError, "hand mask 0x7 has 3 cards, expected 5"),
        (0x1, ValueError, "hand mask 0x1 has 1 card, expected 5"),
        (0, ValueError, "hand mask 0x0 has 0 cards, expected 5"),
        (0x3F, ValueError, "hand mask 0x3f has 6 cards, expected 5"),
        (0xFFFFFFFF, ValueError, "hand mask 0xffffffff has 32 cards, expected 5"),
        (True, TypeError, "hand mask must be an int, not bool"),
        (31.0, TypeError, "hand mask must be an int, not float"),
        ("0x1f", TypeError, "hand mask must be an int, not str"),
        (None, TypeError, "hand mask must be an int, not NoneType"),
    ],
)
def test_evaluate_mask_errors(kernels: ModuleType, mask: object, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        kernels.evaluate_mask(mask)
    assert str(info.value) == message


def test_evaluate_mask_accepts_int_subclasses(kernels: ModuleType) -> None:
    import enum

    class Hand(enum.IntEnum):
        ROYAL = mask_of("Ah Kh Qh Jh Th")

    assert kernels.evaluate_mask(Hand.ROYAL) == value(kernels, "Ah Kh Qh Jh Th")


@pytest.mark.parametrize(
    ("codes", "error", "message"),
    [
        ([1, 2, 3, 4], ValueError, "expected 5 card codes, got 4"),
        ([1, 2, 3, 4, 5, 6], ValueError, "expected 5 card codes, got 6"),
        ((), ValueError, "expected 5 card codes, got 0"),
        ([1, 2, 3, 4, 32], ValueError, "card code 32 is outside 0..31"),
        ([-1, 2, 3, 4, 5], ValueError, "card code -1 is outside 0..31"),
        ([1, 2, 3, 4, 1 << 70], ValueError, f"card code {1 << 70} is outside 0..31"),
        ([1, 2, 3, 2, 5], ValueError, "duplicate card code 2"),
        ([1, 2, 3, 4, "5"], TypeError, "card code must be an int, not str"),
        ([1, 2, 3, 4, True], TypeError, "card code must be an int, not bool"),
        ([1, 2, 3, 4, 5.0], TypeError, "card code must be an int, not float"),
        (31, TypeError, "codes must be a sequence, not int"),
        (None, TypeError, "codes must be a sequence, not NoneType"),
    ],
)
def test_evaluate_codes_errors(kernels: ModuleType, codes: object, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        kernels.evaluate_codes(codes)
    assert str(info.value) == message


anything = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(0, 0xFFFFFFFF),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.text(max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(mask=st.one_of(anything, st.integers(0, 31).map(lambda b: 0x1F << b)), suit_tiebreak=st.booleans())
def test_evaluate_mask_parity_any_input(
    core: ModuleType, pure: ModuleType, outcome: Outcome, mask: object, suit_tiebreak: bool
) -> None:
    assert outcome(core.evaluate_mask, mask, suit_tiebreak) == outcome(pure.evaluate_mask, mask, suit_tiebreak)


@settings(max_examples=300, deadline=None)
@given(codes=st.lists(st.one_of(st.integers(-2, 33), anything), max_size=7) | anything)
def test_evaluate_codes_parity_any_input(core: ModuleType, pure: ModuleType, outcome: Outcome, codes: object) -> None:
    assert outcome(core.evaluate_codes, codes) == outcome(pure.evaluate_codes, codes)


# evaluate_text: the common written form in one kernel call (R1.3, R2), both implementations

_TOKENS = [rank + suit for rank in RANKS for suit in SUITS]
_SEPARATORS = [" ", "  ", "\t", "\n", " \r\n ", "\x0b", "\x0c", "\x1c", "\x1f"]


@settings(max_examples=400, deadline=None)
@given(
    tokens=st.lists(st.one_of(st.sampled_from(_TOKENS),
                              st.sampled_from(["10h", "ah", "AH", "Ah,", "6s", "A", "Ahh", "A♥", "\xa0"])),
                    min_size=0, max_size=7),
    separators=st.lists(st.sampled_from([*_SEPARATORS, ",", "\xa0", "\u2003", ""]), min_size=8, max_size=8),
    suit_tiebreak=st.booleans(),
)
def test_evaluate_text_parity(core: ModuleType, pure: ModuleType, outcome: Outcome, tokens: list[str],
                              separators: list[str], suit_tiebreak: bool) -> None:
    """Both kernels agree on every text; a match is exactly the common form (5 canonical
    tokens, no repeat, ASCII separators), with the cards in the order written and the value
    evaluate_codes gives."""
    text = separators[0] + "".join(t + s for t, s in zip(tokens, separators[1:], strict=False))
    deck = tuple(range(100, 132))
    got = outcome(core.evaluate_text, text, deck, suit_tiebreak)
    assert got == outcome(pure.evaluate_text, text, deck, suit_tiebreak)
    split = text.split() if text.isascii() else []
    common = len(split) == 5 and all(t in _TOKENS for t in split) and len(set(split)) == 5
    if common:
        codes = [_TOKENS.index(t) for t in split]
        assert got == ("ok", (tuple(100 + c for c in codes), core.evaluate_codes(codes, suit_tiebreak)))
    else:
        assert got == ("ok", None)


@pytest.mark.parametrize("deck", [None, list(range(32)), tuple(range(31)), "x" * 32])
def test_evaluate_text_checks_the_deck(core: ModuleType, pure: ModuleType, outcome: Outcome, deck: object) -> None:
    got = outcome(core.evaluate_text, "Ah Kh Qh Jh Th", deck)
    assert got == outcome(pure.evaluate_text, "Ah Kh Qh Jh Th", deck)
    assert got[0].__name__ == "PokerDraw32TypeError" and "deck must be a tuple of the 32 cards" in got[1]


def test_evaluate_text_every_hand(kernels: ModuleType) -> None:
    """Exhaustive: every one of the 201,376 hands, written in code order, is found with its value."""
    deck = tuple(_TOKENS)
    values = kernels.evaluate_many(bytes(c for hand in itertools.combinations(range(32), 5) for c in hand))
    for hand, value in zip(itertools.combinations(range(32), 5), values, strict=True):
        text = " ".join(_TOKENS[c] for c in hand)
        assert kernels.evaluate_text(text, deck) == (tuple(_TOKENS[c] for c in hand), value)


# The slot key of the compiled evaluator tells a 5-card mask from any other (no popcount):
# masks of every card count around 5, in both halves, are refused with the count named.

@pytest.mark.parametrize("low,high", [(lo, hi) for lo in range(8) for hi in range(8) if lo + hi != 5])
def test_masks_without_five_cards_are_refused(kernels: ModuleType, low: int, high: int) -> None:
    import random

    rng = random.Random(low * 8 + high)
    for _ in range(50):
        mask = sum(1 << b for b in rng.sample(range(16), low)) | sum(1 << (16 + b) for b in rng.sample(range(16), high))
        with pytest.raises(ValueError, match=f"has {low + high} cards?, expected 5"):
            kernels.evaluate_mask(mask)
        with pytest.raises(ValueError, match=f"row 0: hand mask {mask:#x} has {low + high} cards?, expected 5"):
            kernels.evaluate_many(__import__("array").array("I", [mask]))


def test_every_split_of_five_cards_between_the_halves(kernels: ModuleType) -> None:
    """Exhaustive over the 201,376 masks, grouped by how many cards are in the low 16 bits: each
    is accepted and all values are those of evaluate_codes."""
    from array import array

    masks = array("I", [sum(1 << c for c in hand) for hand in itertools.combinations(range(32), 5)])
    values = kernels.evaluate_many(masks)
    by_codes = [kernels.evaluate_codes(hand) for hand in itertools.combinations(range(32), 5)]
    assert list(values) == by_codes
    assert {bin(m & 0xFFFF).count("1") for m in masks} == {0, 1, 2, 3, 4, 5}


class _Truthless:
    def __bool__(self) -> bool:
        raise RuntimeError("no truth")


@pytest.mark.parametrize("text", ["Ah Kh Qh Jh Th", "Ah Kh Qh Jh 10h", None])
@pytest.mark.parametrize("tiebreak", [_Truthless(), 1, 0, "yes", None])
def test_evaluate_text_reads_the_tiebreak_last(core: ModuleType, pure: ModuleType, outcome: Outcome, text: object,
                                               tiebreak: object) -> None:
    """Both kernels read suit_tiebreak's truth only for a match, after everything else (so an
    object whose truth raises does so only then, in both)."""
    deck = tuple(range(32))
    assert outcome(core.evaluate_text, text, deck, tiebreak) == outcome(pure.evaluate_text, text, deck, tiebreak)
