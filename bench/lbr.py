"""The local best response against the shipped blueprint and the rule bot (issue 41, item 2): each
win rate with its 95% interval, their ratio (the target: the blueprint gives up at most a tenth of
what the rule bot gives up), and the agent's speed.

    python bench/lbr.py                          # 2,000 duplicate hands each, seed 1, every core
    python bench/lbr.py --hands 4000 --against rule,cfr,call --workers 2

Each opponent is one :func:`pokerdraw32.lbr.local_best_response` run on the same deals (the same
seed).  The speed is hands per wall second and per CPU second of the run, against a plain
``simulate`` of the same opponent against the calling bot (in Python) on the same number of hands (the
cost of the agent's range and values per hand, measured in the same run).  Figures, never asserted
(the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import resource

from pokerdraw32.lbr import local_best_response
from pokerdraw32.simulate import simulate


def _cpu() -> float:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", default="rule,cfr")
    parser.add_argument("--particles", type=int, default=256)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    rows = []
    for name in args.against.split(","):
        cpu = _cpu()
        report = local_best_response(name, hands=args.hands, seed=args.seed, particles=args.particles,
                                     samples=args.samples, workers=args.workers)
        lbr_cpu = _cpu() - cpu
        cpu = _cpu()
        simulate(players=2, hands=report.hands, seed=args.seed, bots=[name, "call"], duplicate=True, workers=1)
        plain_cpu = _cpu() - cpu
        rows.append({"against": name, "bb_per_100": round(report.bb_per_100, 1), "ci95": round(report.ci95 or 0, 1),
                     "low": round(report.low, 1), "high": round(report.high, 1), "hands": report.hands,
                     "hands_per_second": round(report.hands_per_second, 2),
                     "hands_per_cpu_second": round(report.hands / lbr_cpu, 2) if lbr_cpu else None,
                     "cpu_vs_plain": round(lbr_cpu / plain_cpu, 1) if plain_cpu else None,
                     "decisions": report.decisions, "range_resets": report.range_resets})
        print(json.dumps(rows[-1]), flush=True)
    by = {r["against"]: r for r in rows}
    if "rule" in by and "cfr" in by:
        rule, cfr = by["rule"], by["cfr"]
        print(f"blueprint / rule bot: {cfr['bb_per_100'] / rule['bb_per_100']:.3f} (upper end of the blueprint's "
              f"interval / lower end of the rule bot's: {cfr['high'] / rule['low']:.3f}; target <= 0.1)")


if __name__ == "__main__":
    main()
