# Declarations that make _mccfr.py C when compiled (Cython pure-Python mode, augmenting .pxd), as
# _handcore/state.pxd does for _handcore/state.py: setup.py compiles _mccfr.py + this file as pokerdraw32.cfr._mccfr_c.
# Every name here must agree with _mccfr.py (Cython checks it when compiling).

cimport cython

ctypedef long long i64
ctypedef unsigned long long u64

cpdef enum:
    F_PHASE = 0
    F_ACTOR = 1
    F_C0 = 2
    F_C1 = 3
    F_BASE = 4
    F_INC = 5
    F_NRAISE = 6
    F_ACTED = 7
    F_SPLITS = 8
    F_RACTS = 9
    F_FOLDED = 10
    F_HIST = 11
    F_NH = 12
    F_H0 = 13
    F_H1 = 14
    F_POS = 15
    F_SHARED = 16
    F_D0 = 17
    F_D1 = 18
    F_I0 = 19
    F_I1 = 20
    NF = 22
    PH_FIRST = 1
    PH_DRAW = 2
    PH_SECOND = 3
    PH_END = 4
    MAXD = 40
    NSLOT = 16

cdef extern from *:
    """
    /* Atomic operations on the tables of a shared run (threads walking one table without the GIL):
       loads with acquire, stores with release, compare-and-swap and fetch-add sequentially
       consistent.  GCC and Clang builtins; MSVC (x64 only: its volatile accesses are acquire and
       release there) interlocked intrinsics. */
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    static CYTHON_INLINE unsigned long long pd32_load_u64(unsigned long long *p) {
        unsigned long long v = *(volatile unsigned long long *)p; _ReadWriteBarrier(); return v; }
    static CYTHON_INLINE long long pd32_load_i64(long long *p) {
        long long v = *(volatile long long *)p; _ReadWriteBarrier(); return v; }
    static CYTHON_INLINE void pd32_store_i64(long long *p, long long v) {
        _ReadWriteBarrier(); *(volatile long long *)p = v; }
    static CYTHON_INLINE int pd32_cas_u64(unsigned long long *p, unsigned long long old, unsigned long long v) {
        return (unsigned long long)_InterlockedCompareExchange64((volatile long long *)p, (long long)v,
                                                                 (long long)old) == old; }
    static CYTHON_INLINE int pd32_cas_i64(long long *p, long long old, long long v) {
        return _InterlockedCompareExchange64((volatile long long *)p, v, old) == old; }
    static CYTHON_INLINE long long pd32_add_i64(long long *p, long long n) {
        return _InterlockedExchangeAdd64((volatile long long *)p, n); }
    #else
    static CYTHON_INLINE unsigned long long pd32_load_u64(unsigned long long *p) {
        return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static CYTHON_INLINE long long pd32_load_i64(long long *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static CYTHON_INLINE void pd32_store_i64(long long *p, long long v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static CYTHON_INLINE int pd32_cas_u64(unsigned long long *p, unsigned long long old, unsigned long long v) {
        return __atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    static CYTHON_INLINE int pd32_cas_i64(long long *p, long long old, long long v) {
        return __atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    static CYTHON_INLINE long long pd32_add_i64(long long *p, long long n) {
        return __atomic_fetch_add(p, n, __ATOMIC_SEQ_CST); }
    #endif
    """
    u64 pd32_load_u64(u64 *p) noexcept nogil
    i64 pd32_load_i64(i64 *p) noexcept nogil
    void pd32_store_i64(i64 *p, i64 v) noexcept nogil
    bint pd32_cas_u64(u64 *p, u64 old, u64 v) noexcept nogil
    bint pd32_cas_i64(i64 *p, i64 old, i64 v) noexcept nogil
    i64 pd32_add_i64(i64 *p, i64 n) noexcept nogil

cdef u64 M64, GOLDEN, MIX1, MIX2, LOW32, TWO32
cdef double INV53
cdef i64 _BINOM[192]

@cython.locals(idx=i64, i=int, c=int)
cpdef i64 hand_index(i64 mask) noexcept nogil

@cython.locals(out=i64, one=i64, best=int, best_key=i64, c=int, key=i64)
cpdef i64 draw_discard(i64 mask, int k, i64 ruled) noexcept nogil

cdef i64 _popcount4(i64 x) noexcept nogil


@cython.final
cdef class Solver:
    cdef public int nb, cap
    cdef public bint parole, fixed
    cdef public i64 sb, bb, s0, s1
    cdef public u64 seed
    cdef public bint outcome, shared, pruning
    cdef public double eps, prune_chips
    cdef public i64 prune_after
    cdef public i64 t, mask, nodes, lost
    cdef i64[::1] meta
    cdef i64[::1] fm
    cdef unsigned char[::1] pre
    cdef unsigned char[::1] post
    cdef unsigned int[::1] val
    cdef unsigned int[::1] ruled
    cdef i64[::1] st
    cdef i64[::1] amt
    cdef double[::1] sc
    cdef i64[::1] deck
    cdef u64[::1] keys
    cdef i64[::1] offs
    cdef double[::1] reg
    cdef double[::1] strat
    cdef object _fm_a, _st_a, _amt_a, _sc_a, _deck_a, _keys_a, _offs_a, _reg_a, _strat_a, _meta_a

    cpdef int _set_tables(self, keys, offs, reg, strat) except -1
    cpdef object counters(self)
    cpdef int share(self, Solver other) except -1
    @cython.locals(m=i64, added=i64, i=i64, key=u64, packed=i64, n=int, j=int, before=i64, off=Py_ssize_t, o=i64)
    cpdef Py_ssize_t add(self, Solver other, double scale) except -1
    @cython.locals(h=u64)
    cdef bint _same_slots(self, u64 key, i64 slots) noexcept
    cpdef tuple tables(self)
    @cython.locals(size=i64, vsize=i64)
    cdef int _grow(self, i64 need) except -1 with gil
    @cython.locals(size=i64, vsize=i64)
    cpdef int reserve(self, i64 keys, i64 values) except -1
    @cython.locals(m=i64, i=i64, key=u64, h=u64)
    cdef int _resize(self, i64 size, i64 vsize) except -1
    @cython.locals(h=u64, k=u64, off=i64)
    cdef Py_ssize_t _find(self, u64 key, int n, i64 slots) except -2 nogil
    @cython.locals(h=u64, k=u64, off=i64, o=i64)
    cdef Py_ssize_t _find_shared(self, u64 key, int n, i64 slots) noexcept nogil
    cdef inline u64 _load_key(self, u64 h) noexcept nogil
    cdef inline bint _cas_key(self, u64 h, u64 key) noexcept nogil
    cdef inline i64 _load_off(self, u64 h) noexcept nogil
    cdef inline void _store_off(self, u64 h, i64 value) noexcept nogil
    cdef inline i64 _load_meta(self, int i) noexcept nogil
    cdef inline bint _cas_meta(self, int i, i64 old, i64 value) noexcept nogil
    cdef inline i64 _add_meta(self, int i, i64 n) noexcept nogil
    @cython.locals(z=u64)
    cdef u64 _next(self) noexcept nogil
    @cython.locals(m=u64, low=u64, t=u64)
    cdef u64 _below(self, u64 n) noexcept nogil
    @cython.locals(i=int, j=int, c=i64)
    cpdef int shuffle(self) noexcept nogil
    @cython.locals(i=int)
    cpdef int set_deck(self, cards) except -1
    @cython.locals(i=int)
    cpdef tuple row(self, int d)
    @cython.locals(i=int)
    cpdef int set_row(self, int d, values) except -1
    cpdef i64 amount(self, int d, int slot) noexcept
    @cython.locals(b=i64, i=int, h0=i64, h1=i64, one=i64)
    cpdef int start(self, int d) noexcept nogil
    @cython.locals(c0=i64, c1=i64, top=i64, a0=bint, a1=bint, acted=i64)
    cdef bint _round_over(self, i64 b) noexcept nogil
    @cython.locals(c0=i64, c1=i64, low=i64)
    cdef int _end_round(self, i64 b) noexcept nogil
    @cython.locals(b=i64, phase=i64, p=int, base=i64, cp=i64, co=i64, sp=i64, so=i64, owe=i64, slots=i64,
                   cur=i64, lo=i64, hi=i64, pot=i64, last=i64, a=i64, i=int, to=i64, lim=i64)
    cpdef i64 legal(self, int d) noexcept nogil
    @cython.locals(b=i64, c=i64, i=int, p=int, h=i64, ruled=i64, out=i64, pos=i64, one=i64, cp=i64, co=i64,
                   top=i64, base=i64, to=i64, cur=i64)
    cpdef int child(self, int d, int slot) noexcept nogil
    @cython.locals(b=i64, folded=i64, v0=i64, v1=i64)
    cpdef i64 utility(self, int d) noexcept nogil
    @cython.locals(b=i64, p=int, idx=i64, bucket=u64, hist=u64)
    cpdef u64 key(self, int d) noexcept nogil
    @cython.locals(pos=double, r=double, j=int)
    cdef void _match(self, Py_ssize_t off, int n, i64 sig) noexcept nogil
    @cython.locals(b=i64, slots=i64, n=int, s=int, off=Py_ssize_t, sig=i64, j=int, w=double,
                   u=double, acc=double, k=int, value=double, v=double, skip=i64, thr=double)
    cdef double _walk(self, int d, int tr) except? -1.0e300 nogil
    @cython.locals(b=i64, slots=i64, n=int, s=int, off=Py_ssize_t, sig=i64, j=int,
                   mine=bint, u=double, pick=int, last=int, acc=double, q=double, k=int, sp=double, v=double,
                   vj=double, value=double, w=double, c=double)
    cdef double _walk_os(self, int d, int tr, double my, double opp, double samp) except? -1.0e300 nogil
    cdef int _prune_coin(self) noexcept nogil
    @cython.locals(tr=int, it=i64)
    cpdef Py_ssize_t run(self, i64 iterations) except -1
    @cython.locals(status=int, t=i64, tr=int, v=double)
    cpdef int run_shared(self, i64 target) except -1
