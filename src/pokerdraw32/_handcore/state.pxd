# Declarations that make _handcore/state.py C when compiled (Cython pure-Python mode, augmenting .pxd).
# setup.py compiles _handcore/state.py + this file as pokerdraw32._handcore.state_c; the .py runs as plain Python otherwise.
# Every name here must agree with _handcore/state.py (Cython checks it when compiling).
#
# HandCore is the last class of the hand's core (DealCore in _handcore/deal.pxd, with every C field <- BettingCore in
# _handcore/betting.pxd <- HandCore): _handcore/state_view.pxd, _handcore/play.pxd, _handcore/encode.pxd and _handcore/vector.pxd cimport it from here,
# and the codes (enums, bit, decode, rules_in_c) from _handcore/codes.pxd.

cimport cython
from cpython.mem cimport PyMem_RawRealloc
from pokerdraw32._core cimport Rng, split_pots_c, value_of
from pokerdraw32._handcore.codes_c cimport (i64, bit, cards_word, discard_word, redecode, A_BET, A_CALL, A_CHECK, A_DECLINE, A_DISCARD, A_FOLD,
                                   A_RAISE, A_SPLIT, A_TIMEOUT, E_AWARD, E_HAND_END, E_MUCK, E_RAISE_WITHDRAWN,
                                   E_RETURN_UNCALLED, E_SHOW, F_SHARED, PH_COMPLETE, PH_FIRST, PH_SECOND)
from pokerdraw32._handcore.betting_c cimport BettingCore


@cython.locals(total=i64)
cdef i64 chips_total(stacks) except -2


cdef class HandCore(BettingCore):
    cdef _act(self, int code, amount, i64 cards, seat)
    cdef int _showdown_start(self) noexcept nogil
    @cython.locals(live=int, elig=int, best_shown=int, start=int, s=int, o=int, k=int, i=int, can_win=bint,
                   mine=bint, beats_all=bint, back=i64, choice=int, contested=bint, n=int)
    cdef int _finish(self, bint showdown) except -1 nogil
    @cython.locals(m=i64, j=int)
    cdef long long _hole_mask(self, int s) noexcept nogil
    @cython.locals(m=i64, value=i64)
    cdef long long _hand_value(self, int s) except? -2 nogil
    @cython.locals(m=i64, w=i64, k=int, c=i64)
    cdef long long _highest_first(self, int s) noexcept nogil
    @cython.locals(first=int, npots=int, k=int, s=int, top=int, back=i64, n=int)
    cdef long long _split(self, int live, int sharers) except -1 nogil
    @cython.locals(smaller=cython.p_longlong)
    cdef void _shrink(self) noexcept nogil
