"""Benchmark: exact draw odds of one hand, all 31 discards, and Monte Carlo equity, compiled vs pure.

    python bench/odds.py                 # hand "Ah Ad 7c 8s 9d", 7 repeats
    python bench/odds.py --repeats 11 --hand "Ah Kh Jh 8h 7s"
    python bench/odds.py --trials 1000000 --pure-trials 20000 --opponents 1 4

Each subject runs in a fresh process (``POKERDRAW32_NO_EXTENSIONS`` set per subject).  In
each process one call loads what is loaded lazily (the pure twin's evaluation table and
strength scores; reported separately as "first call"), then ``pokerdraw32.draw_odds(hand)``
is timed REPEATS times; the figure is the median.  Targets (issue 3): under 10 ms compiled,
under 2 s pure.

Equity: ``pokerdraw32.equity(hand, K, discard=DISCARD, trials=N, seed=1)`` (opponents drawing
by the "rule" policy, the hero first to draw) for each K of ``--opponents``, timed REPEATS
times after one warm-up call of ``--pure-trials`` trials (which fills the pure twin's table
of rule discards as a long run would); the figure is trials per second of the median call.
Compiled runs ``--trials`` trials a call, pure ``--pure-trials``; both also run
``--pure-trials`` trials from the same seed, and the bench checks they give the same counts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any

CODE = r"""
import json, sys, time
hand, repeats = sys.argv[1], int(sys.argv[2])
t = time.perf_counter()
import pokerdraw32
imported = time.perf_counter() - t
t = time.perf_counter()
odds = pokerdraw32.draw_odds(hand)
first = time.perf_counter() - t
times = []
for _ in range(repeats):
    t = time.perf_counter()
    odds = pokerdraw32.draw_odds(hand)
    times.append(time.perf_counter() - t)
times.sort()
print(json.dumps({"impl": pokerdraw32.IMPLEMENTATION, "first": first, "median": times[len(times) // 2],
                  "min": times[0], "options": len(odds.options), "best": str(odds.best)}))
"""


EQUITY_CODE = r"""
import json, sys, time
hand, discard, opponents, trials, check, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), \
    int(sys.argv[5]), int(sys.argv[6])
import pokerdraw32
same = pokerdraw32.equity(hand, opponents, discard=discard, trials=check, seed=1)   # warm-up and parity run
times = []
for _ in range(repeats):
    t = time.perf_counter()
    e = pokerdraw32.equity(hand, opponents, discard=discard, trials=trials, seed=1)
    times.append(time.perf_counter() - t)
times.sort()
print(json.dumps({"impl": pokerdraw32.IMPLEMENTATION, "median": times[len(times) // 2], "trials": trials,
                  "rate": trials / times[len(times) // 2], "check": list(same.counts), "equity": e.equity,
                  "interval": list(e.interval)}))
"""


def run(pure: bool, hand: str, repeats: int) -> dict[str, Any]:
    env = dict(os.environ, POKERDRAW32_NO_EXTENSIONS="1" if pure else "0")
    out = subprocess.run([sys.executable, "-c", CODE, hand, str(repeats)], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def run_equity(pure: bool, hand: str, discard: str, opponents: int, trials: int, check: int,
               repeats: int) -> dict[str, Any]:
    env = dict(os.environ, POKERDRAW32_NO_EXTENSIONS="1" if pure else "0")
    argv = [hand, discard, str(opponents), str(trials), str(check), str(repeats)]
    out = subprocess.run([sys.executable, "-c", EQUITY_CODE, *argv], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hand", default="Ah Ad 7c 8s 9d")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--discard", default="7c 8s 9d", help="the hero's discard for the equity subject")
    ap.add_argument("--opponents", type=int, nargs="+", default=[1, 4], metavar="K")
    ap.add_argument("--trials", type=int, default=1_000_000, help="equity trials per compiled call")
    ap.add_argument("--pure-trials", type=int, default=20_000, help="equity trials per pure call")
    ap.add_argument("--no-equity", action="store_true", help="skip the equity subject")
    args = ap.parse_args()
    c = run(False, args.hand, args.repeats)
    p = run(True, args.hand, args.repeats)
    print(f"draw_odds({args.hand!r}), all {p['options']} discards, median of {args.repeats} (fresh process each)")
    print(f"{'subject':<10} {'median':>10} {'min':>10} {'first call':>11}")
    for name, r in (("compiled", c), ("pure", p)):
        if r["impl"] != ("python" if name == "pure" else "cython"):
            print(f"{name:<10} {'(not built)':>10}")
            continue
        print(f"{name:<10} {1000 * r['median']:>8.2f}ms {1000 * r['min']:>8.2f}ms {1000 * r['first']:>9.1f}ms")
    if c["impl"] == "cython":
        print(f"ratio pure/compiled (median): {p['median'] / c['median']:.0f}x")
    print(f"best: {p['best']}")
    if args.no_equity:
        return
    print(f"\nequity({args.hand!r}, K, discard={args.discard!r}, policy='rule', seed=1): trials/s of the median "
          f"of {args.repeats} calls (compiled {args.trials:,} trials a call, pure {args.pure_trials:,})")
    print(f"{'K':>2} {'compiled':>14} {'pure':>12} {'ratio':>6}  {'equity (95% CI), compiled run':<26}  same counts")
    for k in args.opponents:
        ce = run_equity(False, args.hand, args.discard, k, args.trials, args.pure_trials, args.repeats)
        pe = run_equity(True, args.hand, args.discard, k, args.pure_trials, args.pure_trials, args.repeats)
        built = ce["impl"] == "cython"
        rate = f"{ce['rate']:>12,.0f}/s" if built else f"{'(not built)':>14}"
        ratio = f"{ce['rate'] / pe['rate']:>5.0f}x" if built else f"{'-':>6}"
        low, high = ce["interval"]
        same = "yes" if ce["check"] == pe["check"] else f"NO: {ce['check']} vs {pe['check']}"
        print(f"{k:>2} {rate} {pe['rate']:>10,.0f}/s {ratio}  {ce['equity']:.4f} ({low:.4f}-{high:.4f})       {same}")


if __name__ == "__main__":
    main()
