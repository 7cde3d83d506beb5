"""The compact strategy file: a :class:`~pokerdraw32.cfr.solver.Strategy` in about a byte a
probability, for shipping in the wheel (issue 26: the blueprint).

Layout (all integers little-endian)::

    MAGIC (8 bytes, b"PD32CFRZ")
    header length H (4 bytes, at most 65,536)
    header (H bytes of JSON: "format" == FORMAT, "version" == VERSION, "abstraction", "iterations",
            "info_sets" n, "probabilities" m, "crc32" of the body, "metadata" {command, seed, ...},
            "fields_crc32" {the CRC-32 of each other field but "crc32", as JSON with keys sorted})
    body, compressed with LZMA (xz container, preset 9 extreme; version 2: with a dictionary no
    larger than the body needs, rounded up to a power of two, so that reading takes no more; the
    reader lets the decoder take that, or xz's default 8 MiB if more, plus 1 MiB):
        keys    8 byte planes of n bytes: the information set keys sorted ascending, delta-coded
                (the first from 0); plane j holds byte j of every delta
        heads   3 byte planes of n bytes: ``phase << 16 | legal slots mask`` of each key
        probs   m bytes: each information set's probabilities, in ascending slot order, as
                integers 0..255 summing to exactly 255 (:func:`quantise`)

Byte planes (a delta's low bytes together, then its high bytes: mostly zeros) compress better than
varints and decode at C speed (slice assignment, :func:`itertools.accumulate`, :func:`map`).  The
legal slots missing from a mask have no byte: an illegal slot's probability is 0 by construction.

**Versions.**  Version 2 (written since issue 41) puts the header under CRC-32s too
(``fields_crc32``), so that an edited header (the abstraction's bet sizes, buckets or stack, the
counts, the metadata) is refused, naming the field, instead of read as the strategy of another game.
Version 1 (the shipped blueprint and the first exports) has no ``fields_crc32`` and is still read:
the shipped blueprint's header fields are pinned here by its body's CRC-32 (``_PINNED``), and any
other version-1 file's abstraction is checked against what its body shows (the buckets of its keys,
its legal slots: :func:`~pokerdraw32.cfr._files.check_abstraction`), which cannot show an edited
stack or bet size: export such a file's strategy again to have it checked in full.
Reading is bounded (:mod:`pokerdraw32.cfr._files`): the header's size and nesting, then the body's
declared size (:data:`BODY_CAP`, and :data:`~pokerdraw32.cfr._files.RATIO` times the compressed
size past :data:`BODY_FLOOR`), decompressed a chunk at a time and refused at the first byte past it.

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
import os
import sys
import zlib
from array import array
from itertools import accumulate, repeat
from operator import lshift, or_
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, shown
from . import _files
from ._shared import write_atomic
from .abstraction import Abstraction

if TYPE_CHECKING:
    from .solver import Strategy

__all__ = ["BODY_CAP", "BODY_FLOOR", "FORMAT", "MAGIC", "QUANTUM", "READS", "VERSION", "quantise", "read_header",
           "read_tables", "write_compact"]

MAGIC = b"PD32CFRZ"
FORMAT = "pokerdraw32-cfr-compact-strategy"
VERSION = 2
"""The version :func:`write_compact` writes (2: the header's fields under CRC-32s)."""
READS = (1, 2)
"""The versions :func:`read_tables` reads."""
QUANTUM = 255
"""The quantised probabilities of an information set sum to this."""
BODY_CAP = 1 << 31
"""Most bytes of a body, decompressed (2 GiB, about 100 times the shipped blueprint's: 19,741,480
bytes for 1,420,646 information sets and 4,114,374 probabilities, 1,610,128 bytes of xz; reading
it peaks at about 330 MiB, 64 MiB of them the xz decoder's dictionary)."""
BODY_FLOOR = 1 << 20
"""A body up to this size (1 MiB) is read whatever its compression ratio; a larger one is refused
when it is more than :data:`~pokerdraw32.cfr._files.RATIO` times the compressed bytes (a
decompression bomb: xz makes a 78 KB file of 512 MiB)."""

_FIELDS = {1: {"format", "version", "abstraction", "iterations", "info_sets", "probabilities", "crc32", "metadata"}}
_FIELDS[2] = _FIELDS[1] | {"fields_crc32"}
_PINNED: dict[int, dict[str, int]] = {
    0x4D325DA4: {"abstraction": 0x9A43B80B, "format": 0xA6EB643B, "info_sets": 0x732FD828, "iterations": 0x8C63C4F4,
                 "metadata": 0x37956FA1, "probabilities": 0x7AF07BBF, "version": 0x83DCEFB7},
}
"""The header fields' CRC-32s of the version-1 files that shipped, by their body's CRC-32: the
blueprint ``blueprint_hunl100.cfrz`` (a version-1 header has no ``fields_crc32``)."""

_FLOAT_PLANES = [bytes(array("f", [q / QUANTUM]).tobytes()[j] for q in range(256)) for j in range(4)]
"""Byte ``j`` of the float32 ``q / 255`` (in the machine's order), for each ``q``."""
_PHASES = {1, 2, 3}       # _mccfr.PH_FIRST, PH_DRAW, PH_SECOND


def _dictionary(size: int) -> int:
    """The xz dictionary of a body of ``size`` bytes in a version-2 file: the least power of two at
    least as large, from 4 KiB to preset 9e's 64 MiB (a dictionary larger than the body compresses
    no better, and the reader would need it: version 1 used 64 MiB whatever the size)."""
    return min(1 << 26, max(1 << 12, 1 << (size - 1).bit_length()))


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


def _unplanes(data: bytes | bytearray, n: int, width: int, typecode: str) -> array:  # type: ignore[type-arg]
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
    :raises PokerDraw32ValueError: an information set without legal slots or with bad probabilities;
        a file a reader would refuse (a header over 65,536 bytes or nested over 32 levels, a body
        over :data:`BODY_CAP` bytes); metadata that JSON cannot write (a circular reference).
    :raises PokerDraw32TypeError: metadata of a type JSON cannot write (a set, ...).
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
    what = f"the strategy file {str(path)!r}"
    if len(body) > BODY_CAP:
        raise PokerDraw32ValueError(f"cannot write {what}: its body would be {len(body)} bytes, more than the "
                                    f"{BODY_CAP} a reader takes")
    header = {"format": FORMAT, "version": VERSION, "abstraction": strategy.abstraction.to_dict(),
              "iterations": strategy.iterations, "info_sets": n, "probabilities": len(probs),
              "crc32": zlib.crc32(body), "metadata": metadata or {}}
    try:
        header["fields_crc32"] = _files.field_crcs(header)
    except TypeError as e:
        raise PokerDraw32TypeError(f"cannot write {what}: its metadata is not JSON-able ({e})") from None
    except ValueError as e:
        raise PokerDraw32ValueError(f"cannot write {what}: its metadata is not JSON-able ({e})") from None
    head = json.dumps(header, sort_keys=True).encode()
    _files.check_header(head, what)
    packed = lzma.compress(body, format=lzma.FORMAT_XZ, filters=[
        {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": _dictionary(len(body))}])
    if len(body) > BODY_FLOOR and len(body) > _files.RATIO * len(packed):
        raise PokerDraw32ValueError(f"cannot write {what}: its body compresses more than {_files.RATIO} to one, "
                                    "which a reader refuses as a decompression bomb")
    blob = MAGIC + len(head).to_bytes(4, "little") + head + packed
    write_atomic(path, blob)
    return len(blob)


def _open(f: IO[bytes], where: str) -> tuple[dict[str, Any], Abstraction]:
    """The checked header and abstraction of the compact file open at ``f`` (left at its body)."""
    start = f.read(12)
    if start[:8] != MAGIC:
        raise PokerDraw32ValueError(f"{where} is not a compact strategy file (its first 8 bytes are {start[:8]!r}, "
                                    f"not {MAGIC!r})")
    if len(start) < 12:
        raise PokerDraw32ValueError(f"{where} is truncated: {len(start)} bytes, no header length")
    header = _files.read_header_json(f, int.from_bytes(start[8:12], "little"), where)
    if header.get("format") != FORMAT:
        raise PokerDraw32ValueError(f"{where} is damaged: its header is not a {FORMAT} header")
    version = header.get("version")
    if type(version) is not int or version not in READS:
        raise PokerDraw32ValueError(f"{where} is version {shown(version)} of the compact strategy format; "
                                    f"this pokerdraw32 reads versions {READS[0]} to {READS[-1]}")
    unknown = sorted(set(header) - _FIELDS[version])
    if unknown:
        raise PokerDraw32ValueError(f"{where} is damaged: its version {version} header has the unknown field(s) "
                                    f"{', '.join(map(repr, unknown))}")
    for name in ("iterations", "info_sets", "probabilities", "crc32"):
        value = header.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise PokerDraw32ValueError(f"{where} is damaged: header field {name!r} is {shown(value)}, not an int >= 0")
    if not isinstance(header.get("metadata"), dict):
        raise PokerDraw32ValueError(f"{where} is damaged: header field 'metadata' is not an object")
    try:
        abstraction = Abstraction.from_dict(header.get("abstraction"))
    except (PokerDraw32Error, TypeError, ValueError) as e:
        raise PokerDraw32ValueError(f"{where} is damaged: its abstraction is not valid ({e})") from None
    n, m = header["info_sets"], header["probabilities"]
    if not n <= m <= 16 * n:
        raise PokerDraw32ValueError(f"{where} is damaged: its header's {n} information sets cannot have {m} "
                                    "probabilities (each has 1 to 16 legal slots)")
    recorded = header.get("fields_crc32") if version >= 2 else _PINNED.get(header["crc32"])
    if recorded is not None or version >= 2:
        _files.check_fields(where, header, recorded)
    return header, abstraction


def read_header(path: str | Path) -> dict[str, Any]:
    """The header of a compact strategy file (its body is not read), checked as :func:`read_tables`
    checks it.

    :raises PokerDraw32ValueError: not a compact strategy file, or a damaged header (too long, too
        deeply nested, not a JSON object, a field missing, of the wrong type or changed since the
        file was written: the message names it).
    """
    where = f"the strategy file {str(path)!r}"
    try:
        with open(path, "rb") as f:
            return _open(f, where)[0]
    except OSError as e:
        raise PokerDraw32ValueError(f"cannot read {where}: {e}") from None


def read_tables(path: str | Path) -> tuple[dict[str, Any], Abstraction, array, array, array]:  # type: ignore[type-arg]
    """The header, abstraction, keys (``array('Q')``), offsets (``array('q')``: ``start << 18 |
    phase << 16 | legal slots``) and probabilities (``array('f')``) of a compact file: the arguments
    of :class:`~pokerdraw32.cfr.solver.Strategy`, whose :meth:`~pokerdraw32.cfr.solver.Strategy.load`
    reads compact files with this.  The memory it takes is bounded by the header's sizes (see
    :mod:`pokerdraw32.cfr._files`): a body that decompresses to more is refused at the first byte
    too many.

    :raises PokerDraw32ValueError: not a compact strategy file, a truncated or damaged one (the
        message says what is wrong: the header as :func:`read_header` says, a body larger than
        :data:`BODY_CAP` bytes or more than :data:`~pokerdraw32.cfr._files.RATIO` times its compressed
        size, one that does not decompress to the header's size, a CRC-32, the keys, slots and
        sums), or one of a newer format version.
    """
    where = f"the strategy file {str(path)!r}"
    try:
        with open(path, "rb") as f:
            header, abstraction = _open(f, where)
            n, m = header["info_sets"], header["probabilities"]
            packed = os.fstat(f.fileno()).st_size - f.tell()
            _files.check_size(where, 11 * n + m, packed, floor=BODY_FLOOR, cap=BODY_CAP)
            # the xz decoder's dictionary: version 1 used 64 MiB; version 2 what the body needs, but at
            # least xz's default 8 MiB (a file compressed again by xz itself is read)
            memlimit = (max(_dictionary(11 * n + m), 1 << 23) if header["version"] >= 2 else 1 << 26) + (1 << 20)
            body = _files.inflate(f, 11 * n + m, where, xz=True, memlimit=memlimit)
    except OSError as e:
        raise PokerDraw32ValueError(f"cannot read {where}: {e}") from None
    if zlib.crc32(body) != header["crc32"]:
        raise PokerDraw32ValueError(f"{where} is damaged: its body's CRC-32 is {zlib.crc32(body):#010x}, the "
                                    f"header says {header['crc32']:#010x}")
    deltas = _unplanes(body[:8 * n], n, 8, "Q")
    if n and 0 in deltas[1:]:
        raise PokerDraw32ValueError(f"{where} is damaged: its keys are not strictly ascending")
    try:
        keys = array("Q", accumulate(deltas))
    except OverflowError:
        raise PokerDraw32ValueError(f"{where} is damaged: its keys pass 2**64") from None
    heads = _unplanes(body[8 * n:11 * n], n, 3, "I")
    slots = {h: (h & 0xFFFF).bit_count() for h in set(heads)}         # a few dozen distinct heads
    if not {h >> 16 for h in slots} <= _PHASES:
        raise PokerDraw32ValueError(f"{where} is damaged: a phase is not 1, 2 or 3")
    if 0 in slots.values():
        raise PokerDraw32ValueError(f"{where} is damaged: an information set has no legal slots")
    if header["version"] == 1 and header["crc32"] not in _PINNED:      # its abstraction is under no CRC
        _files.check_abstraction(where, abstraction, keys, heads, slots)
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
