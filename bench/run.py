"""Simulation with bots: compiled vs pure kernels, measured in the same run (evaluation speed:
bench/evaluate.py; against PokerKit: bench/simulate.py).

    python bench/run.py            # all subjects
    python bench/run.py --quick    # fewer repeats

Each subject runs in a fresh process (``POKERDRAW32_NO_EXTENSIONS`` set per subject); the
figure is the median of the repeats.  Ratios are computed between figures of this run only,
since absolute numbers on shared machines are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

SIM = r"""
import time
from pokerdraw32._kernels import IMPLEMENTATION
from pokerdraw32.simulate import simulate
rates = []
for r in range(REPEATS):
    res = simulate(players=PLAYERS, hands=N, seed=7 + r, bots=BOTS)
    rates.append(res.hands_per_second)
print(json.dumps({"impl": IMPLEMENTATION, "per_s": sorted(rates)[len(rates) // 2]}))
"""


def run(code: str, pure: bool, **params: object) -> dict[str, object]:
    src = "import json\n" + "\n".join(f"{k} = {v!r}" for k, v in params.items()) + "\n" + code
    env = dict(os.environ, POKERDRAW32_NO_EXTENSIONS="1" if pure else "0")
    out = subprocess.run([sys.executable, "-c", src], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rep = 3 if args.quick else 5
    subjects = [
        ("simulate, 5 players, rule bots", SIM, {"PLAYERS": 5, "N": 1000 if args.quick else 3000, "REPEATS": rep,
                                                 "BOTS": "rule"}, "hands/s"),
        ("simulate, 3 players, mixed bots", SIM, {"PLAYERS": 3, "N": 1000 if args.quick else 3000, "REPEATS": rep,
                                                  "BOTS": "mixed"}, "hands/s"),
    ]
    print(f"{'subject':<36} {'compiled':>14} {'pure':>14} {'ratio':>7}")
    for name, code, params, unit in subjects:
        c = run(code, False, **params)
        p = run(code, True, **params)
        if c["impl"] != "cython":
            print(f"{name:<36} {'(not built)':>14} {p['per_s']:>14,.0f} {'-':>7}")
            continue
        print(f"{name:<36} {c['per_s']:>14,.0f} {p['per_s']:>14,.0f} {c['per_s'] / p['per_s']:>6.1f}x  {unit}")


if __name__ == "__main__":
    main()
