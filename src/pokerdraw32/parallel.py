"""Work cut into fixed chunks, run on this thread, on every core, or on any
:class:`concurrent.futures.Executor` (a Dask cluster's included), with the same result.

The simulations (:func:`pokerdraw32.simulate`) and the odds batches
(:func:`pokerdraw32.odds_batch.draw_odds_many`, :func:`~pokerdraw32.odds_batch.equity_many`)
cut their work into chunks whose size does not depend on the number of workers, give chunk
``i`` its own generator seed :func:`chunk_seed` ``(seed, i)``, and add the chunks' results up in
chunk order: the result for a seed is the same whatever runs the chunks.

>>> [chunk_seed(7, i) for i in range(2)]
[7191089600892374487, 309689372594955804]
>>> default_workers() >= 1
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

from .errors import PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, integer

__all__ = ["MAX_WORKERS", "Outcome", "WorkerError", "check_run", "chunk_seed", "default_workers", "run_chunks"]

T = TypeVar("T")
R = TypeVar("R")

_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` (0-based) of a run seeded ``seed``: output ``index + 1`` of
    SplitMix64 started at ``seed`` (Steele, Lea & Flood 2014; the generator that also seeds
    :class:`~pokerdraw32.Rng`), that is ``mix(seed + (index + 1) * 0x9E3779B97F4A7C15 mod 2**64)``
    with SplitMix64's finaliser ``mix``; the first four are the words of ``Rng(seed)``'s state.  A
    chunk's work depends only on its seed and the run's arguments: any chunk can be recomputed
    alone, on any machine.

    :param seed: ``0 <= seed < 2**64``.
    :param index: ``index >= 0``.
    :returns: an int ``0 <= value < 2**64``.
    :raises PokerDraw32ValueError: either argument out of range or not an int.
    """
    for name, value, top in (("seed", seed, 1 << 64), ("index", index, 1 << 63)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < top:
            raise PokerDraw32ValueError(f"{name}={value!r} must be an int, 0 <= {name} < {top}")
    z = (seed + (index + 1) * _GOLDEN) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def default_workers() -> int:
    """The cores this process may run on (``os.process_cpu_count()`` where Python has it, else
    the scheduler's CPU affinity, else ``os.cpu_count()``), at least 1."""
    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        return max(1, count() or 1)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:   # macOS, Windows
        return max(1, os.cpu_count() or 1)


def _start_worker(path: list[str]) -> None:
    """A worker process: the parent's ``sys.path`` (so that it imports what the parent imports: a
    user's bot module in the current directory, say), and Ctrl-C left to the parent, which stops
    the run and keeps what finished."""
    sys.path[:] = path
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Outcome(Generic[R]):
    """What :func:`run_chunks` produced: ``results[i]`` is chunk ``i``'s result, or ``None`` when it
    did not finish (the run was interrupted); ``interrupted`` says whether Ctrl-C stopped it;
    ``workers`` and ``executor`` say what ran it (``executor``: ``"this thread"``,
    ``"threads"``, ``"processes"`` or the given executor's class name; ``workers``: ``None``
    when a given executor does not tell)."""

    __slots__ = ("executor", "interrupted", "results", "workers")

    def __init__(self, results: list[R | None], interrupted: bool, workers: int | None, executor: str) -> None:
        self.results = results
        self.interrupted = interrupted
        self.workers = workers
        self.executor = executor

    @property
    def finished(self) -> list[tuple[int, R]]:
        """The finished chunks, ``(index, result)``, in chunk order."""
        return [(i, r) for i, r in enumerate(self.results) if r is not None]


MAX_WORKERS = 1024
"""The most workers a run may ask for."""


def check_run(workers: object, executor: object) -> int | None:
    """``workers`` as an int (``None`` stays ``None``: every core), once ``workers`` and ``executor``
    are checked: the checks of :func:`run_chunks`, for callers that check every argument before
    any work starts.

    :raises PokerDraw32ValueError: ``workers`` is not an int from 1 to :data:`MAX_WORKERS` or None.
    :raises PokerDraw32TypeError: ``executor`` is not a :class:`concurrent.futures.Executor`.
    """
    if executor is not None and not isinstance(executor, Executor):
        raise PokerDraw32TypeError(f"executor must be a concurrent.futures.Executor (e.g. a ProcessPoolExecutor, or "
                                   f"a Dask client.get_executor()), not {type(executor).__name__}")
    if workers is None:
        return None
    count = integer(workers)
    if count is None or not 1 <= count <= MAX_WORKERS:
        raise PokerDraw32ValueError(f"workers={workers!r} must be a positive int (or None: every core), at most "
                                    f"{MAX_WORKERS}")
    return count


_POLL = 0.2
"""Seconds between two looks at the Ctrl-C flag while a pool's tasks run (see :class:`_CtrlC`)."""


class _CtrlC:
    """Ctrl-C seen during a run, even when its KeyboardInterrupt is lost.

    Python raises KeyboardInterrupt in whatever the main thread runs when the signal arrives; in
    a ``__del__`` method, a weakref or garbage-collector callback (a finished future, a progress
    bar, a pipe of the worker pool being collected) that exception is printed as "Exception
    ignored" and dropped, and the run would go on.  So while a run lasts, SIGINT also sets a flag
    that the run looks at between its tasks (every :data:`_POLL` seconds while a pool works).
    Installed only on the main thread and only over Python's default handler (a program's own
    SIGINT handler is left as it is); the previous handler is put back when the run ends.
    """

    __slots__ = ("_previous", "seen")

    def __init__(self) -> None:
        self.seen = threading.Event()
        self._previous: Any = None
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._previous = signal.signal(signal.SIGINT, self._handle)

    def _handle(self, signum: int, frame: object) -> None:
        self.seen.set()
        raise KeyboardInterrupt

    @property
    def watching(self) -> bool:
        return self._previous is not None

    def check(self) -> None:
        """Raise KeyboardInterrupt if Ctrl-C came (and its own was lost)."""
        if self.seen.is_set():
            raise KeyboardInterrupt

    def close(self) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


def run_chunks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int | None = 1,
    executor: Executor | None = None,
    threads: bool = False,
    on_done: Callable[[int, R], None] | None = None,
) -> Outcome[R]:
    """Run ``fn(task)`` for every task and return the results in task order.

    * ``executor`` given: every task is submitted to it (it must be able to pickle ``fn`` and the
      tasks when it runs them in other processes, as :class:`~concurrent.futures.ProcessPoolExecutor`
      and Dask's ``client.get_executor()`` do); it is not shut down.
    * else ``workers`` (``None``: :func:`default_workers`) of them, capped at the number of tasks:
      1 runs the tasks on this thread, in order; more start a pool for this call, of threads when
      ``threads`` (right for work that releases the GIL) else of processes (the ``forkserver``
      start method where there is one, else ``spawn``), which take this process's ``sys.path``
      and ignore Ctrl-C.

    ``on_done(index, result)`` is called on this thread as each task finishes (in the order they
    finish).  Ctrl-C (KeyboardInterrupt on this thread) stops the run: tasks not started are
    cancelled, a pool of processes of this call is stopped (its running tasks are lost), one of
    threads lets its running tasks finish, and the outcome holds every finished result with
    ``interrupted`` set (``on_done`` is called for those that finished meanwhile too).  An exception raised by a task
    cancels the rest and is raised again here.

    Worker processes import the task's function and the script that started them again (the
    ``forkserver`` and ``spawn`` start methods): a script that runs work on processes keeps its
    main code under ``if __name__ == "__main__":``.

    :raises PokerDraw32ValueError, PokerDraw32TypeError: see :func:`check_run`.
    :raises WorkerError: the worker processes of this call's pool died.
    """
    count = check_run(workers, executor)
    workers = default_workers() if count is None else count
    results: list[R | None] = [None] * len(tasks)
    if executor is None:
        workers = min(workers, max(1, len(tasks)))
    ctrl_c = _CtrlC()
    try:
        return _run(fn, tasks, workers, executor, threads, on_done, results, ctrl_c)
    finally:
        ctrl_c.close()


def _run(fn: Callable[[T], R], tasks: Sequence[T], workers: int, executor: Executor | None, threads: bool,
         on_done: Callable[[int, R], None] | None, results: list[R | None], ctrl_c: _CtrlC) -> Outcome[R]:
    """:func:`run_chunks` once its arguments are checked, with Ctrl-C watched by ``ctrl_c``."""
    if executor is None and workers == 1:
        try:
            for i, task in enumerate(tasks):
                ctrl_c.check()
                results[i] = fn(task)
                if on_done is not None:
                    on_done(i, results[i])   # type: ignore[arg-type]
        except KeyboardInterrupt:
            return Outcome(results, True, 1, "this thread")
        return Outcome(results, False, 1, "this thread")
    own = executor is None
    pool: Executor
    if executor is not None:
        pool, kind = executor, type(executor).__name__
    elif threads:
        pool, kind = ThreadPoolExecutor(workers, thread_name_prefix="pokerdraw32"), "threads"
    else:
        import multiprocessing
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                                   initializer=_start_worker, initargs=(list(sys.path),))
        kind = "processes"
    index: dict[Future[Any], int] = {}
    # At most `window` tasks submitted and not finished: memory stays small, and Ctrl-C has little
    # to cancel. wait() costs O(window) a call.
    window = 2 * workers if own else max(64, 4 * (_workers_of(pool) or 16))
    todo = iter(enumerate(tasks))
    pending: set[Future[Any]] = set()
    interrupted = False
    try:
        while True:
            while len(pending) < window and (item := next(todo, None)) is not None:
                future = pool.submit(fn, item[1])
                index[future] = item[0]
                pending.add(future)
            if not pending:
                break
            ctrl_c.check()
            done, pending = wait(pending, timeout=_POLL if ctrl_c.watching else None, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=index.__getitem__):
                result = future.result()          # a task's exception is raised here
                results[index[future]] = result
                if on_done is not None:
                    on_done(index[future], result)
    except KeyboardInterrupt:
        interrupted = True
    except BaseException as e:
        for future in index:
            future.cancel()
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
        if own and isinstance(e, BrokenProcessPool):
            raise WorkerError("the worker processes stopped before finishing (killed, out of memory, or a script "
                              "that starts workers without `if __name__ == \"__main__\":` around its main code, "
                              "which worker processes import again)") from e
        raise
    if interrupted:
        for future in index:
            future.cancel()
        if own and isinstance(pool, ProcessPoolExecutor):   # stop the running tasks: a task may be long
            _stop_processes(pool)
        elif own:                                 # threads cannot be stopped: their tasks finish ...
            try:
                pool.shutdown(wait=True, cancel_futures=True)
            except KeyboardInterrupt:             # ... unless Ctrl-C comes again: keep what finished
                pool.shutdown(wait=False, cancel_futures=True)
        late = [(i, future) for future, i in index.items() if results[i] is None and future.done()
                and not future.cancelled() and future.exception() is None]
        for i, future in sorted(late):            # finished meanwhile: reported as the others were
            results[i] = future.result()
            if on_done is not None:
                with contextlib.suppress(KeyboardInterrupt):
                    on_done(i, results[i])       # type: ignore[arg-type]
    elif own:
        pool.shutdown(wait=True)
    return Outcome(results, interrupted, workers if own else _workers_of(pool), kind)


def _stop_processes(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down without waiting for its running tasks: its worker processes are
    terminated (the pool's ``_processes``, as multiprocessing names them)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(10)


class WorkerError(PokerDraw32Error, RuntimeError):
    """The worker processes of a pool started by :func:`run_chunks` died."""


def _workers_of(executor: Executor) -> int | None:
    """How many tasks a given executor runs at once, when it tells: a standard pool's
    ``_max_workers``, or the threads of a Dask client's workers."""
    count = getattr(executor, "_max_workers", None)
    if isinstance(count, int):
        return count
    client = getattr(executor, "_client", None)
    try:
        return int(sum(client.nthreads().values())) if client is not None else None
    except Exception:   # only a report: a client that cannot say leaves it unknown
        return None
