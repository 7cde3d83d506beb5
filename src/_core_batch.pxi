# Kernel 5: batches (evaluate_many R2, deal_many R11)
#
# Part of pokerdraw32._core: src/_core.pyx includes this file (Cython `include`, textual),
# so it shares that module's imports, helpers and namespace; it is not compiled alone.

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


cdef uint32_t _CODE_BIT[256]   # a byte -> its card's bit: 1 << code for a code 0..31, else 0 (not a card)
_CODE_BIT[:] = [1 << code if code < 32 else 0 for code in range(256)]


cdef inline uint32_t _row_key(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e) noexcept nogil:
    """The slot key of a row of 5 codes. Each code's bit comes from a table in which a code above
    31 has none, so a bad code or a repeated one leaves fewer than 5 bits, which the key says
    (see :func:`_slot_key`): one test a row."""
    return _slot_key(_CODE_BIT[a] | _CODE_BIT[b] | _CODE_BIT[c] | _CODE_BIT[d] | _CODE_BIT[e])


cdef Py_ssize_t _rows_loop(const uint8_t *p, Py_ssize_t n, uint32_t *out, uint8_t *bad_row) noexcept nogil:
    """Values (suit tie-break on) of ``n`` contiguous rows of 5 codes; the index of the first bad
    row, or -1. Each row is read once; the codes of a bad row, as read, go to ``bad_row`` (5
    items), so the error message describes what was evaluated even if another thread changes the
    buffer."""
    cdef Py_ssize_t i
    cdef uint32_t a, b, c, d, e, key
    for i in range(n):
        a, b, c, d, e = p[0], p[1], p[2], p[3], p[4]
        key = _row_key(a, b, c, d, e)
        if not _five_cards(key):  # a code above 31, or a repeated card
            bad_row[0], bad_row[1], bad_row[2], bad_row[3], bad_row[4] = a, b, c, d, e
            return i
        out[i] = _VALUES[_index_at(key)]
        p += 5
    return -1


cdef Py_ssize_t _strided_rows_loop(const uint8_t *p, Py_ssize_t n, Py_ssize_t row, Py_ssize_t col,
                                   uint32_t *out, uint8_t *bad_row) noexcept nogil:
    """:func:`_rows_loop` for rows ``row`` bytes apart whose codes are ``col`` bytes apart."""
    cdef Py_ssize_t i
    cdef uint32_t a, b, c, d, e, key
    for i in range(n):
        a, b, c, d, e = p[0], p[col], p[2 * col], p[3 * col], p[4 * col]
        key = _row_key(a, b, c, d, e)
        if not _five_cards(key):
            bad_row[0], bad_row[1], bad_row[2], bad_row[3], bad_row[4] = a, b, c, d, e
            return i
        out[i] = _VALUES[_index_at(key)]
        p += row
    return -1


cdef Py_ssize_t _masks_loop(const char *p, Py_ssize_t n, Py_ssize_t stride, uint32_t *out,
                            uint32_t *bad_mask) noexcept nogil:
    """Values (suit tie-break on) of ``n`` uint32 masks ``stride`` bytes apart; the index of the
    first mask without 5 bits, or -1 (that mask, as read, in ``bad_mask``)."""
    cdef Py_ssize_t i
    cdef uint32_t m, key
    for i in range(n):
        memcpy(&m, p + i * stride, 4)
        key = _slot_key(m)
        if not _five_cards(key):
            bad_mask[0] = m
            return i
        out[i] = _VALUES[_index_at(key)]
    return -1


# The loops are called through these pointers so that the compiler keeps each a small function of
# its own: inlined into evaluate_many's long body, the rows loop kept its pointers, its stride and
# the suit mask on the stack (about five extra memory operations a row). The suit field is cleared
# (R2.4 off) in a pass of its own for the same reason.
ctypedef Py_ssize_t (*_RowsLoop)(const uint8_t *, Py_ssize_t, uint32_t *, uint8_t *) noexcept nogil
ctypedef Py_ssize_t (*_StridedRowsLoop)(const uint8_t *, Py_ssize_t, Py_ssize_t, Py_ssize_t, uint32_t *,
                                        uint8_t *) noexcept nogil
ctypedef Py_ssize_t (*_MasksLoop)(const char *, Py_ssize_t, Py_ssize_t, uint32_t *, uint32_t *) noexcept nogil
cdef _RowsLoop _rows_loop_fn = _rows_loop
cdef _StridedRowsLoop _strided_rows_loop_fn = _strided_rows_loop
cdef _MasksLoop _masks_loop_fn = _masks_loop


cdef Py_ssize_t _evaluate_rows(const uint8_t *p, Py_ssize_t n, Py_ssize_t row, Py_ssize_t col, uint32_t *out,
                               uint32_t keep, uint8_t *bad_row) noexcept nogil:
    """Values of ``n`` rows of 5 codes into ``out``, the suit field kept by ``keep``; the index of
    the first bad row (its codes in ``bad_row``), or -1."""
    cdef Py_ssize_t bad = (_rows_loop_fn(p, n, out, bad_row) if row == 5 and col == 1
                           else _strided_rows_loop_fn(p, n, row, col, out, bad_row))
    _keep_suits(out, n if bad < 0 else bad, keep)
    return bad


cdef Py_ssize_t _evaluate_masks(const char *p, Py_ssize_t n, Py_ssize_t stride, uint32_t *out,
                                uint32_t keep, uint32_t *bad_mask) noexcept nogil:
    """Values of ``n`` masks into ``out``, the suit field kept by ``keep``; the index of the first
    mask without 5 bits (in ``bad_mask``), or -1."""
    cdef Py_ssize_t bad = _masks_loop_fn(p, n, stride, out, bad_mask)
    _keep_suits(out, n if bad < 0 else bad, keep)
    return bad


cdef inline void _keep_suits(uint32_t *out, Py_ssize_t n, uint32_t keep) noexcept nogil:
    cdef Py_ssize_t i
    if keep != 0xFFFFFFFFU:
        for i in range(n):
            out[i] &= keep


cdef str _format_text(Py_buffer *view):
    """The buffer's struct format as text, as ``memoryview.format`` gives it (``"B"`` if it has
    none); one that is not UTF-8 (no exporter we know writes one) as ``(not UTF-8)``."""
    if view.format == NULL:
        return "B"
    try:
        return (<bytes>view.format).decode("utf-8")
    except UnicodeDecodeError:
        return "(not UTF-8)"


cdef int _get_buffer(object obj, Py_buffer *view, str what) except -1:
    """``PyObject_GetBuffer`` with the strides and the format; an exporter's refusal (numpy: a
    datetime dtype, ...) raised as a PokerDraw32TypeError that names the argument ``what``."""
    try:
        PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_STRIDES)
    except (ValueError, BufferError, TypeError) as exc:
        raise PokerDraw32TypeError(f"{what}: {type(obj).__name__} does not export one ({exc})") from exc
    return 0


cdef int _rows_kind(Py_buffer *view) except -1:
    """Check the layout of ``hands``: _ROWS_CODES or _ROWS_MASKS (see evaluate_many)."""
    cdef str fmt = _format_text(view)
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


cdef int _raise_bad_row(Py_ssize_t bad, bint codes, const uint8_t *bad_row, uint32_t mask) except -1:
    """Raise the error for bad row ``bad``: its codes (``bad_row``) or its ``mask`` as the loop read
    them (the buffer may have changed since: another thread)."""
    cdef int k
    if codes:
        raise PokerDraw32ValueError(_row_problem(bad, [bad_row[k] for k in range(5)]))
    raise PokerDraw32ValueError(_row_problem(bad, mask))


cdef enum:
    _SMALL_BATCH = 256   # rows evaluated with the GIL held, without the buffer protocol


cdef inline bint _is_u32_array(object obj) noexcept:
    """``obj`` is exactly an ``array.array`` of 4-byte unsigned items (typecode ``I``, or ``L``
    where that is 4 bytes)."""
    return type(obj) is _carray and (<_carray>obj).ob_descr.itemsize == 4 and (
        (<_carray>obj).ob_descr.typecode == b'I' or (<_carray>obj).ob_descr.typecode == b'L')


cdef Py_ssize_t _small_rows(object hands, const char **data) noexcept:
    """The number of rows of ``hands`` if the small-batch path takes it, its memory in ``data``
    (codes if ``hands`` is a ``bytes`` or ``bytearray``, masks if an ``array('I')``); -1 if not.
    Reads the object as it is now: no Python code runs here."""
    cdef type kind = type(hands)
    cdef Py_ssize_t size
    if kind is bytes or kind is bytearray:
        if PD32_FREE_THREADED and kind is bytearray:
            return -1     # no GIL: another thread could resize it meanwhile
        size = PyBytes_GET_SIZE(hands) if kind is bytes else PyByteArray_GET_SIZE(hands)
        data[0] = PyBytes_AS_STRING(hands) if kind is bytes else PyByteArray_AS_STRING(hands)
        return size // 5 if size % 5 == 0 and size // 5 <= _SMALL_BATCH else -1
    if not PD32_FREE_THREADED and _is_u32_array(hands):
        data[0] = (<_carray>hands).data.as_chars
        return Py_SIZE(hands) if Py_SIZE(hands) <= _SMALL_BATCH else -1
    return -1


cdef object _small_batch(object hands, object out, uint32_t keep):
    """:func:`evaluate_many` for a small batch in an exact ``bytes``/``bytearray`` of codes or
    an ``array('I')`` of masks, ``out`` None or an exact ``array('I')``: their memory is read
    and written directly, with the GIL held (so nothing can resize them meanwhile), which saves
    the buffer protocol's fixed cost. On a free-threaded CPython, which has no GIL to hold, only
    an immutable ``bytes`` with ``out`` None takes this path. None when the call is not such a
    case: the general path then does everything, checks and messages included.

    The result array is made before the memory of ``hands`` is looked up, and nothing that can
    run Python code comes between that and the loop: making it can start the garbage collector,
    whose finalizers could resize ``hands`` (the general path holds a buffer export instead)."""
    cdef Py_ssize_t n, bad
    cdef const char *data = NULL
    cdef uint32_t *values
    cdef uint32_t m = 0
    cdef uint8_t bad_row[5]
    cdef _carray result
    cdef bint codes = type(hands) is not _carray
    n = _small_rows(hands, &data)
    if n < 0:
        return None
    if out is None:
        result = _array_clone(_U32_TEMPLATE, n, False)
        if _small_rows(hands, &data) != n:   # resized meanwhile, by a finalizer
            return None
    elif not PD32_FREE_THREADED and _is_u32_array(out) and Py_SIZE(out) == n:
        result = <_carray>out     # its own memory: disjoint from hands, or hands itself (row i
    else:                         # is read before value i is written, and never again)
        return None
    values = result.data.as_uints
    if codes:
        bad = _evaluate_rows(<const uint8_t *>data, n, 5, 1, values, keep, bad_row)
    else:
        bad = _evaluate_masks(data, n, 4, values, keep, &m)
    if bad >= 0:
        _raise_bad_row(bad, codes, bad_row, m)
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
    without the buffer protocol's fixed cost (free-threaded CPython: only ``bytes``).

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
    :raises TypeError: ``hands`` or ``out`` is not a buffer (or its exporter refuses to
        give one: numpy, for a datetime array), holds the wrong item type,
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
    cdef Py_ssize_t n, row_stride, col_stride, bad = -1
    cdef uint32_t keep = 0xFFFFFFFFU if suit_tiebreak else ~3U
    cdef uint32_t *values
    cdef uint32_t m = 0
    cdef uint8_t bad_row[5]
    cdef const char *src
    cdef char *copy
    cdef bytearray scratch
    cdef Py_ssize_t i, j, lo = 0, hi = 0
    if not PyObject_CheckBuffer(hands):
        raise PokerDraw32TypeError(f"hands must be a buffer of uint8 card codes or uint32 masks, not {type(hands).__name__}")
    _get_buffer(hands, &view, "hands must be a buffer of uint8 card codes or uint32 masks")
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
        _get_buffer(out, &target, "out must be a writable buffer of uint32")
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
                bad = _evaluate_rows(<const uint8_t *>src, n, row_stride, col_stride, values, keep, bad_row)
            else:
                bad = _evaluate_masks(src, n, row_stride, values, keep, &m)
        if bad >= 0:
            _raise_bad_row(bad, kind == _ROWS_CODES, bad_row, m)
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
    cdef str fmt = _format_text(target)
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
        is not a writable buffer of bytes (or its exporter refuses to give one).
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
    _get_buffer(out, &target, "out must be a writable buffer of bytes")
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
