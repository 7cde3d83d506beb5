"""Kernel 5 of the pure kernels: batches (evaluate_many R2, deal_many R11).

:func:`evaluate_many` values many hands given in a buffer (card codes or masks);
:func:`deal_many` deals many shuffled decks into one. Twin of ``src/_core_batch.pxi``.
Re-exported by :mod:`pokerdraw32._core_py`, which the rest imports.
"""

from __future__ import annotations

import sys
from array import array
from typing import Any

from ..errors import PokerDraw32TypeError, PokerDraw32ValueError
from .checks import _is_int, _plain
from .evaluate import _NATIVE_LITTLE, _U32_CODE, _by_mask
from .rng import Rng

_ROW_BIT = [1 << code for code in range(256)]  # a byte -> its card bit (bits above 31: not a card)


def _native_format(fmt: str) -> str:
    """The struct code of a one-item native-order format ('' if it is something else).
    ctypes writes its formats with an explicit byte order ('<B', '<I'); for one-byte items
    any byte order is native."""
    if len(fmt) == 2 and fmt[0] in "@=<>!" and fmt[1] in "Bbc?":
        return fmt[1]
    if fmt[:1] in ("@", "=") or (fmt[:1] == "<" and _NATIVE_LITTLE) or (fmt[:1] in (">", "!") and not _NATIVE_LITTLE):
        fmt = fmt[1:]
    return fmt if len(fmt) == 1 else ""


def _format_text(view: memoryview) -> str:
    """The buffer's struct format as text (``memoryview.format``); one that is not UTF-8 (no
    exporter we know writes one) as ``(not UTF-8)``, as the compiled twin shows it."""
    try:
        return view.format
    except UnicodeDecodeError:
        return "(not UTF-8)"


def _buffer(obj: object, what: str) -> memoryview:
    """``memoryview(obj)``; an object without the buffer protocol, or an exporter's refusal (numpy:
    a datetime dtype, ...), raised as a PokerDraw32TypeError that names the argument ``what``."""
    try:
        return memoryview(obj)  # type: ignore[arg-type]
    except TypeError:   # no buffer protocol (the compiled twin asks PyObject_CheckBuffer first)
        raise PokerDraw32TypeError(f"{what}, not {type(obj).__name__}") from None
    except (ValueError, BufferError) as exc:
        raise PokerDraw32TypeError(f"{what}: {type(obj).__name__} does not export one ({exc})") from exc


def _row_problem(i: int, row: int | list[int]) -> str:
    """The message for a bad row: its 5 codes (a list) or its mask (an int)."""
    if isinstance(row, int):
        n = row.bit_count()
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


def _check_out(target: memoryview, n: int) -> None:
    fmt = _format_text(target)
    code = _native_format(fmt)
    if target.readonly:
        raise PokerDraw32TypeError("out must be a writable buffer, not a read-only one")
    if not (code in ("I", "L") and target.itemsize == 4):
        raise PokerDraw32TypeError(
            f"out must hold uint32, not format {fmt!r} with itemsize {target.itemsize}"
        )
    if target.ndim != 1 or target.shape[0] != n:  # type: ignore[index]
        raise PokerDraw32ValueError(f"out must be 1-D with {n} items, got shape {target.shape}")
    if n > 1 and target.strides[0] != 4:  # type: ignore[index]
        raise PokerDraw32ValueError("out must be C-contiguous")


def evaluate_many(hands: Any, out: Any = None, suit_tiebreak: bool = True) -> Any:
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
    if suit_tiebreak is not True:   # its truth read first, as the compiled twin's bint argument
        suit_tiebreak = bool(suit_tiebreak)
    view = _buffer(hands, "hands must be a buffer of uint8 card codes or uint32 masks")
    with view:
        fmt = _format_text(view)
        code = _native_format(fmt)
        shape = view.shape or ()
        if code == "B" and view.itemsize == 1:
            codes = True
            if view.ndim == 2:
                if shape[1] != 5:
                    raise PokerDraw32ValueError(f"hands must have shape (N, 5), got {shape}")
            elif view.ndim == 1:
                if shape[0] % 5:
                    raise PokerDraw32ValueError(f"hands holds {shape[0]} card codes, not a multiple of 5")
            else:
                raise PokerDraw32ValueError(f"hands of card codes must be 1-D or 2-D, got shape {shape}")
            data: Any = view.tobytes()
            n = len(data) // 5
        elif code in ("I", "L") and view.itemsize == 4:
            codes = False
            if view.ndim != 1:
                raise PokerDraw32ValueError(f"hands of masks must be 1-D, got shape {shape}")
            data = array(_U32_CODE)
            data.frombytes(view.tobytes())
            n = len(data)
        else:
            raise PokerDraw32TypeError(
                f"hands must hold uint8 card codes or uint32 masks, not format {fmt!r} "
                f"with itemsize {view.itemsize}"
            )
    if out is None:
        np = sys.modules.get("numpy")
        result: Any = np.empty(n, dtype=np.uint32) if np is not None and isinstance(hands, np.ndarray) else None
    else:
        target = _buffer(out, "out must be a writable buffer of uint32")
        with target:
            _check_out(target, n)
        result = out
    get = _by_mask().get
    if codes:
        bit = _ROW_BIT
        rows = iter(data)
        values: list[Any] = [
            get(bit[a] | bit[b] | bit[c] | bit[d] | bit[e]) for a, b, c, d, e in zip(*(rows,) * 5, strict=False)
        ]
    else:
        values = list(map(get, data))
    if None in values:
        bad = values.index(None)
        raise PokerDraw32ValueError(_row_problem(bad, list(data[5 * bad : 5 * bad + 5]) if codes else data[bad]))
    if not suit_tiebreak:
        values = [value & ~3 for value in values]
    packed = array(_U32_CODE, values)
    if result is None:
        return packed
    with memoryview(result) as target:
        target.cast("B")[:] = memoryview(packed).cast("B")
    return result


def deal_many(rng: Rng, n: int, out: Any = None) -> Any:
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
    if not isinstance(rng, Rng):
        raise PokerDraw32TypeError(f"rng must be an Rng, not {type(rng).__name__}")
    if not _is_int(n):
        raise PokerDraw32TypeError(f"n must be an int, not {type(n).__name__}")
    n = _plain(n)
    if n < 0 or n > 1 << 40:
        raise PokerDraw32ValueError(f"n must be in 0 <= n <= 2**40, got {n}")
    target = None
    if out is not None:
        target = _buffer(out, "out must be a writable buffer of bytes")
        with target:
            if target.readonly:
                raise PokerDraw32TypeError("out must be a writable buffer, not a read-only one")
            if target.itemsize != 1:
                raise PokerDraw32TypeError(f"out must hold bytes, not items of size {target.itemsize}")
            if target.nbytes != 32 * n:
                raise PokerDraw32ValueError(f"out must have {32 * n} bytes (32 per deck), got {target.nbytes}")
            if not target.c_contiguous:
                raise PokerDraw32ValueError("out must be C-contiguous")
    decks = bytearray(32 * n)
    start = list(range(32))
    shuffle = Rng.shuffle   # the generator's own, as compiled: a subclass's override is not called
    for deck in range(0, 32 * n, 32):
        cards = start[:]
        shuffle(rng, cards)
        decks[deck : deck + 32] = bytes(cards)
    if out is None:
        return decks
    if n:   # no bytes to write: an out with a 0 in its shape, which memoryview.cast refuses
        with memoryview(out) as target:
            target.cast("B")[:] = decks
    return out
