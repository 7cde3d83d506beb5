# Declarations that make _handcore/betting.py C when compiled (Cython pure-Python mode, augmenting .pxd), as
# _handcore/codes.pxd does for _handcore/codes.py: setup.py compiles _handcore/betting.py + this file as pokerdraw32._handcore.betting_c.
# Every name here must agree with _handcore/betting.py (Cython checks it when compiling).

cimport cython
from pokerdraw32._handcore.codes_c cimport (i64, bit, kind_set, make_legal, refill_legal, pd32_codes_cards, A_BET, A_CALL, A_CHECK, A_DECLINE, A_DISCARD,
                                   A_FOLD, A_RAISE, A_SPLIT, A_TIMEOUT, E_BET, E_CALL, E_CHECK, E_DECLINE, E_FOLD,
                                   E_RAISE, E_RETURN_UNCALLED, E_ROUND_END, E_SPLIT, E_TIMEOUT, F_ALL_IN, F_FULL,
                                   F_R63, F_SECOND, FIXED_LIMIT, POT_LIMIT, PH_COMPLETE, PH_DRAW, PH_FIRST, PH_SECOND)
from pokerdraw32._handcore.deal_c cimport DealCore


# The second class of the hand's core: betting rounds (R5, R7), legality (R3.4, R3.5, R5.5), actions applied.
cdef class BettingCore(DealCore):
    @cython.locals(n=int, i=int, L=i64, first=int, start=int, seat=int)
    cdef int _start_round(self, int phase) except -1 nogil
    cdef long long _unit_c(self) noexcept nogil
    cdef bint _no_actions(self) noexcept nogil
    cdef bint _needs_to_act(self, int seat) noexcept nogil
    @cython.locals(live=int, i=int, seat=int)
    cdef int _advance(self, int start, bint inclusive) except -1 nogil
    @cython.locals(top=int, second=i64, extra=i64, i=int)
    cdef int _return_uncalled(self) except -1 nogil
    cdef int _end_round(self) except -1 nogil
    cdef bint _answerable_c(self, int p) noexcept nogil
    @cython.locals(allin=i64, target=i64, lo=i64, hi=i64)
    cdef bint _raise_bounds(self, int p) noexcept nogil
    cdef int _kinds(self, int p) noexcept nogil
    @cython.locals(stack=i64, owe=i64, mask=int)
    cdef int _kinds_now(self, int p) noexcept nogil
    @cython.locals(deck=tuple, phases=tuple, key=i64, j=int)
    cdef _compute_legal(self)
    cdef int _ready(self, seat) except -2
    cdef bint _allowed(self, int p, int code, amount, i64 cards) except -1
    @cython.locals(seen=i64, c=i64, j=int, i=int, held=bint, mask=int)
    cdef bint _legal_c(self, int p, int code, i64 amount, i64 cards) noexcept nogil
    @cython.locals(j=int, c=int, chips=i64)
    cdef int _apply(self, int p, int code, i64 amount, i64 cards) except -1 nogil
    cdef void _mark_acted(self, int p) noexcept nogil
    cdef void _withdraw_offer(self) noexcept nogil
    @cython.locals(inc=i64, unit=i64, full=bint)
    cdef int _raise(self, int p, int code, long long to) except -1 nogil
    cdef int _timeout(self, int p) except -1 nogil
    # HandCore's (pokerdraw32._handcore.state), which overrides it: every hand is one
    cdef int _finish(self, bint showdown) except -1 nogil
