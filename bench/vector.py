"""Speed of the vector environment (issue 12, item 4): decisions per CPU second of
:class:`pokerdraw32.env.DrawVectorEnv` with uniformly random legal actions, against the
single-environment loop (:class:`pokerdraw32.env.DrawEnv`) measured in the same run.

    python bench/vector.py                      # 1,024 tables, 3 players, random opponents
    python bench/vector.py --tables 4096 --players 5 --opponents rule

Subjects, interleaved over ``--repeat`` rounds (medians), each for ``--seconds`` of CPU time:

* ``vector``: ``DrawVectorEnv(tables, copy=False)``: each step draws every table's action
  uniformly among its legal ones with numpy (``argmax(uniform * mask)``, counted in the time) and
  calls ``step``;
* ``vector step only``: the same run, the time inside ``step`` alone;
* ``single``: one ``DrawEnv`` stepped the same way (``reset()`` after each hand), the loop a user
  writes without the vector environment.

Two counts: *learning-seat decisions* (the actions the agent takes: one a table a step, but for
the steps that deal a table its next hand and the acknowledge steps of hands in which the learning
seat has no decision) and *all decisions* (the learning seats' and the built-in opponents', who play
inside the compiled step).  Measured, never asserted (shared machines).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any


def vector(tables: int, players: int, opponents: str, seconds: float) -> tuple[float, float, float, float]:
    import numpy as np

    from pokerdraw32.env import DrawVectorEnv

    envs = DrawVectorEnv(tables, players=players, opponents=opponents, copy=False)
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=1)
    learner = steps = 0
    inside = 0.0
    first = envs.decisions
    start = time.process_time()
    while time.process_time() - start < seconds:
        mask, no_decision = info["action_mask"], info["no_decision"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        before = time.process_time()
        _, _, _, _, info = envs.step(actions)
        inside += time.process_time() - before
        learner += int(np.count_nonzero(mask.any(axis=1) & ~no_decision))
        steps += 1
    total = time.process_time() - start
    made = envs.decisions - first
    return learner / total, made / total, learner / inside, made / inside


def single(players: int, opponents: str, seconds: float) -> tuple[float, float]:
    import numpy as np

    from pokerdraw32.env import DrawEnv

    env = DrawEnv(players=players, opponents=opponents)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    learner = made = 0
    acts = {"fold", "check", "call", "bet", "raise", "split", "decline", "discard"}
    start = time.process_time()
    while time.process_time() - start < seconds:
        legal = np.flatnonzero(info["action_mask"])
        learner += not info["no_decision"]
        _, _, terminated, _, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated:   # the hand's decisions, every seat's
            hand: Any = env.hand
            made += sum(1 for e in hand.events if e.kind.value in acts)
            _, info = env.reset()
    total = time.process_time() - start
    return learner / total, made / total


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=1024, help="tables of the vector environment (default 1,024)")
    ap.add_argument("--players", type=int, default=3, help="players a table (default 3)")
    ap.add_argument("--opponents", default="random", choices=["random", "rule"], help="built-in opponents")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a subject a round (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds (default 3)")
    args = ap.parse_args(argv)
    import pokerdraw32
    from pokerdraw32._kernels import evaluate_mask

    evaluate_mask(0x1F)   # the evaluator's tables, built once, outside the clocks

    rows: dict[str, list[tuple[float, float]]] = {"vector": [], "vector step only": [], "single": []}
    for r in range(args.repeat):
        order = ("vector", "single") if r % 2 == 0 else ("single", "vector")
        for name in order:
            if name == "vector":
                a, b, c, d = vector(args.tables, args.players, args.opponents, args.seconds)
                rows["vector"].append((a, b))
                rows["vector step only"].append((c, d))
            else:
                rows["single"].append(single(args.players, args.opponents, args.seconds))
    med = {k: (statistics.median(x for x, _ in v), statistics.median(y for _, y in v)) for k, v in rows.items()}
    print(f"{pokerdraw32.IMPLEMENTATION} build; {args.tables:,} tables of {args.players} players, {args.opponents} "
          f"opponents, uniformly random legal actions; per CPU second, median of {args.repeat} interleaved rounds")
    print(f"  {'subject':<20} {'learning-seat decisions':>24} {'all decisions':>16}")
    for k, (a, b) in med.items():
        print(f"  {k:<20} {a:>24,.0f} {b:>16,.0f}")
    ratio = med["vector"][1] / med["single"][1]
    print(f"target: vector environment, all decisions per CPU second (bench/vector.py): {med['vector'][1]:,.0f} "
          f"with numpy's sampling, {med['vector step only'][1]:,.0f} in step() alone (target >= 1,000,000); "
          f"{ratio:.0f}x the single-environment loop in the same run")


if __name__ == "__main__":
    main()
