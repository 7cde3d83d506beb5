"""The hand's core, its base: ``DealCore``, every C field of a hand, its set-up, the log, the stub,
dealing (R5.1, R6.2, R11.1) and the draw (R6.1, R6.3).

``DealCore`` is the first class of the hand's core, one C object when compiled:
``DealCore`` (this module) <- ``BettingCore`` (:mod:`pokerdraw32._handcore.betting`: betting rounds,
legality, actions applied) <- ``HandCore`` (:mod:`pokerdraw32._handcore.state`: the public actions, Parole's
split and the showdown) <- ``HandState`` (:mod:`pokerdraw32._handcore.state_view`: the state read and
copied).  Its ``.pxd`` declares all the C fields of a hand, and the methods the rules call across
the classes (``_start_round``, a betting round's start, is ``BettingCore``'s: a hand always is one).
The codes and helpers are :mod:`pokerdraw32._handcore.codes`'.

Written in Cython's pure-Python mode: setup.py compiles it with ``_handcore/deal.pxd`` as
``pokerdraw32._handcore.deal_c``; otherwise this very file runs as plain Python (the arrays are lists).
"""

if __name__ == "pokerdraw32._handcore.deal_c":   # compiled (setup.py); see _handcore/codes.py
    import cython
else:
    from . import cython_shim as cython

from ..cards import DECK, FULL_MASK
from ..errors import DealError

if cython.compiled:   # the enums, bit, blind_seat, decode, pack_cards, rules_in_c: cimported in _handcore/deal.pxd
    from .codes_c import checked_shuffle
else:
    from .._core_py import Rng
    from .codes import (
        E_DEAL_DRAW,
        E_DEAL_HOLE,
        E_DISCARD,
        E_POST_BLIND,
        E_RESHUFFLE,
        F_ALL_IN,
        F_RESHUFFLED,
        PH_COMPLETE,
        PH_DEAL,
        PH_DRAW,
        PH_FIRST,
        PH_SECOND,
        bit,
        blind_seat,
        checked_shuffle,
        decode,
        pack_cards,
        rules_in_c,
    )

# the C scalars of HandCore (plain Python mode sets them to 0 in _alloc)
_SCALARS = ('_n', '_button', '_nblind', '_structure', '_cap', '_parole', '_after_button', '_suit_tiebreak',
            '_muck_losers', '_reshuffle_folded', '_auto_deal', '_hu_small', '_L', '_dead', '_stub_n', '_pile_n',
            '_muck_n', '_own_n', '_rr_n', '_hole_index', '_pend_seat', '_pend_count', '_pend_hole', '_phase', '_actor',
            '_aggressor', '_withdrawn', '_redacted_for', '_to_match', '_raise_size', '_full_level', '_bet_count',
            '_reopen_serial', '_lo', '_hi', '_call', '_offer_open', '_votes', '_voted', '_draw_n', '_draw_index',
            '_npots', '_pot_shared', '_shown', '_sd_start', '_showdown', '_reused', '_legal_key', '_nrec', '_rec_cap')

_DECK_MASK = FULL_MASK   # the 32 cards (a C integer when compiled)

# the rules' fields of HandCore, which a session's hand keeps from hand to hand (_restart)
_RULE_FIELDS = ('_n', '_nblind', '_structure', '_cap', '_parole', '_after_button', '_suit_tiebreak', '_muck_losers',
                '_reshuffle_folded', '_auto_deal', '_hu_small', '_blind_amt', '_L', '_rec_cap')


class DealCore:
    """A hand's C fields, set-up, log, stub, dealing and draw; :class:`pokerdraw32.hand.Hand` is the
    public class (see the module's docstring for the chain of classes)."""

    # ------------------------------------------------------------------ set-up
    if cython.compiled:
        def __dealloc__(self):
            PyMem_RawFree(self._rec)   # noqa: F821 -- cimported in _handcore/deal.pxd

    def __cinit__(self):
        # Compiled only (plain Python never calls it): a hand made without __init__ (Hand.__new__)
        # is an empty one that nobody acts in and nothing is dealt to, not zeroed C state that
        # names seat 0 as the actor.
        self._actor = -1
        self._pend_seat = -1
        self._aggressor = -1
        self._withdrawn = -1
        self._redacted_for = -1
        self._legal_key = -1
        self._kinds_key = -1
        for i in range(5):
            self._hole_keys[i] = -1

    def _alloc(self):
        if not cython.compiled:
            self._blind_seat = [0] * 3
            self._blind_amt = [0] * 3
            self._start = [0] * 5
            self._stacks = [0] * 5
            self._bets = [0] * 5
            self._contrib = [0] * 5
            self._folded = [False] * 5
            self._discarded = [-1] * 5
            self._hole = [0] * 25
            self._hole_n = [0] * 5
            self._stub = [0] * 32
            self._pile = [0] * 32
            self._muck = [0] * 32
            self._own = [0] * 5
            self._rr = [0] * 25
            self._acted = [False] * 5
            self._acted_serial = [0] * 5
            self._last_level = [0] * 5
            self._no_raise = [False] * 5
            self._choice = [-1] * 5
            self._deal_order = [0] * 5
            self._draw_order = [0] * 5
            self._pot_amount = [0] * 6
            self._pot_elig = [0] * 6
            self._pot_win = [0] * 6
            self._strength = [-1] * 5
            self._won = [0] * 5
            self._rec = []
            for name in _SCALARS:
                setattr(self, name, 0)
            self._result = self._legal = self._events_cache = None
        elif self._rec == cython.NULL:   # a hand set up again (a session's) keeps its buffer
            self._rec_cap = 64
            self._rec = cython.cast(cython.p_longlong, PyMem_RawMalloc(  # noqa: F821 -- cimported in _handcore/deal.pxd
                64 * cython.sizeof(cython.longlong)))
            if self._rec == cython.NULL:
                raise MemoryError()
        self._nrec = 0

    def _setup(self, rules, stacks, button, rng, stub, auto_deal, extra):
        """A new hand: ``stacks`` and ``extra`` ([(seat, live, dead)]) are checked by Hand; ``stub``
        is the deck to deal from, or None: ``rng`` shuffles it (R11.1)."""
        if cython.compiled:   # a second __init__ starts from nothing too (plain Python: _alloc does it)
            memset(cython.address(self._n), 0,  # noqa: F821 -- cimported in _handcore/deal.pxd
                   cython.cast(cython.p_char, cython.address(self._rec)) - cython.cast(cython.p_char,
                                                                                   cython.address(self._n)))
        self._alloc()
        n = len(stacks)
        self._rules = rules
        self._set_rng(rng)
        self._n = n
        (self._structure, self._cap, self._parole, self._after_button, self._suit_tiebreak, self._muck_losers,
         self._reshuffle_folded, self._hu_small, blinds) = rules_in_c(rules)
        amounts, self._L = blinds[n]
        self._nblind = len(amounts)
        for i in range(self._nblind):
            self._blind_amt[i] = amounts[i]
        for i in range(n):
            self._start[i] = stacks[i]
            self._stacks[i] = stacks[i]
        if stub is not None:
            for i in range(32):
                self._stub[i] = stub[i]
            self._stub_n = 32
        self._auto_deal = auto_deal
        self._events_cache = None
        self._result = None
        self._begin(button, stub is None)
        for seat, live, dead in extra:
            self._post_extra(seat, live, dead)
        self._deal_first()

    def _set_rng(self, rng):
        """The hand's generator (R11.1); compiled, ``_rs`` is its state when it is exactly an Rng."""
        self._rng = rng
        if cython.compiled:
            self._rs = rng_state(rng)  # noqa: F821 -- cimported from _core in _handcore/deal.pxd

    def _begin(self, button, shuffle):
        """Seat a new hand whose rules and stacks are set: the button, the blind seats (R4.1-R4.3),
        the deck shuffled into the stub when ``shuffle`` (R11.1), the blinds posted (R4.4, R4.5)."""
        n = self._n
        self._button = button
        for i in range(self._nblind):
            self._blind_seat[i] = blind_seat(n, button, i, self._hu_small)
        for i in range(n):
            self._discarded[i] = -1
            self._choice[i] = -1
            self._deal_order[i] = (button + 1 + i) % n
        if shuffle:
            self._stub_n = 0
            self._stub_shuffled(_DECK_MASK)
        self._phase = PH_DEAL
        self._actor = -1
        self._aggressor = -1
        self._withdrawn = -1
        self._pend_seat = -1
        self._redacted_for = -1
        self._legal_key = -1
        self._kinds_key = -1
        self._post_blinds()
        return 0

    def _deal_first(self):
        """Start dealing the hole cards (R5.1): all of them at once when the hand deals itself."""
        self._hole_index = 0
        self._next_hole_deal()
        self._run_dealer()
        return 0

    def _restart(self, stacks, button):
        """The next hand of a session, without the GIL: the same rules, seats and generator, the
        stacks ``stacks`` (``n`` positive amounts, checked by the session), the button at
        ``button``; the deck shuffled by the generator.  The caller clears the Python-level caches
        (events, result, legal actions) while it holds the GIL."""
        if cython.compiled:   # the hand's own fields, _start .. _won (the rules' fields stay)
            memset(cython.address(self._start), 0,  # noqa: F821 -- cimported in _handcore/deal.pxd
                   cython.cast(cython.p_char, cython.address(self._rec)) - cython.cast(cython.p_char,
                                                                                   cython.address(self._start)))
            self._nrec = 0
        else:
            kept = [getattr(self, name) for name in _RULE_FIELDS]
            self._alloc()
            for name, value in zip(_RULE_FIELDS, kept, strict=True):
                setattr(self, name, value)
        for i in range(self._n):
            self._start[i] = stacks[i]
            self._stacks[i] = stacks[i]
        self._reused = True
        self._begin(button, True)
        self._deal_first()
        return 0

    def _forget(self):
        """Drop what Python built from the state (events, result, legal actions): a session is about
        to deal this hand object again."""
        self._events_cache = None
        self._result = None
        self._legal = None
        self._legal_key = -1

    def _drop_when_complete(self):
        """Once the hand is complete nobody acts any more (R9): what legal_actions() kept goes (the
        Python entry points call this after the rules, which run without the GIL)."""
        if self._phase == PH_COMPLETE:
            self._legal = self._hole_cache = None
            if cython.compiled:
                self._spare_legal = None
        return 0

    def _post_blinds(self):
        for i in range(self._nblind):
            seat = self._blind_seat[i]
            paid = min(self._blind_amt[i], self._stacks[seat])   # R4.5
            self._put(seat, paid)
            self._log(E_POST_BLIND, seat, i | (F_ALL_IN if self._stacks[seat] == 0 else 0), paid + 1)
        return 0

    def _post_extra(self, seat, live, dead):
        """Entry bets and missed blinds (R10.2, R10.3): live chips first, then dead ones."""
        paid = min(live, self._stacks[seat])
        if paid:
            self._put(seat, paid)
            self._log(E_POST_BLIND, seat, 3 | (F_ALL_IN if self._stacks[seat] == 0 else 0), paid + 1)
        paid = min(dead, self._stacks[seat])
        if paid:
            self._stacks[seat] -= paid
            self._dead += paid
            self._log(E_POST_BLIND, seat, 4 | (F_ALL_IN if self._stacks[seat] == 0 else 0), paid + 1)

    # ------------------------------------------------------------------ helpers
    def _reserve(self, words):
        """Room for ``words`` record words in the compiled buffer (a list grows by itself)."""
        if cython.compiled:
            cap = max(self._rec_cap, 16)
            while cap < words:
                cap *= 2
            if cap != self._rec_cap:
                grown = cython.cast(cython.p_longlong, PyMem_RawRealloc(  # noqa: F821 -- cimported in _handcore/deal.pxd
                    self._rec, cap * cython.sizeof(cython.longlong)))
                if grown == cython.NULL:
                    with cython.gil:
                        raise MemoryError()
                self._rec = grown
                self._rec_cap = cap
        return 0

    def _log(self, kind, seat, flags, word):
        """One record: kind, seat + 1 (0: none), flags; ``word`` is amount + 1 (0: none) or the cards."""
        first = kind | (seat + 1) << 5 | flags << 8
        if cython.compiled:
            if self._nrec + 2 > self._rec_cap:
                self._reserve(self._nrec + 2)
            self._rec[self._nrec] = first
            self._rec[self._nrec + 1] = word
        else:
            self._rec.append(first)
            self._rec.append(word)
        self._nrec += 2
        return 0

    def _put(self, seat, chips):
        self._stacks[seat] -= chips
        self._bets[seat] += chips
        self._contrib[seat] += chips

    def _active(self, seat):
        """In the hand and able to bet (not folded, not all-in)."""
        return not self._folded[seat] and self._stacks[seat] > 0

    def _pot(self):
        total = self._dead
        for i in range(self._n):
            total += self._contrib[i]
        return total

    def _stub_take(self, k):
        """Remove the top ``k`` cards of the stub."""
        m = self._stub_n - k
        for i in range(m):
            self._stub[i] = self._stub[i + k]
        self._stub_n = m

    def _stub_remove(self, mask):
        """Remove the cards of card mask ``mask`` from the stub, keeping the order of the others."""
        m = 0
        for i in range(self._stub_n):
            c = self._stub[i]
            if not mask >> c & 1:
                self._stub[m] = c
                m += 1
        self._stub_n = m

    def _stub_list(self):
        if cython.compiled:
            return [self._stub[i] for i in range(self._stub_n)]
        return self._stub[:self._stub_n]   # plain Python: a list slice

    # ------------------------------------------------------------------ dealing
    def _next_hole_deal(self):
        if self._hole_index < self._n:
            self._pend_seat = self._deal_order[self._hole_index]
            self._pend_count = 5
            self._pend_hole = True
        else:
            self._pend_seat = -1

    def _run_dealer(self):
        if not self._auto_deal:
            return 0
        if self._hole_index == 0 and self._pend_seat >= 0:
            self._deal_all_holes()
        while self._pend_seat >= 0:
            self._deal_from_stub()
        return 0

    def _deal_all_holes(self):
        """R5.1 from the untouched stub, all at once: one card at a time starting left of the
        button, so seat k in deal order gets every n-th card of the first 5n (the same events
        and stub as dealing seat by seat)."""
        n = self._n
        for k in range(n):
            seat = self._deal_order[k]
            w = 5
            for j in range(5):
                c = self._stub[k + n * j]
                self._hole[5 * seat + j] = c
                w |= c << (3 + 6 * j)
            self._hole_n[seat] = 5
            self._log(E_DEAL_HOLE, seat, 0, w)
        self._stub_take(5 * n)
        self._hole_index = n
        self._pend_seat = -1
        self._start_round(PH_FIRST)
        return 0

    def _deal_from_stub(self):
        seat = self._pend_seat
        n = self._n
        if self._pend_hole:
            # R5.1: one card at a time, starting left of the button: from an untouched stub, seat k in
            # deal order gets every n-th card of the first 5n.
            if self._hole_index == 0:
                for k in range(n):
                    for j in range(5):
                        self._rr[5 * k + j] = self._stub[k + n * j]
                self._rr_n = n
            w = 5
            for j in range(5):
                c = self._rr[5 * self._hole_index + j] if self._rr_n else self._stub[j]
                w |= c << (3 + 6 * j)
            self._give_hole(seat, w)
            return 0
        k = self._pend_count
        have = min(k, self._stub_n)
        w = k
        for j in range(have):
            w |= self._stub[j] << (3 + 6 * j)
        reshuffled = have < k
        self._stub_take(have)
        if reshuffled:
            self._reshuffle()
            rest = k - have
            for j in range(rest):
                w |= self._stub[j] << (3 + 6 * (have + j))
            self._stub_take(rest)
        self._give_draw(seat, w, reshuffled)
        return 0

    def deal(self, cards=None):
        """Make the pending deal (:attr:`pending_deal`), with explicit ``cards`` or from the stub.

        Explicit hole cards must be free (not dealt, not given twice).  Explicit replacement
        cards (R6.2) must come from the stub while it lasts, then from the discard pile, never
        from the receiving player's own discards.

        :returns: the deal event.
        :raises DealError: nothing to deal, wrong count, or a card that is not available; the
            hand is unchanged.
        :raises InvalidCardError: a bad card token.
        """
        from ..cards import format_cards, parse_cards

        seat = self._pend_seat
        if seat < 0:
            raise DealError("no deal is pending")
        if cards is None:
            self._deal_from_stub()
            ev = self._event_at(self._nrec - 2)
            self._run_dealer()
            self._drop_when_complete()
            return ev
        count = self._pend_count
        given = parse_cards(cards)
        if len(given) != count:
            raise DealError(f"seat {seat} must receive {count} cards, got {len(given)}: "
                            f"{format_cards(given)!r}", seat=seat)
        self._deal_word(pack_cards([int(c) for c in given]))
        ev = self._event_at(self._nrec - 2)
        self._run_dealer()
        self._drop_when_complete()
        return ev

    def _deal_word(self, w):
        """Make the pending deal with the explicit cards of card word ``w`` (as many as the deal
        needs, distinct: :meth:`deal` parsed them; the OpenSpiel game deals card by card and gives
        the word whole), checked: hole cards must be free (R5.1); replacement cards come from the
        stub while it lasts, then from the discard pile, never from the receiver's own discards
        (R6.2).  The caller runs the dealer on.

        :raises DealError: a card that is not available; the hand is unchanged.
        """
        seat = self._pend_seat
        count = w & 7
        stub = 0
        for i in range(self._stub_n):
            stub |= bit(self._stub[i])
        if self._pend_hole:
            for j in range(count):
                c = w >> (3 + 6 * j) & 63
                if not stub & bit(c):
                    raise DealError(f"card {DECK[c]} for seat {seat} is already in play", seat=seat)
            self._rr_n = 0     # the stub is no longer untouched: later deals take its top cards
            self._give_hole(seat, w)
            return 0
        pile = 0
        for i in range(self._pile_n):
            pile |= bit(self._pile[i])
        own = 0
        for j in range(self._hole_n[seat]):
            own |= bit(self._hole[5 * seat + j])
        for j in range(self._own_n):
            own |= bit(self._own[j])
        from_stub = 0
        taken = 0    # how many come from the stub
        rest = 0
        for j in range(count):
            c = w >> (3 + 6 * j) & 63
            if stub & bit(c):
                from_stub |= bit(c)
                taken += 1
                continue
            if own & bit(c):
                raise DealError(f"card {DECK[c]} is one of seat {seat}'s own discards or cards; a player "
                                "never receives their own discards", seat=seat, rule="R6.2")
            if not pile & bit(c):
                raise DealError(f"card {DECK[c]} for seat {seat} is not available (already in play or "
                                "dead)", seat=seat, rule="R6.2")
            rest |= bit(c)
        need_stub = min(count, self._stub_n)
        if taken != need_stub:
            raise DealError(f"seat {seat}: the stub still has {self._stub_n} cards; {need_stub} of the "
                            f"{count} replacements must come from it before the discard pile",
                            seat=seat, rule="R6.2")
        reshuffled = rest != 0
        self._stub_remove(from_stub)
        if reshuffled:
            self._reshuffle()
            self._stub_remove(rest)
        self._give_draw(seat, w, reshuffled)
        return 0

    def _give_hole(self, seat, w):
        """Deal seat ``seat`` the five hole cards of card word ``w`` from the stub (R5.1)."""
        m = 0
        for j in range(5):
            m |= bit(w >> (3 + 6 * j) & 63)
        self._stub_remove(m)
        for j in range(5):
            self._hole[5 * seat + j] = w >> (3 + 6 * j) & 63
        self._hole_n[seat] = 5
        self._log(E_DEAL_HOLE, seat, 0, w)
        self._hole_index += 1
        self._next_hole_deal()
        if self._pend_seat < 0:
            self._start_round(PH_FIRST)
        return 0

    def _reshuffle(self):
        """R6.2: the stub is exhausted; the discard pile (never the receiver's own discards, which
        are set aside until they are served) is shuffled and becomes the stub."""
        mask = 0
        for i in range(self._pile_n):
            mask |= bit(self._pile[i])
        count = self._stub_shuffled(mask)
        self._log(E_RESHUFFLE, -1, 0, count + 1)
        self._pile_n = 0
        return 0

    def _stub_shuffled(self, mask):
        """Put the cards of ``mask``, shuffled by the hand's generator, under the stub (R11.1);
        returns how many.  The package's own generator shuffles in C when compiled (without the
        GIL); a subclass's shuffle is checked first (checked_shuffle), with the GIL."""
        m = self._stub_n
        if cython.compiled and self._rs != cython.NULL:
            codes = cython.declare(cython.int[32])
            count = rng_shuffled_into(self._rs, mask, codes)  # noqa: F821 -- cimported from _core in _handcore/deal.pxd
            for i in range(count):
                self._stub[m + i] = codes[i]
        else:
            with cython.gil:
                count = self._stub_shuffled_by_python(mask, m)
        self._stub_n = m + count
        return count

    def _stub_shuffled_by_python(self, mask, m):
        """:meth:`_stub_shuffled` by the generator's Python methods, from stub position ``m`` (with the
        GIL; apart, so that the nogil method holds no Python object: Cython would take the GIL to
        release it on every call)."""
        fresh = self._rng.shuffled(mask) if type(self._rng) is Rng else checked_shuffle(self._rng, mask)
        count = len(fresh)
        for i in range(count):
            self._stub[m + i] = fresh[i]
        return count

    def _give_draw(self, seat, w, reshuffled):
        """Deal seat ``seat`` the cards of card word ``w`` (R6.2)."""
        m = self._hole_n[seat]
        for j in range(w & 7):
            self._hole[5 * seat + m] = w >> (3 + 6 * j) & 63
            m += 1
        self._hole_n[seat] = m
        self._log(E_DEAL_DRAW, seat, F_RESHUFFLED if reshuffled else 0, w)
        # the player's discards join the pile only now (R6.2)
        for j in range(self._own_n):
            self._pile[self._pile_n] = self._own[j]
            self._pile_n += 1
        self._own_n = 0
        self._pend_seat = -1
        self._next_drawer()
        return 0

    # ------------------------------------------------------------------ the draw
    def _start_draw(self):
        n = self._n
        self._phase = PH_DRAW
        for i in range(n):
            self._bets[i] = 0
        m = 0
        for i in range(n):                          # R6.1: clockwise from the button's left
            seat = (self._button + 1 + i) % n
            if not self._folded[seat]:
                self._draw_order[m] = seat
                m += 1
        self._draw_n = m
        self._draw_index = -1
        self._own_n = 0
        self._next_drawer()
        return 0

    def _next_drawer(self):
        if self._phase != PH_DRAW:
            return 0
        self._draw_index += 1
        if self._draw_index < self._draw_n:
            self._actor = self._draw_order[self._draw_index]
        else:
            self._actor = -1
            self._start_round(PH_SECOND)
        return 0

    def _discard(self, p, w):
        """Seat ``p`` throws the cards of card word ``w`` (R6.1)."""
        k = w & 7
        thrown = 0
        for j in range(k):
            c = w >> (3 + 6 * j) & 63
            thrown |= bit(c)
            self._own[j] = c
        m = 0
        for j in range(self._hole_n[p]):
            c = self._hole[5 * p + j]
            if not thrown >> c & 1:
                self._hole[5 * p + m] = c
                m += 1
        self._hole_n[p] = m
        self._discarded[p] = k
        self._own_n = k
        self._log(E_DISCARD, p, 0, w)
        if k:
            self._actor = -1
            self._pend_seat = p
            self._pend_count = k
            self._pend_hole = False
            self._run_dealer()
        else:
            self._next_drawer()
        return 0

    # ------------------------------------------------------------------ the log
    def _records(self, start):
        """Every record word from ``start`` on, as a list (two words an event)."""
        return [self._rec[i] for i in range(max(0, start), self._nrec)]

    def _event_at(self, i):
        """The event of the record at word ``i``; kept in the events list when that list has
        been read up to it (so each event is built once)."""
        ev = decode(self, self._rec[i], self._rec[i + 1])
        cache = self._events_cache
        if cache is not None and 2 * len(cache) == i:
            cache.append(ev)
        return ev


    # ------------------------------------------------------------------ the classes above
    def _start_round(self, phase):
        """A betting round starts: ``BettingCore._start_round`` (pokerdraw32._handcore.betting) overrides it;
        every hand is a BettingCore."""
        with cython.gil:
            raise NotImplementedError("DealCore._start_round: a hand is a BettingCore")
