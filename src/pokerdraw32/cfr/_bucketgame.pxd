# Declarations that make _bucketgame.py C when compiled (Cython pure-Python mode, augmenting .pxd), as
# _mccfr.pxd does for _mccfr.py: setup.py compiles _bucketgame.py + this file as pokerdraw32.cfr._bucketgame_c.
# Every name here must agree with _bucketgame.py (Cython checks it when compiling).

cimport cython

ctypedef long long i64

cpdef enum:
    SUBSETS = 41449
    K_BET = 0
    K_DRAW = 1
    K_FIXED = 2
    K_SHOWDOWN = 3

cdef i64 _BIN[192]
cdef i64 _SOFF[6]

@cython.locals(m=int, col=i64, j=int)
cdef i64 _sub_index(i64[::1] cs, int sub) noexcept

cdef i64 _sign(int sub) noexcept

@cython.locals(cs=i64[::1], idx=i64, c0=int, c1=int, c2=int, c3=int, c4=int, b=i64, sub=int)
cpdef i64 subset_counts(const unsigned char[::1] buckets, int nb, unsigned int[::1] out) except -1

@cython.locals(s=i64, sign=i64, a=int, b=int, x=i64)
cpdef int pair_counts(const unsigned int[::1] nsub, int nb, i64[::1] out) except -1

@cython.locals(cs=i64[::1], pri=i64[::1], order=i64[::1], idx=i64, c0=int, c1=int, c2=int, c3=int, c4=int)
cpdef int draw_counts(const unsigned char[::1] pre, const unsigned char[::1] post, const unsigned int[::1] ruled,
                      const unsigned int[::1] nsub, int npre, int npost, i64 lo, i64 hi, i64[::1] out) except -1

@cython.locals(j=int, c=i64, n=int, i=int, t=i64, dmask=int, k=int, row=i64, sub=int, sign=i64, s=i64, p=int)
cdef int _one_hand(i64[::1] cs, i64[::1] pri, i64[::1] order, i64 a, i64 own, i64 ruled,
                   const unsigned int[::1] nsub, int npost, i64[::1] out) except -1

@cython.locals(i=Py_ssize_t, n=i64, total=double, j=i64)
cpdef int copy_rows(double[::1] sig, const float[::1] probs, const i64[::1] dst, const i64[::1] src,
                    const i64[::1] cnt) except -1


@cython.final
cdef class Walker:
    cdef public int npre, npost, S, resp
    cdef public bint profile
    cdef public i64 nodes
    cdef const i64[::1] kind
    cdef const i64[::1] actor
    cdef const i64[::1] drawn
    cdef const i64[::1] kid0
    cdef const i64[::1] nk
    cdef const i64[::1] kids
    cdef const i64[::1] soff
    cdef const i64[::1] pay
    cdef const double[::1] pp
    cdef const double[::1] tr
    cdef const double[::1] sig
    cdef double[::1] R
    cdef double[::1] V
    cdef double[::1] X
    cdef object _sig_a, _r_a, _v_a, _x_a

    @cython.locals(i=int, total=double)
    cpdef double run(self, sig, int resp, bint profile) except? -1.0e300
    cpdef double value(self, int i) except? -1.0e300
    @cython.locals(npre=int, npost=int, S=int, r=int, ro=i64, nxt=i64, dr=i64, drawn_o=int, drawn_r=int, no=int,
                   nr=int, tot=double, kind=i64, i=int, u=double, a=int, b=int, p=int, x=double, c=double,
                   total=double, below=double, eq=double, nk=int, k0=i64, so=i64, j=int, w=double)
    cdef int _walk(self, i64 n, int d) except -1
