"""The research encoding of a hand: a fixed discrete action space with its legal-action mask, and a
fixed-size float32 observation of what one seat may know (issue 12).

Written in Cython's pure-Python mode, as :mod:`pokerdraw32._handcore.play`: ``_handcore/encode.py`` with the
declarations of ``_handcore/encode.pxd``, compiled by setup.py as ``pokerdraw32._handcore.encode_c``, or this very
file as plain Python; :mod:`pokerdraw32._kernels` picks one (``_kernels.encode``), together with the
hand's core, whose C fields it reads directly.  No numpy: the functions write into any writable
buffer (``float[:]`` / ``unsigned char[:]`` typed memoryviews when compiled, so a numpy array, an
``array.array`` or a ``memoryview``; item assignment in plain Python, so a list works there too),
with no Python object in their loops.  :mod:`pokerdraw32.env` (PettingZoo, Gymnasium) is built on it;
its :class:`~pokerdraw32.env.Encoding` also reads a bot's :class:`~pokerdraw32.bots.SeatView`, through
a hand's core filled from the view (:func:`view_core`), so the functions below are the one statement
of the encoding for both.

**Actions** (``ACTIONS = 35 + B`` indices; ``B`` = number of bet/raise buckets, default 4):

======================  ==============================================================
index                   action
======================  ==============================================================
0 ``FOLD``              fold (R5.2)
1 ``CHECK_CALL``        check when nothing is owed, else call (all-in for less, R4.5)
2 ``SPLIT``             Parole: split, the accepting answer to the offer (R8.1, R8.2)
3 ``DECLINE``           Parole: decline, an all-in player's refusal (R8.2)
4 .. 4+B-1 ``BET0``     bet or raise, bucket ``b``: raise to ``to_match + f * (pot +
                        call)`` chips, rounded down, for the bucket's pot fraction ``f``
                        (``0``: the minimum bet or raise, ``< 0``: the maximum, all-in
                        unless the limit stops lower), clipped to the legal bounds
                        ``[min_to, max_to]`` (R3.4, R3.5, R7.2); a bucket that gives the
                        amount of an earlier bucket is masked (fixed-limit: only bucket 0)
4+B .. 4+B+30           discard: index ``4 + B + m``, ``m`` (0-30) the bit mask of the
``DISCARD0``            positions of the thrown cards in the seat's hole cards sorted by
                        card code (``4*rank + suit``, lowest first); ``m = 0`` stands pat
                        (R6.1: 0 to 4 cards, never all five)
======================  ==============================================================

The default buckets (:data:`DEFAULT_BUCKETS`) are ``(0.0, 0.5, 1.0, -1.0)``: the minimum, half
the pot, the pot, all-in.  The timeout (R6.3, R7.3) and the withdrawal of a raise (R7.3) are a
server's, not a player's, and have no index.

**Observation of seat s** (``OBS_SIZE = 171`` float32 values, none negative; chip amounts are
divided by ``scale``, the starting stack the caller passes, so at a table of equal stacks ``scale``
each is at most ``players``, but for the bet to match in round one, the largest blind, owed in full
even by short stacks, R4.5):

=========================  =====  ===========================================================
offset                     size   what
=========================  =====  ===========================================================
``OBS_CARDS`` 0            32     the seat's own hole cards, one 1.0 per card code (0-31)
``OBS_PHASE`` 32           5      phase one-hot: deal, first round, draw, second round, complete
``OBS_POSITION`` 37        5      ``(s - button) mod players`` one-hot (0: the button)
``OBS_PLAYERS`` 42         4      players dealt in, one-hot for 2, 3, 4, 5
``OBS_STRUCTURE`` 46       3      no-limit, pot-limit, fixed-limit one-hot
``OBS_POT`` 49             1      pot, current bets included (0 once complete) / scale
``OBS_TO_MATCH`` 50        1      the bet to match in the round / scale
``OBS_CALL`` 51            1      chips the seat must call, on its turn, else 0 / scale
``OBS_MIN_TO`` 52          1      smallest bet or raise-to, on its turn when legal, else 0 / scale
``OBS_MAX_TO`` 53          1      largest bet or raise-to, likewise / scale
``OBS_BET_COUNT`` 54       1      bets and raises in the round (the blind counts in round one),
                                  at most 4, / 4 (R3.4 cap)
``OBS_PAROLE`` 55          1      a Parole offer is open (R8.1)
``OBS_SEATS`` 56           5x23   one block a seat, relative: block ``k`` is seat
                                  ``(s + k) mod players`` (block 0 the seat itself), blocks
                                  ``k >= players`` all zero
=========================  =====  ===========================================================

A seat's block (``SEAT_FEATURES = 23``; offsets ``SEAT_*`` within it): 0 dealt in, 1 in the hand
(not folded), 2 folded, 3 all-in (in the hand, no chips behind, hand not complete), 4 to act, 5 the
button, 6 stack / scale, 7 bet in the round / scale, 8 chips put in the pot this hand / scale,
9-13 cards drawn one-hot 0-4 (all zero until the seat has drawn, R6.1: public then), 14 chose
Parole split in the open offer, 15-21 its last action in the current betting round one-hot (fold,
check, call, bet, raise, split, decline; all zero: none yet; blinds are not actions, their chips
are in the bet), 22 that action's amount / scale (a call: chips called; a bet or raise: the
raise-to level; else 0).

Nothing else is read: never another seat's cards, the stub, the discard pile or the muck (the
tests check that two hands differing only there give the same observation).  The full
information a seat has is :meth:`pokerdraw32.hand.Hand.view` (JSON) or
:class:`pokerdraw32.bots.SeatView` (with its event log).
"""

if __name__ == "pokerdraw32._handcore.encode_c":   # compiled (setup.py); see _handcore/state.py
    import cython
else:
    from . import cython_shim as cython

import operator

from ..errors import IllegalActionError, PokerDraw32TypeError, PokerDraw32ValueError

if not cython.compiled:   # compiled, these are C enums of _handcore/codes.pxd (same values), HandCore cimported
    from .codes import (
        A_BET,
        A_CALL,
        A_CHECK,
        A_DECLINE,
        A_DISCARD,
        A_FOLD,
        A_RAISE,
        A_SPLIT,
        E_BET,
        E_CALL,
        E_DECLINE,
        E_FOLD,
        E_RAISE,
        E_ROUND_END,
        PH_COMPLETE,
        PH_DRAW,
        PH_FIRST,
        PH_SECOND,
        rules_in_c,
    )
    from .state import HandCore

if not cython.compiled:   # compiled, cpdef enums of _handcore/encode.pxd (same values)
    FOLD, CHECK_CALL, SPLIT, DECLINE, BET0 = 0, 1, 2, 3, 4
    DISCARDS = 31
    MAX_BUCKETS = 16
    OBS_CARDS, OBS_PHASE, OBS_POSITION, OBS_PLAYERS, OBS_STRUCTURE = 0, 32, 37, 42, 46
    OBS_POT, OBS_TO_MATCH, OBS_CALL, OBS_MIN_TO, OBS_MAX_TO, OBS_BET_COUNT, OBS_PAROLE = 49, 50, 51, 52, 53, 54, 55
    OBS_SEATS = 56
    SEAT_FEATURES = 23
    OBS_SIZE = 171
    (SEAT_PRESENT, SEAT_IN_HAND, SEAT_FOLDED, SEAT_ALL_IN, SEAT_TO_ACT, SEAT_BUTTON, SEAT_STACK, SEAT_BET,
     SEAT_CONTRIB, SEAT_DRAWN, SEAT_SPLIT, SEAT_LAST, SEAT_LAST_AMOUNT) = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 22

DEFAULT_BUCKETS = (0.0, 0.5, 1.0, -1.0)
"""The default bet/raise buckets as pot fractions: minimum (0), half pot, pot, all-in (< 0)."""

_LAST_KINDS = ("fold", "check", "call", "bet", "raise", "split", "decline")


def action_count(buckets):
    """The size of the action space with ``buckets`` bet/raise buckets: ``35 + len(buckets)``."""
    return BET0 + len(buckets) + DISCARDS


# -- the observation ---------------------------------------------------------------------------

def observe(h, seat, out, scale):
    """Write the observation of ``seat`` in hand ``h`` into ``out`` (at least :data:`OBS_SIZE`
    float32 entries; the first ``OBS_SIZE`` are all written), chips divided by ``scale``.

    :returns: 0.
    :raises PokerDraw32ValueError: no such seat, ``out`` too small or ``scale`` not positive.
    """
    _check_hand(h)
    n = h._n
    if type(seat) is not int or not 0 <= seat < n:
        raise PokerDraw32ValueError(f"no seat {seat!r} in this hand (seats 0..{n - 1})")
    if len(out) < OBS_SIZE:
        raise PokerDraw32ValueError(f"the observation buffer holds {len(out)} values; it needs {OBS_SIZE}")
    if not scale > 0:
        raise PokerDraw32ValueError(f"scale={scale} must be a positive number of chips")
    return _observe(h, seat, out, scale)


@cython.boundscheck(False)   # the public functions check the buffers' sizes first
@cython.wraparound(False)
def _observe(h, seat, out, scale):
    """:func:`observe` with its arguments checked: no Python object (a compiled loop over many
    tables calls it without the GIL)."""
    n = h._n
    for i in range(OBS_SIZE):
        out[i] = 0.0
    for j in range(h._hole_n[seat]):
        out[OBS_CARDS + h._hole[5 * seat + j]] = 1.0
    phase = h._phase
    out[OBS_PHASE + phase] = 1.0
    out[OBS_POSITION + (seat - h._button + n) % n] = 1.0
    out[OBS_PLAYERS + n - 2] = 1.0
    out[OBS_STRUCTURE + h._structure] = 1.0
    complete = phase == PH_COMPLETE
    if not complete:
        out[OBS_POT] = h._pot() / scale
        out[OBS_TO_MATCH] = h._to_match / scale
        out[OBS_BET_COUNT] = min(h._bet_count, 4) / 4.0
    actor = h._actor if h._pend_seat < 0 and not complete else -1
    if actor == seat and phase != PH_DRAW:
        kinds = h._kinds(seat)                       # sets _call, and _lo/_hi with BET or RAISE
        out[OBS_CALL] = h._call / scale
        if kinds & (1 << A_BET | 1 << A_RAISE):
            out[OBS_MIN_TO] = h._lo / scale
            out[OBS_MAX_TO] = h._hi / scale
    if h._offer_open:
        out[OBS_PAROLE] = 1.0
    for k in range(n):
        s = (seat + k) % n
        base = OBS_SEATS + SEAT_FEATURES * k
        out[base + SEAT_PRESENT] = 1.0
        if h._folded[s]:
            out[base + SEAT_FOLDED] = 1.0
        else:
            out[base + SEAT_IN_HAND] = 1.0
            if h._stacks[s] == 0 and not complete:
                out[base + SEAT_ALL_IN] = 1.0
        if s == actor:
            out[base + SEAT_TO_ACT] = 1.0
        if s == h._button:
            out[base + SEAT_BUTTON] = 1.0
        out[base + SEAT_STACK] = h._stacks[s] / scale
        out[base + SEAT_BET] = h._bets[s] / scale
        out[base + SEAT_CONTRIB] = h._contrib[s] / scale
        if h._discarded[s] >= 0:
            out[base + SEAT_DRAWN + h._discarded[s]] = 1.0
        if h._offer_open and h._votes >> s & 1:
            out[base + SEAT_SPLIT] = 1.0
    # the current betting round's actions: the log read back to the last end of a round; the first
    # record met for a seat is its last action (cards of private records are never read)
    seen = 0
    i = h._nrec - 2
    while i >= 0:
        first = h._rec[i]
        kind = first & 31
        if kind == E_ROUND_END:
            break
        if E_FOLD <= kind <= E_DECLINE:                # FOLD, CHECK, CALL, BET, RAISE, SPLIT, DECLINE
            s = (first >> 5 & 7) - 1
            if 0 <= s < n and not seen >> s & 1:
                seen |= 1 << s
                base = OBS_SEATS + SEAT_FEATURES * ((s - seat + n) % n)
                out[base + SEAT_LAST + kind - E_FOLD] = 1.0
                if kind == E_CALL or kind == E_BET or kind == E_RAISE:
                    out[base + SEAT_LAST_AMOUNT] = (h._rec[i + 1] - 1) / scale
        i -= 2
    return 0


# -- a seat's view as a hand's core ------------------------------------------------------------

def view_core(seat, n, button, rules, phase, actor, hole, stacks, bets, contrib, dead, folded, discarded,
              offer_open, votes, to_match, bet_count, actions, kinds, call, lo, hi):
    """A hand's core holding what the functions of this module read, filled from what seat ``seat``
    may know (:class:`pokerdraw32.bots.SeatView`; :mod:`pokerdraw32.env.encoding` derives the values
    from the view and its public log), so that :func:`observe` of ``seat``, :func:`action_mask` and
    :func:`decode_action` give for the view exactly what they give for the hand at that decision:
    one statement of the encoding for both sources.  The core only answers those reads; it is not a
    hand to play (no other seat's cards, no stub, no betting history).

    :param seat: the view's seat; ``hole`` its cards (codes, in the order held).
    :param n: seats dealt in; ``button``, ``phase`` (0-4) and ``actor`` (the seat to act, -1 none)
        as the hand's; ``rules`` the table's :class:`~pokerdraw32.rules.Rules` (its structure).
    :param stacks: with ``bets``, ``contrib`` (chips put in the pot this hand), ``folded`` and
        ``discarded`` (-1 before the draw): one value a seat.  ``dead``: the dead chips (R10.3).
    :param offer_open: a Parole offer is open; ``votes`` the bit mask of the seats that chose split.
    :param to_match: the bet to match and ``bet_count`` the bets and raises of the round (R3.4).
    :param actions: the players' actions of the current betting round, in order: a flat sequence of
        ``(record kind, seat, amount + 1 or 0)`` triples (the log's records, :mod:`pokerdraw32._handcore.events`).
    :param kinds: the kinds bit mask (``1 << action code``) of ``seat`` when it is to act, with
        ``call``, ``lo`` and ``hi`` its call and bet/raise bounds (0 when none): they stand as the
        core's worked-out answer for this decision point (what ``HandCore._kinds`` caches).
    :returns: the core.
    """
    h = HandCore.__new__(HandCore)
    h._alloc()
    h._n = n
    h._button = button
    h._structure = rules_in_c(rules)[0]
    h._phase = phase
    h._actor = actor
    h._pend_seat = -1
    h._hole_n[seat] = len(hole)
    for j in range(len(hole)):
        h._hole[5 * seat + j] = hole[j]
    for i in range(n):
        h._stacks[i] = stacks[i]
        h._bets[i] = bets[i]
        h._contrib[i] = contrib[i]
        h._folded[i] = folded[i]
        h._discarded[i] = discarded[i]
    h._dead = dead
    h._offer_open = offer_open
    h._votes = votes
    h._to_match = to_match
    h._bet_count = bet_count
    for k in range(0, len(actions), 3):
        h._log(actions[k], actions[k + 1], 0, actions[k + 2])
    h._kinds_mask = kinds
    h._kinds_key = h._nrec
    h._call = call
    h._lo = lo
    h._hi = hi
    return h


# -- the actions ---------------------------------------------------------------------------------

def _bucket_to(h, fraction):
    """The raise-to amount of a bucket for the player to act (after ``_kinds``: ``_lo``/``_hi``
    and ``_call`` are set), clipped to ``[_lo, _hi]``."""
    if fraction < 0:
        return h._hi
    if fraction == 0:
        return h._lo
    if cython.compiled:
        by = cython.cast(cython.longlong, fraction * (h._pot() + h._call))
    else:
        by = int(fraction * (h._pot() + h._call))   # truncated, as the C cast (fraction > 0)
    target = h._to_match + by
    if target < h._lo:
        return h._lo
    if target > h._hi:
        return h._hi
    return target


@cython.boundscheck(False)   # the public functions check the buffers' sizes first
@cython.wraparound(False)
def _bucket_legal(h, buckets, b):
    """Bucket ``b`` gives an amount no earlier bucket gives (BET or RAISE legal)."""
    amount = _bucket_to(h, buckets[b])
    for j in range(b):   # a C loop, not all() over a generator
        if _bucket_to(h, buckets[j]) == amount:
            return False
    return True


def _check_hand(h):
    """A hand, not None (compiled, a typed argument lets None through)."""
    if h is None:
        raise PokerDraw32TypeError("the encoding needs a hand, not None")
    return 0


def _check_buckets(buckets):
    nb = len(buckets)
    if not 1 <= nb <= MAX_BUCKETS:
        raise PokerDraw32ValueError(f"{nb} bet/raise buckets: use 1 to {MAX_BUCKETS}")
    for b in range(nb):
        if not buckets[b] <= 1000.0:   # NaN too
            raise PokerDraw32ValueError(f"bucket {b}: pot fraction {buckets[b]} must be a number, at most 1000")
    return nb


def bucket_view(buckets):
    """The bet/raise buckets (pot fractions: a float64 buffer such as a numpy array or an
    ``array('d')``) checked and as the functions here take them at the least cost: compiled, a
    typed memoryview, which they take without asking the buffer again (a numpy array costs a
    buffer request a call); plain Python, ``buckets`` itself.

    :raises PokerDraw32ValueError: not 1 to 16 buckets, or a fraction above 1000 or NaN.
    """
    _check_buckets(buckets)
    return buckets


def action_mask(h, out, buckets):
    """Write the legal-action mask of the player to act in ``h`` into ``out`` (at least
    ``action_count(buckets)`` uint8 entries, 1 legal, 0 not; those are all written).

    :param buckets: the bet/raise buckets' pot fractions (float64 values; ``0`` the minimum,
        ``< 0`` the maximum).
    :returns: the number of legal actions; 0 (an all-zero mask) when nobody is to act (hand
        complete).
    :raises PokerDraw32ValueError: ``out`` too small, or not 1 to 16 buckets.
    """
    _check_hand(h)
    nb = _check_buckets(buckets)
    size = BET0 + nb + DISCARDS
    if len(out) < size:
        raise PokerDraw32ValueError(f"the mask buffer holds {len(out)} values; it needs {size}")
    return _fill_mask(h, out, buckets, nb)


@cython.boundscheck(False)   # the public functions check the buffers' sizes first
@cython.wraparound(False)
def _fill_mask(h, out, buckets, nb):
    """:func:`action_mask` with its arguments checked (``nb`` buckets): no Python object."""
    size = BET0 + nb + DISCARDS
    bits = _legal_bits(h, buckets, nb)
    count = 0
    for i in range(size):
        legal = bits >> i & 1
        out[i] = legal
        count += legal
    return count


@cython.boundscheck(False)   # the public functions check the buckets first
@cython.wraparound(False)
def _legal_bits(h, buckets, nb):
    """The legal-action mask of the player to act as bits (bit ``i``: index ``i``; ``35 + nb`` of
    them, fewer than 64), 0 when nobody is to act: no Python object."""
    p = h._actor
    if p < 0 or h._pend_seat >= 0 or h._phase == PH_COMPLETE:
        return 0
    kinds = h._kinds(p)
    one = 1
    bits = 0
    if h._phase == PH_DRAW:
        full = (1 << h._hole_n[p]) - 1
        for m in range(DISCARDS):
            if m & full == m and m != 31:
                bits |= one << (BET0 + nb + m)
        return bits
    if kinds >> A_FOLD & 1:
        bits |= one << FOLD
    if kinds & (1 << A_CHECK | 1 << A_CALL):
        bits |= one << CHECK_CALL
    if kinds >> A_SPLIT & 1:
        bits |= one << SPLIT
    if kinds >> A_DECLINE & 1:
        bits |= one << DECLINE
    if kinds & (1 << A_BET | 1 << A_RAISE):
        for b in range(nb):
            if _bucket_legal(h, buckets, b):
                bits |= one << (BET0 + b)
    return bits


def _discard_word(h, p, m):
    """The card word (count, then 6 bits a card) of the cards at the positions of bit mask ``m``
    in seat ``p``'s hole cards sorted by code; -1 when ``m`` names a position it does not hold."""
    held = 0
    for j in range(h._hole_n[p]):
        held |= 1 << h._hole[5 * p + j]
    k = 0
    pos = 0
    w = 0
    for c in range(32):
        if held >> c & 1:
            if m >> pos & 1:
                w |= c << (3 + 6 * k)
                k += 1
            pos += 1
    if m >> pos:
        return -1
    return w | k


def decode_action(h, index, buckets):
    """The decision of action ``index`` for the player to act in ``h``, packed as the built-in
    policies' (:mod:`pokerdraw32._handcore.play`): ``code | amount << 8``, the amount the raise-to level of
    a bet or raise, or the card word of a discard (count in bits 0-2, then 6 bits a card).

    :returns: the decision, or -1 when ``index`` is not in the legal-action mask (nobody to act,
        out of range, a kind not legal now, a bucket that repeats an earlier bucket's amount).
    :raises PokerDraw32ValueError: not 1 to 16 buckets.
    """
    _check_hand(h)
    nb = _check_buckets(buckets)
    if isinstance(index, bool):
        return -1
    try:
        given = operator.index(index)                       # an int or a numpy integer; not a float
    except TypeError:
        return -1
    if not 0 <= given < BET0 + nb + DISCARDS:
        return -1
    number = given
    return _decode(h, number, buckets, nb)


@cython.boundscheck(False)   # the public functions check the buffers' sizes first
@cython.wraparound(False)
def _decode(h, index, buckets, nb):
    """:func:`decode_action` with ``nb`` checked buckets: no Python object."""
    p = h._actor
    if p < 0 or h._pend_seat >= 0 or h._phase == PH_COMPLETE or not 0 <= index < BET0 + nb + DISCARDS:
        return -1
    kinds = h._kinds(p)
    if index >= BET0 + nb:
        if not kinds >> A_DISCARD & 1:
            return -1
        m = index - BET0 - nb
        w = _discard_word(h, p, m)
        if w < 0 or (w & 7) > 4:
            return -1
        return A_DISCARD | w << 8
    if index >= BET0:
        if not kinds & (1 << A_BET | 1 << A_RAISE) or not _bucket_legal(h, buckets, index - BET0):
            return -1
        code = A_BET if kinds >> A_BET & 1 else A_RAISE
        return code | _bucket_to(h, buckets[index - BET0]) << 8
    if index == CHECK_CALL:
        if kinds >> A_CHECK & 1:
            return A_CHECK
        return A_CALL if kinds >> A_CALL & 1 else -1
    code = A_FOLD if index == FOLD else A_SPLIT if index == SPLIT else A_DECLINE
    return code if kinds >> code & 1 else -1


def apply_action(h, index, buckets):
    """Apply action ``index`` for the player to act in ``h`` (the hand's own legality check and
    state change, as every action).

    :returns: the decision applied (see :func:`decode_action`), or -1, the hand unchanged, when
        ``index`` is not in the legal-action mask (:func:`action_error` says why).
    :raises PokerDraw32ValueError: not 1 to 16 buckets.
    """
    decision = decode_action(h, index, buckets)
    if decision < 0:
        return -1
    p = h._actor
    code = decision & 255
    amount = 0   # a C i64 when compiled (_apply takes one); read only for BET and RAISE
    cards = 0
    if code == A_DISCARD:
        cards = decision >> 8
    elif code == A_BET or code == A_RAISE:
        amount = decision >> 8
    if not h._allowed(p, code, amount, cards):     # never: the mask is the hand's legality
        raise AssertionError(f"action index {index} decoded to {decision:#x}, which the hand refuses")
    h._apply(p, code, amount, cards)
    return decision


# -- card by card: the nodes of the OpenSpiel game (pokerdraw32.openspiel) ----------------------
# A hand with auto_deal=False whose deals are made one card at a time, each card a chance node; the
# cards drawn so far in the pending deal are a card word (count in bits 0-2, then 6 bits a card).

if not cython.compiled:   # compiled, cpdef enums of _handcore/encode.pxd (same values)
    SPIEL_CHANCE = -1      # pyspiel.PlayerId.CHANCE
    SPIEL_TERMINAL = -4    # pyspiel.PlayerId.TERMINAL


def spiel_player(h):
    """The OpenSpiel player of ``h``: :data:`SPIEL_TERMINAL` (-4) once the hand is complete,
    :data:`SPIEL_CHANCE` (-1) while a deal is pending, else the seat to act."""
    _check_hand(h)
    if h._phase == PH_COMPLETE:
        return SPIEL_TERMINAL
    if h._pend_seat >= 0:
        return SPIEL_CHANCE
    return h._actor


def _dealable(h, dealing):
    """The cards the next card of the pending deal may be, as a card mask (0: no deal pending),
    ``dealing`` the card word of the deal's cards drawn so far: the stub's cards (R5.1, R6.2),
    or, once the stub is used up in this deal, the discard pile without the receiver's own cards
    and discards (R6.2); never a card drawn already."""
    seat = h._pend_seat
    if seat < 0:
        return 0
    one = 1
    k = dealing & 7
    taken = 0
    for j in range(k):
        taken |= one << (dealing >> (3 + 6 * j) & 63)
    mask = 0
    if h._pend_hole or k < min(h._pend_count, h._stub_n):
        for i in range(h._stub_n):
            mask |= one << h._stub[i]
    else:
        for i in range(h._pile_n):
            mask |= one << h._pile[i]
        for j in range(h._hole_n[seat]):
            mask &= ~(one << h._hole[5 * seat + j])
        for j in range(h._own_n):
            mask &= ~(one << h._own[j])
    return mask & ~taken


def deal_outcomes(h, dealing, table):
    """The chance outcomes of the next card of the pending deal (``dealing``: the card word of its
    cards drawn so far): ``[(code, 1 / count)]``, codes ascending, each pair taken from ``table``
    (``table[count][code]`` is ``(code, 1.0 / count)``, made once by the caller).

    :raises PokerDraw32ValueError: no deal is pending (not a chance node).
    """
    _check_hand(h)
    mask = _dealable(h, dealing)
    if mask == 0:
        raise PokerDraw32ValueError("not a chance node: no deal is pending")
    count = 0
    for c in range(32):
        count += mask >> c & 1
    row = table[count]
    return [row[c] for c in range(32) if mask >> c & 1]


def deal_card(h, dealing, code):
    """Draw card ``code`` as the next card of the pending deal (``dealing``: the card word of its
    cards drawn so far).  The deal's last card makes the deal in the hand (the checks and effects
    of :meth:`pokerdraw32.hand.Hand.deal` with these cards in this order, R5.1, R6.2), and the
    hand moves on.

    :returns: the new card word; 0 once the deal is made; -1 (nothing changed) when ``code`` may
        not come now or no deal is pending.
    """
    _check_hand(h)
    if not 0 <= code < 32 or not _dealable(h, dealing) >> code & 1:
        return -1
    k = dealing & 7
    w = (dealing | code << (3 + 6 * k)) + 1
    if k + 1 < h._pend_count:
        return w
    h._deal_word(w)
    h._run_dealer()
    h._drop_when_complete()
    return 0


def spiel_legal(h, buckets, dealing):
    """The OpenSpiel legal actions of ``h``: at a chance node the card codes the next card may be
    (ascending; ``dealing`` as for :func:`deal_outcomes`), else the indices of the legal-action
    mask of the player to act (ascending); none once the hand is complete.

    :raises PokerDraw32ValueError: not 1 to 16 buckets.
    """
    _check_hand(h)
    nb = _check_buckets(buckets)
    if h._phase == PH_COMPLETE:
        return []
    if h._pend_seat >= 0:
        mask = _dealable(h, dealing)
        return [c for c in range(32) if mask >> c & 1]
    bits = _legal_bits(h, buckets, nb)
    return [i for i in range(BET0 + nb + DISCARDS) if bits >> i & 1]


def spiel_act(h, index, buckets):
    """Apply action ``index`` of the player to act (:func:`apply_action`).

    :returns: the betting round it was taken in (0 the first, 1 the draw, 2 the second), or -1,
        the hand unchanged, when ``index`` is not in the legal-action mask.
    :raises PokerDraw32ValueError: not 1 to 16 buckets.
    """
    _check_hand(h)
    phase = h._phase
    if h._pend_seat >= 0 or not PH_FIRST <= phase <= PH_SECOND:
        return -1
    if apply_action(h, index, buckets) < 0:
        return -1
    return phase - PH_FIRST


def spiel_apply(h, buckets, dealing, action, own):
    """Apply OpenSpiel action ``action`` to ``h``: at a chance node the next card of the pending
    deal (:func:`deal_card`, ``dealing`` the card word of its cards drawn so far), else action
    ``action`` of the player to act (:func:`spiel_act`), recorded as ``(round, action)`` at the end
    of ``own[seat]``.

    :returns: the card word of the pending deal's cards drawn after the move (0 after a player's
        action and once a deal is made), or -1, nothing changed, when ``action`` is not legal now.
    :raises PokerDraw32ValueError: not 1 to 16 buckets.
    """
    _check_hand(h)
    if h._phase == PH_COMPLETE:
        return -1
    if h._pend_seat >= 0:
        return deal_card(h, dealing, action)
    seat = h._actor
    rnd = spiel_act(h, action, buckets)
    if rnd < 0:
        return -1
    own[seat].append((rnd, action))
    return 0


# -- names and refusals (Python objects: never in a loop over tables) --------------------------

def action_name(index, buckets):
    """A short text for action ``index``: ``"fold"``, ``"check/call"``, ``"split"``,
    ``"decline"``, ``"bet/raise 0.5 pot"`` (``min``, ``all-in``), ``"discard 01001"`` (positions
    0-4 of the sorted hole cards, 1 = thrown), ``"stand pat"``."""
    nb = len(buckets)
    if index == FOLD:
        return "fold"
    if index == CHECK_CALL:
        return "check/call"
    if index == SPLIT:
        return "split"
    if index == DECLINE:
        return "decline"
    if BET0 <= index < BET0 + nb:
        f = buckets[index - BET0]
        return "bet/raise " + ("all-in" if f < 0 else "min" if f == 0 else f"{f:g} pot")
    if BET0 + nb <= index < BET0 + nb + DISCARDS:
        m = index - BET0 - nb
        return "stand pat" if m == 0 else "discard " + "".join("1" if m >> i & 1 else "0" for i in range(5))
    return f"no action {index}"


def action_error(hand, index, buckets):
    """The :class:`~pokerdraw32.errors.IllegalActionError` for action ``index`` outside the mask of
    ``hand`` (a :class:`~pokerdraw32.hand.Hand`): names the index, the action, the seat and the
    rule (the hand's own refusal where the action kind is illegal)."""
    nb = len(buckets)
    size = BET0 + nb + DISCARDS
    if type(index) is not int:
        try:
            number = None if isinstance(index, bool) else operator.index(index)
        except TypeError:
            number = None
        if number is None:
            return IllegalActionError(f"action index {index!r} is not an integer of the action space 0..{size - 1}",
                                      seat=hand.actor)
        index = number
    name = action_name(index, buckets)
    p = hand.actor
    if not 0 <= index < size:
        return IllegalActionError(f"action index {index!r} is outside the action space 0..{size - 1}", seat=p)
    if p is None or hand.is_complete:
        return IllegalActionError(f"action index {index} ({name}): nobody is to act (the hand is "
                                  f"{hand.phase.value})", seat=p)
    from ..actions import Action, ActionKind
    legal = hand.legal_actions()
    head = f"action index {index} ({name}) is not in the legal-action mask of seat {p}"
    kinds = legal.kinds
    if index == CHECK_CALL:
        action = Action.check() if not hand.to_match else Action.call()
    elif index in (FOLD, SPLIT, DECLINE):
        action = Action((ActionKind.FOLD, ActionKind.CHECK, ActionKind.SPLIT, ActionKind.DECLINE)[index])
    elif index < BET0 + nb:
        if ActionKind.BET in kinds or ActionKind.RAISE in kinds:
            b = index - BET0
            return IllegalActionError(f"{head}: bucket {b} gives the same amount as an earlier bucket "
                                      "(each amount has one index)", seat=p, rule="R3.4")
        action = Action(ActionKind.RAISE if hand.to_match else ActionKind.BET, legal.min_to or 1)
    else:
        if ActionKind.DISCARD in kinds:    # a mask of 5 cards: never (the mask bits 0-30 hold at most 4)
            return IllegalActionError(f"{head}: at most 4 cards may be discarded", seat=p, rule="R6.1")
        action = Action.stand_pat()
    from .refusal import refuse
    try:
        refuse(hand, action, None)
    except IllegalActionError as exc:
        return IllegalActionError(f"{head}: {str(exc).rsplit(' [', 1)[0]}", seat=p, rule=exc.rule)
    return IllegalActionError(head, seat=p)
