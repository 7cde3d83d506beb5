"""Issues 26's and 42's win-rate targets for the shipped blueprints: a seeded duplicate ``simulate``
of the blueprint (the ``"cfr"`` bot) against each reference bot, heads-up, classic preset, 100 big
blinds (200 chips, blinds 1/2), no-limit or (``--structure fixed-limit``) fixed-limit, reported in
bb/100 with the 95% interval.

    python bench/cfr_targets.py                       # 40,000 hands each, seed 1, every reference bot
    python bench/cfr_targets.py --hands 4000 --against rule,shove --workers 2
    python bench/cfr_targets.py --structure fixed-limit --hands 20000

The reference bots are the registry's (``pokerdraw32.bots.bot_names()``): ``rule`` (RuleBot),
``random``, ``call`` (always check/call), ``shove`` (all-in whenever a raise is legal), ``fold``
(folds to every bet), ``maniac`` (pot-size bets and raises).  The targets (issue 26, part 4): the
blueprint beats ``rule`` by at least +200 bb/100 at the interval's lower end (fixed-limit, issue 42:
+100) and every other bot with a lower end above 0.  Each line says whether it is met.  A report, never asserted: the
figures are seeded and reproducible (same seed, same hands), the time is the machine's.
"""

from __future__ import annotations

import argparse
import time

from pokerdraw32 import Rules
from pokerdraw32.cfr.blueprint import blueprint_info
from pokerdraw32.simulate import simulate

REFERENCES = ("rule", "random", "call", "shove", "fold", "maniac")
TARGETS = {"no-limit": {"rule": 200.0}, "fixed-limit": {"rule": 100.0}}   # lower end of the 95% interval,
                                                                          # bb/100; the others: above 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=40_000, help="hands a match (default 40,000)")
    parser.add_argument("--seed", type=int, default=1, help="the simulate seed (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="simulate's worker processes (default 2)")
    parser.add_argument("--against", default=",".join(REFERENCES), help="comma-separated bot names")
    parser.add_argument("--bot", default="cfr", help="the bot measured (default: the blueprint, 'cfr')")
    parser.add_argument("--structure", choices=["no-limit", "fixed-limit"], default="no-limit",
                        help="the betting structure (R3.4; default no-limit)")
    args = parser.parse_args()
    info = blueprint_info(args.structure)
    print(f"{args.structure} blueprint: {info.get('iterations')} iterations, {info.get('info_sets')} information "
          f"sets, {info.get('sampling')} sampling, seed {info.get('seed')}")
    print(f"{'against':8} {'bb/100':>9} {'95% interval':>22} {'target':>9} {'met':>4} {'seconds':>8}")
    for name in args.against.split(","):
        start = time.perf_counter()
        r = simulate(players=2, hands=args.hands, seed=args.seed, stack=200, bots=[args.bot, name], duplicate=True,
                     workers=args.workers, rules=Rules(structure=args.structure))
        seconds = time.perf_counter() - start
        b = r.per_bot[0]
        assert r.per_bot[0].chips + r.per_bot[1].chips == 0          # chips conserved (R9.5)
        target = TARGETS[args.structure].get(name, 0.0)
        met = "yes" if b.low > target else "NO"
        print(f"{name:8} {b.bb_per_100:+9.1f} [{b.low:+9.1f}, {b.high:+9.1f}] {target:>+9.0f} {met:>4} {seconds:8.1f}",
              flush=True)


if __name__ == "__main__":
    main()
