# Kernel 4: exact draw odds (R6.1, R2)
#
# Part of pokerdraw32._core: src/_core.pyx includes this file (Cython `include`, textual),
# so it shares that module's imports, helpers and namespace; it is not compiled alone.

from libc.string cimport memset

__all__ += ["draw_outcomes", "draw_summary", "strength_score"]

cdef uint32_t _SCORE[_NVALUES]        # value index -> 2 * hands below + hands equal (R2.4 on)
cdef uint32_t _PLAIN_SCORE[_NVALUES]  # the same with R2.4 off (hands equal in ranks tie)


cdef void _init_scores() noexcept nogil:
    """Fill _SCORE and _PLAIN_SCORE from _INDEX and _VALUES (well under 1 ms)."""
    cdef uint32_t per[_NVALUES]
    cdef Py_ssize_t i, j, g
    cdef uint32_t below = 0, group
    for i in range(_NVALUES):
        per[i] = 0
    for i in range(_NHANDS):
        per[_INDEX[i]] += 1
    for i in range(_NVALUES):
        _SCORE[i] = 2 * below + per[i]
        below += per[i]
    # With R2.4 off the values equal but for the suit field are adjacent in _VALUES.
    below = 0
    i = 0
    while i < _NVALUES:
        j = i
        group = 0
        while j < _NVALUES and (_VALUES[j] | 3U) == (_VALUES[i] | 3U):
            group += per[j]
            j += 1
        for g in range(i, j):
            _PLAIN_SCORE[g] = 2 * below + group
        below += group
        i = j




cdef int _draw_args(object hand, object discard, object excluded,
                    uint32_t *kept, uint32_t *unseen) except -1:
    """Check the arguments of a draw; set ``kept`` and ``unseen``; return the cards to draw."""
    cdef uint32_t h = _check_deck_mask(hand, "hand mask")
    cdef uint32_t d, x, u
    cdef int n = _popcount32(h), k
    if n != 5:
        raise PokerDraw32ValueError(f"hand mask {hand:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    d = _check_deck_mask(discard, "discard mask")
    if d & ~h:
        raise PokerDraw32ValueError(f"discard mask {discard:#x} is not within hand mask {hand:#x}")
    k = _popcount32(d)
    if k > 4:
        raise PokerDraw32ValueError(f"discard mask {discard:#x} has 5 cards; at most 4 may be discarded (R6.1)")
    x = _check_deck_mask(excluded, "excluded mask")
    u = ~(h | x)
    if _popcount32(u) < k:
        raise PokerDraw32ValueError(f"only {_popcount32(u)} unseen cards for a draw of {k}")
    kept[0] = h & ~d
    unseen[0] = u
    return k


cdef void _count_draws(uint32_t kept, int k, uint32_t unseen, uint32_t *count) noexcept nogil:
    """Add 1 to ``count[value index]`` for every set of ``k`` cards of ``unseen`` (0 <= k <= 4)."""
    cdef uint32_t bits[32]
    cdef uint32_t m1, m2, m3
    cdef int n = 0, a, b, c, e
    while unseen:
        bits[n] = unseen & (~unseen + 1U)
        n += 1
        unseen &= unseen - 1
    if k == 0:
        count[_index_of(kept)] += 1
    elif k == 1:
        for a in range(n):
            count[_index_of(kept | bits[a])] += 1
    elif k == 2:
        for a in range(n):
            m1 = kept | bits[a]
            for b in range(a + 1, n):
                count[_index_of(m1 | bits[b])] += 1
    elif k == 3:
        for a in range(n):
            m1 = kept | bits[a]
            for b in range(a + 1, n):
                m2 = m1 | bits[b]
                for c in range(b + 1, n):
                    count[_index_of(m2 | bits[c])] += 1
    else:
        for a in range(n):
            m1 = kept | bits[a]
            for b in range(a + 1, n):
                m2 = m1 | bits[b]
                for c in range(b + 1, n):
                    m3 = m2 | bits[c]
                    for e in range(c + 1, n):
                        count[_index_of(m3 | bits[e])] += 1


def draw_outcomes(hand, discard, excluded, bint suit_tiebreak=True):
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
    if not _ready():
        _build_tables()
    cdef uint32_t kept = 0, unseen = 0
    cdef uint32_t count[_NVALUES]
    cdef int k = _draw_args(hand, discard, excluded, &kept, &unseen)
    cdef Py_ssize_t i
    cdef dict counts = {}
    with nogil:
        memset(count, 0, sizeof(count))
        _count_draws(kept, k, unseen, count)
    for i in range(_NVALUES):
        if count[i]:
            if suit_tiebreak:
                counts[<object>_VALUE_OBJECTS[i]] = count[i]
            else:
                key = <object>_PLAIN_OBJECTS[i]
                counts[key] = counts.get(key, 0) + count[i]
    return _BINOM[k][_popcount32(unseen)], counts


def draw_summary(hand, discard, excluded, bint suit_tiebreak=True):
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
    if not _ready():
        _build_tables()
    cdef uint32_t kept = 0, unseen = 0
    cdef uint32_t count[_NVALUES]
    cdef uint64_t categories[9]
    cdef uint64_t score = 0
    cdef int k = _draw_args(hand, discard, excluded, &kept, &unseen)
    cdef Py_ssize_t i
    cdef uint32_t *scores = &_SCORE[0] if suit_tiebreak else &_PLAIN_SCORE[0]
    with nogil:
        memset(count, 0, sizeof(count))
        memset(categories, 0, sizeof(categories))
        _count_draws(kept, k, unseen, count)
        for i in range(_NVALUES):
            if count[i]:
                categories[_VALUES[i] >> 22] += count[i]
                score += <uint64_t>count[i] * scores[i]
    return _BINOM[k][_popcount32(unseen)], tuple([categories[i] for i in range(9)]), score


def strength_score(value, bint suit_tiebreak=True):
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
    if not _ready():
        _build_tables()
    cdef int overflow = 0
    cdef long long v
    cdef Py_ssize_t lo = 0, hi = _NVALUES, mid
    if not _is_int(value):
        raise PokerDraw32TypeError(f"value must be an int, not {type(value).__name__}")
    v = PyLong_AsLongLongAndOverflow(value, &overflow)
    if not overflow and 0 <= v < (1LL << 26) and (suit_tiebreak or v & 3 == 0):
        while lo < hi:                       # first index whose value is >= v
            mid = (lo + hi) >> 1
            if _VALUES[mid] < <uint32_t>v:
                lo = mid + 1
            else:
                hi = mid
        if lo < _NVALUES:
            if suit_tiebreak and _VALUES[lo] == <uint32_t>v:
                return _SCORE[lo]
            if not suit_tiebreak and (_VALUES[lo] & ~3U) == <uint32_t>v:
                return _PLAIN_SCORE[lo]
    raise PokerDraw32ValueError(f"{value} is not the value of a 5-card hand (suit_tiebreak {'on' if suit_tiebreak else 'off'})")
