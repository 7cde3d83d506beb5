"""Simulation with bots: compiled vs pure kernels, measured in the same run (evaluation speed:
bench/evaluate.py; against PokerKit: bench/simulate.py); with ``--targets``, every target of issues 11
and 13.  Issue 15's targets have their own scripts: bench/evaluate.py (the batch bars, the string
API, small batches) and bench/cold_start.py (the first evaluate() and draw_odds() in a fresh process).

    python bench/run.py                      # simulate(), compiled vs pure
    python bench/run.py --quick              # fewer repeats
    python bench/run.py --targets            # every issue-11 target, about 5 minutes
    python bench/run.py --targets --quick    # the same, shorter and noisier (about 1.5 minutes)

Each subject runs in a fresh process (``POKERDRAW32_NO_EXTENSIONS`` set per subject); the
figure is the median of the repeats.  Ratios are computed between figures of this run only,
since absolute numbers on shared machines are noisy.

``--targets`` runs bench/simulate.py (the per-action ``Hand`` loop and the ``simulate()`` path
against the plain C loop and against the baseline revision's pure engine), bench/threads.py
(compiled sessions in threads against in turn, beside a GIL-free control), bench/workers.py
(``pokerdraw32 simulate --workers 2`` against ``--workers 1``, issue 13), bench/memory.py
(10,000 finished hands held) and bench/import_time.py, each with its own report, then prints
every ``target:`` line again as a summary.  The baseline is ``--baseline REV`` (default
``fef819d``, main before the compiled hand: see bench/baseline.py); ``--peers PYTHON`` adds
PokerKit to the per-action loop.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent))
import baseline

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


class _Tee:
    """Stdout that also keeps the ``target:`` lines the scripts print."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.buffer = ""
        self.targets: list[str] = []

    def write(self, text: str) -> int:
        self.buffer += text
        *lines, self.buffer = self.buffer.split("\n")
        self.targets += [line for line in lines if line.lstrip().startswith("target:")]
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


def run_targets(args: argparse.Namespace) -> None:
    import import_time
    import memory
    import simulate
    import threads
    import workers

    common = ["--baseline", args.baseline]
    tee = _Tee(sys.stdout)
    sys.stdout = tee  # type: ignore[assignment]
    try:
        print("== speed: the per-action Hand loop and the simulate() path (bench/simulate.py)", flush=True)
        simulate.main([*common, *(["--peers", args.peers] if args.peers else []),
                       *(["--seconds", "1", "--repeat", "3", "--sim-hands", "1000", "--check-hands", "200"]
                         if args.quick else ["--sim-hands", "20000"])])   # the size of issue 11's command
        print("\n== sessions in threads: the GIL released (bench/threads.py)", flush=True)
        threads.main(["--repeat", "3"] if args.quick else [])
        print("\n== issue 13: pokerdraw32 simulate --workers 2 against --workers 1 (bench/workers.py)", flush=True)
        workers.main(["--rounds", "3", "--hands", "200000"] if args.quick else [])
        print("\n== memory (bench/memory.py)", flush=True)
        memory.main([*common, *(["--trace-hands", "500"] if args.quick else [])])
        print("\n== import time (bench/import_time.py)", flush=True)
        import_time.main([*common, *(["--runs", "15"] if args.quick else [])])
    finally:
        sys.stdout = tee.out
    print("\n== issue 11 and 13 targets (this run)")
    for line in tee.targets:
        print(line.strip().removeprefix("target: "))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--targets", action="store_true", help="every target of issue 11 (see above)")
    ap.add_argument("--baseline", metavar="REV", default=baseline.DEFAULT_REV,
                    help=f"with --targets: the baseline revision (default {baseline.DEFAULT_REV})")
    ap.add_argument("--peers", metavar="PYTHON", help="with --targets: a Python with pokerkit installed")
    args = ap.parse_args()
    if args.targets:
        run_targets(args)
        return
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
