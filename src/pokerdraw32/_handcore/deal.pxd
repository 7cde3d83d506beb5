# Declarations that make _handcore/deal.py C when compiled (Cython pure-Python mode, augmenting .pxd), as
# _handcore/codes.pxd does for _handcore/codes.py: setup.py compiles _handcore/deal.py + this file as pokerdraw32._handcore.deal_c.
# Every name here must agree with _handcore/deal.py (Cython checks it when compiling).

cimport cython
from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc
from libc.string cimport memset
from libc.stdint cimport uint64_t
from pokerdraw32._core cimport Rng, rng_shuffled_into, rng_state
from pokerdraw32._handcore.codes_c cimport (i64, bit, blind_seat, decode, pack_cards, rules_in_c, E_DEAL_DRAW, E_DEAL_HOLE,
                                   E_DISCARD, E_POST_BLIND, E_RESHUFFLE, F_ALL_IN, F_RESHUFFLED, PH_COMPLETE, PH_DEAL,
                                   PH_DRAW, PH_FIRST, PH_SECOND)

cdef unsigned int _DECK_MASK


# The first class of the hand's core (one C object: DealCore <- BettingCore <- HandCore <- HandState): every
# C field of a hand is declared here.
cdef class DealCore:
    cdef object _rules
    cdef object _rng
    cdef object _legal
    cdef object _spare_legal   # the decision before _legal's LegalActions, for legal_actions() to refill
    cdef object _spare_event   # the event of this hand's last discard with cards, for the next one to refill
    cdef object _events_cache
    cdef object _result
    # Plain C fields from _n to _won, copied in one block by _copy_fields (keep them together)
    # rules, as C values
    cdef int _n, _button, _nblind, _structure, _cap
    cdef bint _parole, _after_button, _suit_tiebreak, _muck_losers, _reshuffle_folded, _auto_deal, _hu_small
    cdef int _blind_seat[3]
    cdef long long _blind_amt[3]
    cdef long long _L
    # the hand's own state from here (a session's hand set up again clears it, keeping the rules)
    # chips
    cdef long long _start[5]
    cdef long long _stacks[5]
    cdef long long _bets[5]
    cdef long long _contrib[5]
    cdef long long _dead
    cdef bint _folded[5]
    cdef int _discarded[5]
    # cards (codes 0..31)
    cdef signed char _hole[25]
    cdef int _hole_n[5]
    cdef signed char _stub[32]
    cdef int _stub_n
    cdef signed char _pile[32]
    cdef int _pile_n
    cdef signed char _muck[32]
    cdef int _muck_n
    cdef signed char _own[5]
    cdef int _own_n
    cdef signed char _rr[25]
    cdef int _rr_n
    cdef signed char _deal_order[5]
    cdef int _hole_index
    cdef int _pend_seat, _pend_count
    cdef bint _pend_hole
    # where the hand stands
    cdef int _phase, _actor, _aggressor, _withdrawn, _redacted_for
    cdef Py_ssize_t _legal_key, _kinds_key
    cdef int _kinds_mask
    # betting round
    cdef long long _to_match, _raise_size, _full_level, _bet_count, _reopen_serial
    cdef long long _lo, _hi, _call
    cdef bint _acted[5]
    cdef long long _acted_serial[5]
    cdef long long _last_level[5]
    cdef bint _no_raise[5]
    cdef int _choice[5]
    # Parole (R8) and the draw
    cdef bint _offer_open
    cdef int _votes, _voted
    cdef signed char _draw_order[5]
    cdef int _draw_n, _draw_index
    # the outcome
    cdef int _npots, _pot_shared, _shown, _sd_start
    cdef bint _showdown
    cdef bint _reused         # a session's hand dealt again (_restart): its log buffer is kept at its size
    cdef long long _pot_amount[6]
    cdef int _pot_elig[6]
    cdef int _pot_win[6]
    cdef long long _strength[5]
    cdef long long _won[5]
    # the log: two words a record (after the block of plain fields)
    cdef long long *_rec
    cdef Py_ssize_t _nrec, _rec_cap
    # the state of _rng when it is exactly an Rng (the core then shuffles without the GIL), else NULL
    cdef uint64_t *_rs
    # legal_actions()'s hole cards of each seat, by their key (count | the codes in order << 3)
    cdef list _hole_cache
    cdef long long _hole_keys[5]

    # The rules' methods below touch no Python object (nogil): a session plays whole hands, and a
    # caller many hands at once, without the GIL. They return 0, or -1 with an exception set (the
    # log's buffer could not grow; a generator that is not exactly an Rng failed).
    cdef _alloc(self)
    @cython.locals(n=int, amounts=tuple, i=int)
    cdef _setup(self, rules, stacks, int button, rng, stub, bint auto_deal, extra)
    cdef _set_rng(self, rng)
    cdef _forget(self)
    cdef int _drop_when_complete(self) except -1
    @cython.locals(i=int, n=int)
    cdef int _begin(self, int button, bint shuffle) except -1 nogil
    cdef int _deal_first(self) except -1 nogil
    @cython.locals(i=int)
    cdef int _restart(self, const long long *stacks, int button) except -1 nogil
    cdef int _post_blinds(self) except -1 nogil
    @cython.locals(cap=Py_ssize_t, grown=cython.p_longlong)
    cdef int _reserve(self, Py_ssize_t words) except -1 nogil
    @cython.locals(first=i64)
    cdef int _log(self, int kind, int seat, long long flags, long long word) except -1 nogil
    cdef void _put(self, int seat, long long chips) noexcept nogil
    cdef bint _active(self, int seat) noexcept nogil
    cdef long long _pot(self) noexcept nogil
    cdef void _stub_take(self, int k) noexcept nogil
    @cython.locals(m=int, i=int, c=int)
    cdef void _stub_remove(self, i64 mask) noexcept nogil
    cdef list _stub_list(self)
    cdef void _next_hole_deal(self) noexcept nogil
    cdef int _run_dealer(self) except -1 nogil
    @cython.locals(w=i64, c=i64)
    cdef int _deal_all_holes(self) except -1 nogil
    @cython.locals(w=i64, k=int, have=int, rest=int, j=int, n=int, seat=int, c=i64, reshuffled=bint)
    cdef int _deal_from_stub(self) except -1 nogil
    @cython.locals(seat=int, count=int, stub=i64, pile=i64, own=i64, from_stub=i64, taken=int, rest=i64, c=i64,
                   i=int, j=int, need_stub=int, reshuffled=bint)
    cdef int _deal_word(self, i64 w) except -1
    @cython.locals(j=int, m=i64)
    cdef int _give_hole(self, int seat, i64 w) except -1 nogil
    @cython.locals(mask=i64, count=int)
    cdef int _reshuffle(self) except -1 nogil
    @cython.locals(m=int, count=int, i=int)
    cdef int _stub_shuffled(self, unsigned int mask) except -1 nogil
    @cython.locals(count=int, i=int)
    cdef int _stub_shuffled_by_python(self, unsigned int mask, int m) except -1
    @cython.locals(m=int, j=int)
    cdef int _give_draw(self, int seat, i64 w, bint reshuffled) except -1 nogil
    @cython.locals(n=int, m=int, i=int, seat=int)
    cdef int _start_draw(self) except -1 nogil
    cdef int _next_drawer(self) except -1 nogil
    @cython.locals(k=int, thrown=i64, c=i64, m=int, j=int)
    cdef int _discard(self, int p, i64 w) except -1 nogil
    cdef _event_at(self, Py_ssize_t i)
    # BettingCore's (pokerdraw32._handcore.betting), which overrides it: every hand is one
    cdef int _start_round(self, int phase) except -1 nogil
