# Kernel 3: pots (R9.1, R9.2, R9.4, R8.3)
#
# Part of pokerdraw32._core: src/_core.pyx includes this file (Cython `include`, textual),
# so it shares that module's imports, helpers and namespace; it is not compiled alone.

def split_pots(contributions, strengths, live, sharers, first, dead=0):
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
    cdef tuple contribs = _tuple_of(contributions, "contributions")
    cdef Py_ssize_t n = len(contribs)
    cdef Py_ssize_t seat, k, npots
    cdef long long chips[32]
    cdef long long ranks[32]
    cdef long long amounts[32]
    cdef uint32_t eligibles[32]
    cdef uint32_t winners[32]
    cdef bint shared[32]
    cdef long long won[32]
    cdef long long returned_top = 0, dead_chips
    cdef int top = 0, overflow = 0
    cdef uint32_t live_m, sharers_m
    cdef tuple power
    if n < 2 or n > 32:
        raise PokerDraw32ValueError(f"contributions must have 2 to 32 entries, got {n}")
    for seat in range(n):
        chips[seat] = _check_amount(contribs[seat], seat)
    power = _tuple_of(strengths, "strengths")
    if len(power) != n:
        raise PokerDraw32ValueError(f"strengths must have {n} entries (one per seat), got {len(power)}")
    live = _seat_mask(live, "live")
    if live == 0:
        raise PokerDraw32ValueError("live mask 0x0 names no seat")
    if live < 0 or live >> n:
        raise PokerDraw32ValueError(f"live mask {live:#x} names seats outside 0..{n - 1}")
    live_m = live
    for seat in range(n):
        if live_m >> seat & 1 and not _is_int(power[seat]):
            raise PokerDraw32TypeError(f"strength of seat {seat} must be an int, not {type(power[seat]).__name__}")
    power = tuple([_plain(power[seat]) if live_m >> seat & 1 else power[seat] for seat in range(n)])
    sharers = _seat_mask(sharers, "sharers")
    if sharers & ~live:
        raise PokerDraw32ValueError(f"sharers mask {sharers:#x} is not within live mask {live:#x}")
    sharers_m = sharers
    if not _is_int(first):
        raise PokerDraw32TypeError(f"first must be an int, not {type(first).__name__}")
    first = _plain(first)
    if first < 0 or first >= n:
        raise PokerDraw32ValueError(f"first seat {first} is outside 0..{n - 1}")
    dead_chips = _check_amount(dead, -1)
    # the live seats' strengths as C integers that compare as the ints do: the ints themselves when
    # they fit, else their ranks among the live strengths
    for seat in range(n):
        ranks[seat] = 0
        if live_m >> seat & 1:
            ranks[seat] = PyLong_AsLongLongAndOverflow(power[seat], &overflow)
            if overflow:
                break
    if overflow:
        order = sorted({power[seat] for seat in range(n) if live_m >> seat & 1})
        where = {value: i for i, value in enumerate(order)}
        for seat in range(n):
            ranks[seat] = where[power[seat]] if live_m >> seat & 1 else 0
    npots = split_pots_c(<int>n, chips, ranks, live_m, sharers_m, <int>first, dead_chips, &top, &returned_top,
                         won, amounts, eligibles, winners, shared)
    pots = [(amounts[k], eligibles[k], winners[k], shared[k]) for k in range(npots)]
    returned = [0] * n
    returned[top] = returned_top
    return returned, pots, [won[seat] for seat in range(n)]


cdef int split_pots_c(int n, long long *chips, const long long *strength, uint32_t live_m, uint32_t sharers_m,
                      int first_seat, long long dead_chips, int *top_out, long long *returned_top,
                      long long *won, long long *amounts, uint32_t *eligibles, uint32_t *winners_out,
                      bint *shared_out) noexcept nogil:
    """:func:`split_pots` on checked C arrays (declared in _core.pxd for the hand's core): ``chips``
    (changed: the uncalled part taken off), ``strength`` of the live seats (larger wins), seats
    ``0 .. n-1`` (2 to 32). Writes the seat given back its uncalled chips and how many, each seat's
    winnings, and per pot its amount, eligible seats, winners and whether it is shared by
    agreement; returns the number of pots (at most ``n``)."""
    cdef int seat, top, j, k, npots = 0, nlevels = 0, nwinners
    cdef long long levels[32]
    cdef long long second, level, below, amount, total, extra, share, odd, best = 0
    cdef uint32_t eligible, winners
    cdef bint shared, found

    # R9.2: the uncalled part of the largest contribution goes back.
    top = 0
    for seat in range(1, n):
        if chips[seat] > chips[top]:
            top = seat
    second = -1
    for seat in range(n):
        if seat != top and chips[seat] > second:
            second = chips[seat]
    top_out[0] = top
    returned_top[0] = 0
    if chips[top] > second:
        returned_top[0] = chips[top] - second
        chips[top] = second

    # R9.1: one pot per distinct live contribution (insertion sort of at most 32 levels).
    for seat in range(n):
        level = chips[seat]
        if live_m >> seat & 1 and level > 0:
            k = nlevels
            while k > 0 and levels[k - 1] > level:
                k -= 1
            if k > 0 and levels[k - 1] == level:
                continue
            for j in range(nlevels, k, -1):
                levels[j] = levels[j - 1]
            levels[k] = level
            nlevels += 1
    if nlevels == 0:
        total = dead_chips
        for seat in range(n):
            total += chips[seat]
        if total:
            amounts[0] = total
            eligibles[0] = live_m
            npots = 1
    else:
        below = 0
        for k in range(nlevels):
            level = levels[k]
            amount = 0
            eligible = 0
            for seat in range(n):
                if chips[seat] > below:
                    amount += (chips[seat] if chips[seat] < level else level) - below
                if live_m >> seat & 1 and chips[seat] >= level:
                    eligible |= 1U << seat
            amounts[k] = amount
            eligibles[k] = eligible
            below = level
        npots = nlevels
        extra = 0
        for seat in range(n):
            if chips[seat] > below:
                extra += chips[seat] - below
        amounts[npots - 1] += extra
        amounts[0] += dead_chips

    # R8.3, R9.4: award each pot.
    for seat in range(n):
        won[seat] = 0
    for k in range(npots):
        eligible = eligibles[k]
        shared = False
        if eligible & (eligible - 1) == 0:
            winners = eligible
        elif eligible & ~sharers_m == 0:
            winners = eligible
            shared = True
        else:
            found = False
            winners = 0
            for seat in range(n):
                if eligible >> seat & 1:
                    if not found or strength[seat] > best:
                        found = True
                        best = strength[seat]
                        winners = 1U << seat
                    elif strength[seat] == best:
                        winners |= 1U << seat
        nwinners = _popcount32(winners)
        share = amounts[k] // nwinners
        odd = amounts[k] % nwinners
        for seat in range(n):
            if winners >> seat & 1:
                won[seat] += share
        seat = first_seat
        while odd:
            if winners >> seat & 1:
                won[seat] += 1
                odd -= 1
            seat = seat + 1 if seat + 1 < n else 0
        winners_out[k] = winners
        shared_out[k] = shared
    return npots
