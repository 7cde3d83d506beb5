"""The compact strategy file: a :class:`~pokerdraw32.cfr.solver.Strategy` in about a byte a
probability, for shipping in the wheel (issue 26: the blueprint).

Layout (all integers little-endian)::

    MAGIC (8 bytes, b"PD32CFRZ")
    header length H (4 bytes)
    header (H bytes of JSON: "format" == FORMAT, "version" == VERSION, "abstraction", "iterations",
            "info_sets" n, "probabilities" m, "crc32" of the body, "metadata" {command, seed, ...})
    body, compressed with LZMA (xz container, preset 9 extreme):
        keys    8 byte planes of n bytes: the information set keys sorted ascending, delta-coded
                (the first from 0); plane j holds byte j of every delta
        heads   3 byte planes of n bytes: ``phase << 16 | legal slots mask`` of each key
        probs   m bytes: each information set's probabilities, in ascending slot order, as
                integers 0..255 summing to exactly 255 (:func:`quantise`)

Byte planes (a delta's low bytes together, then its high bytes: mostly zeros) compress better than
varints and decode at C speed (slice assignment, :func:`itertools.accumulate`, :func:`map`).  The
legal slots missing from a mask have no byte: an illegal slot's probability is 0 by construction.

**Quantisation** (:func:`quantise`, largest remainders): the probabilities ``p`` of one information
set, renormalised in double precision to sum to 1, become ``q = floor(255 * p)``; the units left
(``255 - sum(q)``, fewer than the slots) go one each to the slots of largest remainder
``255 * p - q`` (ties: the lower slot).  So the ``q`` sum to 255 exactly, a probability 0 stays 0
(its remainder is 0 and never wins a unit), a probability 1 becomes 255, and every probability is
within 1/255 of the stored one: ``|q / 255 - p| < 1/255``.  Loading gives ``q / 255`` as float32.
"""

from __future__ import annotations

import json
import lzma
import sys
import zlib
from array import array
from itertools import accumulate, repeat
from operator import lshift, or_
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PokerDraw32ValueError
from ._shared import write_atomic
from .abstraction import Abstraction

if TYPE_CHECKING:
    from .solver import Strategy

__all__ = ["FORMAT", "MAGIC", "QUANTUM", "VERSION", "quantise", "read_header", "read_tables", "write_compact"]

MAGIC = b"PD32CFRZ"
FORMAT = "pokerdraw32-cfr-compact-strategy"
VERSION = 1
QUANTUM = 255
"""The quantised probabilities of an information set sum to this."""

_FLOAT_PLANES = [bytes(array("f", [q / QUANTUM]).tobytes()[j] for q in range(256)) for j in range(4)]
"""Byte ``j`` of the float32 ``q / 255`` (in the machine's order), for each ``q``."""
_PHASES = {1, 2, 3}       # _mccfr.PH_FIRST, PH_DRAW, PH_SECOND


def quantise(probs: list[float]) -> list[int]:
    """The integers ``0..255`` summing to 255 that stand for ``probs`` (see the module's docstring).

    :raises PokerDraw32ValueError: empty, negative, not finite or all zero.
    """
    total = 0.0
    for p in probs:
        if not 0.0 <= p < float("inf"):
            raise PokerDraw32ValueError(f"cannot quantise the probabilities {probs!r}: {p!r} is not a number >= 0")
        total += p
    if not probs or total <= 0.0:
        raise PokerDraw32ValueError(f"cannot quantise the probabilities {probs!r}: they sum to {total}")
    scaled = [QUANTUM * p / total for p in probs]
    q = [int(x) for x in scaled]
    left = QUANTUM - sum(q)
    order = sorted((i for i in range(len(q)) if scaled[i] > 0.0), key=lambda i: (q[i] - scaled[i], i))
    for k in range(left):               # left < the slots of positive remainder, but float rounding: cycle
        q[order[k % len(order)]] += 1
    return q


def _planes(values: list[int], width: int) -> bytes:
    raw = b"".join(v.to_bytes(width, "little") for v in values)
    return b"".join(raw[j::width] for j in range(width))


def _unplanes(data: bytes, n: int, width: int, typecode: str) -> array:  # type: ignore[type-arg]
    size = array(typecode).itemsize
    buf = bytearray(n * size)
    for j in range(width):
        buf[j::size] = data[j * n:(j + 1) * n]
    out = array(typecode)
    out.frombytes(bytes(buf))
    if sys.byteorder != "little":
        out.byteswap()
    return out


def write_compact(strategy: Strategy, path: str | Path, metadata: dict[str, Any] | None = None) -> int:
    """Write ``strategy`` as a compact file at ``path`` (atomically); return its size in bytes.

    :param metadata: JSON-able facts recorded in the header (e.g. the command that trained it).
    :raises PokerDraw32ValueError: an information set without legal slots or with bad probabilities.
    """
    n = len(strategy)
    order = sorted(range(n), key=strategy.keys.__getitem__)
    keys: list[int] = []
    heads: list[int] = []
    probs = bytearray()
    for i in order:
        key = strategy.keys[i]
        found = strategy.lookup(key)
        assert found is not None
        phase, mask, p = found
        if mask == 0 or mask.bit_count() != len(p) or phase not in _PHASES:
            raise PokerDraw32ValueError(f"information set {key:#x}: phase {phase}, slots {mask:#x} and "
                                        f"{len(p)} probabilities do not fit")
        keys.append(key)
        heads.append(phase << 16 | mask)
        probs += bytes(quantise(p))
    deltas = [b - a for a, b in zip([0, *keys], keys, strict=False)]
    body = _planes(deltas, 8) + _planes(heads, 3) + bytes(probs)
    header = {"format": FORMAT, "version": VERSION, "abstraction": strategy.abstraction.to_dict(),
              "iterations": strategy.iterations, "info_sets": n, "probabilities": len(probs),
              "crc32": zlib.crc32(body), "metadata": metadata or {}}
    head = json.dumps(header, sort_keys=True).encode()
    blob = MAGIC + len(head).to_bytes(4, "little") + head + lzma.compress(body, preset=9 | lzma.PRESET_EXTREME)
    write_atomic(path, blob)
    return len(blob)


def _split(data: bytes, where: str) -> tuple[dict[str, Any], bytes]:
    if data[:8] != MAGIC:
        raise PokerDraw32ValueError(f"{where} is not a compact strategy file (its first 8 bytes are {data[:8]!r}, "
                                    f"not {MAGIC!r})")
    if len(data) < 12:
        raise PokerDraw32ValueError(f"{where} is truncated: {len(data)} bytes, no header length")
    size = int.from_bytes(data[8:12], "little")
    if len(data) < 12 + size:
        raise PokerDraw32ValueError(f"{where} is truncated: its header needs {size} bytes, {len(data) - 12} remain")
    try:
        header = json.loads(data[12:12 + size])
    except ValueError as e:
        raise PokerDraw32ValueError(f"{where} is damaged: its header is not JSON ({e})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise PokerDraw32ValueError(f"{where} is damaged: its header is not a {FORMAT} header")
    if header.get("version") != VERSION:
        raise PokerDraw32ValueError(f"{where} is version {header.get('version')!r} of the compact strategy format; "
                                    f"this pokerdraw32 reads version {VERSION}")
    for name in ("iterations", "info_sets", "probabilities", "crc32"):
        value = header.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise PokerDraw32ValueError(f"{where} is damaged: header field {name!r} is {value!r}, not an int >= 0")
    if not isinstance(header.get("metadata"), dict):
        raise PokerDraw32ValueError(f"{where} is damaged: header field 'metadata' is not an object")
    return header, data[12 + size:]


def read_header(path: str | Path) -> dict[str, Any]:
    """The header of a compact strategy file (its body is not read).

    :raises PokerDraw32ValueError: not a compact strategy file, or a damaged header.
    """
    where = f"the strategy file {str(path)!r}"
    try:
        with open(path, "rb") as f:
            start = f.read(12)
            data = start + f.read(int.from_bytes(start[8:12], "little")) if len(start) == 12 else start
    except OSError as e:
        raise PokerDraw32ValueError(f"cannot read {where}: {e}") from None
    return _split(data, where)[0]


def read_tables(path: str | Path) -> tuple[dict[str, Any], Abstraction, array, array, array]:  # type: ignore[type-arg]
    """The header, abstraction, keys (``array('Q')``), offsets (``array('q')``: ``start << 18 |
    phase << 16 | legal slots``) and probabilities (``array('f')``) of a compact file: the arguments
    of :class:`~pokerdraw32.cfr.solver.Strategy`, whose :meth:`~pokerdraw32.cfr.solver.Strategy.load`
    reads compact files with this.

    :raises PokerDraw32ValueError: not a compact strategy file, a truncated or damaged one (the
        message says what is wrong), or one of a newer format version.
    """
    where = f"the strategy file {str(path)!r}"
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise PokerDraw32ValueError(f"cannot read {where}: {e}") from None
    header, packed = _split(data, where)
    try:
        body = lzma.decompress(packed, format=lzma.FORMAT_XZ)
    except lzma.LZMAError as e:
        raise PokerDraw32ValueError(f"{where} is truncated or damaged: its body does not decompress ({e})") from None
    n, m = header["info_sets"], header["probabilities"]
    if len(body) != 11 * n + m:
        raise PokerDraw32ValueError(f"{where} is damaged: its body has {len(body)} bytes, the header's {n} "
                                    f"information sets and {m} probabilities need {11 * n + m}")
    if zlib.crc32(body) != header["crc32"]:
        raise PokerDraw32ValueError(f"{where} is damaged: its body's CRC-32 is {zlib.crc32(body):#010x}, the "
                                    f"header says {header['crc32']:#010x}")
    try:
        abstraction = Abstraction.from_dict(header["abstraction"])
    except (KeyError, PokerDraw32ValueError, TypeError) as e:
        raise PokerDraw32ValueError(f"{where} is damaged: its abstraction is not valid ({e})") from None
    deltas = _unplanes(body[:8 * n], n, 8, "Q")
    if n and 0 in deltas[1:]:
        raise PokerDraw32ValueError(f"{where} is damaged: its keys are not strictly ascending")
    keys = array("Q", accumulate(deltas))
    heads = _unplanes(body[8 * n:11 * n], n, 3, "I")
    slots = {h: (h & 0xFFFF).bit_count() for h in set(heads)}         # a few dozen distinct heads
    if not {h >> 16 for h in slots} <= _PHASES:
        raise PokerDraw32ValueError(f"{where} is damaged: a phase is not 1, 2 or 3")
    if 0 in slots.values():
        raise PokerDraw32ValueError(f"{where} is damaged: an information set has no legal slots")
    bounds = list(accumulate(map(slots.__getitem__, heads), initial=0))   # set i: bounds[i]..bounds[i + 1]
    if bounds[-1] != m:
        raise PokerDraw32ValueError(f"{where} is damaged: the legal slots add up to {bounds[-1]} probabilities, the "
                                    f"header says {m}")
    q = body[11 * n:]
    cum = [0, *accumulate(q)]             # each set sums to 255 <=> the running sum is 255 * i at the i-th end
    if list(map(cum.__getitem__, bounds)) != list(range(0, QUANTUM * n + 1, QUANTUM)):
        raise PokerDraw32ValueError(f"{where} is damaged: an information set's probabilities do not sum to "
                                    f"{QUANTUM}/{QUANTUM}")
    offsets = array("q", map(or_, map(lshift, bounds, repeat(18)), heads))
    buf = bytearray(4 * m)                # float32 q / 255 byte by byte: bytes.translate, no per-item Python
    for j, table in enumerate(_FLOAT_PLANES):
        buf[j::4] = q.translate(table)
    probs = array("f")
    probs.frombytes(bytes(buf))
    return header, abstraction, keys, offsets, probs
