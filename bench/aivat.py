"""How much narrower the AIVAT estimator's intervals are than the plain ones, on the same hands
(issue 24 item 5), and what it costs in time.

    python bench/aivat.py                                   # 20,000 hands; 2, 3 and 5 players
    python bench/aivat.py --hands 5000 --players 2 --duplicate
    python bench/aivat.py --lineup cfr,rule                 # a line-up of bot names (issue 41)

Each configuration is one ``simulate(estimator="aivat")`` run: the rule bot (whose policy the
estimator knows) against the user's bot of ``examples/tight_bot.py`` (whose policy it does not know)
in the other seats; the result carries both estimates of the same hands, so the ratio of the
interval widths (plain / aivat) is measured in one run.  ``--against random`` puts the built-in
random bot (known) in the other seats instead, ``--against urandom`` the random bot wrapped as a
user's bot (unknown, a worst case: its results follow its own coin flips, not the cards).
``--lineup A,B,...`` plays that line-up of bot names instead (its length is the player count):
``cfr,rule``, five ``rule``, ``cfr,call``, each bot's policy known when it exposes it; ``ppo`` is
the model of ``--policy ZIP`` played as a stochastic PolicyBot (``--lineup rule,ppo,ppo --policy
agent.zip``, the model trained by ``python examples/maskable_ppo.py --players 3 --stack 100 --output
agent.zip``).  The time
ratio compares the run with a plain run of the same hands (every bot in Python, as the estimator
plays them).  Figures, never asserted (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))

from tight_bot import tight

from pokerdraw32 import Rules
from pokerdraw32.bots import RandomBot
from pokerdraw32.simulate import simulate


class UnknownRandom:
    """The random bot as a user's bot: the estimator does not know its policy."""

    def __init__(self) -> None:
        self.bot = RandomBot(1)

    def decide(self, view: Any) -> Any:
        return self.bot.decide(view)


def opponent(kind: str) -> Any:
    return {"tight": tight, "random": "random", "urandom": UnknownRandom()}[kind]


def policy_bot(path: str | None, seat: int) -> Any:
    """The trained model at ``path`` as a stochastic :class:`~pokerdraw32.env.PolicyBot` (its
    network's distribution, sampled: a known policy)."""
    if path is None:
        raise SystemExit("--lineup names 'ppo': give the model with --policy ZIP")
    from sb3_contrib import MaskablePPO

    from pokerdraw32.env import PolicyBot
    return PolicyBot(MaskablePPO.load(path, device="cpu").policy, deterministic=False, name=f"ppo{seat}")


def reseed(seed: int) -> None:
    """A stochastic PolicyBot samples from torch's global generator, not the table's: seeded
    alike before both runs, so that they play the same hands (the rollouts only read the
    network's distribution, they draw nothing from torch)."""
    if "torch" in sys.modules:
        sys.modules["torch"].manual_seed(seed)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=20_000)
    p.add_argument("--players", type=int, nargs="+", default=[2, 3, 5])
    p.add_argument("--against", choices=["tight", "random", "urandom"], default="tight")
    p.add_argument("--duplicate", action="store_true")
    p.add_argument("--samples", type=int, default=128)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--stack", type=int, default=100, help="big blinds each at every deal")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--lineup", default=None, metavar="A,B,...", help="bot names, one a seat (instead of "
                   "--players and --against); 'ppo' names the --policy model's PolicyBot")
    p.add_argument("--policy", default=None, metavar="ZIP", help="a MaskablePPO model (sb3-contrib's .zip, e.g. "
                   "from examples/maskable_ppo.py --output): 'ppo' in --lineup plays it as a stochastic "
                   "PolicyBot, whose distribution the estimator knows")
    args = p.parse_args(argv)
    lineups = [["rule"] + [opponent(args.against)] * (n - 1) for n in args.players] if args.lineup is None \
        else [[policy_bot(args.policy, k) if name == "ppo" else name
               for k, name in enumerate(args.lineup.split(","))]]
    what = f"rule bot vs {args.against}" if args.lineup is None else args.lineup
    print(f"{args.hands} hands a configuration, {what}, samples {args.samples}, "
          f"{'duplicate deals, ' if args.duplicate else ''}seed {args.seed}")
    for bots in lineups:
        n = len(bots)
        common = dict(players=n, hands=args.hands, seed=args.seed, bots=bots, duplicate=args.duplicate,
                      stack=args.stack * Rules().bb, workers=args.workers)
        reseed(args.seed)
        start = time.process_time()
        plain = simulate(estimator="plain", **common)   # type: ignore[arg-type]
        plain_cpu = time.process_time() - start
        reseed(args.seed)
        start = time.process_time()
        r = simulate(estimator="aivat", samples=args.samples, **common)   # type: ignore[arg-type]
        aivat_cpu = time.process_time() - start
        assert r.plain is not None and [b.chips for b in r.plain] == [b.chips for b in plain.per_bot]
        print(f"\n{n} players: aivat {aivat_cpu:.1f} CPU s, {aivat_cpu / plain_cpu:.1f}x the plain run's "
              f"{plain_cpu:.1f} s (workers={args.workers})")
        print("  bot        plain bb/100 +- 95%      aivat bb/100 +- 95%     interval ratio   correction z")
        for a, b, z in zip(r.per_bot, r.plain, r.correction_z or [], strict=True):
            assert a.ci95 is not None and b.ci95 is not None
            print(f"  {a.name:<9} {b.bb_per_100:+9.1f} +- {b.ci95:7.1f}   {a.bb_per_100:+9.1f} +- {a.ci95:7.1f}"
                  f"   {b.ci95 / a.ci95:10.2f}x   {z:+8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
