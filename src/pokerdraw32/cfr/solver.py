"""Training: a :class:`Trainer` runs MCCFR on an :class:`~pokerdraw32.cfr.abstraction.Abstraction`,
checkpoints and resumes it, and exports the average strategy as a :class:`Strategy` (issue 26).

Files (both written by :func:`_write`): ``MAGIC`` (8 bytes), the header's length (8 bytes,
little-endian), the header (JSON, at most 64 KiB: kind, abstraction, counts, array lengths, and
``fields_crc32``: the CRC-32 of each other field, so that an edited abstraction is refused; files
written before issue 41 have none and are still read, their abstraction checked against their keys
and slots), then the arrays, little-endian, zlib-compressed (read a chunk at a time into the size
the lengths declare, at most :data:`CAP` bytes: see :mod:`pokerdraw32.cfr._files`).  A
*checkpoint* holds everything the walk needs to go on exactly as if it had not stopped (the
generator's state, the iteration count, the hash map as laid out); a *strategy* holds, for each
information set, its key, ``offset << 18 | phase << 16 | legal slots``, the average strategy's
probabilities (``float32``, in the order of the legal slots).
"""

from __future__ import annotations

import json
import os
import sys
import time
import zlib
from array import array
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any

from ..errors import PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, shown
from . import _files
from ._select import IMPLEMENTATION, mccfr
from ._shared import fork_seed, run_threads, write_atomic
from .abstraction import Abstraction

__all__ = ["Progress", "Strategy", "Trainer"]

MAGIC = b"PD32CFR3"


CAP = 1 << 34
"""Most bytes of a solver file's arrays, decompressed (16 GiB).  A checkpoint of the shipped
blueprint's run (1,420,646 information sets, 4,114,374 values, one thread) holds 128 MiB: a hash
map of 2**22 slots and value arrays of 2**22 doubles; its strategy file 39 MB."""

_FLOOR = {"strategy": 1 << 20, "checkpoint": 1 << 25}
"""The arrays a file holds whatever its compression ratio (past it, at most
:data:`~pokerdraw32.cfr._files.RATIO` bytes a compressed byte): 1 MiB for a strategy, 32 MiB for a
checkpoint, whose hash map and value arrays are mostly zeros while they are small (a run in threads
starts with 18 MiB of them: :data:`~pokerdraw32.cfr._shared.MIN_SLOTS`, ``MIN_VALUES``)."""


def _write(path: str | Path, header: dict[str, Any], arrays: list[array]) -> None:  # type: ignore[type-arg]
    """Write a solver file: ``header`` with the CRC-32 of each of its fields (``"fields_crc32"``, made
    anew) and ``arrays``.

    :raises PokerDraw32ValueError: a header a reader would refuse (over 64 KiB or 32 levels deep).
    """
    blob = bytearray()
    for a in arrays:
        if sys.byteorder != "little":
            a = array(a.typecode, a)
            a.byteswap()
        blob += a.tobytes()
    header = {name: value for name, value in header.items() if name != "fields_crc32"}
    header["fields_crc32"] = _files.field_crcs(header)
    head = json.dumps(header, sort_keys=True).encode()
    _files.check_header(head, f"the {header.get('kind')} {str(path)!r}")
    write_atomic(path, MAGIC + len(head).to_bytes(8, "little") + head + zlib.compress(bytes(blob), 6))


def _read(path: str | Path, kind: str, typecodes: str) -> tuple[dict[str, Any], list[array]]:  # type: ignore[type-arg]
    """The header and arrays of a solver file of ``kind``, in memory bounded by what its header declares
    (:mod:`pokerdraw32.cfr._files`).  Its header's fields are checked against their CRC-32s (a file
    written before they were recorded: its abstraction against its keys and slots instead).

    :raises PokerDraw32ValueError: not a solver file of ``kind``; a damaged or hostile one: a
        header too long or too deeply nested, not a JSON object, with bad array lengths, an
        abstraction that is not valid, a field changed since it was written; arrays of more than
        :data:`CAP` bytes or more than ``RATIO`` times the compressed bytes (past a floor); a body
        that does not decompress to exactly the arrays' size.
    """
    where = f"the {kind} {str(path)!r}"
    try:
        with open(path, "rb") as f:
            start = f.read(16)
            if start[:8] != MAGIC:
                raise PokerDraw32ValueError(f"cannot read {where}: not a pokerdraw32 solver file")
            if len(start) < 16:
                raise PokerDraw32ValueError(f"cannot read {where}: truncated after {len(start)} bytes")
            header = _files.read_header_json(f, int.from_bytes(start[8:16], "little"), where)
            if header.get("kind") != kind:
                raise PokerDraw32ValueError(f"cannot read {where}: a {str(header.get('kind'))[:40]}, not a {kind}")
            lengths = header.get("lengths")
            if not isinstance(lengths, list) or len(lengths) != len(typecodes) or \
                    not all(type(v) is int and v >= 0 for v in lengths):
                raise PokerDraw32ValueError(f"{where} is damaged: its header's 'lengths' is {shown(lengths)}, not "
                                            f"{len(typecodes)} array lengths")
            try:
                abstraction = Abstraction.from_dict(header.get("abstraction"))
            except (PokerDraw32Error, TypeError, ValueError) as e:
                raise PokerDraw32ValueError(f"{where} is damaged: its abstraction is not valid ({e})") from None
            checked = "fields_crc32" in header        # files written before issue 41 have none
            if checked:
                _files.check_fields(where, header, header["fields_crc32"])
            sizes = [length * array(code).itemsize for code, length in zip(typecodes, lengths, strict=True)]
            _files.check_size(where, sum(sizes), os.fstat(f.fileno()).st_size - f.tell(), floor=_FLOOR[kind], cap=CAP)
            raw = _files.inflate(f, sum(sizes), where, xz=False)
    except OSError as e:
        raise PokerDraw32ValueError(f"cannot read {where}: {e}") from None
    arrays = []
    pos = 0
    with memoryview(raw) as view:
        for code, size in zip(typecodes, sizes, strict=True):
            a = array(code)
            a.frombytes(view[pos:pos + size])
            pos += size
            if sys.byteorder != "little":
                a.byteswap()
            arrays.append(a)
    if not checked:
        _files.check_abstraction(where, abstraction, arrays[0], arrays[1], {o & 0x3FFFF for o in arrays[1]})
    return header, arrays


def _whole(header: dict[str, Any], name: str, below: int = 1 << 63) -> bool:
    v = header.get(name)
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < below


def _check_strategy(where: str, keys: array, offsets: array, probs: array) -> None:  # type: ignore[type-arg]
    """:raises PokerDraw32ValueError: the arrays of a strategy file do not fit together (each set's
    probabilities right after the previous set's, as many as its legal slots, the last ending at the
    end; keys distinct and non-zero), which :meth:`Strategy.lookup` relies on."""
    if len(offsets) != len(keys):
        raise PokerDraw32ValueError(f"{where} is damaged: {len(keys)} keys but {len(offsets)} offsets")
    if 0 in keys or len(set(keys)) != len(keys):
        raise PokerDraw32ValueError(f"{where} is damaged: its keys are not distinct and non-zero")
    slots = {o & 0x3FFFF: (o & 0xFFFF).bit_count() for o in set(o & 0x3FFFF for o in offsets)}
    if any(n == 0 or (o >> 16) not in (1, 2, 3) for o, n in slots.items()):
        raise PokerDraw32ValueError(f"{where} is damaged: an information set has no legal slots or a bad phase")
    bounds = list(accumulate((slots[o & 0x3FFFF] for o in offsets), initial=0))
    if bounds[-1] != len(probs) or any(o >> 18 != b for o, b in zip(offsets, bounds, strict=False)):
        raise PokerDraw32ValueError(f"{where} is damaged: its offsets do not match its {len(probs)} probabilities")


def _check_checkpoint(where: str, header: dict[str, Any], keys: array, offs: array, reg: array,  # type: ignore[type-arg]
                      strat: array) -> None:  # type: ignore[type-arg]
    """:raises PokerDraw32ValueError: a checkpoint's header and arrays do not fit together as the walk
    needs them (a damaged file would otherwise make the compiled walk loop for ever or read out of
    its arrays): a hash map of a power of two slots at most half full, its ``count`` non-zero keys,
    each with a block of values within the ``used`` ones, regret and strategy sums of one length."""
    for name in ("iterations", "count", "used", "nodes"):
        if (name != "nodes" or name in header) and not _whole(header, name):     # "nodes": optional
            raise PokerDraw32ValueError(f"{where} is damaged: {name}={shown(header.get(name))} is not an int >= 0")
    if not _whole(header, "rng", 1 << 64):
        raise PokerDraw32ValueError(f"{where} is damaged: its generator state is {shown(header.get('rng'))}")
    size, count, used = len(keys), header["count"], header["used"]
    if size < 2 or size & (size - 1) or len(offs) != size or count * 2 > size:
        raise PokerDraw32ValueError(f"{where} is damaged: a hash map of {size} keys and {len(offs)} offsets "
                                    f"holding {count} information sets")
    if len(reg) != len(strat) or used > len(reg):
        raise PokerDraw32ValueError(f"{where} is damaged: {len(reg)} regrets, {len(strat)} strategy sums, "
                                    f"{used} used")
    found = 0
    for k, o in zip(keys, offs, strict=True):
        if k:
            found += 1
            if o < 0 or (o >> 18) + (o & 0xFFFF).bit_count() > used or not o & 0xFFFF:
                raise PokerDraw32ValueError(f"{where} is damaged: information set {k:#x} has values outside "
                                            f"the {used} used")
    if found != count:
        raise PokerDraw32ValueError(f"{where} is damaged: {found} keys in its hash map, its header says {count}")


class Progress(dict[str, float]):
    """What :meth:`Trainer.train` reports after each chunk: ``iterations`` (so far), ``info_sets``,
    ``values`` (regret entries), ``nodes`` (states walked so far), ``rate`` (iterations per second
    in this call), ``seconds``, ``threads``; with ``threads > 1`` also ``restarts`` (the threads
    stopped for the tables to grow), ``overflows`` (walks abandoned at the tables' hard limit) and
    ``lost`` (value blocks left unused by insertion races), each counted over this call; with
    ``exploitability_every``, at its multiples, ``exploitability`` (milli big blinds a hand, in the
    bucket game)."""


class Strategy:
    """An average strategy: for each information set key, the probabilities of its legal slots.

    Read-only: ``copy.copy`` and ``copy.deepcopy`` give the object itself (``simulate`` copies a bot
    object for each chunk: its strategy is shared, not copied), and a pickle holds the arrays only.

    :ivar abstraction: the :class:`~pokerdraw32.cfr.abstraction.Abstraction` it was trained on.
    :ivar iterations: the training iterations behind it.
    """

    def __init__(self, abstraction: Abstraction, iterations: int, keys: array, offsets: array,  # type: ignore[type-arg]
                 probs: array) -> None:  # type: ignore[type-arg]
        self.abstraction = abstraction
        self.iterations = iterations
        self.keys = keys
        self.offsets = offsets
        self.probs = probs
        self._index = {k: i for i, k in enumerate(keys)}

    def __len__(self) -> int:
        return len(self.keys)

    def __copy__(self) -> Strategy:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Strategy:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Strategy, (self.abstraction, self.iterations, self.keys, self.offsets, self.probs))

    def get(self, key: int) -> list[float] | None:
        """The probabilities of information set ``key`` (legal slots in ascending order), or ``None``."""
        found = self.lookup(key)
        return None if found is None else found[2]

    def lookup(self, key: int) -> tuple[int, int, list[float]] | None:
        """``(phase, slots, probabilities)`` of information set ``key``: the phase of its node
        (``_mccfr.PH_FIRST``, ``PH_DRAW``, ``PH_SECOND``), the mask of the legal slots it was trained
        with (bit ``s`` for slot ``s``) and their probabilities in ascending slot order; or ``None``."""
        i = self._index.get(key)
        if i is None:
            return None
        start = self.offsets[i] >> 18
        end = self.offsets[i + 1] >> 18 if i + 1 < len(self.offsets) else len(self.probs)
        return self.offsets[i] >> 16 & 3, self.offsets[i] & 0xFFFF, list(self.probs[start:end])

    def save(self, path: str | Path) -> None:
        """Write the strategy file (see the module's docstring)."""
        header = {"kind": "strategy", "abstraction": self.abstraction.to_dict(), "iterations": self.iterations,
                  "lengths": [len(self.keys), len(self.offsets), len(self.probs)]}
        _write(path, header, [self.keys, self.offsets, self.probs])

    @classmethod
    def load(cls, path: str | Path) -> Strategy:
        """A strategy file written by :meth:`save`, or a compact one written by
        :func:`pokerdraw32.cfr.compact.write_compact` (``python -m pokerdraw32.cfr export``).

        :raises PokerDraw32ValueError: not a strategy file, or a damaged one."""
        try:
            with open(path, "rb") as f:
                compact = f.read(8) == b"PD32CFRZ"
        except OSError:
            compact = False                    # _read says why
        if compact:
            from .compact import read_tables

            header, abstraction, keys, offsets, probs = read_tables(path)
            return cls(abstraction, header["iterations"], keys, offsets, probs)
        header, (keys, offsets, probs) = _read(path, "strategy", "Qqf")
        where = f"the strategy {str(path)!r}"
        if not _whole(header, "iterations"):
            raise PokerDraw32ValueError(f"{where} is damaged: iterations={shown(header.get('iterations'))}")
        _check_strategy(where, keys, offsets, probs)
        return cls(Abstraction.from_dict(header["abstraction"]), header["iterations"], keys, offsets, probs)


class Trainer:
    """MCCFR with linear weights on ``abstraction`` (see :mod:`pokerdraw32.cfr`).

    :param abstraction: the game's abstraction (default: :class:`Abstraction`'s defaults).
    :param seed: the walk's seed (an int from 0 to 2**64 - 1): the same seed, abstraction,
        sampling and iteration count give the same tables, compiled or not, in one run or resumed.
    :param sampling: ``"external"`` (default: every traverser action walked, chance and opponent
        sampled) or ``"outcome"`` (one trajectory an iteration, the traverser exploring with
        probability 0.6, importance-weighted, as OpenSpiel's ``outcome_sampling_mccfr``).
    :param threads: threads walking the one table at once (default 1), without the GIL in the
        compiled build (:mod:`pokerdraw32.cfr._shared`).  With 1 the run is reproducible as
        described above; with more it is not (races on the regret and strategy sums are
        tolerated, as in Pluribus), but every iteration number is walked once with its linear
        weight, every information set is in the table once and the strategy is valid.
    :param prune_after: negative-regret pruning (external sampling only, as Pluribus): after this
        many iterations (default 0: never), 95% of the walks of iteration ``t`` skip the traverser's
        actions whose regret is below ``-prune_bb * t`` big blinds, unless they end the hand; their
        regrets then stay as they are.  (With linear weights an action that loses ``D`` big blinds
        where it is reached with probability ``p`` has a regret near ``-p * D * t * t / 2``: pruned
        from ``t`` near ``2 * prune_bb / (p * D)`` on, as Pluribus' fixed threshold catches more
        actions as regrets grow.)  Off, the run is the run without pruning.
    :param prune_bb: the pruning threshold in big blinds (default 1.0, > 0).
    :raises PokerDraw32ValueError: a bad seed, sampling, thread count or pruning option.
    """

    def __init__(self, abstraction: Abstraction | None = None, seed: int = 0, sampling: str = "external",
                 threads: int = 1, prune_after: int = 0, prune_bb: float = 1.0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
            raise PokerDraw32ValueError(f"seed={shown(seed)}: use an int from 0 to 2**64 - 1")
        if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 1024:
            raise PokerDraw32ValueError(f"threads={shown(threads)}: use an int from 1 to 1024")
        self.threads = threads
        if not isinstance(prune_after, int) or isinstance(prune_after, bool) or not 0 <= prune_after < 1 << 63:
            raise PokerDraw32ValueError(f"prune_after={shown(prune_after)}: use an int from 0 to 2**63 - 1 (0: no "
                                        "pruning)")
        if isinstance(prune_bb, bool) or not isinstance(prune_bb, (int, float)) or not 0 < prune_bb < float("inf"):
            raise PokerDraw32ValueError(f"prune_bb={shown(prune_bb)}: use a number of big blinds > 0")
        self.prune_after = prune_after
        self.prune_bb = float(prune_bb)
        self._helpers: list[Any] = []
        if sampling not in ("external", "outcome"):
            raise PokerDraw32ValueError(f"sampling={shown(sampling)}: use 'external' or 'outcome'")
        self.sampling = sampling
        a = Abstraction() if abstraction is None else abstraction
        if not isinstance(a, Abstraction):
            raise PokerDraw32TypeError(f"abstraction must be an Abstraction, got {shown(a)}")
        self.abstraction = a
        ct = a.tables()
        self.solver: Any = mccfr.Solver(a.milli, a.raise_cap, a.parole, 1, 2, a.stack, a.stack, ct.pre, ct.post,
                                        ct.value, ct.ruled, seed, a.fixed_limit)
        self.solver.outcome = sampling == "outcome"
        self.solver.prune_after = prune_after
        self.solver.prune_chips = self.prune_bb * 2       # the big blind: 2 chips
        self._cards = ct

    implementation = IMPLEMENTATION
    """``"cython"`` (the compiled walk) or ``"python"`` (its pure twin)."""

    @property
    def iterations(self) -> int:
        """Iterations done (each one walk per player)."""
        return int(self.solver.t)

    @property
    def info_sets(self) -> int:
        """Information sets met so far."""
        return int(self.solver.count)

    def train(self, iterations: int, *, chunk: int = 0, checkpoint: str | Path | None = None,
              progress: Callable[[Progress], object] | None = None, exploitability_every: int = 0) -> Progress:
        """Run ``iterations`` more iterations, in chunks of ``chunk`` (default: all at once), after
        each writing ``checkpoint`` (if given) and calling ``progress`` (if given).

        ``exploitability_every=K`` also ends a chunk at every multiple of ``K`` iterations (counted
        from the first) and adds the average strategy's exploitability in the bucket game there
        (:func:`pokerdraw32.cfr.exploitability.exploitability`, milli big blinds a hand) to that
        chunk's report as ``exploitability``; ``rate`` leaves its time out.

        :raises PokerDraw32ValueError: a negative count, chunk or ``exploitability_every``, or one
            past 2**63 - 1 iterations in all (the walk's 64-bit count).
        """
        room = (1 << 63) - 1 - self.iterations       # the walk counts iterations in 64-bit integers
        for name, value in (("iterations", iterations), ("chunk", chunk),
                            ("exploitability_every", exploitability_every)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PokerDraw32ValueError(f"{name}={shown(value)}: use an int >= 0")
            if value > room:
                raise PokerDraw32ValueError(f"{name}={shown(value)}: at most 2**63 - 1 iterations in all ({room} "
                                            "more)")
        step = chunk or iterations or 1
        start = time.perf_counter()
        done = 0
        report = Progress()
        every = exploitability_every
        measuring = 0.0
        shared = {"restarts": 0, "overflows": 0, "lost": 0}
        while done < iterations:
            n = min(step, iterations - done)
            if every:
                n = min(n, every - self.iterations % every)
            if self.threads == 1:
                self.solver.run(n)
            else:
                counts = run_threads(self.solver, self._threads(), n)
                for name in shared:
                    shared[name] += getattr(counts, name)
            done += n
            if checkpoint is not None:
                self.save(checkpoint)
            exploit = None
            if every and self.iterations % every == 0:
                from .exploitability import exploitability
                was = time.perf_counter()
                exploit = exploitability(self.strategy()).mbb
                measuring += time.perf_counter() - was
            seconds = time.perf_counter() - start
            report = Progress(iterations=self.iterations, info_sets=self.info_sets, values=int(self.solver.used),
                              nodes=int(self.solver.nodes),
                              rate=done / (seconds - measuring) if seconds > measuring else 0.0, seconds=seconds,
                              threads=self.threads)
            if self.threads > 1:
                report.update(shared)
            if exploit is not None:
                report["exploitability"] = exploit
            if progress is not None:
                progress(report)
        return report

    def _threads(self) -> list[Any]:
        """The helper solvers of threads 1..K-1 (made once: their generators go on from call to
        call, seeded by :func:`~pokerdraw32.cfr._shared.fork_seed` from this trainer's generator)."""
        if not self._helpers:
            a, ct, s = self.abstraction, self._cards, self.solver
            for k in range(1, self.threads):
                h = mccfr.Solver(a.milli, a.raise_cap, a.parole, 1, 2, a.stack, a.stack, ct.pre, ct.post, ct.value,
                                 ct.ruled, fork_seed(int(s.seed), k), a.fixed_limit)
                h.share(s)
                self._helpers.append(h)
        return self._helpers

    def save(self, path: str | Path) -> None:
        """Write a checkpoint: :meth:`load` then :meth:`train` goes on exactly as without the stop."""
        keys, offs, reg, strat = self.solver.tables()
        s = self.solver
        header = {"kind": "checkpoint", "abstraction": self.abstraction.to_dict(), "iterations": int(s.t),
                  "sampling": self.sampling, "nodes": int(s.nodes), "prune_after": self.prune_after,
                  "prune_bb": self.prune_bb,
                  "rng": int(s.seed), "count": int(s.count), "used": int(s.used),
                  "lengths": [len(keys), len(offs), len(reg), len(strat)]}
        _write(path, header, [keys, offs, reg, strat])

    @classmethod
    def load(cls, path: str | Path, threads: int = 1) -> Trainer:
        """A trainer from a checkpoint written by :meth:`save`, going on in ``threads`` threads
        (the helper threads' generators are new, seeded from the checkpoint's).

        :raises PokerDraw32ValueError: not a checkpoint, or a damaged one; a bad thread count."""
        header, (keys, offs, reg, strat) = _read(path, "checkpoint", "Qqdd")
        _check_checkpoint(f"the checkpoint {str(path)!r}", header, keys, offs, reg, strat)
        if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 1024:
            raise PokerDraw32ValueError(f"threads={shown(threads)}: use an int from 1 to 1024")
        try:
            trainer = cls(Abstraction.from_dict(header["abstraction"]), sampling=header.get("sampling", "external"),
                          threads=threads, prune_after=header.get("prune_after", 0),
                          prune_bb=header.get("prune_bb", 1.0))
        except PokerDraw32Error as e:
            raise PokerDraw32ValueError(f"the checkpoint {str(path)!r} is damaged: {e}") from None
        s = trainer.solver
        s.nodes = header.get("nodes", 0)
        s._set_tables(keys, offs, reg, strat)
        s.seed = header["rng"]
        s.t = header["iterations"]
        s.count = header["count"]
        s.used = header["used"]
        return trainer

    def strategy(self) -> Strategy:
        """The average strategy so far (uniform where an information set's sums are all zero)."""
        keys, offs, _reg, strat = self.solver.tables()
        used = int(self.solver.used)
        found = sorted((offs[h], keys[h]) for h in range(len(keys)) if keys[h])
        out_keys = array("Q")
        out_offs = array("q")
        probs = array("f")
        for packed, key in found:     # as many values as legal slots (a shared run can leave gaps)
            off = packed >> 18
            end = off + (packed & 0xFFFF).bit_count()
            if end > used:
                raise PokerDraw32ValueError(f"the tables are damaged: information set {key} ends past the values used")
            total = 0.0
            for j in range(off, end):
                total += strat[j]
            out_keys.append(key)
            out_offs.append(len(probs) << 18 | packed & 0x3FFFF)
            for j in range(off, end):
                probs.append(strat[j] / total if total > 0 else 1.0 / (end - off))
        return Strategy(self.abstraction, self.iterations, out_keys, out_offs, probs)
