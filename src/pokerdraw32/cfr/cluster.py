"""MCCFR on several machines: workers of a Dask cluster (or any ``concurrent.futures.Executor``) each
run MCCFR from the same tables, and their changes are added up (issue 26; DESIGN.md says why this
is sound and what it costs).

:func:`train_rounds` cuts ``iterations`` into ``rounds`` rounds.  In each round every one of the
``workers`` tasks gets the trainer's tables as they are (the *base*) and runs its share of the
round's iterations with its own generator, the round's iteration numbers dealt out in turn
(task ``k`` of ``K`` walks the numbers ``T + k + 1``, ``T + k + 1 + K``, ... after ``T`` done: each
number walked once, with its linear-CFR weight); it returns its tables minus the base; the driver
adds the K differences to its tables, information set by information set (new sets inserted),
in task order.

* ``rounds=1`` on a fresh trainer: K independent runs whose strategy sums are added key by key:
  the reach-weighted mixture of their average strategies, whose exploitability (two players,
  zero sum) is at most the mixture of theirs; no faster convergence than one run of the same
  total length (DESIGN.md, next steps 2(a)).
* ``rounds > 1``: the workers learn from each other's regrets every round.  Within a round each
  plays regret matching on regrets that lack the others' last ``(K - 1) * M`` iterations
  (``M`` a task's iterations in the round): stale regrets, as the threads of a shared run (there
  about ``K - 1`` iterations old).  Regret matching with regrets at most ``tau`` iterations stale
  keeps a regret bound of ``Delta * sqrt(T * (1 + 2 * tau))`` (DESIGN.md); so the run converges,
  the more rounds the closer to one long run, but each round ships the whole tables to and from
  every worker.

Reproducible: the same trainer, ``iterations``, ``workers`` and ``rounds`` give the same tables on
any executor (the tasks' generators come from the trainer's, the merge is in task order), on this
thread with ``executor=None``, compiled or pure.  Not the same tables as :meth:`Trainer.train`.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from ..errors import PokerDraw32ValueError, shown
from ._select import mccfr
from ._shared import fork_seed
from .abstraction import Abstraction
from .solver import Progress, Trainer

__all__ = ["train_rounds"]


def _solver(a: Abstraction, seed: int, sampling: str, prune: tuple[int, float] = (0, 0.0)) -> Any:
    ct = a.tables()
    s = mccfr.Solver(a.milli, a.raise_cap, a.parole, 1, 2, a.stack, a.stack, ct.pre, ct.post, ct.value, ct.ruled, seed,
                     a.fixed_limit)
    s.outcome = sampling == "outcome"
    s.prune_after, s.prune_chips = prune
    return s


def _load(s: Any, tables: tuple[Any, ...]) -> None:
    keys, offs, reg, strat, count, used = tables
    s._set_tables(array("Q", keys), array("q", offs), array("d", reg), array("d", strat))   # copies: the base is shared
    s.count = count
    s.used = used


def _task(job: tuple[Any, ...]) -> tuple[Any, ...]:
    """One worker's part of a round: from the base tables (or empty ones), ``n`` iterations numbered
    ``first, first + stride, ...``; returns its tables minus the base, and the nodes it walked."""
    abstraction, sampling, prune, base, seed, first, stride, n = job
    s = _solver(Abstraction.from_dict(abstraction), seed, sampling, prune)
    if base is not None:
        _load(s, base)
    for j in range(n):
        s.t = first + j * stride - 1          # run() adds 1 before walking: iteration first + j * stride
        s.run(1)
    if base is not None:
        b = _solver(Abstraction.from_dict(abstraction), 0, sampling)
        _load(b, base)
        s.add(b, -1.0)
    keys, offs, reg, strat = s.tables()
    return keys, offs, reg, strat, int(s.count), int(s.used), int(s.nodes)


def train_rounds(trainer: Trainer, iterations: int, *, workers: int, rounds: int = 1, executor: Executor | None = None,
                 checkpoint: str | Path | None = None,
                 progress: Callable[[Progress], object] | None = None) -> Progress:
    """Run ``iterations`` more iterations of ``trainer`` as ``workers`` tasks a round, ``rounds``
    rounds (see the module's docstring), on ``executor`` (a Dask ``client.get_executor()``, a
    process pool; ``None``: one task after the other on this thread).  After each round writes
    ``checkpoint`` (if given) and calls ``progress`` (if given) with a :class:`Progress` that also
    has ``workers`` and ``rounds`` (done).  The trainer's own thread count is not used.

    :raises PokerDraw32ValueError: a count that is not a positive int (``iterations`` may be 0),
        or fewer iterations a round than workers.
    """
    for name, value, least in (("iterations", iterations, 0), ("workers", workers, 1), ("rounds", rounds, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise PokerDraw32ValueError(f"{name}={shown(value)}: use an int >= {least}")
    if iterations and iterations < workers * rounds:
        raise PokerDraw32ValueError(f"iterations={iterations} for {workers} workers and {rounds} rounds: every task "
                                    f"needs an iteration a round (at least {workers * rounds})")
    s = trainer.solver
    a = trainer.abstraction.to_dict()
    start = time.perf_counter()
    report = Progress()
    done = 0
    for r in range(rounds if iterations else 0):
        n = iterations // rounds + (r < iterations % rounds)
        base = None if s.count == 0 else (*s.tables(), int(s.count), int(s.used))
        prune = (int(s.prune_after), float(s.prune_chips))
        jobs = [(a, trainer.sampling, prune, base, fork_seed(int(s.seed), k + 1), int(s.t) + k + 1, workers,
                 n // workers + (k < n % workers)) for k in range(workers)]
        if executor is None:
            results = [_task(job) for job in jobs]
        else:
            results = [f.result() for f in [executor.submit(_task, job) for job in jobs]]
        delta = _solver(trainer.abstraction, 0, trainer.sampling)
        for res in results:
            _load(delta, res[:6])
            s.add(delta, 1.0)
            s.nodes += res[6]
        s.t += n
        done += n
        s.seed = fork_seed(int(s.seed), 0)
        if checkpoint is not None:
            trainer.save(checkpoint)
        seconds = time.perf_counter() - start
        report = Progress(iterations=trainer.iterations, info_sets=trainer.info_sets, values=int(s.used),
                          nodes=int(s.nodes), rate=done / seconds if seconds > 0 else 0.0,
                          seconds=seconds, workers=workers, rounds=r + 1)
        if progress is not None:
            progress(report)
    return report
