"""Speed of the research environments (issue 12): decisions per second of the PettingZoo AEC loop with
uniformly random legal actions, compiled and pure.

    python bench/env.py                  # 3 and 5 players, no-limit, stacks 100 big blinds
    python bench/env.py --seconds 5 --repeat 5

Subjects, each repeat in a fresh process (``POKERDRAW32_NO_EXTENSIONS=1`` for the pure one):

* ``aec``: ``pokerdraw32.env.env(players=n)`` (PettingZoo's wrappers included): ``reset()`` (seeded
  once), then
  ``agent_iter()`` / ``last()`` / ``step()``, the action drawn uniformly from the mask's legal
  indices by a numpy generator; ``step(None)`` for each terminated agent after the hand (not
  counted as a decision);
* ``aec-unwrapped``: the same with ``raw_env(players=n)``, without PettingZoo's wrappers;
* ``raw``: the same game on :class:`pokerdraw32.hand.Hand` with :class:`pokerdraw32.env.Encoding`
  alone (mask, actor's observation, apply): what the encoding costs without PettingZoo;
* ``view``: the same game encoded as a bot sees it (what :class:`pokerdraw32.env.PolicyBot` does
  before asking its policy): ``SeatView.of(hand)``, then the mask, the observation and the action
  from the view (:meth:`Encoding.action`), played by ``hand.act``.

A decision is one action of a player (an index applied to the hand).  The figure is the median over
``--repeat`` runs of decisions per CPU second (``time.process_time``); it is a measure, never
asserted (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def measure(kind: str, players: int, seconds: float) -> float:
    import numpy as np

    from pokerdraw32 import Hand
    from pokerdraw32.bots import SeatView
    from pokerdraw32.env import Encoding, env, raw_env

    rng = np.random.default_rng(0)
    decisions = 0
    start = time.process_time()
    deadline = start + seconds
    if kind in ("aec", "aec-unwrapped"):
        e = env(players=players) if kind == "aec" else raw_env(players=players)
        e.reset(seed=0)
        while time.process_time() < deadline:
            e.reset()
            for _ in e.agent_iter():
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                decisions += 1
    else:
        enc = Encoding()
        e = env(players=players).unwrapped   # only its rules and stack
        obs = np.zeros(171, np.float32)
        mask = np.zeros(enc.actions, np.uint8)
        seed = 0
        while time.process_time() < deadline:
            h = Hand(e.rules, [e.stack] * players, seed % players, seed=seed)
            seed += 1
            while not h.is_complete:
                if kind == "view":
                    view = SeatView.of(h)
                    enc.action_mask(view, mask)
                    enc.observation(view, None, e.stack, obs)
                    h.act(enc.action(view, int(rng.choice(np.flatnonzero(mask)))))
                else:
                    enc.action_mask(h, mask)
                    enc.observation(h, h.actor, e.stack, obs)
                    enc.apply(h, int(rng.choice(np.flatnonzero(mask))))
                decisions += 1
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--child", nargs=3, metavar=("KIND", "PLAYERS", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, players, seconds = args.child
        print(json.dumps(measure(kind, int(players), float(seconds))))
        return
    print(f"{'subject':<22} {'players':>7} {'decisions/s (median of ' + str(args.repeat) + ')':>30}")
    for players in args.players:
        for build in ("compiled", "pure"):
            for kind in ("aec", "aec-unwrapped", "raw", "view"):
                env = dict(os.environ)
                env.pop("POKERDRAW32_NO_EXTENSIONS", None)
                if build == "pure":
                    env["POKERDRAW32_NO_EXTENSIONS"] = "1"
                command = [sys.executable, __file__, "--child", kind, str(players), str(args.seconds)]
                runs = [float(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)
                        for _ in range(args.repeat)]
                print(f"{kind + ' ' + build:<22} {players:>7} {statistics.median(runs):>30,.0f}")


if __name__ == "__main__":
    main()
