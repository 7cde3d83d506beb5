# Kernel 6: Monte Carlo equity against opponents who draw by a policy (R6.1, R6.2, R2, R9.4, R11)
#
# Part of pokerdraw32._core: src/_core.pyx includes this file (Cython `include`, textual),
# so it shares that module's imports, helpers and namespace; it is not compiled alone.

__all__ += ["equity_trials", "rule_discard"]

cdef uint32_t _STRAIGHT_RANK_SETS[5]  # rank bits of the five straights (R2.2)
_STRAIGHT_RANK_SETS[:] = [0xF8, 0x7C, 0x3E, 0x1F, 0x8F]
cdef uint64_t _MAX_TRIALS = 1ULL << 40
cdef uint8_t _BELOW_SHIFT[33]         # n -> 64 - bit length of n - 1 (2 <= n <= 32)


cdef void _init_below_shift() noexcept nogil:
    cdef int n
    _BELOW_SHIFT[0] = _BELOW_SHIFT[1] = 64
    for n in range(2, 33):
        _BELOW_SHIFT[n] = <uint8_t>(64 - _bit_length64(<uint64_t>(n - 1)))


_init_below_shift()


cdef inline uint32_t _below32(uint64_t *s, uint32_t n) noexcept nogil:
    """``Rng.below(n)`` of the generator state ``s``, 1 <= n <= 32 (below(1) draws nothing)."""
    cdef uint64_t r
    cdef int shift
    if n <= 1:
        return 0
    shift = _BELOW_SHIFT[n]
    while True:
        r = _xoshiro_next(s) >> shift
        if r < n:
            return <uint32_t>r


cdef uint32_t _rule(uint32_t mask) noexcept nogil:
    """:func:`rule_discard` of a valid 5-card mask (no checks)."""
    cdef uint32_t category = _lookup(mask) >> 22
    cdef uint32_t d = 0, nibble, same, rank_bits = 0, rest
    cdef int shift, suit, rank, i
    if category >= 4:                    # straight or better: stand pat
        return 0
    if category >= 1:                    # pairs, trips: throw the unmatched cards
        for shift in range(0, 32, 4):
            nibble = (mask >> shift) & 15
            if nibble != 0 and (nibble & (nibble - 1)) == 0:
                d |= nibble << shift
        return d
    for suit in range(4):
        same = mask & (_SPADES << suit)
        if _popcount32(same) == 4:       # four to a flush: throw the odd card
            return mask & ~same
    for rank in range(8):
        if (mask >> (rank << 2)) & 15:
            rank_bits |= 1U << rank
    for rank in range(7, -1, -1):        # highest card first: four to a straight
        if (rank_bits >> rank) & 1:
            rest = rank_bits & ~(1U << rank)
            for i in range(5):
                if (rest & ~_STRAIGHT_RANK_SETS[i]) == 0:
                    return mask & (15U << (rank << 2))
    return mask & ~(1U << (_bit_length64(mask) - 1))   # keep the highest card, draw four


cdef uint32_t _random_pick(uint32_t held, uint64_t *s) noexcept nogil:
    """The ``random`` policy: ``below(5)`` cards, picked by a partial Fisher-Yates shuffle."""
    cdef uint8_t cards[5]
    cdef uint8_t tmp
    cdef int i = 0, size, r
    cdef uint32_t thrown = 0, m = held
    while m:
        cards[i] = <uint8_t>_ctz32(m)
        i += 1
        m &= m - 1
    size = <int>_below32(s, 5)
    for i in range(size):
        r = i + <int>_below32(s, <uint32_t>(5 - i))
        tmp = cards[i]
        cards[i] = cards[r]
        cards[r] = tmp
        thrown |= 1U << cards[i]
    return thrown


cdef void _equity_loop(uint64_t *master, uint64_t trials, uint32_t hand, uint32_t discard, uint32_t unseen,
                       int opponents, int folded, bint reshuffle_folded, int policy, int position,
                       uint32_t keep, uint64_t *counts) noexcept nogil:
    """The trials of :func:`equity_trials` (arguments checked); adds to ``counts[0..5]``."""
    cdef uint8_t start[32]
    cdef uint8_t stub[32]
    cdef uint32_t holdings[4]
    cdef int drawers[5]
    cdef int nstart = 0, n, i, j, seat, who, ways
    cdef uint32_t pile, held, thrown, hero, hero_value, best, value, m, r
    cdef uint64_t s[4]
    cdef uint64_t x, trial
    m = unseen
    while m:
        start[nstart] = <uint8_t>_ctz32(m)
        nstart += 1
        m &= m - 1
    for seat in range(opponents + 1):    # draw order: -1 is the hero, 0.. the opponents in turn
        drawers[seat] = -1 if seat == position else (seat if seat < position else seat - 1)
    for trial in range(trials):
        x = _xoshiro_next(master)        # Rng(x): the state is the next four SplitMix64 outputs
        s[0] = _splitmix64(&x)
        s[1] = _splitmix64(&x)
        s[2] = _splitmix64(&x)
        s[3] = _splitmix64(&x)
        memcpy(stub, start, nstart)
        n = nstart
        pile = 0
        for i in range(opponents + folded):
            held = 0
            for j in range(5):
                r = _below32(s, <uint32_t>n)
                n -= 1
                held |= 1U << stub[r]
                stub[r] = stub[n]
            if i < opponents:
                holdings[i] = held
            elif reshuffle_folded:
                pile |= held
        hero = hand
        for seat in range(opponents + 1):
            who = drawers[seat]
            if who < 0:
                held = hero
                thrown = discard
            else:
                held = holdings[who]
                if policy == 1:
                    thrown = _rule(held)
                elif policy == 0:
                    thrown = 0
                else:
                    thrown = _random_pick(held, s)
            if thrown:
                held &= ~thrown
                for j in range(_popcount32(thrown)):
                    if n == 0:           # R6.2: the stub is exhausted; the discard pile becomes the stub
                        m = pile
                        while m:
                            stub[n] = <uint8_t>_ctz32(m)
                            n += 1
                            m &= m - 1
                        pile = 0
                        if n == 0:       # cannot happen: the arguments were checked
                            break
                    r = _below32(s, <uint32_t>n)
                    n -= 1
                    held |= 1U << stub[r]
                    stub[r] = stub[n]
                pile |= thrown           # the player's discards join the pile only after they are served (R6.2)
            if who < 0:
                hero = held
            else:
                holdings[who] = held
        hero_value = _lookup(hero) & keep
        best = 0
        ways = 0
        for i in range(opponents):
            value = _lookup(holdings[i]) & keep
            if ways == 0 or value > best:
                best = value
                ways = 1
            elif value == best:
                ways += 1
        if hero_value > best:
            counts[1] += 1
        elif hero_value == best:
            counts[ways + 1] += 1
        else:
            counts[0] += 1


def rule_discard(hand):
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
    if not _ready():
        _build_tables()
    cdef uint32_t h = _check_deck_mask(hand, "hand mask")
    cdef int n = _popcount32(h)
    if n != 5:
        raise PokerDraw32ValueError(f"hand mask {hand:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    return _rule(h)


def equity_trials(rng, trials, hand, discard, excluded, opponents, policy, position, folded=0,
                  bint reshuffle_folded=False, bint suit_tiebreak=True):
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
    if not _ready():
        _build_tables()
    cdef uint32_t kept = 0, unseen = 0, h
    cdef int k, n_unseen, dealt, available, need
    cdef uint64_t counts[6]
    cdef uint64_t s[4]
    cdef uint64_t ntrials
    cdef int n_opponents, n_folded, policy_code, seat
    cdef uint32_t keep = 0xFFFFFFFFU if suit_tiebreak else ~3U
    cdef Rng gen
    if not isinstance(rng, Rng):
        raise PokerDraw32TypeError(f"rng must be an Rng, not {type(rng).__name__}")
    if not _is_int(trials):
        raise PokerDraw32TypeError(f"trials must be an int, not {type(trials).__name__}")
    trials = _plain(trials)
    if trials < 0 or trials > _MAX_TRIALS:
        raise PokerDraw32ValueError(f"trials must be in 0 <= trials <= 2**40, got {trials}")
    k = _draw_args(hand, discard, excluded, &kept, &unseen)
    h = <uint32_t>hand
    for name, value in (("opponents", opponents), ("policy", policy), ("position", position), ("folded", folded)):
        if not _is_int(value):
            raise PokerDraw32TypeError(f"{name} must be an int, not {type(value).__name__}")
    opponents, policy, position, folded = _plain(opponents), _plain(policy), _plain(position), _plain(folded)
    if opponents < 1 or opponents > 4:
        raise PokerDraw32ValueError(f"opponents must be 1 to 4 (2 to 5 players, R3.1), got {opponents}")
    if policy < 0 or policy > 2:
        raise PokerDraw32ValueError(f"policy must be 0 (pat), 1 (rule) or 2 (random), got {policy}")
    if position < 0 or position > opponents:
        raise PokerDraw32ValueError(f"position must be 0 to {opponents} (the hero's place in the draw order), got {position}")
    if folded < 0 or 1 + opponents + folded > 5:
        raise PokerDraw32ValueError(f"{1 + opponents} players and {folded} folded: 2 to 5 players are dealt in (R3.1)")
    n_opponents = opponents
    n_folded = folded
    policy_code = policy
    seat = position
    n_unseen = _popcount32(unseen)
    dealt = 5 * (n_opponents + n_folded)
    if n_unseen < dealt:
        raise PokerDraw32ValueError(f"only {n_unseen} unseen cards, too few to deal {n_opponents + n_folded} hands of 5")
    available = n_unseen - dealt + (5 * n_folded if reshuffle_folded else 0)
    need = k if policy_code == 0 else 4
    if available < need:
        raise PokerDraw32ValueError(f"only {available} cards for the draw, too few for a draw of {need} (R6.2)")
    ntrials = trials
    gen = <Rng>rng
    memset(counts, 0, sizeof(counts))
    s[0], s[1], s[2], s[3] = gen._s[0], gen._s[1], gen._s[2], gen._s[3]
    with nogil:
        _equity_loop(s, ntrials, h, h & ~kept, unseen, n_opponents, n_folded, reshuffle_folded, policy_code, seat,
                     keep, counts)
    gen._s[0], gen._s[1], gen._s[2], gen._s[3] = s[0], s[1], s[2], s[3]
    return counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
