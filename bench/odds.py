"""Benchmark: exact draw odds of one hand, all 31 discards, compiled vs pure.

    python bench/odds.py                 # hand "Ah Ad 7c 8s 9d", 7 repeats
    python bench/odds.py --repeats 11 --hand "Ah Kh Jh 8h 7s"

Each subject runs in a fresh process (``POKERDRAW32_NO_EXTENSIONS`` set per subject).  In
each process one call loads what is loaded lazily (the pure twin's evaluation table and
strength scores; reported separately as "first call"), then ``pokerdraw32.draw_odds(hand)``
is timed REPEATS times; the figure is the median.  Targets (issue 3): under 10 ms compiled,
under 2 s pure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

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


def run(pure: bool, hand: str, repeats: int) -> dict[str, object]:
    env = dict(os.environ, POKERDRAW32_NO_EXTENSIONS="1" if pure else "0")
    out = subprocess.run([sys.executable, "-c", CODE, hand, str(repeats)], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hand", default="Ah Ad 7c 8s 9d")
    ap.add_argument("--repeats", type=int, default=7)
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


if __name__ == "__main__":
    main()
