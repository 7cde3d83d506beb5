"""Speed of the OpenSpiel game python_pokerdraw32 (issue 12 item 5, issue 24 item 4), compiled and pure.

    python bench/openspiel.py                  # all: versus universal_poker, random play, MCCFR
    python bench/openspiel.py --versus --repeat 7        # the comparison with universal_poker only
    python bench/openspiel.py --seconds 5 --repeat 5
    python bench/openspiel.py --repeat 1 --ismcts 400    # and IS-MCTS against a random bot, 400 hands

Subjects, each repeat in a fresh process (``POKERDRAW32_NO_EXTENSIONS=1`` for the pure one):

* ``versus``: the random-play loop below on heads-up ``python_pokerdraw32`` (no-limit, 200-chip
  stacks, blinds 1/2: the defaults) and, in the same run with the same loop, on OpenSpiel's own C++
  ``universal_poker`` in a comparable configuration (:data:`UNIVERSAL_POKER`: 2 players, 2 rounds,
  32 cards, 2 hole cards then 3 board cards, no-limit, 200-chip stacks, blinds 1/2, the
  fold/call/pot/all-in abstraction); the three subjects (universal_poker, ours compiled, ours pure)
  alternate within each repeat, and the ratio of decisions per CPU second (ours / universal_poker)
  is taken in each repeat, its median reported;
* ``random``: ``game.new_initial_state()`` then, to the end of the hand, a chance outcome drawn from
  ``chance_outcomes()`` at chance nodes and a uniformly random id of ``legal_actions()`` at decision
  nodes, through pyspiel's ``apply_action``; reported as decisions (player actions) per second, with
  the moves (chance nodes too) and hands per second;
* ``mccfr``: iterations per second of OpenSpiel's outcome-sampling MCCFR on heads-up fixed-limit,
  6-chip stacks (one iteration: one sampled hand per player);
* ``--ismcts HANDS`` (compiled only, once): OpenSpiel's Python ``ISMCTSBot`` (``--simulations``
  a decision, random rollouts, resampling by ``resample_from_infostate``) against a uniformly random
  bot, heads-up fixed-limit, 20-chip stacks, the seats swapped every hand: its mean result in chips
  a hand with the standard error, and its decisions per CPU second.

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
from typing import Any

UNIVERSAL_POKER = {"numPlayers": 2, "numRounds": 2, "numSuits": 4, "numRanks": 8, "numHoleCards": 2,
                   "numBoardCards": "0 3", "betting": "nolimit", "stack": "200 200", "blind": "1 2",
                   "firstPlayer": "1 1", "bettingAbstraction": "fcpa"}
"""The reference: OpenSpiel's C++ ``universal_poker`` with a 32-card deck, heads-up no-limit, 200-chip
stacks, blinds 1/2 (``pyspiel.load_game("universal_poker", UNIVERSAL_POKER)``)."""


def random_play(game: Any, seconds: float) -> dict[str, float]:
    """Random play of ``game`` for ``seconds`` of CPU time: a new hand, then to its end a chance
    outcome drawn from ``chance_outcomes()`` at chance nodes and a uniformly random id of
    ``legal_actions()`` at decision nodes, through ``apply_action``; per CPU second."""
    rng = random.Random(0)
    hands = decisions = moves = 0
    start = time.process_time()
    deadline = start + seconds
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


def measure(kind: str, players: int, seconds: float) -> dict[str, float]:
    import pyspiel

    import pokerdraw32.openspiel  # noqa: F401

    if kind == "mccfr":
        start = time.process_time()
        deadline = start + seconds
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
    if kind == "ismcts":   # `players` is the number of hands here
        return ismcts_against_random(pyspiel, players, int(seconds))
    if kind == "universal_poker":
        return random_play(pyspiel.load_game("universal_poker", UNIVERSAL_POKER), seconds)
    return random_play(pyspiel.load_game(f"python_pokerdraw32(players={players})"), seconds)


def ismcts_against_random(pyspiel: Any, hands: int, simulations: int) -> dict[str, float]:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_pokerdraw32(players=2,structure=fixed-limit,stack=20)")
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=simulations,
                           random_state=rng)
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    results = []
    decisions = 0
    start = time.process_time()
    for hand in range(hands):
        seat = hand % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == seat:
                state.apply_action(int(bot.step(state)))
                decisions += 1
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        results.append(state.returns()[seat])
    chips = np.array(results)
    return {"chips": float(chips.mean()), "stderr": float(chips.std(ddof=1) / np.sqrt(len(chips))),
            "decisions": decisions / (time.process_time() - start)}


def child(kind: str, players: int, seconds: float, build: str = "compiled") -> dict[str, float]:
    """``measure(kind, players, seconds)`` in a fresh process of the ``build`` (``"pure"``:
    ``POKERDRAW32_NO_EXTENSIONS=1``)."""
    env = {k: v for k, v in os.environ.items() if k != "POKERDRAW32_NO_EXTENSIONS"}
    if build == "pure":
        env["POKERDRAW32_NO_EXTENSIONS"] = "1"
    command = [sys.executable, __file__, "--child", kind, str(players), str(seconds)]
    result: dict[str, float] = json.loads(subprocess.run(command, env=env, check=True, capture_output=True,
                                                         text=True).stdout)
    return result


def versus(seconds: float, repeat: int) -> None:
    """Heads-up random play of python_pokerdraw32 (compiled, pure) against universal_poker, the three
    alternating within each repeat; medians, and the median of each repeat's ratio."""
    subjects = [("universal_poker", "compiled"), ("random", "compiled"), ("random", "pure")]
    runs: dict[tuple[str, str], list[dict[str, float]]] = {s: [] for s in subjects}
    for _ in range(repeat):
        for kind, build in subjects:
            runs[kind, build].append(child(kind, 2, seconds, build))
    reference = [r["decisions"] for r in runs["universal_poker", "compiled"]]
    print(f"heads-up random play, decisions per CPU second, medians of {repeat} interleaved runs of {seconds:g} s")
    for kind, build in subjects:
        name = "universal_poker (C++)" if kind == "universal_poker" else f"python_pokerdraw32 {build}"
        figures = "  ".join(f"{statistics.median(r[key] for r in runs[kind, build]):>9,.0f} {key}/s"
                            for key in ("decisions", "moves", "hands"))
        line = f"  {name:<30} {figures}"
        if kind != "universal_poker":
            ratios = [r["decisions"] / ref for r, ref in zip(runs[kind, build], reference, strict=True)]
            line += f"   ratio {statistics.median(ratios):.2f} (runs {min(ratios):.2f}-{max(ratios):.2f})"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 5])
    parser.add_argument("--versus", action="store_true", help="only the comparison with universal_poker")
    parser.add_argument("--ismcts", type=int, default=0, metavar="HANDS", help="also: ISMCTS against random")
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--child", nargs=3, metavar=("KIND", "PLAYERS", "SECONDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, players, seconds = args.child
        print(json.dumps(measure(kind, int(players), float(seconds))))
        return
    versus(args.seconds, args.repeat)
    if args.versus:
        return
    print(f"{'subject':<16} {'players':>7}   medians of {args.repeat} runs, per CPU second")
    subjects = [("random", p) for p in args.players] + [("mccfr", 2)]
    for kind, players in subjects:
        for build in ("compiled", "pure"):
            runs = [child(kind, players, args.seconds, build) for _ in range(args.repeat)]
            figures = "  ".join(f"{statistics.median(r[key] for r in runs):>10,.0f} {key}/s" for key in runs[0])
            print(f"{kind + ' ' + build:<16} {players:>7}   {figures}")
    if args.ismcts:
        r = child("ismcts", args.ismcts, args.simulations)
        print(f"ismcts compiled   {args.ismcts} hands, {args.simulations} simulations: {r['chips']:+.2f} ± "
              f"{r['stderr']:.2f} chips a hand against random, {r['decisions']:.1f} decisions/s")


if __name__ == "__main__":
    main()
