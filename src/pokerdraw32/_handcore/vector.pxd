# Declarations that make _handcore/vector.py C when compiled (Cython pure-Python mode, augmenting .pxd), as
# _handcore/play.pxd does for _handcore/play.py: setup.py compiles _handcore/vector.py + this file as pokerdraw32._handcore.vector_c.
# Every name here must agree with _handcore/vector.py (Cython checks it when compiling).  A step runs
# without the GIL: the tables' hands are reached through borrowed pointers (_ptrs), kept alive by
# the _hands list.

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport PyObject
from libc.string cimport memset
from libc.stdint cimport int64_t
from pokerdraw32._core cimport Rng, rng_below, rng_state
from pokerdraw32._handcore.codes_c cimport PH_COMPLETE
from pokerdraw32._handcore.state_c cimport HandCore
from pokerdraw32._handcore.play_c cimport gen_t, RULE, RANDOM, _decide, apply_decision, packed_hand
from pokerdraw32._handcore.encode_c cimport BET0, CHECK_CALL, DISCARDS, OBS_SIZE, _check_buckets, _decode, _fill_mask, _observe

ctypedef long long i64
ctypedef PyObject *PyObjectPtr


cdef class VectorCore:
    cdef int _n, _seat, _nb, _actions, _count
    cdef bint _ready
    cdef long long _stack, _bb, _decisions
    cdef long long _stacks[5]
    cdef int _pol[5]
    cdef PyObjectPtr *_ptrs
    cdef gen_t *_gens
    cdef char *_done
    cdef char *_nodec
    cdef long long *_pending
    cdef const double[:] _bview
    cdef list _buckets, _hands, _rngs
    cdef object _rules, _hand_class, _lock

    cdef int _enter(self) except -1
    @cython.locals(i=Py_ssize_t)
    cdef int _reset(self, list seeds, obs, mask) except -1

    cdef _alloc(self, Py_ssize_t count)
    @cython.locals(i=Py_ssize_t)
    cdef int _deal_all(self, float[:, :] obs, unsigned char[:, :] mask) except -1
    cdef int _check_buffers(self, obs, mask) except -1
    cdef int _writable(self, float[:, :] obs, unsigned char[:, :] mask) except -1
    @cython.locals(bad=Py_ssize_t, i=Py_ssize_t)
    cdef Py_ssize_t _step(self, const int64_t[:] actions, float[:, :] obs, unsigned char[:, :] mask,
                          double[:] rewards, unsigned char[:] terminated) except -2
    @cython.locals(i=Py_ssize_t, decision=i64)
    cdef Py_ssize_t _validate(self, const int64_t[:] actions) noexcept nogil
    @cython.locals(i=Py_ssize_t)
    cdef int _advance(self, double[:] rewards, unsigned char[:] terminated) except -1 nogil
    @cython.locals(seat=int)
    cdef double _table(self, HandCore h, Py_ssize_t i) except? -1e300 nogil
    @cython.locals(button=int)
    cdef int _episode(self, HandCore h, Py_ssize_t i) except -1 nogil
    @cython.locals(p=int, kinds=int, decision=i64)
    cdef int _opponents(self, HandCore h, Py_ssize_t i) except -1 nogil
    @cython.locals(i=Py_ssize_t)
    cdef int _write(self, float[:, :] obs, unsigned char[:, :] mask) except -1 nogil
    cdef int _write_row(self, float[:, :] obs, unsigned char[:, :] mask, Py_ssize_t i) except -1 nogil
    @cython.locals(i=Py_ssize_t, dealt=Py_ssize_t)
    cdef Py_ssize_t _deal_ended(self, float[:, :] obs, unsigned char[:, :] mask) except -1
    @cython.locals(i=Py_ssize_t, count=Py_ssize_t)
    cdef Py_ssize_t _flags(self, unsigned char[:] out) noexcept
