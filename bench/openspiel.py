"""Speed of the OpenSpiel game python_pokerdraw32 (issue 12 item 5), compiled and pure.

    python bench/openspiel.py                  # random play: 2 and 5 players, no-limit, 200-chip stacks
    python bench/openspiel.py --seconds 5 --repeat 5

Subjects, each repeat in a fresh process (``POKERDRAW32_NO_EXTENSIONS=1`` for the pure one):

* ``random``: ``game.new_initial_state()`` then, to the end of the hand, a chance outcome drawn from
  ``chance_outcomes()`` at chance nodes and a uniformly random id of ``legal_actions()`` at decision
  nodes, through pyspiel's ``apply_action``; reported as decisions (player actions) per second, with
  the moves (chance nodes too) and hands per second;
* ``mccfr``: iterations per second of OpenSpiel's outcome-sampling MCCFR on heads-up fixed-limit,
  6-chip stacks (one iteration: one sampled hand per player).

The figures are medians over ``--repeat`` runs, per CPU second (``time.process_time``): measures,
never asserted (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time


def measure(kind: str, players: int, seconds: float) -> dict[str, float]:
    import pyspiel

    import pokerdraw32.openspiel  # noqa: F401

    start = time.process_time()
    deadline = start + seconds
    if kind == "mccfr":
        import numpy as np
        from open_spiel.python.algorithms import outcome_sampling_mccfr

        np.random.seed(0)
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(
            pyspiel.load_game("python_pokerdraw32(players=2,structure=fixed-limit,stack=6)"))
        iterations = 0
        while time.process_time() < deadline:
            solver.iteration()
            iterations += 1
        return {"iterations": iterations / (time.process_time() - start)}
    game = pyspiel.load_game(f"python_pokerdraw32(players={players})")
    rng = random.Random(0)
    hands = decisions = moves = 0
    while time.process_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])   # uniform: each has 1/count
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            moves += 1
        hands += 1
    elapsed = time.process_time() - start
    return {"decisions": decisions / elapsed, "moves": moves / elapsed, "hands": hands / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 5])
    parser.add_argument("--child", nargs=3, metavar=("KIND", "PLAYERS", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, players, seconds = args.child
        print(json.dumps(measure(kind, int(players), float(seconds))))
        return
    print(f"{'subject':<16} {'players':>7}   medians of {args.repeat} runs, per CPU second")
    subjects = [("random", p) for p in args.players] + [("mccfr", 2)]
    for kind, players in subjects:
        for build in ("compiled", "pure"):
            env = dict(os.environ)
            env.pop("POKERDRAW32_NO_EXTENSIONS", None)
            if build == "pure":
                env["POKERDRAW32_NO_EXTENSIONS"] = "1"
            command = [sys.executable, __file__, "--child", kind, str(players), str(args.seconds)]
            runs = [json.loads(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)
                    for _ in range(args.repeat)]
            figures = "  ".join(f"{statistics.median(r[key] for r in runs):>10,.0f} {key}/s" for key in runs[0])
            print(f"{kind + ' ' + build:<16} {players:>7}   {figures}")


if __name__ == "__main__":
    main()
