"""Whole sessions in threads: does the compiled session release the GIL? (issue 11, item 5)

    python bench/threads.py                  # 2 threads, 20,000 five-player hands a session
    python bench/threads.py --threads 4 --hands 50000

Plays ``--threads`` sessions of ``--hands`` hands each (5 seats, mixed rule and random bots, the
session that :func:`pokerdraw32.simulate.simulate` uses), first one after another in one thread,
then all at once, one thread each, and reports the wall-clock throughput of both in the same run,
interleaved over ``--repeat`` rounds (medians).  Their ratio is the speed-up threads give: with
the GIL held it stays at 1.0 or below; with it released it approaches the number of free cores.
A control measured the same way in the same rounds, ``hashlib.sha256`` of a large buffer (which
releases the GIL), shows what this machine's free cores allow at that moment: the session's
ratio is reported against it.  Both ways must give the same stacks (checked).  Compiled build
only: pure Python holds the GIL by nature.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import threading
import time

import pokerdraw32
from pokerdraw32._kernels import Rng, play
from pokerdraw32.hand import Hand
from pokerdraw32.rules import Rules

POLICIES = [play.RULE, play.RANDOM, play.RULE, play.RANDOM, play.RULE]


def session(seed: int) -> play.Session:
    return play.Session(Hand, Rules(), 200, POLICIES, [Rng(seed * 10 + i) for i in range(len(POLICIES) + 1)])


def in_turn(count: int, hands: int) -> tuple[float, list[list[int]]]:
    sessions = [session(i) for i in range(count)]
    start = time.perf_counter()
    for s in sessions:
        s.play(hands)
    return time.perf_counter() - start, [s.stacks for s in sessions]


def at_once(count: int, hands: int) -> tuple[float, list[list[int]]]:
    sessions = [session(i) for i in range(count)]
    threads = [threading.Thread(target=s.play, args=(hands,)) for s in sessions]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, [s.stacks for s in sessions]


def control(count: int, threaded: bool) -> float:
    """Seconds to hash ``count`` buffers of 100 MB in turn or in threads (the GIL released)."""
    data = bytes(100_000_000)
    start = time.perf_counter()
    if threaded:
        threads = [threading.Thread(target=hashlib.sha256, args=(data,)) for _ in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        for _ in range(count):
            hashlib.sha256(data)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> float:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=2, help="sessions and threads (default 2)")
    ap.add_argument("--hands", type=int, default=20_000, help="hands a session (default 20,000)")
    ap.add_argument("--repeat", type=int, default=5, help="interleaved rounds (default 5)")
    args = ap.parse_args(argv)
    if pokerdraw32.IMPLEMENTATION != "cython":
        print("bench/threads.py: the compiled build is not in use; nothing to measure")
        return 0.0
    session(99).play(10)   # the evaluator's tables, built once, outside the clocks
    total = args.threads * args.hands
    turn_rates, once_rates, control_ratios = [], [], []
    for r in range(args.repeat):
        control_ratios.append(control(args.threads, False) / control(args.threads, True))
        order = (in_turn, at_once) if r % 2 == 0 else (at_once, in_turn)
        results = {}
        for fn in order:
            seconds, stacks = fn(args.threads, args.hands)
            results[fn] = stacks
            (turn_rates if fn is in_turn else once_rates).append(total / seconds)
        assert results[in_turn] == results[at_once], "threads changed the sessions' results"
    turn, once = statistics.median(turn_rates), statistics.median(once_rates)
    print(f"{args.threads} sessions x {args.hands:,} five-player hands, {os.cpu_count()} CPUs, median of "
          f"{args.repeat} interleaved rounds (wall clock)")
    print(f"  one thread, in turn      {turn:>12,.0f} hands/s")
    print(f"  {args.threads} threads, at once    {once:>12,.0f} hands/s")
    free = statistics.median(control_ratios)
    print(f"  control: hashlib.sha256 in {args.threads} threads / in turn: {free:.2f}x (what the free cores allow now)")
    print(f"target: sessions in {args.threads} threads / in one thread (bench/threads.py): {once / turn:.2f}x; "
          f"the GIL-free control {free:.2f}x in the same run (ideal {min(args.threads, os.cpu_count() or 1)}x)")
    return once / turn


if __name__ == "__main__":
    main()
