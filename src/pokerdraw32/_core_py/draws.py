"""Kernel 4 of the pure kernels: exact draw odds (R6.1, R2).

:func:`draw_outcomes`, :func:`draw_summary` and :func:`strength_score`, with the strength-score
tables built on first use from the evaluation table. Twin of ``src/_core_draws.pxi``.
Re-exported by :mod:`pokerdraw32._core_py`, which the rest imports.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

from ..errors import PokerDraw32TypeError, PokerDraw32ValueError
from .checks import _DECK, _check_deck_mask, _is_int, _plain
from .evaluate import _TABLES_LOCK, _by_mask

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
    if suit_tiebreak is not True:   # its truth read first, as the compiled twin's bint argument
        suit_tiebreak = bool(suit_tiebreak)
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
    if suit_tiebreak is not True:   # its truth read first, as the compiled twin's bint argument
        suit_tiebreak = bool(suit_tiebreak)
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
    if suit_tiebreak is not True:   # its truth read first, as the compiled twin's bint argument
        suit_tiebreak = bool(suit_tiebreak)
    if not _is_int(value):
        raise PokerDraw32TypeError(f"value must be an int, not {type(value).__name__}")
    value = _plain(value)
    score = _score_table(suit_tiebreak).get(value)
    if score is None:
        state = "on" if suit_tiebreak else "off"
        raise PokerDraw32ValueError(f"{value} is not the value of a 5-card hand (suit_tiebreak {state})")
    return score
