# cython: language_level=3, embedsignature=True, autotestdict=False
# cython: boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled kernels of pokerdraw32 (built as ``pokerdraw32._core``).

``pokerdraw32._core_py`` is the pure-Python twin: same public names, signatures, results
and exceptions (type and message); the docstrings below match it. Code outside the
package should not import either module directly: :mod:`pokerdraw32._kernels` chooses.

Everything at this boundary is an ``int``:

* a card is a *code* ``4 * rank_index + suit_index``, with rank indices 0..7 for
  7 8 9 T J Q K A and suit indices 0..3 for s c d h (R1.1, R1.2);
* a set of cards is a 32-bit mask with bit ``code`` set;
* a hand's strength is one packed int (see :func:`evaluate_mask`);
* a set of seats is a bitmask with bit ``seat`` set.

The kernels, one source file each, which this file includes (Cython ``include``: one
module, one namespace) after the shared imports and bit helpers:

* ``_core_evaluate.pxi``: :func:`evaluate_mask`, :func:`evaluate_codes` and
  :func:`evaluate_text` rank a 5-card hand (R2);
* ``_core_rng.pxi``: :class:`Rng`, the xoshiro256** generator behind shuffles (R11);
* ``_core_pots.pxi``: :func:`split_pots` builds and awards the main and side pots (R8.3,
  R9.1, R9.2, R9.4);
* ``_core_draws.pxi``: exact draw odds, :func:`draw_outcomes`, :func:`draw_summary`,
  :func:`strength_score` (R6.1, R2);
* ``_core_batch.pxi``: :func:`evaluate_many` and :func:`deal_many` (R2, R11);
* ``_core_equity.pxi``: Monte Carlo equity against opponents who draw by a policy
  (:func:`equity_trials`, :func:`rule_discard`; R6.1, R6.2, R2, R9.4, R11).

The evaluator's tables (about 0.9 MB, built on first use in about 2 ms, not at import):
a mask's two 16-bit halves each index a table of 65,536 uint32 (``_HALF_LO``, ``_HALF_HI``),
whose sum is a minimal perfect hash of the C(32,5) = 201,376 hands that also tells whether
the mask has 5 cards (see :func:`_slot_key`); the slot holds, in ``_INDEX`` (uint16), the
index of the hand's value among the 2,520 distinct values (``_VALUES``). Those come from
the package file ``_hand_values.zlib`` (24 KB), which the pure twin reads too, so R2 is
stated once (``_core_py._evaluate``). The values are kept as ready int objects, so
:func:`evaluate_mask` is a lookup that allocates nothing. Cython code can use the tables
through the ``cdef inline`` function ``_lookup`` (mask -> C ``uint32_t`` value).

Threads: the module declares ``freethreading_compatible`` (a free-threaded CPython keeps the
GIL off when it imports it). The tables are built once, under a lock, however many threads ask
at once (see :func:`_build_tables`), and never change after; every other module-level array is
filled at import. The functions keep no other state between calls. An :class:`Rng` belongs to
one thread (its docstring); a list passed to :meth:`Rng.shuffle` or :func:`evaluate_codes`
may be changed by another thread meanwhile without harm to the process (the result is then
that of some interleaving, as for the same Python code).
"""

import os
from _thread import RLock as _RLock
from operator import index as _plain  # an int subclass as an exact int: its lies (comparisons, __int__) ignored

from pokerdraw32.errors import PokerDraw32TypeError, PokerDraw32ValueError

from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.object cimport PyObject
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.long cimport PyLong_CheckExact
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.unicode cimport PyUnicode_1BYTE_DATA, PyUnicode_GET_LENGTH
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

__all__ = ["Rng", "evaluate_codes", "evaluate_mask", "evaluate_text", "split_pots"]

cdef uint32_t _SPADES = 0x11111111U   # the bit of every rank in suit 0
cdef long long _MAX_AMOUNT = (1LL << 53) - 1
cdef enum:
    _NHANDS = 201376                  # C(32, 5) hands
    _NVALUES = 2520                   # distinct hand values with the suit tie-break (R2.5)


# --------------------------------------------------------------------------------------
# shared argument checks (the pure twin raises the same types with the same messages)


cdef inline bint _is_int(object value):
    return isinstance(value, int) and not isinstance(value, bool)


cdef tuple _tuple_of(object value, str what):
    try:
        return tuple(value)
    except TypeError:
        raise PokerDraw32TypeError(f"{what} must be a sequence, not {type(value).__name__}") from None


cdef uint32_t _check_deck_mask(object mask, str what) except? 0xFFFFFFFF:
    cdef int overflow = 0
    cdef long long m
    if not _is_int(mask):
        raise PokerDraw32TypeError(f"{what} must be an int, not {type(mask).__name__}")
    m = PyLong_AsLongLongAndOverflow(mask, &overflow)
    if overflow or m < 0 or m > 0xFFFFFFFF:
        raise PokerDraw32ValueError(f"{what} {mask:#x} has bits outside the 32-card deck")
    return <uint32_t>m


cdef long long _check_amount(object value, Py_ssize_t seat) except -1:
    """Check one chip amount; ``seat`` -1 means the ``dead`` argument."""
    cdef int overflow = 0
    cdef long long v
    if not _is_int(value):
        raise PokerDraw32TypeError(f"{_amount_name(seat)} must be an int, not {type(value).__name__}")
    v = PyLong_AsLongLongAndOverflow(value, &overflow)
    if overflow < 0 or (overflow == 0 and v < 0):
        raise PokerDraw32ValueError(f"{_amount_name(seat)} is negative: {value}")
    if overflow > 0 or v > _MAX_AMOUNT:
        raise PokerDraw32ValueError(f"{_amount_name(seat)} is too large: {value} (limit 2**53 - 1)")
    return v


cdef str _amount_name(Py_ssize_t seat):
    return "dead" if seat < 0 else f"contribution of seat {seat}"


cdef object _seat_mask(object value, str what):
    if not _is_int(value):
        raise PokerDraw32TypeError(f"{what} must be an int bitmask, not {type(value).__name__}")
    return _plain(value)


# --------------------------------------------------------------------------------------
# bit helpers: the compiler's count-trailing-zeros and population count where it offers them
# (one instruction each on x86-64 with BMI1/POPCNT, on arm64, ...), portable C otherwise

cdef extern from *:
    """
    /* PD32_CTZ32(x): index of the lowest set bit of a non-zero x. GCC and clang: __builtin_ctz
       (BSF/TZCNT on x86, RBIT+CLZ on arm64); MSVC: _BitScanForward; else a de Bruijn product. */
    #if defined(__GNUC__) || defined(__clang__)
    #define PD32_CTZ32(x) __builtin_ctz((unsigned int)(x))
    #elif defined(_MSC_VER)
    #include <intrin.h>
    static __inline int PD32_CTZ32(unsigned int x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
    #else
    static const unsigned char pd32_debruijn[32] = {
        0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
        31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9};
    static inline int PD32_CTZ32(unsigned int x) { return pd32_debruijn[((x & (0u - x)) * 0x077CB531u) >> 27]; }
    #endif
    /* PD32_POPCOUNT32(x): the number of set bits. __builtin_popcount where the target has the
       instruction (x86 built with -mpopcnt or for x86-64-v2 and up: __POPCNT__; arm64: CNT);
       elsewhere (a baseline x86-64 wheel, where the builtin would be a library call) the
       portable bit trick. The evaluator's hot paths need neither: a hand's slot says whether
       it has 5 cards (see _slot_key). */
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__) || defined(__ARM_NEON))
    #define PD32_POPCOUNT32(x) __builtin_popcount((unsigned int)(x))
    #else
    static inline int PD32_POPCOUNT32(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        x = (x + (x >> 4)) & 0x0F0F0F0Fu;
        return (int)((x * 0x01010101u) >> 24);
    }
    #endif
    """
    int PD32_CTZ32(uint32_t x) noexcept nogil
    int PD32_POPCOUNT32(uint32_t x) noexcept nogil


cdef inline int _ctz32(uint32_t x) noexcept nogil:
    """Index of the lowest set bit of a non-zero ``x``."""
    return PD32_CTZ32(x)


cdef inline int _popcount32(uint32_t x) noexcept nogil:
    """The number of set bits of ``x``."""
    return PD32_POPCOUNT32(x)


cdef inline int _bit_length64(uint64_t x) noexcept nogil:
    cdef int k = 0
    while x:
        x >>= 1
        k += 1
    return k


include "_core_evaluate.pxi"   # Kernel 1: hand evaluation (R2)
include "_core_rng.pxi"   # Kernel 2: randomness (R11)
include "_core_pots.pxi"   # Kernel 3: pots (R9.1, R9.2, R9.4, R8.3)
include "_core_draws.pxi"   # Kernel 4: exact draw odds (R6.1, R2)
include "_core_batch.pxi"   # Kernel 5: batches (evaluate_many R2, deal_many R11)
include "_core_equity.pxi"   # Kernel 6: Monte Carlo equity against opponents who draw by a policy (R6.1, R6.2, R2, R9.4, R11)
