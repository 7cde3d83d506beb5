"""MCCFR on every core: K threads walking one shared table without the GIL (Pluribus-style).

:func:`run_threads` drives a *shared run* of the solvers of :mod:`pokerdraw32.cfr._mccfr`: the
trainer's own solver (thread 0) and ``K - 1`` helpers that :meth:`~_mccfr.Solver.share` its tables
(the same key, offset, regret and strategy-sum arrays and the same counters) with their own walk
rows and generators.  Each thread takes iterations from a shared ticket counter
(compare-and-swap): the iteration numbered ``t`` (``T0 + 1 .. T0 + n`` for a call of ``n``
iterations after ``T0``, each number taken by exactly one thread) weighs ``t`` in the regrets and
strategy sums (linear CFR), as it would in a run of one thread.

Safe: the hash map's key insertion (values reserved by compare-and-swap on ``used``, the key by
compare-and-swap of its empty slot, its offset published after; a reader that meets the key first
waits for the offset), and growth: the tables never grow during the run.  Each thread stops
before an iteration when they pass their *soft* limit (hash map half full, value arrays 3/4
used); when every thread has stopped, this driver grows them (:meth:`~_mccfr.Solver.reserve`, with
the GIL; at least :data:`MIN_SLOTS` slots and :data:`MIN_VALUES` values) and starts them again.
Between the soft limit and the *hard* one (7/8 of the slots, or the value arrays full) the
iterations in flight have 3/8 of the slots and 1/4 of the values; a walk that meets the hard limit
anyway stops part-way (its updates so far kept), and is counted in ``overflows``.

Tolerated races (as Pluribus): the regret and strategy-sum doubles are read and added to without
locks, so two threads updating one entry at once can lose one of the two additions, and a thread
can read regrets another is changing (each entry is read once per regret matching, so the
strategy it computes is a probability vector all the same).  Hence a run of K > 1 threads is not
bit-reproducible, even with the same seed; what holds: every iteration number is walked once,
every information set is in the map once with its own block of values, the counters match the
map, and the average strategy is a probability vector at every information set.  A lost race on
an insertion (two threads inserting the same key at the same moment) leaves one reserved block
unused (zeros, never read; counted in ``lost``): the value arrays are then not contiguous, and
the number of values of an information set is the number of legal slots in its offset entry.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

__all__ = ["MIN_SLOTS", "MIN_VALUES", "Shared", "run_threads"]

MIN_SLOTS = 1 << 17
"""The hash map's least size in a shared run (1 MB of keys and 1 MB of offsets): 3/8 of it, 49,152
information sets, is the room the iterations in flight have past the soft limit."""

MIN_VALUES = 1 << 20
"""The value arrays' least length in a shared run (8 MB each): 1/4, 262,144 values, past the soft limit."""

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def fork_seed(seed: int, k: int) -> int:
    """The generator seed of thread ``k`` (1..K-1) from the trainer's generator state ``seed``:
    the splitmix64 output ``k`` draws ahead (``k = 0`` is the trainer's own generator)."""
    z = (seed + k * GOLDEN) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class Shared:
    """The counts of one :func:`run_threads` call: ``restarts`` (the threads stopped for the tables
    to grow), ``overflows`` (walks abandoned at the hard limit), ``lost`` (value blocks left unused
    by lost insertion races, over the helpers' lifetime)."""

    def __init__(self) -> None:
        self.restarts = 0
        self.overflows = 0
        self.lost = 0


def _work(solver: Any, target: int, statuses: list[int | BaseException], i: int) -> None:
    """Thread ``i``: its solver's part of the run; the status, or the exception (raised again by the caller)."""
    try:
        statuses[i] = solver.run_shared(target)
    except BaseException as e:
        statuses[i] = e


def run_threads(main: Any, helpers: list[Any], iterations: int) -> Shared:
    """``iterations`` more iterations of ``main`` (a ``_mccfr.Solver``) in ``1 + len(helpers)``
    threads on its tables; afterwards ``main.t`` is ``iterations`` more and ``main.nodes`` counts
    every thread's nodes.  The helpers must have ``main``'s configuration (their generators are
    theirs).  A ``KeyboardInterrupt`` while waiting stops every thread after its current iteration,
    then is raised again (the tables stay consistent; ``main.t`` counts the iterations walked).
    """
    solvers = [main, *helpers]
    counters = main.counters()
    target = main.t + iterations
    counters[2] = main.t
    counters[3] = 0
    done = Shared()
    lost0 = sum(s.lost for s in solvers)
    try:
        for s in solvers:
            s.shared = True
        while counters[2] < target:
            main.reserve(MIN_SLOTS, MIN_VALUES)
            for h in helpers:
                h.share(main)
            statuses: list[int | BaseException] = [0] * len(solvers)
            threads = [threading.Thread(target=_work, args=(s, target, statuses, i), name=f"pokerdraw32-cfr-{i}")
                       for i, s in enumerate(solvers)]
            for t in threads:
                t.start()
            try:
                for t in threads:
                    t.join()
            except KeyboardInterrupt:
                counters[3] = 1
                for t in threads:
                    t.join()
                raise
            for st in statuses:
                if isinstance(st, BaseException):
                    raise st
            done.overflows += sum(1 for st in statuses if st == 2)
            if counters[2] < target:
                done.restarts += 1
    finally:
        for s in solvers:
            s.shared = False
        main.t = counters[2]
        for h in helpers:
            main.nodes += h.nodes
            h.nodes = 0
        done.lost = sum(s.lost for s in solvers) - lost0
    return done


def write_atomic(path: str | Path, blob: bytes) -> None:
    """Write ``blob`` to ``path`` through ``path + ".tmp"`` renamed over it: a reader never sees half
    a file, and a write that fails (a missing directory, ``path`` a directory, a full disk) leaves
    ``path`` as it was and no ``.tmp`` behind.

    :raises OSError: as the write or the rename raised it.
    """
    tmp = Path(str(path) + ".tmp")
    try:
        tmp.write_bytes(blob)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
