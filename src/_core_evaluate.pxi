# Kernel 1: hand evaluation (R2)
#
# Part of pokerdraw32._core: src/_core.pyx includes this file (Cython `include`, textual),
# so it shares that module's imports, helpers and namespace; it is not compiled alone.

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


cdef inline bint _five_cards(uint32_t key) noexcept nogil:
    """Whether the mask of slot key ``key`` is a 5-card hand (see :func:`_slot_key`)."""
    return key >> 20 == 5


cdef inline uint32_t _index_at(uint32_t key) noexcept nogil:
    """Index in _VALUES of the value of the hand of slot key ``key``; a 5-card hand's only."""
    return _INDEX[key & 0xFFFFFU]


cdef inline uint32_t _index_of(uint32_t mask) noexcept nogil:
    """Index in _VALUES of the value of a mask with exactly 5 bits set; no checks."""
    return _index_at(_slot_key(mask))


cdef inline uint32_t _lookup(uint32_t mask) noexcept nogil:
    """Packed value (suit tie-break on) of a mask with exactly 5 bits set; no checks."""
    return _VALUES[_index_of(mask)]


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
    if not _five_cards(key):
        n = _popcount32(<uint32_t>m)
        raise PokerDraw32ValueError(f"hand mask {mask:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    i = _index_at(key)
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


def evaluate_text(text, deck, suit_tiebreak=True):
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
    index = _index_of(mask)
    # suit_tiebreak's truth is read last, as in the twin (an object whose truth raises: the same)
    return ((cards[codes[0]], cards[codes[1]], cards[codes[2]], cards[codes[3]], cards[codes[4]]),
            <object>(_VALUE_OBJECTS[index] if suit_tiebreak else _PLAIN_OBJECTS[index]))
