"""The speed, memory and import targets of issues 11, 13 and 15, in one place, and how a figure is judged
against one.

The benchmarks that measure them (bench/simulate.py, bench/memory.py, bench/import_time.py; all
at once: ``python bench/run.py --targets``; issue 15: bench/evaluate.py and bench/cold_start.py)
print a verdict line per target with :func:`verdict`.
"""

from __future__ import annotations

import os

PER_ACTION_OF_C = 1 / 20   # the per-action public Hand loop, hands per CPU second, over the plain C loop's
PER_ACTION_OF_POKERKIT = 100.0   # ... and over PokerKit's (wall clock, with --peers)
SIMULATE_OF_C = 0.2        # simulate(players=5) hands per CPU second over the C loop's 5p-draw4
NO_SLOWER = 1.0            # pure engine, and import time, against the baseline revision (ratio)
MEMORY_MB = 25.0           # 10,000 finished 5-player hands held in memory (2.5 KB a hand)
WORKERS_2_OF_1 = 1.7       # issue 13: pokerdraw32 simulate --workers 2 over --workers 1 (2 cores)
# issue 15, the evaluator from every entry point (bench/evaluate.py, bench/cold_start.py):
MASKS_OF_PERFECT_HASH = 0.70  # evaluate_many(uint32 masks) hands/s over a C loop on a perfect-hash table
ROWS_OF_SAME_LAYOUT = 0.85    # evaluate_many(uint8 rows) hands/s over a C loop on the kernel's own layout
STRING_OF_PEERS = 2.0         # evaluate("Ah Kh Qh Jh Th")-style calls/s over phevaluator's string API,
                              # and over treys' Card.new + Evaluator.evaluate
SMALL_BATCH_OF_SINGLE = 1.0   # evaluate_many of 8 hands in one call over 8 single calls (time: lower is better)
COLD_START_OF_TODAY = 0.60    # first evaluate() / first draw_odds() in a fresh process, import included (time)
COLD_START_REV = "e2e41af"    # "today" of issue 15's cold start, built compiled by bench/cold_start.py
TOLERANCE = 0.05           # how far a ratio to the baseline may fall short and still be called noise
NOISE_BAND = 2.0           # a ratio within this many times the control's deviation from 1 is "unclear"


def verdict(value: float, target: float, *, higher: bool = True, tolerance: float = 0.0,
            noise: float | None = None) -> str:
    """How ``value`` stands against ``target`` (``higher``: larger is better).

    ``noise``: how far from 1.00x (relative) a control, the baseline against itself, came out in
    the same run.  That is one draw of the run's noise and ``value`` another, so the band is twice
    it: when the band exceeds ``tolerance`` and ``value`` is within it of ``target``, either way,
    the run cannot tell: ``unclear``.  Otherwise ``met``; ``met within noise`` (short by at most
    ``tolerance``); ``MISSED``.
    """
    met = value >= target if higher else value <= target
    band = None if noise is None else NOISE_BAND * noise
    if band is not None and band > tolerance and abs(value / target - 1) <= band:
        return (f"unclear ({'met' if met else 'short'}, but within this run's noise, ±{band:.0%}: "
                "rerun on a quieter machine)")
    if met:
        return "met"
    if value >= target * (1 - tolerance) if higher else value <= target * (1 + tolerance):
        return f"met within noise (±{tolerance:.0%})"
    return "MISSED"


def line(what: str, value: str, target: str, result: str) -> str:
    """One verdict line, as every script prints it."""
    return f"  target: {what}: {value} (target {target}): {result}"


def machine() -> str:
    """The CPUs and the load average, and a warning when other work is running (every ratio is noisier)."""
    cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows
        return f"machine: {cpus} CPUs"
    busy = " (busy: other work is running; expect noisy ratios, and check the control's line)" if load > 0.5 else ""
    return f"machine: {cpus} CPUs, load average {load:.1f} over the last minute{busy}"
