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

The kernels:

* :func:`evaluate_mask` and :func:`evaluate_codes` rank a 5-card hand (R2);
* :class:`Rng` is the xoshiro256** generator behind shuffles (R11);
* :func:`split_pots` builds and awards the main and side pots (R8.3, R9.1, R9.2, R9.4).

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


# --------------------------------------------------------------------------------------
# Kernel 1: hand evaluation (R2)


cdef uint32_t _BINOM[6][32]          # _BINOM[k][b] = C(b, k)
cdef uint32_t _HALF_LO[65536]        # low 16 bits of a mask -> k << 20 | its part of the slot (k: its bits)
cdef uint32_t _HALF_HI[65536]        # high 16 bits of a mask -> j << 20 | its part of the slot (j: its bits)
cdef uint16_t _INDEX[_NHANDS]        # slot of a hand -> index of its value in _VALUES
cdef uint32_t _VALUES[_NVALUES]      # the distinct values (suit tie-break on), ascending
cdef PyObject *_VALUE_OBJECTS[_NVALUES]  # _VALUES as int objects, owned by _VALUE_CACHE
cdef PyObject *_PLAIN_OBJECTS[_NVALUES]  # the same with the suit field cleared (R2.4 off)

cdef extern from *:
    """
    /* The flag that says the lookup tables are built (_tables_ready). On a free-threaded
       CPython a thread that reads it set must also see every table entry written before it
       was set: a store with release ordering, loads with acquire ordering (CPython's own
       atomics, in Python.h from 3.13, the first version with a free-threaded build). With
       the GIL, plain accesses, as before. */
    #ifdef Py_GIL_DISABLED
    #define PD32_FREE_THREADED 1
    #define PD32_LOAD_ACQUIRE(p) _Py_atomic_load_int_acquire(p)
    #define PD32_STORE_RELEASE(p, v) _Py_atomic_store_int_release((p), (v))
    #else
    #define PD32_FREE_THREADED 0
    #define PD32_LOAD_ACQUIRE(p) (*(p))
    #define PD32_STORE_RELEASE(p, v) ((void)(*(p) = (v)))
    #endif
    """
    const bint PD32_FREE_THREADED
    int PD32_LOAD_ACQUIRE(int *p) noexcept nogil
    void PD32_STORE_RELEASE(int *p, int v) noexcept nogil


cdef inline uint32_t _slot_key(uint32_t mask) noexcept nogil:
    """The hand's slot key: two loads, one add, for any 32-bit ``mask``.

    A minimal perfect hash of the C(32, 5) hands built from the mask's two 16-bit halves: a
    half with ``k`` bits is the ``r``-th such half in ascending order (``r < C(16, k)``). The
    hands whose low half has ``k`` cards take the slots from ``base[k] = sum of C(16, i) *
    C(16, 5 - i) over i < k``, numbered ``r_low * C(16, 5 - k) + r_high``: so
    ``key & 0xFFFFF`` is a distinct slot ``0 <= slot < 201,376`` for each hand. Each half also
    carries its number of bits above bit 20, so ``key >> 20`` is the mask's card count when
    both halves have at most 5 (and at least 0xE00 otherwise): the mask is a 5-card hand
    exactly when ``key >> 20 == 5``, and no popcount is needed.
    """
    return _HALF_LO[mask & 0xFFFFU] + _HALF_HI[mask >> 16]


cdef inline uint32_t _index_of(uint32_t mask) noexcept nogil:
    """Index in _VALUES of the value of a mask with exactly 5 bits set; no checks."""
    return _INDEX[_slot_key(mask) & 0xFFFFFU]


cdef inline uint32_t _lookup(uint32_t mask) noexcept nogil:
    """Packed value (suit tie-break on) of a mask with exactly 5 bits set; no checks."""
    return _VALUES[_INDEX[_slot_key(mask) & 0xFFFFFU]]


cdef void _init_halves() noexcept nogil:
    """Fill _BINOM, _HALF_LO and _HALF_HI (under 1 ms)."""
    cdef int k, b, v
    cdef uint32_t seen[6]
    cdef uint32_t base[6]
    for k in range(6):
        for b in range(32):
            if k == 0:
                _BINOM[k][b] = 1
            elif b == 0:
                _BINOM[k][b] = 0
            else:
                _BINOM[k][b] = _BINOM[k][b - 1] + _BINOM[k - 1][b - 1]
    base[0] = 0
    for k in range(6):
        seen[k] = 0
        if k > 0:
            base[k] = base[k - 1] + _BINOM[k - 1][16] * _BINOM[6 - k][16]
    for v in range(65536):
        k = _popcount32(<uint32_t>v)
        if k <= 5:
            _HALF_LO[v] = (<uint32_t>k) << 20 | (base[k] + seen[k] * _BINOM[5 - k][16])
            _HALF_HI[v] = (<uint32_t>k) << 20 | seen[k]
            seen[k] += 1
        else:
            _HALF_LO[v] = 0xF0000000U
            _HALF_HI[v] = 0xF0000000U


cdef int _init_tables(const unsigned char *data, Py_ssize_t size) except -1:
    """Fill every table from the content of _hand_values.zlib (C only: no Python code runs
    meanwhile). The file, which the pure twin reads too, holds the 2,520 distinct values
    (uint32, little-endian, ascending) and then, for each hand in the order of
    ``itertools.combinations(range(32), 5)``, the index of its value (uint16, little-endian).
    tools/make_hand_values.py writes it from R2's one statement, ``_core_py._evaluate``."""
    cdef Py_ssize_t i, n = 0
    cdef int a, b, c, d, e
    cdef uint32_t value, mask, key
    cdef const unsigned char *p
    if size != 4 * _NVALUES + 2 * _NHANDS:
        raise RuntimeError(f"the package file _hand_values.zlib is damaged ({size} bytes, expected "
                           f"{4 * _NVALUES + 2 * _NHANDS})")
    _init_halves()
    for i in range(_NVALUES):
        p = data + 4 * i
        value = p[0] | (<uint32_t>p[1]) << 8 | (<uint32_t>p[2]) << 16 | (<uint32_t>p[3]) << 24
        if i > 0 and value <= _VALUES[i - 1]:
            raise RuntimeError("the package file _hand_values.zlib is damaged (values out of order)")
        _VALUES[i] = value
    p = data + 4 * _NVALUES
    for a in range(28):
        for b in range(a + 1, 29):
            for c in range(b + 1, 30):
                for d in range(c + 1, 31):
                    for e in range(d + 1, 32):
                        mask = (1U << a) | (1U << b) | (1U << c) | (1U << d) | (1U << e)
                        key = _slot_key(mask)
                        value = p[2 * n] | (<uint32_t>p[2 * n + 1]) << 8
                        if value >= _NVALUES:
                            raise RuntimeError("the package file _hand_values.zlib is damaged (an index out of range)")
                        _INDEX[key & 0xFFFFFU] = <uint16_t>value
                        n += 1
    return 0


cdef bytes _hand_values():
    """The content of the package file _hand_values.zlib, inflated (the tables' source)."""
    import zlib
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_hand_values.zlib")
    try:
        with open(path, "rb") as f:
            raw = f.read()
        return zlib.decompress(raw)
    except (OSError, zlib.error) as e:
        raise RuntimeError(f"cannot read the package file {path}: {e}") from e


_VALUE_CACHE = None               # owns the int objects of _VALUE_OBJECTS and _PLAIN_OBJECTS
cdef int _tables_ready = 0        # set (PD32_STORE_RELEASE) once every table is complete
_BUILD_LOCK = _RLock()


cdef inline bint _ready() noexcept nogil:
    """The tables are built (and, on a free-threaded CPython, visible to this thread)."""
    return PD32_LOAD_ACQUIRE(&_tables_ready) != 0


cdef int _build_tables() except -1:
    """Build the lookup tables on first use (about 2 ms: the package file _hand_values.zlib,
    24 KB, read and inflated, then spread over the slots), not at import: every function
    that reads them calls this first, unless :func:`_ready`.

    Once, however many threads ask at once: under a lock, checked again inside. The GIL alone
    would not do: creating the int objects can start the garbage collector, whose finalizers
    run Python code, during which another thread can take the GIL; and a free-threaded CPython
    has no GIL. The lock is reentrant because such a finalizer could itself evaluate a hand in
    this thread: that inner call completes the build (writing the same C tables again while
    nobody reads them), and the outer one then leaves its own objects unused. Published tables
    are never written again, so threads already reading them (some without the GIL) are safe.
    """
    global _VALUE_CACHE
    cdef Py_ssize_t i
    cdef bytes data
    with _BUILD_LOCK:
        if _ready():
            return 0
        data = _hand_values()
        _init_tables(data, len(data))
        cache = tuple([_VALUES[i] for i in range(_NVALUES)] + [_VALUES[i] & ~3U for i in range(_NVALUES)])
        if _ready():  # built meanwhile by a reentrant call (see above)
            return 0
        for i in range(_NVALUES):
            _VALUE_OBJECTS[i] = <PyObject *>cache[i]
            _PLAIN_OBJECTS[i] = <PyObject *>cache[_NVALUES + i]
        _VALUE_CACHE = cache
        _init_scores()
        PD32_STORE_RELEASE(&_tables_ready, 1)
    return 0


cdef uint32_t value_of(uint32_t mask) except? 0xFFFFFFFF nogil:
    """Packed value (suit tie-break on) of a mask with exactly 5 bits set, for the package's other
    compiled modules (declared in _core.pxd); builds the tables on first use (taking the GIL
    for that only, so the hand's core can call it without the GIL). No checks."""
    if not _ready():
        with gil:
            _build_tables()
    return _lookup(mask)


def evaluate_mask(mask, bint suit_tiebreak=True):
    """Strength of the 5-card hand whose cards are the set bits of ``mask`` (R2).

    Larger is better; two hands tie exactly when their values are equal, which with
    ``suit_tiebreak`` on (R2.4, the default) never happens for two different hands.
    The value is packed::

        category << 22 | r1 << 18 | r2 << 14 | r3 << 10 | r4 << 6 | r5 << 2 | suit

    ``category`` is 0 high card, 1 one pair, 2 two pair, 3 three of a kind, 4 straight,
    5 full house, 6 flush, 7 four of a kind, 8 straight flush (R2, R2.1: a flush beats a
    full house). ``r1``..``r5`` are rank indices (0 = seven .. 7 = ace) in order of
    significance, unused slots 0:

    * straight flush, straight: r1 = top card; A-7-8-9-T has top card the ten (R2.2);
    * four of a kind: r1 = the four, r2 = the odd card;
    * flush, high card: the five ranks, highest first;
    * full house: r1 = the three, r2 = the pair;
    * three of a kind: r1 = the three, r2, r3 = the other two, highest first;
    * two pair: r1 = higher pair, r2 = lower pair, r3 = odd card;
    * one pair: r1 = the pair, r2..r4 = the other three, highest first.

    ``suit`` is the suit index (0 s, 1 c, 2 d, 3 h) that R2 breaks ties with: the flush
    suit (straight flush, flush), the top card's (straight), the odd card's (two pair), the
    highest unpaired card's (one pair, high card); 0 for four of a kind, full house, three of
    a kind, and always 0 when ``suit_tiebreak`` is false.

    :param mask: 32-bit card mask with exactly 5 bits set (bit ``4 * rank + suit``).
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: the packed value, ``0 <= value < 2**26``.
    :raises TypeError: ``mask`` is not an int (bools are refused).
    :raises ValueError: ``mask`` has bits outside 0..31 or does not have 5 bits set.

    >>> evaluate_mask(1 << 31 | 1 << 27 | 1 << 23 | 1 << 19 | 1 << 15) >> 22  # Ah Kh Qh Jh Th
    8
    >>> v = evaluate_mask(1 << 28 | 1 << 3 | 1 << 7 | 1 << 11 | 1 << 14)  # As 7h 8h 9h Td
    >>> v >> 22, v >> 18 & 15, v & 3   # straight, top card the ten, of diamonds (R2.2)
    (4, 3, 2)
    >>> evaluate_mask(0x7)
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: hand mask 0x7 has 3 cards, expected 5
    """
    if not _ready():
        _build_tables()
    cdef int overflow = 0, n
    cdef long long m
    cdef uint32_t key
    cdef uint16_t i
    if type(mask) is not int and not _is_int(mask):
        raise PokerDraw32TypeError(f"hand mask must be an int, not {type(mask).__name__}")
    m = PyLong_AsLongLongAndOverflow(mask, &overflow)
    if overflow or m < 0 or m > 0xFFFFFFFF:
        raise PokerDraw32ValueError(f"hand mask {mask:#x} has bits outside the 32-card deck")
    key = _slot_key(<uint32_t>m)
    if key >> 20 != 5:
        n = _popcount32(<uint32_t>m)
        raise PokerDraw32ValueError(f"hand mask {mask:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    i = _INDEX[key & 0xFFFFFU]
    return <object>(_VALUE_OBJECTS[i] if suit_tiebreak else _PLAIN_OBJECTS[i])


def evaluate_codes(codes, bint suit_tiebreak=True):
    """Strength of a 5-card hand given as card codes (R2); see :func:`evaluate_mask`.

    Equal to ``evaluate_mask(sum(1 << c for c in codes), suit_tiebreak)``; the order of
    the codes does not matter.

    :param codes: a sequence (tuple, list, ...) of exactly 5 distinct ints in 0..31.
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: the packed value.
    :raises TypeError: ``codes`` is not iterable, or a code is not an int.
    :raises ValueError: not 5 codes, a code outside 0..31, or a repeated code.

    >>> evaluate_codes([0, 1, 2, 4, 5]) >> 22   # 7s 7c 7d 8s 8c: full house
    5
    >>> evaluate_codes((1, 2, 3, 4, 4))
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: duplicate card code 4
    """
    if not _ready():
        _build_tables()
    cdef tuple items
    cdef uint32_t mask = 0, bit
    cdef uint16_t i
    cdef int overflow = 0, k
    cdef long long c
    cdef PyObject *item
    # Fast path: a tuple or list of 5 ints 0..31, read without iterating (R2). Not for a list on a
    # free-threaded CPython: another thread could replace an item, and free it, between
    # PyList_GET_ITEM and its use; there a list takes the path below, whose tuple() copies it
    # atomically.
    if (type(codes) is tuple and PyTuple_GET_SIZE(codes) == 5) or (
            not PD32_FREE_THREADED and type(codes) is list and PyList_GET_SIZE(codes) == 5):
        for k in range(5):
            item = PyTuple_GET_ITEM(codes, k) if type(codes) is tuple else PyList_GET_ITEM(codes, k)
            if not PyLong_CheckExact(<object>item):
                break
            c = PyLong_AsLongLongAndOverflow(<object>item, &overflow)
            if overflow or c < 0 or c > 31 or mask >> c & 1:
                break
            mask |= 1U << c
        else:
            i = _index_of(mask)
            return <object>(_VALUE_OBJECTS[i] if suit_tiebreak else _PLAIN_OBJECTS[i])
        mask = 0
        overflow = 0
    items = _tuple_of(codes, "codes")
    if len(items) != 5:
        raise PokerDraw32ValueError(f"expected 5 card codes, got {len(items)}")
    for code in items:
        if not _is_int(code):
            raise PokerDraw32TypeError(f"card code must be an int, not {type(code).__name__}")
        c = PyLong_AsLongLongAndOverflow(code, &overflow)
        if overflow or c < 0 or c > 31:
            raise PokerDraw32ValueError(f"card code {code} is outside 0..31")
        bit = 1U << c
        if mask & bit:
            raise PokerDraw32ValueError(f"duplicate card code {code}")
        mask |= bit
    i = _index_of(mask)
    return <object>(_VALUE_OBJECTS[i] if suit_tiebreak else _PLAIN_OBJECTS[i])


cdef extern from *:
    """
    #define PD32_IS_ASCII(s) PyUnicode_IS_ASCII(s)
    """
    bint PD32_IS_ASCII(object s)

cdef uint8_t _TEXT_CLASS[128]   # an ASCII character -> rank index + 1 (7 8 9 T J Q K A), suit + 16
                                # (s c d h), 32 for a separator of str.split(), else 0
_TEXT_CLASS[:] = [0] * 128
for _i, _ch in enumerate("789TJQKA"):
    _TEXT_CLASS[ord(_ch)] = _i + 1
for _i, _ch in enumerate("scdh"):
    _TEXT_CLASS[ord(_ch)] = _i + 16
for _ch in " \t\n\v\f\r\x1c\x1d\x1e\x1f":
    _TEXT_CLASS[ord(_ch)] = 32
del _i, _ch


cdef str _shown_deck(object deck):
    return f"a tuple of {len(deck)} items" if type(deck) is tuple else f"a {type(deck).__name__}"


def evaluate_text(text, deck, bint suit_tiebreak=True):
    """The cards and value of a hand written in the common form, or None (R1.3, R2).

    The common form is ASCII text holding exactly 5 canonical card tokens (rank ``7 8 9 T J
    Q K A``, then suit ``s c d h``: ``"Ah Kd 7c 8s 9h"``), none repeated, separated by what
    ``str.split()`` splits ASCII text on. Anything else (other spellings, commas, cards run
    together, not 5 cards, a repeat, an error) gives None: the caller then takes its general
    path, which accepts every form of R1.3 and names every error.

    :param text: the hand (any object: only a ``str`` can match).
    :param deck: the 32 card objects by code (``pokerdraw32.DECK``); the result's cards are
        its items.
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: ``(cards, value)``, ``cards`` a tuple of 5 items of ``deck`` in the order
        written, ``value`` as :func:`evaluate_mask` gives it; or None.
    :raises TypeError: ``deck`` is not a tuple of 32 items.

    >>> cards, value = evaluate_text("Ah Kh Qh Jh Th", tuple(range(32)))
    >>> cards, value == evaluate_mask(0x88888000)
    ((31, 27, 23, 19, 15), True)
    >>> evaluate_text("Ah Kh Qh Jh 10h", tuple(range(32))) is None
    True
    """
    cdef Py_ssize_t n, i = 0, k = 0
    cdef const uint8_t *p
    cdef uint8_t rank, suit
    cdef int codes[5]
    cdef uint32_t mask = 0, code, key
    cdef uint16_t index
    cdef tuple cards
    if type(deck) is not tuple or len(deck) != 32:
        raise PokerDraw32TypeError(f"deck must be a tuple of the 32 cards, not {_shown_deck(deck)}")
    cards = deck
    if type(text) is not str or not PD32_IS_ASCII(text):
        return None
    if not _ready():
        _build_tables()
    n = PyUnicode_GET_LENGTH(text)
    p = <const uint8_t *>PyUnicode_1BYTE_DATA(text)
    while True:
        while i < n and _TEXT_CLASS[p[i]] == 32:
            i += 1
        if i == n:
            break
        if k == 5 or i + 1 == n:
            return None
        rank = _TEXT_CLASS[p[i]]
        suit = _TEXT_CLASS[p[i + 1]]
        if rank == 0 or rank > 8 or suit < 16 or suit > 19:
            return None
        i += 2
        if i < n and _TEXT_CLASS[p[i]] != 32:
            return None
        code = 4 * (rank - 1) + (suit - 16)
        if mask >> code & 1:
            return None
        mask |= 1U << code
        codes[k] = code
        k += 1
    if k != 5:
        return None
    index = _INDEX[_slot_key(mask) & 0xFFFFFU]
    return ((cards[codes[0]], cards[codes[1]], cards[codes[2]], cards[codes[3]], cards[codes[4]]),
            <object>(_VALUE_OBJECTS[index] if suit_tiebreak else _PLAIN_OBJECTS[index]))


# --------------------------------------------------------------------------------------
# Kernel 2: randomness (R11)


cdef inline uint64_t _splitmix64(uint64_t *x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef uint64_t *rng_state(object rng) noexcept:
    """The state of ``rng`` when it is exactly :class:`Rng` (whose draws are then this module's C
    functions), else NULL: a subclass may draw otherwise. Declared in _core.pxd for the hand's
    core and the sessions, which draw through it without the GIL."""
    if type(rng) is Rng:
        return (<Rng>rng)._s
    return NULL


cdef uint64_t rng_next(uint64_t *s) noexcept nogil:
    """The next 64-bit output of state ``s`` (:meth:`Rng.next_u64`)."""
    return _xoshiro_next(s)


cdef uint64_t rng_below(uint64_t *s, uint64_t n) noexcept nogil:
    """Uniform in [0, n) for 2 <= n <= 2**32 from state ``s``: bitmask rejection (:meth:`Rng.below`)."""
    cdef int shift = 64 - _bit_length64(n - 1)
    cdef uint64_t r
    while True:
        r = _xoshiro_next(s) >> shift
        if r < n:
            return r


cdef int rng_shuffled_into(uint64_t *s, uint32_t m, int *codes) noexcept nogil:
    """The cards of mask ``m`` in ascending order, shuffled as :meth:`Rng.shuffle` does, into
    ``codes`` (room for 32), from state ``s``; returns the number of cards (:meth:`Rng.shuffled`)."""
    cdef int n = 0, i, j, tmp
    while m:
        codes[n] = _ctz32(m)
        n += 1
        m &= m - 1
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(s, <uint64_t>(i + 1))
        tmp = codes[i]
        codes[i] = codes[j]
        codes[j] = tmp
    return n


cdef class Rng:
    """xoshiro256** 1.0 (Blackman & Vigna): the engine's source of randomness (R11).

    Both kernel implementations compute the same sequence bit for bit, so a seed
    reproduces a table whichever is in use, and :meth:`getstate` of one can be given to
    :meth:`setstate` of the other.

    :param seed: ``None`` (default) seeds from :func:`os.urandom` (R11.1); an int
        ``0 <= seed < 2**64`` seeds the 256-bit state with the first four outputs of
        SplitMix64 started at ``seed`` (the authors' recommended seeding).
    :raises TypeError: ``seed`` is not an int or None (bools are refused).
    :raises ValueError: ``seed`` is outside ``0 <= seed < 2**64``.

    Copies, deep copies and pickles carry the state (a pickle names the implementation's
    class, so it loads only where that implementation is available).

    A generator belongs to one thread. It has no lock: threads drawing from one generator
    at the same time can be handed the same numbers, hence the same decks (``deal_many``
    reads the state, releases the GIL and writes it back). Give each thread its own,
    derived in the parent thread with :meth:`spawn` (reproducible from the parent's seed)
    or seeded independently.

    >>> rng = Rng(7)
    >>> [rng.below(6) for _ in range(5)]
    [5, 2, 0, 0, 3]
    """

    # state: _s[4] (uint64_t), declared in _core.pxd

    def __init__(self, seed=None):
        cdef uint64_t x
        if seed is None:
            words = (0, 0, 0, 0)
            while not any(words):
                raw = os.urandom(32)
                words = tuple(int.from_bytes(raw[i : i + 8], "little") for i in range(0, 32, 8))
            self._s[0], self._s[1], self._s[2], self._s[3] = words
            return
        if not _is_int(seed):
            raise PokerDraw32TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        seed = _plain(seed)
        if seed < 0 or seed > 0xFFFFFFFFFFFFFFFF:
            raise PokerDraw32ValueError(f"seed must be in 0 <= seed < 2**64, got {seed}")
        x = seed
        self._s[0] = _splitmix64(&x)
        self._s[1] = _splitmix64(&x)
        self._s[2] = _splitmix64(&x)
        self._s[3] = _splitmix64(&x)

    cdef uint64_t _next(self) noexcept nogil:
        return _xoshiro_next(self._s)

    cdef uint64_t _below(self, uint64_t n) noexcept nogil:
        """Uniform in [0, n) for 2 <= n <= 2**32 (bitmask rejection)."""
        return rng_below(self._s, n)

    def spawn(self):
        """A new generator for another thread (or task), seeded with :meth:`next_u64` of
        this one: this one advances by one step; the same parent state gives the same child
        in both implementations.

        >>> parent = Rng(1)
        >>> children = [parent.spawn() for _ in range(4)]   # in the parent thread, one per worker
        >>> len({tuple(child.shuffled(0xFFFFFFFF)) for child in children})
        4
        """
        return type(self)(self.next_u64())

    def next_u64(self):
        """The next 64-bit output, ``0 <= value < 2**64`` (one xoshiro256** step)."""
        return self._next()

    def below(self, n):
        """A uniform random int in ``[0, n)``, without bias (R11.1).

        Bitmask rejection: with ``k`` the bit length of ``n - 1``, draw the top ``k`` bits
        of :meth:`next_u64` until they are below ``n`` (fewer than 2 draws on average).
        ``below(1)`` returns 0 without drawing.

        :param n: ``1 <= n <= 2**32``.
        :raises TypeError: ``n`` is not an int.
        :raises ValueError: ``n`` is out of range.
        """
        if not _is_int(n):
            raise PokerDraw32TypeError(f"n must be an int, not {type(n).__name__}")
        n = _plain(n)
        if n < 1 or n > 1 << 32:
            raise PokerDraw32ValueError(f"below() needs 1 <= n <= 2**32, got {n}")
        if n == 1:
            return 0
        return self._below(<uint64_t>n)

    def shuffle(self, cards):
        """Shuffle a list in place, uniformly (Fisher-Yates, R11.1).

        For ``i`` from ``len(cards) - 1`` down to 1, swap items ``i`` and ``below(i + 1)``.
        The items can be anything.

        :raises TypeError: ``cards`` is not a list.
        """
        cdef Py_ssize_t i, j
        if not isinstance(cards, list):
            raise PokerDraw32TypeError(f"cards must be a list, not {type(cards).__name__}")
        cdef list items = <list>cards
        for i in range(len(items) - 1, 0, -1):
            j = <Py_ssize_t>self._below(<uint64_t>(i + 1))
            items[i], items[j] = items[j], items[i]

    def shuffled(self, mask):
        """The card codes of ``mask`` in a uniformly random order (the deck; R6.2 reshuffles).

        The codes are listed in ascending order, then shuffled as by :meth:`shuffle`.

        :param mask: 32-bit card mask (any number of cards, 0 to 32).
        :returns: a new list of card codes.
        :raises TypeError: ``mask`` is not an int.
        :raises ValueError: ``mask`` has bits outside 0..31.

        >>> sorted(Rng(1).shuffled(0b1011))
        [0, 1, 3]
        """
        cdef uint32_t m = _check_deck_mask(mask, "deck mask")
        cdef int codes[32]
        cdef int n = self._shuffled_into(m, codes), i
        return [codes[i] for i in range(n)]

    cdef int _shuffled_into(self, uint32_t m, int *codes) noexcept nogil:
        """:meth:`shuffled` into ``codes`` (room for 32); returns the number of cards."""
        return rng_shuffled_into(self._s, m, codes)

    def getstate(self):
        """The 256-bit state as four 64-bit ints (for :meth:`setstate`)."""
        return (self._s[0], self._s[1], self._s[2], self._s[3])

    def setstate(self, state):
        """Restore a state returned by :meth:`getstate` (of either implementation).

        :param state: four ints ``0 <= w < 2**64``, not all zero.
        :raises TypeError: ``state`` is not iterable, or a word is not an int.
        :raises ValueError: not 4 words, a word out of range, or all words zero.
        """
        cdef tuple words = _tuple_of(state, "state")
        if len(words) != 4:
            raise PokerDraw32ValueError(f"state must have 4 words, got {len(words)}")
        for i, word in enumerate(words):
            if not _is_int(word):
                raise PokerDraw32TypeError(f"state word {i} must be an int, not {type(word).__name__}")
            word = _plain(word)
            if word < 0 or word > 0xFFFFFFFFFFFFFFFF:
                raise PokerDraw32ValueError(f"state word {i} is outside 0 <= w < 2**64: {word}")
        if not any(words):
            raise PokerDraw32ValueError("state must not be all zero")
        self._s[0], self._s[1], self._s[2], self._s[3] = words

    def __setstate__(self, state):
        """Pickle support: same as :meth:`setstate`."""
        self.setstate(state)

    def __reduce__(self):
        """Pickle and copy support: the class, a cheap seed, then the state."""
        return (type(self), (0,), self.getstate())


# --------------------------------------------------------------------------------------
# Kernel 3: pots (R9.1, R9.2, R9.4, R8.3)


def split_pots(contributions, strengths, live, sharers, first, dead=0):
    """Return uncalled chips, build the main and side pots, and award them.

    1. R9.2: the seat with the single largest contribution gets back what no other seat
       matched (largest minus second largest, over all seats, folded ones included).
    2. R9.1: the pot levels are the distinct contributions (after step 1) of live seats
       above 0, ascending. The pot of level ``L`` (previous level ``P``, first ``P = 0``)
       holds ``min(c, L) - min(c, P)`` from every seat and is open to the live seats that
       put in ``L`` or more. Chips of folded seats above the top level go to the top pot,
       ``dead`` chips (R10.3) to the main pot. Every pot is therefore non-empty and each
       is open to fewer seats than the one before. If no live seat put in a chip, there is
       one pot of everything, open to all live seats (none if it would be empty).
    3. Each pot is awarded: to its only eligible seat; else shared by its eligible seats
       if all of them are ``sharers`` (Parole, R8.3); else to the best strength among them.
       Equal best strengths (possible only with R2.4 off) share. A share gives every sharer
       the same whole number of chips and the odd chips one at a time, in seat order from
       ``first`` (R9.4).

    Chips are conserved: ``sum(returned) + sum(winnings) == sum(contributions) + dead``.
    The arguments are not modified.

    :param contributions: chips each seat put in during the hand, seat ``i`` at index
        ``i``; 2 to 32 ints, each ``0 <= c <= 2**53 - 1`` (0 for seats not in the hand).
    :param strengths: one entry per seat; for live seats an int (an
        :func:`evaluate_mask` value, larger wins), any value for the other seats.
    :param live: bitmask of the seats still in the hand (not folded); non-empty, within
        ``range(len(contributions))``.
    :param sharers: bitmask of the live seats that chose to split (R8.3); 0 for none.
    :param first: the seat that receives the first odd chip (the first seat left of the
        button), ``0 <= first < len(contributions)``; then ``first + 1`` and so on, mod n.
    :param dead: dead chips (R10.3) for the main pot, ``0 <= dead <= 2**53 - 1``.
    :returns: ``(returned, pots, winnings)``: ``returned[i]`` is the uncalled chips given
        back to seat ``i``; ``pots`` lists ``(amount, eligible_mask, winners_mask,
        shared)``, main pot first, with ``shared`` true for a pot shared by agreement
        (R8.3); ``winnings[i]`` is what seat ``i`` receives from the pots.
    :raises TypeError: an argument or entry is not an int (bools are refused), or a
        sequence argument is not iterable.
    :raises ValueError: a wrong number of entries, a negative or too large amount, an
        empty or out-of-range ``live``, ``sharers`` not within ``live``, or ``first`` out
        of range.

    Seat 2 is all-in for 50 and holds the best hand; seats 0 and 1 put in 100 each
    and seat 0 beats seat 1 for the side pot:

    >>> split_pots([100, 100, 50], [300, 200, 500], 0b111, 0, 0)
    ([0, 0, 0], [(150, 7, 4, False), (100, 3, 1, False)], [100, 0, 150])
    """
    cdef tuple contribs = _tuple_of(contributions, "contributions")
    cdef Py_ssize_t n = len(contribs)
    cdef Py_ssize_t seat, k, npots
    cdef long long chips[32]
    cdef long long ranks[32]
    cdef long long amounts[32]
    cdef uint32_t eligibles[32]
    cdef uint32_t winners[32]
    cdef bint shared[32]
    cdef long long won[32]
    cdef long long returned_top = 0, dead_chips
    cdef int top = 0, overflow = 0
    cdef uint32_t live_m, sharers_m
    cdef tuple power
    if n < 2 or n > 32:
        raise PokerDraw32ValueError(f"contributions must have 2 to 32 entries, got {n}")
    for seat in range(n):
        chips[seat] = _check_amount(contribs[seat], seat)
    power = _tuple_of(strengths, "strengths")
    if len(power) != n:
        raise PokerDraw32ValueError(f"strengths must have {n} entries (one per seat), got {len(power)}")
    live = _seat_mask(live, "live")
    if live == 0:
        raise PokerDraw32ValueError("live mask 0x0 names no seat")
    if live < 0 or live >> n:
        raise PokerDraw32ValueError(f"live mask {live:#x} names seats outside 0..{n - 1}")
    live_m = live
    for seat in range(n):
        if live_m >> seat & 1 and not _is_int(power[seat]):
            raise PokerDraw32TypeError(f"strength of seat {seat} must be an int, not {type(power[seat]).__name__}")
    power = tuple([_plain(power[seat]) if live_m >> seat & 1 else power[seat] for seat in range(n)])
    sharers = _seat_mask(sharers, "sharers")
    if sharers & ~live:
        raise PokerDraw32ValueError(f"sharers mask {sharers:#x} is not within live mask {live:#x}")
    sharers_m = sharers
    if not _is_int(first):
        raise PokerDraw32TypeError(f"first must be an int, not {type(first).__name__}")
    first = _plain(first)
    if first < 0 or first >= n:
        raise PokerDraw32ValueError(f"first seat {first} is outside 0..{n - 1}")
    dead_chips = _check_amount(dead, -1)
    # the live seats' strengths as C integers that compare as the ints do: the ints themselves when
    # they fit, else their ranks among the live strengths
    for seat in range(n):
        ranks[seat] = 0
        if live_m >> seat & 1:
            ranks[seat] = PyLong_AsLongLongAndOverflow(power[seat], &overflow)
            if overflow:
                break
    if overflow:
        order = sorted({power[seat] for seat in range(n) if live_m >> seat & 1})
        where = {value: i for i, value in enumerate(order)}
        for seat in range(n):
            ranks[seat] = where[power[seat]] if live_m >> seat & 1 else 0
    npots = split_pots_c(<int>n, chips, ranks, live_m, sharers_m, <int>first, dead_chips, &top, &returned_top,
                         won, amounts, eligibles, winners, shared)
    pots = [(amounts[k], eligibles[k], winners[k], shared[k]) for k in range(npots)]
    returned = [0] * n
    returned[top] = returned_top
    return returned, pots, [won[seat] for seat in range(n)]


cdef int split_pots_c(int n, long long *chips, const long long *strength, uint32_t live_m, uint32_t sharers_m,
                      int first_seat, long long dead_chips, int *top_out, long long *returned_top,
                      long long *won, long long *amounts, uint32_t *eligibles, uint32_t *winners_out,
                      bint *shared_out) noexcept nogil:
    """:func:`split_pots` on checked C arrays (declared in _core.pxd for the hand's core): ``chips``
    (changed: the uncalled part taken off), ``strength`` of the live seats (larger wins), seats
    ``0 .. n-1`` (2 to 32). Writes the seat given back its uncalled chips and how many, each seat's
    winnings, and per pot its amount, eligible seats, winners and whether it is shared by
    agreement; returns the number of pots (at most ``n``)."""
    cdef int seat, top, j, k, npots = 0, nlevels = 0, nwinners
    cdef long long levels[32]
    cdef long long second, level, below, amount, total, extra, share, odd, best = 0
    cdef uint32_t eligible, winners
    cdef bint shared, found

    # R9.2: the uncalled part of the largest contribution goes back.
    top = 0
    for seat in range(1, n):
        if chips[seat] > chips[top]:
            top = seat
    second = -1
    for seat in range(n):
        if seat != top and chips[seat] > second:
            second = chips[seat]
    top_out[0] = top
    returned_top[0] = 0
    if chips[top] > second:
        returned_top[0] = chips[top] - second
        chips[top] = second

    # R9.1: one pot per distinct live contribution (insertion sort of at most 32 levels).
    for seat in range(n):
        level = chips[seat]
        if live_m >> seat & 1 and level > 0:
            k = nlevels
            while k > 0 and levels[k - 1] > level:
                k -= 1
            if k > 0 and levels[k - 1] == level:
                continue
            for j in range(nlevels, k, -1):
                levels[j] = levels[j - 1]
            levels[k] = level
            nlevels += 1
    if nlevels == 0:
        total = dead_chips
        for seat in range(n):
            total += chips[seat]
        if total:
            amounts[0] = total
            eligibles[0] = live_m
            npots = 1
    else:
        below = 0
        for k in range(nlevels):
            level = levels[k]
            amount = 0
            eligible = 0
            for seat in range(n):
                if chips[seat] > below:
                    amount += (chips[seat] if chips[seat] < level else level) - below
                if live_m >> seat & 1 and chips[seat] >= level:
                    eligible |= 1U << seat
            amounts[k] = amount
            eligibles[k] = eligible
            below = level
        npots = nlevels
        extra = 0
        for seat in range(n):
            if chips[seat] > below:
                extra += chips[seat] - below
        amounts[npots - 1] += extra
        amounts[0] += dead_chips

    # R8.3, R9.4: award each pot.
    for seat in range(n):
        won[seat] = 0
    for k in range(npots):
        eligible = eligibles[k]
        shared = False
        if eligible & (eligible - 1) == 0:
            winners = eligible
        elif eligible & ~sharers_m == 0:
            winners = eligible
            shared = True
        else:
            found = False
            winners = 0
            for seat in range(n):
                if eligible >> seat & 1:
                    if not found or strength[seat] > best:
                        found = True
                        best = strength[seat]
                        winners = 1U << seat
                    elif strength[seat] == best:
                        winners |= 1U << seat
        nwinners = _popcount32(winners)
        share = amounts[k] // nwinners
        odd = amounts[k] % nwinners
        for seat in range(n):
            if winners >> seat & 1:
                won[seat] += share
        seat = first_seat
        while odd:
            if winners >> seat & 1:
                won[seat] += 1
                odd -= 1
            seat = seat + 1 if seat + 1 < n else 0
        winners_out[k] = winners
        shared_out[k] = shared
    return npots


# --------------------------------------------------------------------------------------
# Kernel 4: exact draw odds (R6.1, R2)

from libc.string cimport memset

__all__ += ["draw_outcomes", "draw_summary", "strength_score"]

cdef uint32_t _SCORE[_NVALUES]        # value index -> 2 * hands below + hands equal (R2.4 on)
cdef uint32_t _PLAIN_SCORE[_NVALUES]  # the same with R2.4 off (hands equal in ranks tie)


cdef void _init_scores() noexcept nogil:
    """Fill _SCORE and _PLAIN_SCORE from _INDEX and _VALUES (well under 1 ms)."""
    cdef uint32_t per[_NVALUES]
    cdef Py_ssize_t i, j, g
    cdef uint32_t below = 0, group
    for i in range(_NVALUES):
        per[i] = 0
    for i in range(_NHANDS):
        per[_INDEX[i]] += 1
    for i in range(_NVALUES):
        _SCORE[i] = 2 * below + per[i]
        below += per[i]
    # With R2.4 off the values equal but for the suit field are adjacent in _VALUES.
    below = 0
    i = 0
    while i < _NVALUES:
        j = i
        group = 0
        while j < _NVALUES and (_VALUES[j] | 3U) == (_VALUES[i] | 3U):
            group += per[j]
            j += 1
        for g in range(i, j):
            _PLAIN_SCORE[g] = 2 * below + group
        below += group
        i = j




cdef int _draw_args(object hand, object discard, object excluded,
                    uint32_t *kept, uint32_t *unseen) except -1:
    """Check the arguments of a draw; set ``kept`` and ``unseen``; return the cards to draw."""
    cdef uint32_t h = _check_deck_mask(hand, "hand mask")
    cdef uint32_t d, x, u
    cdef int n = _popcount32(h), k
    if n != 5:
        raise PokerDraw32ValueError(f"hand mask {hand:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    d = _check_deck_mask(discard, "discard mask")
    if d & ~h:
        raise PokerDraw32ValueError(f"discard mask {discard:#x} is not within hand mask {hand:#x}")
    k = _popcount32(d)
    if k > 4:
        raise PokerDraw32ValueError(f"discard mask {discard:#x} has 5 cards; at most 4 may be discarded (R6.1)")
    x = _check_deck_mask(excluded, "excluded mask")
    u = ~(h | x)
    if _popcount32(u) < k:
        raise PokerDraw32ValueError(f"only {_popcount32(u)} unseen cards for a draw of {k}")
    kept[0] = h & ~d
    unseen[0] = u
    return k


cdef void _count_draws(uint32_t kept, int k, uint32_t unseen, uint32_t *count) noexcept nogil:
    """Add 1 to ``count[value index]`` for every set of ``k`` cards of ``unseen`` (0 <= k <= 4)."""
    cdef uint32_t bits[32]
    cdef uint32_t m1, m2, m3
    cdef int n = 0, a, b, c, e
    while unseen:
        bits[n] = unseen & (~unseen + 1U)
        n += 1
        unseen &= unseen - 1
    if k == 0:
        count[_index_of(kept)] += 1
    elif k == 1:
        for a in range(n):
            count[_index_of(kept | bits[a])] += 1
    elif k == 2:
        for a in range(n):
            m1 = kept | bits[a]
            for b in range(a + 1, n):
                count[_index_of(m1 | bits[b])] += 1
    elif k == 3:
        for a in range(n):
            m1 = kept | bits[a]
            for b in range(a + 1, n):
                m2 = m1 | bits[b]
                for c in range(b + 1, n):
                    count[_index_of(m2 | bits[c])] += 1
    else:
        for a in range(n):
            m1 = kept | bits[a]
            for b in range(a + 1, n):
                m2 = m1 | bits[b]
                for c in range(b + 1, n):
                    m3 = m2 | bits[c]
                    for e in range(c + 1, n):
                        count[_index_of(m3 | bits[e])] += 1


def draw_outcomes(hand, discard, excluded, bint suit_tiebreak=True):
    """Exact distribution of the final hand after a draw (R6.1): every replacement set, counted.

    The player holds the 5 cards of ``hand``, throws away the ``k`` cards of ``discard``
    and is dealt ``k`` of the *unseen* cards: the deck minus ``hand`` minus ``excluded``
    (dead cards, other players' known discards). A player never draws their own cards
    (R6.2), whether ``excluded`` names them or not. Each of the ``C(unseen, k)`` sets of
    replacement cards is equally likely, and every one is evaluated (R2).

    :param hand: 32-bit card mask with exactly 5 bits set (bit ``4 * rank + suit``).
    :param discard: mask of the cards thrown away: within ``hand``, 0 to 4 cards
        (0 is standing pat).
    :param excluded: mask of cards that cannot be drawn; any cards of the deck.
    :param suit_tiebreak: R2.4; false zeroes the suit field of the values.
    :returns: ``(total, counts)``: ``total`` is the number of replacement sets,
        ``C(unseen, k)``; ``counts`` is a dict mapping each final value (as
        :func:`evaluate_mask` gives it) to the number of sets that give it, in ascending
        order of value; the counts sum to ``total``.
    :raises TypeError: a mask is not an int (bools are refused).
    :raises ValueError: a mask has bits outside 0..31, ``hand`` does not have 5 cards,
        ``discard`` is not within ``hand`` or has 5 cards, or fewer unseen cards remain
        than ``discard`` has.

    Ah Kh Qh Th 7s throws the seven away: of the 27 unseen cards, 7h 8h 9h make a flush.

    >>> hand = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 15 | 1 << 0
    >>> total, counts = draw_outcomes(hand, 1 << 0, 0)
    >>> total, sum(n for value, n in counts.items() if value >> 22 == 6)
    (27, 3)
    >>> draw_outcomes(hand, hand, 0)
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: discard mask 0x88808001 has 5 cards; at most 4 may be discarded (R6.1)
    """
    if not _ready():
        _build_tables()
    cdef uint32_t kept = 0, unseen = 0
    cdef uint32_t count[_NVALUES]
    cdef int k = _draw_args(hand, discard, excluded, &kept, &unseen)
    cdef Py_ssize_t i
    cdef dict counts = {}
    with nogil:
        memset(count, 0, sizeof(count))
        _count_draws(kept, k, unseen, count)
    for i in range(_NVALUES):
        if count[i]:
            if suit_tiebreak:
                counts[<object>_VALUE_OBJECTS[i]] = count[i]
            else:
                key = <object>_PLAIN_OBJECTS[i]
                counts[key] = counts.get(key, 0) + count[i]
    return _BINOM[k][_popcount32(unseen)], counts


def draw_summary(hand, discard, excluded, bint suit_tiebreak=True):
    """Exact category counts and total strength score of a draw: :func:`draw_outcomes` summed up.

    Same arguments, checks and errors as :func:`draw_outcomes`. The strength score of a
    final value is :func:`strength_score`, so that ``score / (total * 402752)`` is the
    expected percentile of the final hand among all 201,376 hands (the fraction of them
    it beats, ties counting half).

    :returns: ``(total, categories, score)``: ``total`` replacement sets; ``categories``
        a tuple of 9 ints, at index ``c`` the number of sets whose final hand has
        category ``c`` (0 high card .. 8 straight flush, as in :func:`evaluate_mask`);
        ``score`` the sum over all sets of the final hand's strength score.
    :raises TypeError: a mask is not an int (bools are refused).
    :raises ValueError: as :func:`draw_outcomes`.

    Ah Kh Qh Th 7s throws the seven away: Jh makes the royal flush, 7h 8h 9h a flush, the
    other jacks a straight, 12 cards a pair, the other 8 leave ace high.

    >>> hand = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 15 | 1 << 0
    >>> total, categories, score = draw_summary(hand, 1 << 0, 0)
    >>> total, categories
    (27, (8, 12, 0, 0, 3, 0, 3, 0, 1))
    """
    if not _ready():
        _build_tables()
    cdef uint32_t kept = 0, unseen = 0
    cdef uint32_t count[_NVALUES]
    cdef uint64_t categories[9]
    cdef uint64_t score = 0
    cdef int k = _draw_args(hand, discard, excluded, &kept, &unseen)
    cdef Py_ssize_t i
    cdef uint32_t *scores = &_SCORE[0] if suit_tiebreak else &_PLAIN_SCORE[0]
    with nogil:
        memset(count, 0, sizeof(count))
        memset(categories, 0, sizeof(categories))
        _count_draws(kept, k, unseen, count)
        for i in range(_NVALUES):
            if count[i]:
                categories[_VALUES[i] >> 22] += count[i]
                score += <uint64_t>count[i] * scores[i]
    return _BINOM[k][_popcount32(unseen)], tuple([categories[i] for i in range(9)]), score


def strength_score(value, bint suit_tiebreak=True):
    """Strength score of a hand value: ``2 * below + equal`` over all 201,376 hands (R2).

    ``below`` counts the 5-card hands with a smaller value and ``equal`` those with the
    same value (the hand itself included), under the given ``suit_tiebreak`` (R2.4).
    Ties count half, so ``strength_score(v) / 402752`` is the hand's percentile: the
    fraction of all hands it beats.

    :param value: a value given by :func:`evaluate_mask` with the same ``suit_tiebreak``.
    :param suit_tiebreak: R2.4; with false, hands equal in ranks tie.
    :returns: an int, ``0 < score < 402752``.
    :raises TypeError: ``value`` is not an int (bools are refused).
    :raises ValueError: ``value`` is not the value of a 5-card hand.

    >>> strength_score(evaluate_mask(1 << 31 | 1 << 27 | 1 << 23 | 1 << 19 | 1 << 15))  # royal, hearts
    402751
    >>> strength_score(evaluate_codes([20, 12, 8, 4, 1]))   # Qs Ts 9s 8s 7c: 255 such hands
    255
    """
    if not _ready():
        _build_tables()
    cdef int overflow = 0
    cdef long long v
    cdef Py_ssize_t lo = 0, hi = _NVALUES, mid
    if not _is_int(value):
        raise PokerDraw32TypeError(f"value must be an int, not {type(value).__name__}")
    v = PyLong_AsLongLongAndOverflow(value, &overflow)
    if not overflow and 0 <= v < (1LL << 26) and (suit_tiebreak or v & 3 == 0):
        while lo < hi:                       # first index whose value is >= v
            mid = (lo + hi) >> 1
            if _VALUES[mid] < <uint32_t>v:
                lo = mid + 1
            else:
                hi = mid
        if lo < _NVALUES:
            if suit_tiebreak and _VALUES[lo] == <uint32_t>v:
                return _SCORE[lo]
            if not suit_tiebreak and (_VALUES[lo] & ~3U) == <uint32_t>v:
                return _PLAIN_SCORE[lo]
    raise PokerDraw32ValueError(f"{value} is not the value of a 5-card hand (suit_tiebreak {'on' if suit_tiebreak else 'off'})")


# --------------------------------------------------------------------------------------
# Kernel 5: batches (evaluate_many R2, deal_many R11)

from cpython.array cimport array as _carray, clone as _array_clone
from cpython.buffer cimport (PyBUF_FORMAT, PyBUF_STRIDES, PyBuffer_IsContiguous, PyBuffer_Release,
                             PyObject_CheckBuffer, PyObject_GetBuffer)
from libc.string cimport memcpy
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from cpython.object cimport Py_SIZE

import sys as _sys

__all__ += ["deal_many", "evaluate_many"]

cdef _carray _U32_TEMPLATE = _carray("I")
cdef bint _NATIVE_LITTLE = _sys.byteorder == "little"
cdef enum:
    _ROWS_CODES = 1
    _ROWS_MASKS = 2


cdef inline Py_ssize_t _codes_loop(const uint8_t *p, Py_ssize_t n, Py_ssize_t row, Py_ssize_t col,
                                   uint32_t *out, uint32_t keep, uint8_t *bad_row) noexcept nogil:
    """Values of ``n`` rows of 5 codes; the index of the first bad row, or -1.

    A code above 31 is caught before its shift; a repeated code leaves fewer than 5 bits,
    which the slot key says (see :func:`_slot_key`). Each row is read once; the codes of a
    bad row, as read, go to ``bad_row`` (5 items), so the error message describes what was
    evaluated even if another thread changes the buffer."""
    cdef Py_ssize_t i
    cdef uint32_t a, b, c, d, e, key
    for i in range(n):
        a = p[0]
        b = p[col]
        c = p[2 * col]
        d = p[3 * col]
        e = p[4 * col]
        if (a | b | c | d | e) > 31:
            bad_row[0], bad_row[1], bad_row[2], bad_row[3], bad_row[4] = a, b, c, d, e
            return i
        key = _slot_key((1U << a) | (1U << b) | (1U << c) | (1U << d) | (1U << e))
        if key >> 20 != 5:  # a repeated card
            bad_row[0], bad_row[1], bad_row[2], bad_row[3], bad_row[4] = a, b, c, d, e
            return i
        out[i] = _VALUES[_INDEX[key & 0xFFFFFU]] & keep
        p += row
    return -1


cdef inline Py_ssize_t _masks_loop(const char *p, Py_ssize_t n, Py_ssize_t stride,
                                   uint32_t *out, uint32_t keep, uint32_t *bad_mask) noexcept nogil:
    """Values of ``n`` uint32 masks; the index of the first mask without 5 bits, or -1
    (that mask, as read, in ``bad_mask``)."""
    cdef Py_ssize_t i
    cdef uint32_t m, key
    for i in range(n):
        memcpy(&m, p, 4)
        key = _slot_key(m)
        if key >> 20 != 5:
            bad_mask[0] = m
            return i
        out[i] = _VALUES[_INDEX[key & 0xFFFFFU]] & keep
        p += stride
    return -1


cdef int _rows_kind(Py_buffer *view) except -1:
    """Check the layout of ``hands``: _ROWS_CODES or _ROWS_MASKS (see evaluate_many)."""
    cdef str fmt = (<bytes>view.format).decode("ascii") if view.format != NULL else "B"
    cdef str code = _native_format(fmt)
    if code == "B" and view.itemsize == 1:
        return _ROWS_CODES
    if (code == "I" or code == "L") and view.itemsize == 4:
        return _ROWS_MASKS
    raise PokerDraw32TypeError(f"hands must hold uint8 card codes or uint32 masks, not format {fmt!r} with itemsize {view.itemsize}")


cdef str _native_format(str fmt):
    """The struct code of a one-item native-order format ('' if it is something else).
    ctypes writes its formats with an explicit byte order ('<B', '<I'); for one-byte items
    any byte order is native."""
    if len(fmt) == 2 and fmt[0] in "@=<>!" and fmt[1] in "Bbc?":
        return fmt[1]
    if fmt[:1] in ("@", "="):
        fmt = fmt[1:]
    elif fmt[:1] == "<" and _NATIVE_LITTLE or fmt[:1] in (">", "!") and not _NATIVE_LITTLE:
        fmt = fmt[1:]
    return fmt if len(fmt) == 1 else ""


cdef inline Py_ssize_t _dim(Py_buffer *view, int axis):
    """Length of ``axis``; no shape (NULL) means 1-D of ``len // itemsize`` items."""
    if view.shape == NULL:
        return view.len // view.itemsize if view.itemsize > 0 else view.len
    return view.shape[axis]


cdef inline Py_ssize_t _stride(Py_buffer *view, int axis):
    """Stride of ``axis`` in bytes. Some exporters (ctypes, and a ``pickle.PickleBuffer`` of
    one) give no strides (NULL) even when asked: their data is C-contiguous."""
    cdef Py_ssize_t stride = view.itemsize
    cdef int k
    if view.strides != NULL:
        return view.strides[axis]
    for k in range(axis + 1, view.ndim):
        stride *= _dim(view, k)
    return stride


cdef tuple _shape_of(Py_buffer *view):
    return tuple([_dim(view, k) for k in range(view.ndim)])


cdef str _row_problem(Py_ssize_t i, object row):
    """The message for a bad row: its 5 codes (a list) or its mask (an int)."""
    if isinstance(row, int):
        n = _popcount32(<uint32_t>row)
        return f"row {i}: hand mask {row:#x} has {n} card{'' if n == 1 else 's'}, expected 5"
    for code in row:
        if code > 31:
            return f"row {i}: card code {code} is not 0..31"
    seen = set()
    for code in row:
        if code in seen:
            return f"row {i}: card code {code} appears twice"
        seen.add(code)
    raise AssertionError("row is valid")  # pragma: no cover


cdef enum:
    _SMALL_BATCH = 256   # rows evaluated with the GIL held, without the buffer protocol


cdef object _small_batch(object hands, object out, uint32_t keep):
    """:func:`evaluate_many` for a small batch in an exact ``bytes``/``bytearray`` of codes or
    an ``array('I')`` of masks, ``out`` None or an exact ``array('I')``: their memory is read
    and written directly, with the GIL held (so nothing can resize them meanwhile), which saves
    the buffer protocol's fixed cost. None when the call is not such a case: the general path
    then does everything, checks and messages included."""
    cdef Py_ssize_t n, bad, k
    cdef const uint8_t *codes = NULL
    cdef const char *masks = NULL
    cdef uint32_t *values
    cdef uint32_t m = 0
    cdef uint8_t bad_row[5]
    cdef _carray result
    cdef type kind = type(hands)
    if kind is bytes:
        n = PyBytes_GET_SIZE(hands)
        codes = <const uint8_t *>PyBytes_AS_STRING(hands)
    elif kind is bytearray:
        n = PyByteArray_GET_SIZE(hands)
        codes = <const uint8_t *>PyByteArray_AS_STRING(hands)
    elif kind is _carray and (<_carray>hands).ob_descr.itemsize == 4 and (
            (<_carray>hands).ob_descr.typecode == b'I' or (<_carray>hands).ob_descr.typecode == b'L'):
        n = Py_SIZE(hands)
        masks = (<_carray>hands).data.as_chars
    else:
        return None
    if codes != NULL:
        if n % 5:
            return None
        n //= 5
    if n > _SMALL_BATCH:
        return None
    if out is None:
        result = _array_clone(_U32_TEMPLATE, n, False)
    elif type(out) is _carray and Py_SIZE(out) == n and (<_carray>out).ob_descr.itemsize == 4 and (
            (<_carray>out).ob_descr.typecode == b'I' or (<_carray>out).ob_descr.typecode == b'L'):
        result = <_carray>out     # its own memory: disjoint from hands, or hands itself (row i
    else:                         # is read before value i is written, and never again)
        return None
    values = result.data.as_uints
    if codes != NULL:
        bad = _codes_loop(codes, n, 5, 1, values, keep, bad_row)
        if bad >= 0:
            raise PokerDraw32ValueError(_row_problem(bad, [bad_row[k] for k in range(5)]))
    else:
        bad = _masks_loop(masks, n, 4, values, keep, &m)
        if bad >= 0:
            raise PokerDraw32ValueError(_row_problem(bad, m))
    return result


def evaluate_many(hands, out=None, bint suit_tiebreak=True):
    """Values of many 5-card hands at once (R2): ``evaluate_mask`` of each row, in order.

    ``hands`` is any object with the buffer protocol (numpy array, ``bytes``,
    ``bytearray``, ``array.array``, ``memoryview``, ...), in one of two layouts:

    * card codes, uint8 (format ``B``): a 2-D buffer of shape ``(N, 5)``, or a 1-D one
      of ``5 * N`` codes (row ``i`` is items ``5 * i`` to ``5 * i + 4``); the codes of
      a row are distinct, ``0..31``, in any order;
    * card masks, uint32 (itemsize 4, format ``I`` or ``L``, native byte order): a 1-D
      buffer of ``N`` masks with exactly 5 bits set.

    Any strides are accepted (C-contiguous input is fastest). The compiled kernels
    release the GIL while they work, so threads evaluating different batches run in
    parallel; a batch of at most 256 rows in an exact ``bytes``, ``bytearray`` or
    ``array('I')`` (``out`` None or an ``array('I')``) is evaluated with the GIL held,
    without the buffer protocol's fixed cost.

    :param hands: the ``N`` hands, as above.
    :param out: optional writable C-contiguous 1-D buffer of ``N`` uint32 (format ``I``
        or ``L``, itemsize 4) that receives the values; it is returned. It may share
        memory with ``hands`` (masks evaluated in place, a shifted or reversed view): every
        row is read before a value is written. If the call raises, its content is
        unspecified.
    :param suit_tiebreak: R2.4; false zeroes the suit field, so equal ranks tie.
    :returns: ``out`` if given; else a numpy ``uint32`` array if ``hands`` is a numpy
        array; else an ``array.array('I')``. Item ``i`` is the packed value of row ``i``
        (see :func:`evaluate_mask`).
    :raises TypeError: ``hands`` or ``out`` is not a buffer, holds the wrong item type,
        or ``out`` is read-only.
    :raises ValueError: a wrong shape or size, or a bad row: a card code above 31, a
        card twice, or a mask without exactly 5 bits. The message names the first bad
        row, as in ``row 17: card code 40 is not 0..31``.

    >>> values = evaluate_many(bytes([31, 27, 23, 19, 15,  0, 1, 2, 4, 5]))  # Ah Kh Qh Jh Th; 7s 7c 7d 8s 8c
    >>> [value >> 22 for value in values], values[0] == evaluate_mask(0x88888000)
    ([8, 5], True)
    >>> evaluate_many(bytes([0, 1, 2, 3, 40]))
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: row 0: card code 40 is not 0..31
    """
    if not _ready():
        _build_tables()
    cdef object fast = _small_batch(hands, out, 0xFFFFFFFFU if suit_tiebreak else ~3U)
    if fast is not None:
        return fast
    cdef Py_buffer view, target
    cdef bint have_view = False, have_target = False
    cdef int kind
    cdef Py_ssize_t n, row_stride, col_stride, bad = -1, k
    cdef uint32_t keep = 0xFFFFFFFFU if suit_tiebreak else ~3U
    cdef const uint8_t *codes
    cdef const char *masks
    cdef uint32_t *values
    cdef uint32_t m = 0
    cdef uint8_t bad_row[5]
    cdef const char *src
    cdef char *copy
    cdef bytearray scratch
    cdef Py_ssize_t i, j, lo = 0, hi = 0
    if not PyObject_CheckBuffer(hands):
        raise PokerDraw32TypeError(f"hands must be a buffer of uint8 card codes or uint32 masks, not {type(hands).__name__}")
    PyObject_GetBuffer(hands, &view, PyBUF_FORMAT | PyBUF_STRIDES)
    have_view = True
    try:
        kind = _rows_kind(&view)
        if kind == _ROWS_CODES:
            if view.ndim == 2:
                if _dim(&view, 1) != 5:
                    raise PokerDraw32ValueError(f"hands must have shape (N, 5), got {_shape_of(&view)}")
                n = _dim(&view, 0)
                row_stride = _stride(&view, 0)
                col_stride = _stride(&view, 1)
            elif view.ndim == 1:
                if _dim(&view, 0) % 5:
                    raise PokerDraw32ValueError(f"hands holds {_dim(&view, 0)} card codes, not a multiple of 5")
                n = _dim(&view, 0) // 5
                col_stride = _stride(&view, 0)
                row_stride = 5 * col_stride
            else:
                raise PokerDraw32ValueError(f"hands of card codes must be 1-D or 2-D, got shape {_shape_of(&view)}")
        else:
            if view.ndim != 1:
                raise PokerDraw32ValueError(f"hands of masks must be 1-D, got shape {_shape_of(&view)}")
            n = _dim(&view, 0)
            row_stride = _stride(&view, 0)
        if out is None:
            np = _sys.modules.get("numpy")
            if np is not None and isinstance(hands, np.ndarray):
                out = np.empty(n, dtype=np.uint32)
            else:
                out = _array_clone(_U32_TEMPLATE, n, False)
        elif not PyObject_CheckBuffer(out):
            raise PokerDraw32TypeError(f"out must be a writable buffer of uint32, not {type(out).__name__}")
        PyObject_GetBuffer(out, &target, PyBUF_FORMAT | PyBUF_STRIDES)
        have_target = True
        _check_out(&target, n)
        values = <uint32_t *>target.buf
        src = <const char *>view.buf
        if n > 0:
            # the bytes the rows span, [lo, hi) from view.buf (strides may be negative)
            if kind == _ROWS_CODES:
                _widen(&lo, &hi, (n - 1) * row_stride)
                _widen(&lo, &hi, 4 * col_stride)
                hi += 1
            else:
                _widen(&lo, &hi, (n - 1) * row_stride)
                hi += 4
            if src + lo < <const char *>values + 4 * n and <const char *>values < src + hi:
                # out overlaps hands (e.g. masks evaluated in place): read every row before writing
                scratch = bytearray((5 if kind == _ROWS_CODES else 4) * n)
                copy = scratch
                with nogil:
                    if kind == _ROWS_CODES:
                        for i in range(n):
                            for j in range(5):
                                copy[5 * i + j] = src[i * row_stride + j * col_stride]
                        row_stride, col_stride = 5, 1
                    else:
                        for i in range(n):
                            memcpy(copy + 4 * i, src + i * row_stride, 4)
                        row_stride = 4
                src = copy
        with nogil:
            if kind == _ROWS_CODES:
                codes = <const uint8_t *>src
                if row_stride == 5 and col_stride == 1:
                    bad = _codes_loop(codes, n, 5, 1, values, keep, bad_row)
                else:
                    bad = _codes_loop(codes, n, row_stride, col_stride, values, keep, bad_row)
            else:
                masks = src
                if row_stride == 4:
                    bad = _masks_loop(masks, n, 4, values, keep, &m)
                else:
                    bad = _masks_loop(masks, n, row_stride, values, keep, &m)
        if bad >= 0:
            # the row as the loop read it: the buffer may have changed since (another thread)
            if kind == _ROWS_CODES:
                raise PokerDraw32ValueError(_row_problem(bad, [bad_row[k] for k in range(5)]))
            raise PokerDraw32ValueError(_row_problem(bad, m))
        return out
    finally:
        if have_target:
            PyBuffer_Release(&target)
        if have_view:
            PyBuffer_Release(&view)


cdef inline void _widen(Py_ssize_t *lo, Py_ssize_t *hi, Py_ssize_t offset) noexcept:
    """Extend the byte range [lo, hi) by a (signed) stride extent."""
    if offset > 0:
        hi[0] += offset
    else:
        lo[0] += offset


cdef int _check_out(Py_buffer *target, Py_ssize_t n) except -1:
    cdef str fmt = (<bytes>target.format).decode("ascii") if target.format != NULL else "B"
    cdef str code = _native_format(fmt)
    if target.readonly:
        raise PokerDraw32TypeError("out must be a writable buffer, not a read-only one")
    if not ((code == "I" or code == "L") and target.itemsize == 4):
        raise PokerDraw32TypeError(f"out must hold uint32, not format {fmt!r} with itemsize {target.itemsize}")
    if target.ndim != 1 or _dim(target, 0) != n:
        raise PokerDraw32ValueError(f"out must be 1-D with {n} items, got shape {_shape_of(target)}")
    if n > 1 and _stride(target, 0) != 4:
        raise PokerDraw32ValueError("out must be C-contiguous")
    return 0


cdef inline uint64_t _xoshiro_next(uint64_t *s) noexcept nogil:
    cdef uint64_t r = s[1] * 5
    cdef uint64_t result = ((r << 7) | (r >> 57)) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = (s[3] << 45) | (s[3] >> 19)
    return result


cdef void _deal_loop(uint64_t *s, uint8_t *out, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t deck
    cdef int i, j, shift[32]
    cdef uint8_t tmp
    cdef uint64_t r
    for i in range(1, 32):
        shift[i] = 64 - _bit_length64(<uint64_t>i)  # below(i + 1): k = bit length of i
    for deck in range(n):
        for i in range(32):
            out[i] = <uint8_t>i
        for i in range(31, 0, -1):
            while True:
                r = _xoshiro_next(s) >> shift[i]
                if r <= <uint64_t>i:
                    break
            j = <int>r
            tmp = out[i]
            out[i] = out[j]
            out[j] = tmp
        out += 32


def deal_many(rng, n, out=None):
    """``n`` shuffled 32-card decks from ``rng`` (R11): the same cards, in the same order,
    and the same final state of ``rng``, as ``n`` calls of ``rng.shuffled(0xFFFFFFFF)``.

    Deck ``d`` is bytes ``32 * d`` to ``32 * d + 31`` of the result, one card code each.

    :param rng: an :class:`Rng` of this implementation.
    :param n: number of decks, ``0 <= n <= 2**40``.
    :param out: optional writable C-contiguous buffer of ``32 * n`` bytes (any shape,
        itemsize 1, e.g. a numpy ``uint8`` array of shape ``(n, 32)``); it is returned.
    :returns: ``out`` if given, else a new ``bytearray`` of ``32 * n`` card codes.
    :raises TypeError: ``rng`` is not an :class:`Rng`, ``n`` is not an int, or ``out``
        is not a writable buffer of bytes.
    :raises ValueError: ``n`` is out of range, or ``out`` has the wrong size or is not
        C-contiguous.

    >>> one, other = Rng(5), Rng(5)
    >>> decks = deal_many(one, 2)
    >>> list(decks[:32]) == other.shuffled(0xFFFFFFFF) and list(decks[32:]) == other.shuffled(0xFFFFFFFF)
    True
    >>> one.getstate() == other.getstate()
    True
    """
    cdef Py_buffer target
    cdef uint64_t s[4]
    cdef Py_ssize_t count
    cdef Rng gen
    if not isinstance(rng, Rng):
        raise PokerDraw32TypeError(f"rng must be an Rng, not {type(rng).__name__}")
    if not _is_int(n):
        raise PokerDraw32TypeError(f"n must be an int, not {type(n).__name__}")
    n = _plain(n)
    if n < 0 or n > 1 << 40:
        raise PokerDraw32ValueError(f"n must be in 0 <= n <= 2**40, got {n}")
    count = n
    gen = <Rng>rng
    if out is None:
        out = bytearray(32 * count)
    elif not PyObject_CheckBuffer(out):
        raise PokerDraw32TypeError(f"out must be a writable buffer of bytes, not {type(out).__name__}")
    PyObject_GetBuffer(out, &target, PyBUF_FORMAT | PyBUF_STRIDES)
    try:
        if target.readonly:
            raise PokerDraw32TypeError("out must be a writable buffer, not a read-only one")
        if target.itemsize != 1:
            raise PokerDraw32TypeError(f"out must hold bytes, not items of size {target.itemsize}")
        if target.len != 32 * count:
            raise PokerDraw32ValueError(f"out must have {32 * count} bytes (32 per deck), got {target.len}")
        if not PyBuffer_IsContiguous(&target, b"C"):
            raise PokerDraw32ValueError("out must be C-contiguous")
        s[0], s[1], s[2], s[3] = gen._s[0], gen._s[1], gen._s[2], gen._s[3]
        with nogil:
            _deal_loop(s, <uint8_t *>target.buf, count)
        gen._s[0], gen._s[1], gen._s[2], gen._s[3] = s[0], s[1], s[2], s[3]
        return out
    finally:
        PyBuffer_Release(&target)


# --------------------------------------------------------------------------------------
# Kernel 6: Monte Carlo equity against opponents who draw by a policy (R6.1, R6.2, R2, R9.4, R11)

__all__ += ["equity_trials", "rule_discard"]

cdef uint32_t _STRAIGHT_RANK_SETS[5]  # rank bits of the five straights (R2.2)
_STRAIGHT_RANK_SETS[:] = [0xF8, 0x7C, 0x3E, 0x1F, 0x8F]
cdef uint64_t _MAX_TRIALS = 1ULL << 40
cdef uint8_t _BELOW_SHIFT[33]         # n -> 64 - bit length of n - 1 (2 <= n <= 32)


cdef void _init_below_shift() noexcept nogil:
    cdef int n
    _BELOW_SHIFT[0] = _BELOW_SHIFT[1] = 64
    for n in range(2, 33):
        _BELOW_SHIFT[n] = <uint8_t>(64 - _bit_length64(<uint64_t>(n - 1)))


_init_below_shift()


cdef inline uint32_t _below32(uint64_t *s, uint32_t n) noexcept nogil:
    """``Rng.below(n)`` of the generator state ``s``, 1 <= n <= 32 (below(1) draws nothing)."""
    cdef uint64_t r
    cdef int shift
    if n <= 1:
        return 0
    shift = _BELOW_SHIFT[n]
    while True:
        r = _xoshiro_next(s) >> shift
        if r < n:
            return <uint32_t>r


cdef uint32_t _rule(uint32_t mask) noexcept nogil:
    """:func:`rule_discard` of a valid 5-card mask (no checks)."""
    cdef uint32_t category = _lookup(mask) >> 22
    cdef uint32_t d = 0, nibble, same, rank_bits = 0, rest
    cdef int shift, suit, rank, i
    if category >= 4:                    # straight or better: stand pat
        return 0
    if category >= 1:                    # pairs, trips: throw the unmatched cards
        for shift in range(0, 32, 4):
            nibble = (mask >> shift) & 15
            if nibble != 0 and (nibble & (nibble - 1)) == 0:
                d |= nibble << shift
        return d
    for suit in range(4):
        same = mask & (_SPADES << suit)
        if _popcount32(same) == 4:       # four to a flush: throw the odd card
            return mask & ~same
    for rank in range(8):
        if (mask >> (rank << 2)) & 15:
            rank_bits |= 1U << rank
    for rank in range(7, -1, -1):        # highest card first: four to a straight
        if (rank_bits >> rank) & 1:
            rest = rank_bits & ~(1U << rank)
            for i in range(5):
                if (rest & ~_STRAIGHT_RANK_SETS[i]) == 0:
                    return mask & (15U << (rank << 2))
    return mask & ~(1U << (_bit_length64(mask) - 1))   # keep the highest card, draw four


cdef uint32_t _random_pick(uint32_t held, uint64_t *s) noexcept nogil:
    """The ``random`` policy: ``below(5)`` cards, picked by a partial Fisher-Yates shuffle."""
    cdef uint8_t cards[5]
    cdef uint8_t tmp
    cdef int i = 0, size, r
    cdef uint32_t thrown = 0, m = held
    while m:
        cards[i] = <uint8_t>_ctz32(m)
        i += 1
        m &= m - 1
    size = <int>_below32(s, 5)
    for i in range(size):
        r = i + <int>_below32(s, <uint32_t>(5 - i))
        tmp = cards[i]
        cards[i] = cards[r]
        cards[r] = tmp
        thrown |= 1U << cards[i]
    return thrown


cdef void _equity_loop(uint64_t *master, uint64_t trials, uint32_t hand, uint32_t discard, uint32_t unseen,
                       int opponents, int folded, bint reshuffle_folded, int policy, int position,
                       uint32_t keep, uint64_t *counts) noexcept nogil:
    """The trials of :func:`equity_trials` (arguments checked); adds to ``counts[0..5]``."""
    cdef uint8_t start[32]
    cdef uint8_t stub[32]
    cdef uint32_t holdings[4]
    cdef int drawers[5]
    cdef int nstart = 0, n, i, j, seat, who, ways
    cdef uint32_t pile, held, thrown, hero, hero_value, best, value, m, r
    cdef uint64_t s[4]
    cdef uint64_t x, trial
    m = unseen
    while m:
        start[nstart] = <uint8_t>_ctz32(m)
        nstart += 1
        m &= m - 1
    for seat in range(opponents + 1):    # draw order: -1 is the hero, 0.. the opponents in turn
        drawers[seat] = -1 if seat == position else (seat if seat < position else seat - 1)
    for trial in range(trials):
        x = _xoshiro_next(master)        # Rng(x): the state is the next four SplitMix64 outputs
        s[0] = _splitmix64(&x)
        s[1] = _splitmix64(&x)
        s[2] = _splitmix64(&x)
        s[3] = _splitmix64(&x)
        memcpy(stub, start, nstart)
        n = nstart
        pile = 0
        for i in range(opponents + folded):
            held = 0
            for j in range(5):
                r = _below32(s, <uint32_t>n)
                n -= 1
                held |= 1U << stub[r]
                stub[r] = stub[n]
            if i < opponents:
                holdings[i] = held
            elif reshuffle_folded:
                pile |= held
        hero = hand
        for seat in range(opponents + 1):
            who = drawers[seat]
            if who < 0:
                held = hero
                thrown = discard
            else:
                held = holdings[who]
                if policy == 1:
                    thrown = _rule(held)
                elif policy == 0:
                    thrown = 0
                else:
                    thrown = _random_pick(held, s)
            if thrown:
                held &= ~thrown
                for j in range(_popcount32(thrown)):
                    if n == 0:           # R6.2: the stub is exhausted; the discard pile becomes the stub
                        m = pile
                        while m:
                            stub[n] = <uint8_t>_ctz32(m)
                            n += 1
                            m &= m - 1
                        pile = 0
                        if n == 0:       # cannot happen: the arguments were checked
                            break
                    r = _below32(s, <uint32_t>n)
                    n -= 1
                    held |= 1U << stub[r]
                    stub[r] = stub[n]
                pile |= thrown           # the player's discards join the pile only after they are served (R6.2)
            if who < 0:
                hero = held
            else:
                holdings[who] = held
        hero_value = _lookup(hero) & keep
        best = 0
        ways = 0
        for i in range(opponents):
            value = _lookup(holdings[i]) & keep
            if ways == 0 or value > best:
                best = value
                ways = 1
            elif value == best:
                ways += 1
        if hero_value > best:
            counts[1] += 1
        elif hero_value == best:
            counts[ways + 1] += 1
        else:
            counts[0] += 1


def rule_discard(hand):
    """The discard of the ``"rule"`` draw policy for a 5-card hand (R6.1: 0 to 4 cards).

    The rule is :func:`pokerdraw32.bots.choose_discards` applied to the cards highest
    first (so that of two straight draws the one keeping the lower four cards, the open
    one, is taken):

    * straight, flush, full house, four of a kind, straight flush: stand pat;
    * three of a kind, two pair, one pair: throw every card whose rank is not matched;
    * high card with four cards of one suit: throw the fifth card;
    * high card with four cards inside one straight's ranks (R2.2, A-7-8-9-T included):
      throw the fifth card, trying the cards highest first;
    * otherwise keep the highest card and throw the other four.

    :param hand: 32-bit card mask with exactly 5 bits set.
    :returns: the mask of the cards thrown away, within ``hand`` (0 is standing pat).
    :raises TypeError: ``hand`` is not an int (bools are refused).
    :raises ValueError: ``hand`` has bits outside 0..31 or does not have 5 bits set.

    >>> rule_discard(1 << 31 | 1 << 30 | 1 << 2 | 1 << 4 | 1 << 10)   # Ah Ad 7d 8s 9d: keep the aces
    1044
    >>> rule_discard(1 << 31 | 1 << 27 | 1 << 3 | 1 << 7 | 1 << 10) == 1 << 10   # four hearts: throw 9d
    True
    """
    if not _ready():
        _build_tables()
    cdef uint32_t h = _check_deck_mask(hand, "hand mask")
    cdef int n = _popcount32(h)
    if n != 5:
        raise PokerDraw32ValueError(f"hand mask {hand:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    return _rule(h)


def equity_trials(rng, trials, hand, discard, excluded, opponents, policy, position, folded=0,
                  bint reshuffle_folded=False, bint suit_tiebreak=True):
    """Play ``trials`` random draws and showdowns of one hand against ``opponents`` (Monte Carlo).

    The hero holds the 5 cards of ``hand`` and will throw away those of ``discard``. The
    *unseen* cards are the deck minus ``hand`` minus ``excluded`` (dead cards: never dealt,
    never drawn, never reshuffled). Each trial:

    1. takes its own generator ``Rng(rng.next_u64())`` (so trial ``t`` of a run is the same
       whatever the hero discards: common random numbers), and keeps the unseen cards as
       the stub, in ascending code order; "a card from the stub" below is always the card
       at index ``below(n)`` of the ``n`` stub cards, which is then replaced by the last
       one (a uniform draw without replacement, the same as dealing from a shuffled stub,
       R11.1);
    2. deals 5 stub cards to each opponent in turn, then 5 to each of ``folded`` players
       who fold before the draw: their cards are dead, or with ``reshuffle_folded`` go to
       the discard pile (R6.2 option);
    3. the draw (R6.1), the ``opponents + 1`` players in draw order, the hero at index
       ``position`` (0: first, left of the button): a player discards (the hero
       ``discard``; an opponent by ``policy``) and is dealt as many cards one at a time
       from the stub; when the stub is empty the discard pile is "reshuffled": its cards,
       in ascending code order, become the stub (R6.2). A player's discards join the pile
       after the player is served, so nobody receives their own discards;
    4. the showdown (R2; with ``suit_tiebreak`` false, equal ranks tie and split, R9.4).

    Policies: 0 ``pat`` (stand pat), 1 ``rule`` (:func:`rule_discard`), 2 ``random`` (the
    number of cards ``below(5)``, then that many of the hand's cards in ascending code
    order, chosen by a partial Fisher-Yates shuffle: for ``i`` from 0, swap item ``i``
    with item ``i + below(5 - i)``).

    :param rng: an :class:`Rng` of this implementation; advanced by one ``next_u64`` per trial.
    :param trials: number of trials, ``0 <= trials <= 2**40``.
    :param hand: the hero's 32-bit card mask, exactly 5 bits set.
    :param discard: the cards the hero throws away: within ``hand``, 0 to 4 of them.
    :param excluded: mask of dead cards; any cards of the deck (those of ``hand`` change nothing).
    :param opponents: 1 to 4 opponents (R3.1: 2 to 5 players).
    :param policy: the opponents' draw policy, 0, 1 or 2 as above.
    :param position: the hero's index in the draw order, ``0 <= position <= opponents``.
    :param folded: players dealt in who fold before the draw, ``0 <= folded`` and
        ``1 + opponents + folded <= 5`` (R3.1).
    :param reshuffle_folded: R6.2 option: the folded hands join the discard pile.
    :param suit_tiebreak: R2.4; false: hands equal in ranks tie.
    :returns: 6 ints ``counts``: ``counts[0]`` trials lost, ``counts[m]`` (m = 1..5) trials in
        which the hero won a 1/m share of the pot (``counts[1]``: won alone). They sum to
        ``trials``; the hero's equity (mean pot share) is ``sum(counts[m] / m) / trials``.
    :raises TypeError: ``rng`` is not an :class:`Rng`, or another argument is not an int.
    :raises ValueError: an argument is out of range, ``discard`` is not within ``hand`` or
        has 5 cards, or there are too few unseen cards to deal the hands or to complete
        a draw of 4 (of the hero's ``discard`` when ``policy`` is 0) (R6.2).

    >>> hand = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 19 | 1 << 15   # Ah Kh Qh Jh Th: a royal flush
    >>> equity_trials(Rng(1), 1000, hand, 0, 0, 4, 1, 0)
    (0, 1000, 0, 0, 0, 0)
    """
    if not _ready():
        _build_tables()
    cdef uint32_t kept = 0, unseen = 0, h
    cdef int k, n_unseen, dealt, available, need
    cdef uint64_t counts[6]
    cdef uint64_t s[4]
    cdef uint64_t ntrials
    cdef int n_opponents, n_folded, policy_code, seat
    cdef uint32_t keep = 0xFFFFFFFFU if suit_tiebreak else ~3U
    cdef Rng gen
    if not isinstance(rng, Rng):
        raise PokerDraw32TypeError(f"rng must be an Rng, not {type(rng).__name__}")
    if not _is_int(trials):
        raise PokerDraw32TypeError(f"trials must be an int, not {type(trials).__name__}")
    trials = _plain(trials)
    if trials < 0 or trials > _MAX_TRIALS:
        raise PokerDraw32ValueError(f"trials must be in 0 <= trials <= 2**40, got {trials}")
    k = _draw_args(hand, discard, excluded, &kept, &unseen)
    h = <uint32_t>hand
    for name, value in (("opponents", opponents), ("policy", policy), ("position", position), ("folded", folded)):
        if not _is_int(value):
            raise PokerDraw32TypeError(f"{name} must be an int, not {type(value).__name__}")
    opponents, policy, position, folded = _plain(opponents), _plain(policy), _plain(position), _plain(folded)
    if opponents < 1 or opponents > 4:
        raise PokerDraw32ValueError(f"opponents must be 1 to 4 (2 to 5 players, R3.1), got {opponents}")
    if policy < 0 or policy > 2:
        raise PokerDraw32ValueError(f"policy must be 0 (pat), 1 (rule) or 2 (random), got {policy}")
    if position < 0 or position > opponents:
        raise PokerDraw32ValueError(f"position must be 0 to {opponents} (the hero's place in the draw order), got {position}")
    if folded < 0 or 1 + opponents + folded > 5:
        raise PokerDraw32ValueError(f"{1 + opponents} players and {folded} folded: 2 to 5 players are dealt in (R3.1)")
    n_opponents = opponents
    n_folded = folded
    policy_code = policy
    seat = position
    n_unseen = _popcount32(unseen)
    dealt = 5 * (n_opponents + n_folded)
    if n_unseen < dealt:
        raise PokerDraw32ValueError(f"only {n_unseen} unseen cards, too few to deal {n_opponents + n_folded} hands of 5")
    available = n_unseen - dealt + (5 * n_folded if reshuffle_folded else 0)
    need = k if policy_code == 0 else 4
    if available < need:
        raise PokerDraw32ValueError(f"only {available} cards for the draw, too few for a draw of {need} (R6.2)")
    ntrials = trials
    gen = <Rng>rng
    memset(counts, 0, sizeof(counts))
    s[0], s[1], s[2], s[3] = gen._s[0], gen._s[1], gen._s[2], gen._s[3]
    with nogil:
        _equity_loop(s, ntrials, h, h & ~kept, unseen, n_opponents, n_folded, reshuffle_folded, policy_code, seat,
                     keep, counts)
    gen._s[0], gen._s[1], gen._s[2], gen._s[3] = s[0], s[1], s[2], s[3]
    return counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
