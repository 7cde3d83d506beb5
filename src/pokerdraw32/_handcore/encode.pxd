# Declarations that make _handcore/encode.py C when compiled (Cython pure-Python mode, augmenting .pxd), as
# _handcore/play.pxd does for _handcore/play.py: setup.py compiles _handcore/encode.py + this file as pokerdraw32._handcore.encode_c.
# Every name here must agree with _handcore/encode.py (Cython checks it when compiling).  The hot functions
# take typed memoryviews and read only C fields, so a compiled loop over many tables can call them.

cimport cython
from pokerdraw32._handcore.codes_c cimport (A_FOLD, A_CHECK, A_CALL, A_BET, A_RAISE, A_SPLIT, A_DECLINE, A_DISCARD, E_FOLD,
                                   E_CALL, E_BET, E_RAISE, E_DECLINE, E_ROUND_END, PH_FIRST, PH_DRAW, PH_SECOND,
                                   PH_COMPLETE, rules_in_c)
from pokerdraw32._handcore.state_c cimport HandCore

ctypedef long long i64

cpdef enum:
    FOLD = 0
    CHECK_CALL = 1
    SPLIT = 2
    DECLINE = 3
    BET0 = 4
    DISCARDS = 31
    MAX_BUCKETS = 16

cpdef enum:
    OBS_CARDS = 0
    OBS_PHASE = 32
    OBS_POSITION = 37
    OBS_PLAYERS = 42
    OBS_STRUCTURE = 46
    OBS_POT = 49
    OBS_TO_MATCH = 50
    OBS_CALL = 51
    OBS_MIN_TO = 52
    OBS_MAX_TO = 53
    OBS_BET_COUNT = 54
    OBS_PAROLE = 55
    OBS_SEATS = 56
    SEAT_FEATURES = 23
    OBS_SIZE = 171

cpdef enum:
    SEAT_PRESENT = 0
    SEAT_IN_HAND = 1
    SEAT_FOLDED = 2
    SEAT_ALL_IN = 3
    SEAT_TO_ACT = 4
    SEAT_BUTTON = 5
    SEAT_STACK = 6
    SEAT_BET = 7
    SEAT_CONTRIB = 8
    SEAT_DRAWN = 9
    SEAT_SPLIT = 14
    SEAT_LAST = 15
    SEAT_LAST_AMOUNT = 22

# The functions with a leading underscore touch no Python object (nogil): pokerdraw32._handcore.vector_c
# calls them for many tables with the GIL released; the public ones check their arguments first
# (the buffers' sizes, the buckets), so these index without bounds checks.
@cython.locals(n=int)
cpdef int observe(HandCore h, seat, float[:] out, double scale) except -1
@cython.locals(n=int, phase=int, actor=int, kinds=int, k=int, s=int, base=int, i=Py_ssize_t, j=int, seen=int,
               first=i64, kind=int, complete=bint)
cdef int _observe(HandCore h, int seat, float[:] out, double scale) noexcept nogil
@cython.locals(h=HandCore, i=int, j=int, k=Py_ssize_t)
cpdef HandCore view_core(int seat, int n, int button, rules, int phase, int actor, hole, stacks, bets, contrib,
                         i64 dead, folded, discarded, bint offer_open, int votes, i64 to_match, i64 bet_count,
                         actions, int kinds, i64 call, i64 lo, i64 hi)
@cython.locals(by=i64, target=i64)
cdef i64 _bucket_to(HandCore h, double fraction) noexcept nogil
@cython.locals(amount=i64, j=int)
cdef bint _bucket_legal(HandCore h, const double[:] buckets, int b) noexcept nogil
cdef int _check_hand(HandCore h) except -1
@cython.locals(nb=Py_ssize_t, b=Py_ssize_t)
cdef int _check_buckets(const double[:] buckets) except -1
cpdef object bucket_view(const double[:] buckets)
@cython.locals(nb=int, size=int)
cpdef int action_mask(HandCore h, unsigned char[:] out, const double[:] buckets) except -1
@cython.locals(size=int, i=int, bits=i64, legal=int, count=int)
cdef int _fill_mask(HandCore h, unsigned char[:] out, const double[:] buckets, int nb) noexcept nogil
@cython.locals(p=int, kinds=int, one=i64, bits=i64, full=int, m=int, b=int)
cdef i64 _legal_bits(HandCore h, const double[:] buckets, int nb) noexcept nogil
@cython.locals(held=i64, k=int, pos=int, w=i64, c=int, j=int)
cdef i64 _discard_word(HandCore h, int p, int m) noexcept nogil
@cython.locals(nb=int, number=i64)
cpdef i64 decode_action(HandCore h, index, const double[:] buckets) except -2
@cython.locals(p=int, kinds=int, m=int, w=i64, code=int)
cdef i64 _decode(HandCore h, int index, const double[:] buckets, int nb) noexcept nogil
@cython.locals(decision=i64, p=int, code=int, cards=i64)
cpdef i64 apply_action(HandCore h, index, const double[:] buckets) except -2

cpdef enum:
    SPIEL_CHANCE = -1
    SPIEL_TERMINAL = -4

cpdef int spiel_player(HandCore h) except -5
@cython.locals(seat=int, one=i64, k=int, taken=i64, mask=i64, i=int, j=int)
cdef i64 _dealable(HandCore h, i64 dealing) noexcept nogil
@cython.locals(mask=i64, count=int, c=int, row=list)
cpdef list deal_outcomes(HandCore h, i64 dealing, list table)
@cython.locals(k=int, w=i64)
cpdef i64 deal_card(HandCore h, i64 dealing, i64 code) except -2
@cython.locals(nb=int, mask=i64, bits=i64, c=int, i=int)
cpdef list spiel_legal(HandCore h, const double[:] buckets, i64 dealing)
@cython.locals(phase=int)
cpdef int spiel_act(HandCore h, index, const double[:] buckets) except -2
@cython.locals(seat=int, rnd=int)
cpdef i64 spiel_apply(HandCore h, const double[:] buckets, i64 dealing, i64 action, own) except -2
