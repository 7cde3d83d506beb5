# Augmenting declarations for slice_pure.py (Cython finds it by the module's name).
cimport cython

cpdef enum:
    FOLD = 0
    CHECK = 1
    CALL = 2
    BET = 3
    RAISE = 4
    NO_LIMIT = 0
    POT_LIMIT = 1
    FIXED_LIMIT = 2
    FIRST_ROUND = 1
    SECOND_ROUND = 2
    ROUND_OVER = 3
    WON = 4
    EV_POST = 1
    EV_FOLD = 2
    EV_CHECK = 3
    EV_CALL = 4
    EV_BET = 5
    EV_RAISE = 6
    EV_RETURN = 7
    EV_ROUND_END = 8
    EV_WON = 9
    LOGCAP = 1024
    OK = 0
    E_NO_ACTOR = 1
    E_KIND = 2
    E_AMOUNT = 3

@cython.final
cdef class Round:
    cdef readonly int n, actor, phase, aggressor, log_len
    cdef public int structure, cap, bet_count, reopen_serial, legal_key, l_kinds
    cdef public long long to_match, raise_size, full_level, largest, dead, l_call, l_lo, l_hi
    cdef long long stacks[5]
    cdef long long bets[5]
    cdef long long contrib[5]
    cdef bint folded[5]
    cdef bint acted[5]
    cdef int acted_serial[5]
    cdef long long last_level[5]
    cdef long long log[LOGCAP]

    @cython.locals(first=cython.int, k=cython.int)
    cdef void _setup(self, int n, int structure, int cap, long long sb, long long bb, long long ob,
                     bint second, long long dead) noexcept
    @cython.locals(paid=cython.longlong)
    cdef void _post(self, int seat, long long amount) noexcept
    cdef inline void _log(self, int kind, int seat, long long amount) noexcept
    cdef inline void _put(self, int seat, long long chips) noexcept
    cdef long long _pot(self) noexcept
    cdef long long _unit(self) noexcept
    cdef bint _no_actions(self) noexcept
    cdef bint _needs_to_act(self, int seat) noexcept
    cdef void _advance(self, int start, bint inclusive) noexcept
    @cython.locals(extra=cython.longlong)
    cdef void _return_uncalled(self) noexcept
    cdef bint _answerable(self, int p) noexcept
    @cython.locals(allin=cython.longlong, target=cython.longlong, lo=cython.longlong, hi=cython.longlong,
                   pot_max=cython.longlong)
    cdef bint _raise_bounds(self, int p) noexcept
    @cython.locals(p=cython.int, stack=cython.longlong, owe=cython.longlong, kinds=cython.int)
    cdef void _compute_legal(self) noexcept
    @cython.locals(p=cython.int, chips=cython.longlong)
    cpdef int act(self, int kind, long long amount) noexcept
    cdef inline void _mark_acted(self, int p) noexcept
    @cython.locals(inc=cython.longlong, unit=cython.longlong, full=cython.bint)
    cdef void _raise(self, int p, int kind, long long to) noexcept

cdef long long _lcg(long long x) noexcept

@cython.locals(r=Round, x=cython.longlong, check=cython.longlong, k=cython.int, n=cython.int, i=cython.int,
               structure=cython.int, second=cython.int, sb=cython.longlong, bb=cython.longlong, ob=cython.longlong,
               kinds=cython.int, kind=cython.int, amount=cython.longlong)
cpdef long long play(int rounds, long long seed, int policy) except? -1
