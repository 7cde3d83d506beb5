"""How much narrower duplicate deals make the 95% interval than plain play, for the same hands.

    python bench/duplicate.py                    # 60,000 hands per run, 5 seeds per match-up
    python bench/duplicate.py --hands 200000 --seeds 3

For each match-up, ``simulate(mode="reset")`` is run with and without ``duplicate=True`` for the
same number of hands and seeds; the figure is the ratio of the intervals' half-widths (plain /
duplicate, the first bot's, median over the seeds): 2.0 means the duplicate interval is half as
wide, as narrow as plain play would give with 4x the hands.

Duplicate deals cancel the luck of the cards.  They cannot cancel the noise a bot makes itself:
a uniformly random bot's own choices.  The second table splits the variance of one hand's result
(the first bot's, heads-up, the button fixed) into the part the deal explains (the variance,
over deals, of the mean result of that deal played again and again) and the part the bots' own
random choices add (the mean, over deals, of the variance of those replays): the first is all
that duplicate deals can remove.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import pokerdraw32
from pokerdraw32 import Rng, Rules
from pokerdraw32._kernels import play
from pokerdraw32.hand import Hand
from pokerdraw32.simulate import simulate

MATCHUPS: list[tuple[str, int, Any]] = [
    ("rule vs rule, heads-up", 2, "rule"),
    ("rule vs random, heads-up", 2, ["rule", "random"]),
    ("3 rule bots", 3, "rule"),
    ("rule vs 2 random", 3, ["rule", "random", "random"]),
    ("mixed, 5 players", 5, "mixed"),
]


def decomposition(policies: list[int], deals: int, replays: int) -> tuple[float, float]:
    """(variance explained by the deal, variance from the bots' own choices), in chips squared, of
    seat 0's result heads-up, button at seat 0, stacks 200."""
    means, within = [], []
    k = 1 << 40
    for deal in range(deals):
        results = []
        for _ in range(replays):
            k += 2
            h = Hand(Rules(), [200, 200], button=0, rng=Rng(deal))
            play.play_hand(h, policies, [Rng(k), Rng(k + 1)])
            results.append(h.stacks[0] - 200)
        means.append(statistics.fmean(results))
        within.append(statistics.pvariance(results))
    return statistics.pvariance(means), statistics.fmean(within)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=60_000)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=1500, help="deals of the variance split")
    parser.add_argument("--replays", type=int, default=16, help="replays of each deal in the variance split")
    args = parser.parse_args()
    print(f"{args.hands:,} hands a run, seeds 1..{args.seeds}, {pokerdraw32.IMPLEMENTATION} kernels; "
          "half-width of the 95% interval of the first bot, bb/100 (median over the seeds)")
    print(f"{'match-up':<26} {'plain':>8} {'duplicate':>10} {'narrower':>9}")
    start = time.perf_counter()
    for name, players, bots in MATCHUPS:
        plain: list[float] = []
        dup: list[float] = []
        for seed in range(1, args.seeds + 1):
            for duplicate, out in ((False, plain), (True, dup)):
                r = simulate(players=players, hands=args.hands, seed=seed, bots=bots, duplicate=duplicate, workers=None)
                ci = r.per_bot[0].ci95
                assert ci is not None
                out.append(ci)
        p, d = statistics.median(plain), statistics.median(dup)
        print(f"{name:<26} {p:>8.1f} {d:>10.1f} {p / d:>8.2f}x")
    print(f"({time.perf_counter() - start:.0f} s)\n")
    print(f"variance of one heads-up hand's result (chips^2), {args.deals} deals x {args.replays} replays:")
    print(f"{'match-up':<26} {'the deal':>9} {'the bots':>9} {'duplicate can remove':>21}")
    for name, policies in (("rule vs rule", [play.RULE, play.RULE]), ("rule vs random", [play.RULE, play.RANDOM])):
        deal, bots = decomposition(policies, args.deals, args.replays)
        print(f"{name:<26} {deal:>9.0f} {bots:>9.0f} {100 * deal / (deal + bots):>20.0f}%")


if __name__ == "__main__":
    main()
