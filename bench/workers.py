"""``pokerdraw32 simulate --workers N`` against ``--workers 1``, in the same run (issue 13's target:
``--workers 2`` at >= 1.7x the speed of ``--workers 1`` on a 2-core machine).

    python bench/workers.py                          # 5 players, 400,000 hands, workers 1 and 2, 5 rounds
    python bench/workers.py --workers 1 2 3 --hands 1000000 --rounds 3
    python bench/workers.py --mode session --duplicate   # (--duplicate needs --mode reset, the default)

Each round runs the command once per worker count, in turn (interleaved, so a change in the
machine's load hits every count alike), each time in a new process, exactly as a user types it:
``pokerdraw32 simulate --players 5 --hands H --seed 7 --workers N --json --no-progress``.  The
speed is the command's own ``run.hands_per_second`` (hands over the wall time of the play, the
interpreter's start excluded); the wall time of the whole command is shown too.  The figures are
the medians over the rounds.  The JSON results of every run, without ``run``, must be identical:
the bench checks it.

A control that releases the GIL (hashlib.sha256 of 1 MiB blocks in N threads against one) runs in
the same rounds: it shows how many free cores the machine had meanwhile (this machine is shared).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import threading
import time


def run_command(args: argparse.Namespace, workers: int) -> tuple[float, float, str]:
    """One ``pokerdraw32 simulate`` run: (hands/s as reported, wall seconds of the command, JSON without run)."""
    cmd = [sys.executable, "-m", "pokerdraw32", "simulate", "--players", str(args.players), "--hands", str(args.hands),
           "--seed", "7", "--workers", str(workers), "--json", "--no-progress", "--mode", args.mode]
    if args.duplicate:
        cmd.append("--duplicate")
    if args.bots:
        cmd += ["--bots", args.bots]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    d = json.loads(proc.stdout)
    rate = d.pop("run")["hands_per_second"]
    return rate, wall, json.dumps(d, sort_keys=True)


def control(threads: int, blocks: int = 120) -> float:
    """Seconds for ``threads`` threads each hashing ``blocks`` MiB (hashlib releases the GIL)."""
    data = b"\x5a" * (1 << 20)

    def work() -> None:
        for _ in range(blocks):
            hashlib.sha256(data).digest()

    pool = [threading.Thread(target=work) for _ in range(threads)]
    start = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--hands", type=int, default=400_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--mode", choices=["reset", "session"], default="reset")
    parser.add_argument("--duplicate", action="store_true")
    parser.add_argument("--bots", default=None, help="as simulate --bots (default: mixed)")
    args = parser.parse_args(argv)
    rates: dict[int, list[float]] = {w: [] for w in args.workers}
    walls: dict[int, list[float]] = {w: [] for w in args.workers}
    ctl: dict[int, list[float]] = {w: [] for w in args.workers}
    results = set()
    import pokerdraw32

    print(f"pokerdraw32 simulate --players {args.players} --hands {args.hands:,} --mode {args.mode}"
          f"{' --duplicate' if args.duplicate else ''}, {pokerdraw32.IMPLEMENTATION} kernels, "
          f"{os.cpu_count()} CPUs, median of {args.rounds} interleaved rounds", flush=True)
    for r in range(args.rounds):
        for w in args.workers:
            rate, wall, result = run_command(args, w)
            rates[w].append(rate)
            walls[w].append(wall)
            results.add(result)
            ctl[w].append(control(1) * w / control(w))   # w threads' work over one thread's, per second
        print(f"  round {r + 1}: " + "  ".join(f"workers {w}: {rates[w][-1]:,.0f} hands/s" for w in args.workers),
              flush=True)
    if len(results) != 1:
        sys.exit(f"error: the runs gave {len(results)} different results (they must be identical)")
    base = statistics.median(rates[args.workers[0]])
    for w in args.workers:
        rate = statistics.median(rates[w])
        print(f"  --workers {w}: {rate:>11,.0f} hands/s ({rate / base:.2f}x --workers {args.workers[0]}); "
              f"command {statistics.median(walls[w]):.2f} s wall; control (hashlib in {w} threads) "
              f"{statistics.median(ctl[w]):.2f}x")
    print("  every run gave the same result (the JSON without \"run\")")
    if 1 in rates and 2 in rates:
        import targets

        ratio = statistics.median(rates[2]) / statistics.median(rates[1])
        free = statistics.median(ctl[2])
        print(targets.line("pokerdraw32 simulate --workers 2 / --workers 1 (bench/workers.py)",
                           f"{ratio:.2f}x (the GIL-free control {free:.2f}x in the same run)",
                           f">= {targets.WORKERS_2_OF_1:.2f}x", targets.verdict(ratio, targets.WORKERS_2_OF_1)))


if __name__ == "__main__":
    main()
