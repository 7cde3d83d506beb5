"""What the solver's two file formats share when they are read (issue 41): the solver's own files
(:mod:`pokerdraw32.cfr.solver`: checkpoints and strategies, zlib) and the compact strategy files
(:mod:`pokerdraw32.cfr.compact`, xz).  A damaged or hostile file is refused with a
:class:`~pokerdraw32.errors.PokerDraw32ValueError` naming it, in memory bounded by what its header
declares, before anything is built from it:

* **the header**: at most :data:`HEADER_LIMIT` bytes, nested at most :data:`DEPTH_LIMIT` deep
  (counted before it is parsed: :mod:`json` recurses), a JSON object (:func:`read_header_json`);
  the writers refuse a header they could not read back (:func:`check_header`);
* **the body**: the size the header declares is refused above a fixed cap, or above
  :data:`RATIO` times the compressed bytes that follow once it passes a floor (no strategy or
  checkpoint compresses that well: a decompression bomb does); then it is decompressed a chunk
  at a time into exactly that many bytes, refused as soon as it would give more, the xz
  decoder's own memory limited too (:func:`check_size`, :func:`inflate`);
* **the header's fields**: the writers record a CRC-32 of each header field
  (:func:`field_crcs`), so that an edited abstraction (bet sizes, buckets, stack) is refused
  rather than played (:func:`check_fields`); for files written without them, the abstraction is
  checked against what the body shows (:func:`check_abstraction`).
"""

from __future__ import annotations

import json
import lzma
import re
import sys
import zlib
from array import array
from collections.abc import Iterable
from typing import IO, Any

from ..errors import PokerDraw32ValueError, shown
from .abstraction import Abstraction

__all__ = ["DEPTH_LIMIT", "HEADER_LIMIT", "RATIO", "check_abstraction", "check_fields", "check_header", "check_size",
           "field_crcs", "inflate", "read_header_json"]

HEADER_LIMIT = 1 << 16
"""Most bytes of a header (64 KiB; the shipped blueprint's is 816 bytes, a checkpoint's at most about 700)."""

DEPTH_LIMIT = 32
"""Most levels of nested objects and arrays in a header (the writers' own headers have 3)."""

RATIO = 64
"""Most bytes of body a compressed byte may stand for, past a file's floor.  Measured: 12.3 for the
shipped blueprint (1,610,128 bytes of xz for a 19,741,480-byte body), at most 15 for the compact
files of small runs, 12 for checkpoints (their hash maps' empty slots are zeros), 5 for strategy
files; xz makes a 78 KB file of 512 MiB of zeros (6,800 to one), zlib a 1 MB one of 1 GiB."""

CHUNK = 1 << 20
"""Compressed bytes read at a time."""

XZ_MEMLIMIT = (1 << 26) + (1 << 20)
"""The xz decoder's memory limit by default: its dictionary, at most 64 MiB (preset 9e's, which
version-1 compact files use whatever their size), and 1 MiB (liblzma needs 64 KiB more)."""

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")       # every byte but the brackets: deleted


def _depth(text: bytes) -> int:
    """The deepest nesting of ``text``'s objects and arrays, its strings left out; at least the depth
    :func:`json.loads` would reach (where the text stops being JSON the parser stops too)."""
    depth = deepest = 0
    for c in _STRING.sub(b'""', text).translate(None, _BRACKETS):
        depth += 1 if c in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


def check_header(head: bytes, what: str) -> None:
    """Refuse to write a header the readers would refuse.

    :raises PokerDraw32ValueError: ``head`` is longer than :data:`HEADER_LIMIT` bytes or nested
        deeper than :data:`DEPTH_LIMIT` (the metadata given to the writer, as a rule).
    """
    if len(head) > HEADER_LIMIT:
        raise PokerDraw32ValueError(f"cannot write {what}: its header would be {len(head)} bytes, more than the "
                                    f"{HEADER_LIMIT} a reader takes (shorten the metadata)")
    if _depth(head) > DEPTH_LIMIT:
        raise PokerDraw32ValueError(f"cannot write {what}: its header would nest more than {DEPTH_LIMIT} levels "
                                    "deep (flatten the metadata)")


def read_header_json(f: IO[bytes], size: int, where: str) -> dict[str, Any]:
    """The JSON object of ``size`` bytes at ``f``'s position: the header of the file ``where`` names.

    :raises PokerDraw32ValueError: ``size`` over :data:`HEADER_LIMIT` (nothing is read), fewer
        bytes left, more than :data:`DEPTH_LIMIT` levels of nesting (nothing is parsed), not JSON,
        or JSON that is not an object.
    """
    if size > HEADER_LIMIT:
        raise PokerDraw32ValueError(f"{where} is damaged: its header length is {size} bytes, more than the "
                                    f"{HEADER_LIMIT} a header may have")
    text = f.read(size)
    if len(text) < size:
        raise PokerDraw32ValueError(f"{where} is truncated: its header needs {size} bytes, {len(text)} remain")
    if _depth(text) > DEPTH_LIMIT:
        raise PokerDraw32ValueError(f"{where} is damaged: its header nests more than {DEPTH_LIMIT} levels deep")
    try:
        header = json.loads(text)
    except ValueError as e:             # UnicodeDecodeError and json.JSONDecodeError are ValueErrors
        raise PokerDraw32ValueError(f"{where} is damaged: its header is not JSON ({e})") from None
    if not isinstance(header, dict):
        raise PokerDraw32ValueError(f"{where} is damaged: its header is a JSON {type(header).__name__}, "
                                    "not an object")
    return header


def check_size(where: str, size: int, packed: int, *, floor: int, cap: int) -> None:
    """Refuse a body of ``size`` bytes (what the header declares) before it is decompressed from the
    ``packed`` bytes that follow the header: more than ``cap``, or more than ``floor`` and
    :data:`RATIO` times ``packed``.

    :raises PokerDraw32ValueError: as above, with the numbers.
    """
    if size > cap:
        raise PokerDraw32ValueError(f"{where} is damaged: its header declares a body of {size} bytes, more than "
                                    f"the {cap} a file of this kind may have")
    if size > floor and size > RATIO * packed:
        raise PokerDraw32ValueError(f"{where} is damaged: its header declares a body of {size} bytes in {packed} "
                                    f"compressed bytes, more than {RATIO} to one (no solver file compresses so "
                                    "well; refused before decompressing)")


def inflate(f: IO[bytes], size: int, where: str, *, xz: bool, memlimit: int = XZ_MEMLIMIT) -> bytearray:
    """The body at ``f``'s position (to the end of the file), xz (``xz=True``) or zlib, which must
    decompress to exactly ``size`` bytes: decompressed a chunk at a time into ``size`` bytes, and
    refused as soon as it would give one more.  ``memlimit``: the most memory the xz decoder may take
    (its dictionary, as the stream asks).

    :raises PokerDraw32ValueError: it does not decompress (truncated, damaged, or xz asking for more
        than ``memlimit`` bytes to decode), gives more or fewer than ``size`` bytes, or bytes follow
        its end.
    """
    d: Any = lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=memlimit) if xz else zlib.decompressobj()
    try:
        out = bytearray(size)
    except MemoryError:
        raise PokerDraw32ValueError(f"cannot read {where}: its body of {size} bytes does not fit in memory") from None
    pos = 0
    data = b""
    try:
        while not d.eof:
            if xz and not d.needs_input:
                data = b""                       # the decoder holds input still: no more yet
            elif not data:
                data = f.read(CHUNK)
                if not data:
                    break
            piece = d.decompress(data, size - pos + 1)
            data = b"" if xz else d.unconsumed_tail
            if len(piece) > size - pos:
                raise PokerDraw32ValueError(f"{where} is damaged: its body decompresses to more than the {size} "
                                            "bytes its header declares")
            out[pos:pos + len(piece)] = piece
            pos += len(piece)
    except (lzma.LZMAError, zlib.error) as e:
        if xz and "memory usage limit" in str(e).lower():
            raise PokerDraw32ValueError(f"{where} is damaged: its body's xz stream asks for more than the {memlimit} "
                                        f"bytes of memory a body of {size} bytes needs to decode") from None
        raise PokerDraw32ValueError(f"{where} is truncated or damaged: its body does not decompress ({e})") from None
    if not d.eof:
        raise PokerDraw32ValueError(f"{where} is truncated or damaged: its body does not decompress (the compressed "
                                    "data ends before the end of the stream)")
    if pos != size:
        raise PokerDraw32ValueError(f"{where} is damaged: its body has {pos} bytes, its header declares {size}")
    if d.unused_data or data or f.read(1):
        raise PokerDraw32ValueError(f"{where} is damaged: bytes follow the end of its body")
    return out


def _crc(value: Any) -> int:
    return zlib.crc32(json.dumps(value, sort_keys=True).encode())


def field_crcs(header: dict[str, Any]) -> dict[str, int]:
    """The CRC-32 of each field of ``header`` (of its JSON form, keys sorted), but ``"crc32"`` and
    ``"fields_crc32"``: what a writer records as ``"fields_crc32"``.  Computed on ``header`` as JSON
    gives it back (tuples as lists, ...), so a reader computes the same."""
    back = json.loads(json.dumps(header))
    return {name: _crc(value) for name, value in back.items() if name not in ("crc32", "fields_crc32")}


def check_fields(where: str, header: dict[str, Any], recorded: Any) -> None:
    """Check each field of ``header`` against the CRC-32 ``recorded`` for it when the file was written
    (its ``"fields_crc32"``).

    :raises PokerDraw32ValueError: ``recorded`` is not an object of CRC-32s, or a field was added,
        removed or changed (the message names it).
    """
    if not isinstance(recorded, dict) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                 for v in recorded.values()):
        raise PokerDraw32ValueError(f"{where} is damaged: its header's 'fields_crc32' is {shown(recorded)}, not an "
                                    "object of CRC-32s")
    actual = {name: _crc(value) for name, value in header.items() if name not in ("crc32", "fields_crc32")}
    for name in sorted(actual.keys() | recorded.keys()):
        if name not in recorded:
            raise PokerDraw32ValueError(f"{where} is damaged: its header has a field {name!r} it was not written with")
        if name not in actual:
            raise PokerDraw32ValueError(f"{where} is damaged: its header has lost its field {name!r}")
        if actual[name] != recorded[name]:
            raise PokerDraw32ValueError(f"{where} is damaged: its header's {name!r} was changed after the file was "
                                        f"written (its CRC-32 is {actual[name]:#010x}, the file recorded "
                                        f"{recorded[name] & 0xFFFFFFFF:#010x})")


def _bytes_at(a: array, j: int) -> bytes:  # type: ignore[type-arg]
    """Byte ``j`` (0: the lowest) of every item of ``a``."""
    size = a.itemsize
    return a.tobytes()[(j if sys.byteorder == "little" else size - 1 - j)::size]


def _mask(keep: Iterable[int], value: int) -> bytes:
    """A :meth:`bytes.translate` table: ``value`` for the bytes in ``keep``, 0 for the others."""
    chosen = set(keep)
    return bytes(value if b in chosen else 0 for b in range(256))


_LOW7 = bytes(b & 127 for b in range(256))


def check_abstraction(where: str, a: Abstraction, keys: array, heads: array,  # type: ignore[type-arg]
                      distinct: Iterable[int]) -> None:
    """Check the abstraction ``a`` of a file against its body: the buckets of the keys (``key & 127``:
    below ``pre_strength * pre_potential`` in phases 1 and 2, below ``post_buckets`` in phase 3) and
    the legal slots (a betting node's up to the all-in, ``3 + len(bet_fractions)`` or 4 in fixed-limit, the Parole split
    only with ``parole``; a draw's up to 4).  ``heads[i]`` holds key ``i``'s ``phase << 16 | slots``
    (and anything from bit 18 up); ``distinct`` its distinct values' low 18 bits.  A key 0 (an empty
    slot of a hash map, with head 0) counts for nothing.  What the body cannot show (the stack, the
    bet sizes' values) is left to :func:`check_fields`.

    :raises PokerDraw32ValueError: a bucket or a slot the abstraction does not have (the message
        names the field).
    """
    n = len(keys)
    buckets = int.from_bytes(_bytes_at(keys, 0).translate(_LOW7), "little")
    phases = _bytes_at(heads, 2)
    for wanted, limit, field in (((1, 2), a.pre_strength * a.pre_potential, "pre_strength x pre_potential"),
                                 ((3,), a.post_buckets, "post_buckets")):
        picked = (buckets & int.from_bytes(phases.translate(_mask({p | q << 2 for p in wanted for q in range(64)},
                                                                  127)), "little")).to_bytes(n, "little")
        top = max(picked, default=0)
        if top >= limit:
            raise PokerDraw32ValueError(f"{where} is damaged: its abstraction has {limit} buckets "
                                        f"({field}), its body an information set in bucket {top}")
    bets = draws = 0
    for head in distinct:
        if head >> 16 & 3 == 2:
            draws |= head & 0xFFFF
        elif head >> 16 & 3:
            bets |= head & 0xFFFF
    allin = 3 + a.raise_slots
    if bets >> allin + 1:
        sizes = "fixed-limit's one raise" if a.fixed_limit else f"{len(a.bet_fractions)} bet_fractions"
        raise PokerDraw32ValueError(f"{where} is damaged: its abstraction has {sizes} "
                                    f"(the all-in is slot {allin}), its body a legal slot {bets.bit_length() - 1}")
    if bets & 4 and not a.parole:
        raise PokerDraw32ValueError(f"{where} is damaged: its abstraction has parole=False, its body a Parole "
                                    "split (slot 2)")
    if draws >> 5:
        raise PokerDraw32ValueError(f"{where} is damaged: its body has a draw of {draws.bit_length() - 1} cards")
