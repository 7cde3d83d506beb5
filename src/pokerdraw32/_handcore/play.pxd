# Declarations that make _handcore/play.py C when compiled (Cython pure-Python mode, augmenting .pxd), as
# _handcore/state.pxd does for _handcore/state.py: setup.py compiles _handcore/play.py + this file as pokerdraw32._handcore.play_c.
# Every name here must agree with _handcore/play.py (Cython checks it when compiling).

cimport cython
from libc.stdint cimport uint64_t
from pokerdraw32._core cimport Rng, rng_below, rng_next, rng_state, value_of
from pokerdraw32._handcore.codes_c cimport (A_FOLD, A_CHECK, A_CALL, A_BET, A_RAISE, A_SPLIT, A_DECLINE, A_DISCARD, PH_FIRST,
                                   PH_DRAW, PH_COMPLETE, bit)
from pokerdraw32._handcore.state_c cimport HandCore

ctypedef long long i64
ctypedef uint64_t *gen_t   # a generator's state (Rng._s), or NULL: see _gen

cdef i64 CHIP_LIMIT
cdef i64 _U32_RANGE
cdef i64 _SMALL
cdef i64 _SPILL

cpdef enum:
    RULE = 0
    RANDOM = 1
cdef int _BY_NAME[8]
cdef i64 _STRAIGHT_RANKS[5]

# Everything a session runs is nogil: the policies draw from a generator's state (gen_t) in C,
# and take the GIL only for a generator that has none (not exactly an Rng) or to raise.
cpdef i64 _value(i64 mask) except -1 nogil
cpdef i64 below(rng, i64 n) except -1
cpdef i64 uniform(rng, i64 n) except -1
cdef gen_t _gen(rng) noexcept
cdef i64 _draw(gen_t g, rng, i64 n) except -1 nogil
@cython.locals(bits=int, r=i64)
cdef i64 _uniform(gen_t g, rng, i64 n) except -1 nogil
cdef i64 _top_bits(rng, int bits) except -1
cdef int _refuse_rebuy(int seat, i64 stack) except -1
cdef int _check_chips(i64 bet, i64 call, i64 lo, i64 hi, i64 pot) except -1
@cython.locals(mask=i64, i=int)
cpdef i64 card_mask(i64 packed) noexcept nogil
@cython.locals(mask=i64, cat=i64, out=i64, c=i64, suits=i64, suit=int, count=int, ranks=i64, rest=i64,
               s=i64, best=i64, i=int)
cpdef i64 rule_discards(i64 packed) except -1 nogil
@cython.locals(k=int, cards=i64, c=i64, i=int)
cdef i64 _in_order(i64 packed, i64 discards) noexcept nogil
cpdef i64 rule_action(rng, i64 packed, int phase, int kinds, i64 bet, i64 call, i64 lo, i64 hi, i64 pot) except -1
cdef i64 _rule(gen_t g, rng, i64 packed, int phase, int kinds, i64 bet, i64 call, i64 lo, i64 hi,
               i64 pot) except -1 nogil
@cython.locals(value=i64, cat=i64, top=i64, first=bint, strong=bint, medium=bint, d=i64, half=i64, target=i64)
cdef i64 _rule_rolled(i64 roll, i64 packed, int phase, int kinds, i64 bet, i64 call, i64 lo, i64 hi,
                      i64 pot) noexcept nogil
cdef i64 _rule_fixed(i64 packed, int phase, int kinds) except -2 nogil
@cython.locals(fixed=i64, roll=i64, d=i64, i=int)
cpdef list rule_policy(i64 packed, int phase, int kinds, i64 bet, i64 call, i64 lo, i64 hi, i64 pot)
cpdef i64 random_action(rng, i64 packed, int kinds, i64 lo, i64 hi) except -1
@cython.locals(count=int, pick=i64, code=int, i=int, j=i64, a=i64, b=i64, k=i64, word=i64)
cdef i64 _random(gen_t g, rng, i64 packed, int kinds, i64 lo, i64 hi) except -1 nogil
@cython.locals(amount=i64, i=int)
cpdef list discard_cards(i64 decision)
@cython.locals(n=int, s=int, count=i64)
cpdef i64 play_hand(HandCore hand, list policies, list rngs) except -1
@cython.locals(packed=i64, j=int)
cdef i64 packed_hand(HandCore hand, int p) noexcept nogil
@cython.locals(code=int, cards=i64, amount=i64)
cdef int apply_decision(HandCore hand, int p, i64 decision) except -1 nogil
@cython.locals(decisions=i64, p=int, b=int, n=int, kinds=int, packed=i64, decision=i64)
cdef i64 _play(HandCore hand, const int *policies, gen_t *gens, list rngs, int rot) except -1 nogil
cdef i64 _decide(HandCore hand, int p, int policy, int kinds, i64 packed, gen_t g, rng) except -1 nogil


cdef class Session:
    cdef int _n
    cdef long long _stacks[5]
    cdef long long _bought[5]
    cdef long long _rebuys[5]
    cdef long long _categories[9]
    cdef long long _sd[5]
    cdef long long _sd_won[5]
    cdef long long _won[5]
    cdef long long _chips[5]
    cdef long long _sq[5]
    cdef long long _deal[5]
    cdef long long _played, _showdowns, _parole, _decisions, _stack, _todo, _pos
    cdef int _button, _rot, _first_button
    cdef int _pol[5]
    cdef gen_t _gens[5]
    cdef gen_t _deck
    cdef uint64_t _saved[24]
    cdef long long[::1] _out
    cdef bint _keep, _record, _reset, _dup
    cdef object _hand_class, _rules, _table_rng, _lock
    cdef list _rngs, _rows, _policies, _big
    cdef HandCore _hand
    cdef public object hand

    cdef _alloc(self)
    @cython.locals(n=int, s=int)
    cdef int _run(self) except -1 nogil
    @cython.locals(i=int, k=int, g=gen_t)
    cdef int _deck_state(self, bint save) except -1 nogil
    @cython.locals(i=int)
    cdef int _python_state(self, int k, bint save) except -1
    @cython.locals(h=HandCore)
    cdef int _new_hand(self) except -1
    @cython.locals(total=i64, s=int)
    cdef long long _on_table(self) noexcept nogil
    @cython.locals(total=i64, s=int, n=int, b=int, won=i64, v=i64)
    cdef int _settle(self, HandCore h) except -1 nogil
    cdef int _add_big(self, int b, i64 chips, i64 sample) except -1
