"""The timing loop of the benchmark subjects (imported by the child processes they start)."""

import statistics
import time


def median_us(fn, n, repeat):
    """Median over ``repeat`` runs of the time of one call of ``fn``, in microseconds (``n`` calls a run)."""
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        out.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(out)
