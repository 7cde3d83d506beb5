"""Speed of the solver (issue 26 target: MCCFR iterations per CPU second >= 20x OpenSpiel's Python
outcome-sampling MCCFR on the same game), compiled and pure.

    python bench/cfr.py                      # all five subjects, 3 repeats of 3 CPU seconds
    python bench/cfr.py --seconds 10 --repeat 5
    python bench/cfr.py --abstraction abs.json
    python bench/cfr.py --threads 2          # only: Trainer(threads=1) vs threads=2, and a control

Subjects, each repeat in a fresh process, alternating within each repeat:

* ``compiled``: :class:`pokerdraw32.cfr.Trainer` (external-sampling MCCFR, linear weights, the
  compiled walk ``pokerdraw32.cfr._mccfr_c``) on the default :class:`~pokerdraw32.cfr.Abstraction`
  (heads-up no-limit, 100 big blinds = 200-chip stacks, blinds 1/2, bets 0.5/1/2 pot and all-in,
  3 raises a round, 24 + 16 card buckets) or ``--abstraction``, from a fresh trainer, in chunks of
  100 iterations for ``--seconds`` of CPU time; one iteration = one walk per player;
* ``pure``: the same with ``POKERDRAW32_NO_EXTENSIONS=1`` (the pure twin, same tables);
* ``compiled-os``, ``pure-os``: the same with ``sampling="outcome"`` (one trajectory per player an
  iteration, exploration 0.6, as OpenSpiel's): the like-for-like comparison with OpenSpiel;
* ``openspiel``: OpenSpiel's Python ``outcome_sampling_mccfr.OutcomeSamplingSolver`` on the game
  ``python_pokerdraw32`` heads-up with its defaults (no-limit, 200-chip stacks, blinds 1/2: the same
  real game, unabstracted; its state on the compiled engine); one ``iteration()`` = one sampled hand
  per player.

Reported: iterations and walk nodes (states visited, ours) per CPU second (``time.process_time``),
medians over the repeats, and ratios taken in each repeat, their median: compiled / pure (external
sampling), compiled-os / OpenSpiel (the target's figure: the same algorithm on the same real game,
ours on its abstraction), and compiled external / OpenSpiel.  An external-sampling iteration walks
every action of the traverser (about 900 states on the default abstraction), an outcome-sampling
one a single trajectory (about 10 states ours; OpenSpiel's also has a chance node a card).
Measures, never asserted.

``--threads K`` measures instead (compiled, external sampling, wall-clock seconds: threads share
the process's CPU time) ``Trainer(threads=1)`` and ``Trainer(threads=K)`` from fresh trainers for
``--seconds`` each, and, as the control of what the machine gives K threads at that moment (it
may be shared), SHA-256 of 1 MB blocks (``hashlib`` releases the GIL) in 1 and in K threads,
alternating within each repeat; reported: the medians and the ratios K / 1 taken in each repeat,
their median, for both (the solver's ratio over the control's: how much of what the machine gave
the solver used), and the solver's iterations per CPU second (all threads: what a shared run costs
an iteration, whatever the machine gives).  ``--warm N`` first runs N iterations untimed (the
tables filled: the steady state rather than the start, where most information sets are new).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def measure(kind: str, seconds: float, abstraction: str | None, sampling: str) -> dict[str, float]:
    if kind == "openspiel":
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import outcome_sampling_mccfr

        import pokerdraw32.openspiel  # noqa: F401  (registers python_pokerdraw32)

        np.random.seed(0)
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(pyspiel.load_game("python_pokerdraw32(players=2)"))
        start = time.process_time()
        iterations = 0
        while time.process_time() - start < seconds:
            solver.iteration()
            iterations += 1
        return {"iterations": iterations / (time.process_time() - start)}
    from pokerdraw32.cfr import Abstraction, Trainer

    a = Abstraction.load(abstraction) if abstraction else Abstraction()
    trainer = Trainer(a, seed=0, sampling=sampling)
    chunk = (100 if trainer.implementation == "cython" else 2) * (100 if sampling == "outcome" else 1)
    start = time.process_time()
    while time.process_time() - start < seconds:
        trainer.train(chunk)
    spent = time.process_time() - start
    return {"iterations": trainer.iterations / spent, "nodes": trainer.solver.nodes / spent,
            "info_sets": trainer.info_sets, "implementation": 1.0 if trainer.implementation == "cython" else 0.0}


def measure_threads(threads: int, seconds: float, abstraction: str | None, warm: int) -> tuple[float, float]:
    """Iterations per wall-clock second and per CPU second (the process's, all threads) of a fresh
    ``Trainer(threads=threads)`` (compiled)."""
    from pokerdraw32.cfr import Abstraction, Trainer

    a = Abstraction.load(abstraction) if abstraction else Abstraction()
    trainer = Trainer(a, seed=0, threads=threads)
    assert trainer.implementation == "cython", "no compiled walk"
    trainer.train(warm)
    done = trainer.iterations
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        trainer.train(200)
    n = trainer.iterations - done
    return n / (time.perf_counter() - start), n / (time.process_time() - cpu)


def measure_hashlib(threads: int, seconds: float) -> float:
    """MB per wall-clock second hashed by ``threads`` threads (SHA-256 of 1 MB blocks, no GIL)."""
    import hashlib
    import threading

    block = bytes(range(256)) * 4096
    done = [0] * threads
    start = time.perf_counter()

    def work(i: int) -> None:
        while time.perf_counter() - start < seconds:
            hashlib.sha256(block).digest()
            done[i] += 1

    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return sum(done) / (time.perf_counter() - start)


def main_threads(k: int, seconds: float, repeat: int, abstraction: str | None, warm: int) -> None:
    rows: dict[str, list[float]] = {"solver-1": [], f"solver-{k}": [], "hashlib-1": [], f"hashlib-{k}": []}
    cpu: dict[str, list[float]] = {"solver-1": [], f"solver-{k}": []}
    for _ in range(repeat):
        for name in rows:
            kind, n = name.split("-")
            if kind == "solver":
                wall, per_cpu = measure_threads(int(n), seconds, abstraction, warm)
                rows[name].append(wall)
                cpu[name].append(per_cpu)
            else:
                rows[name].append(measure_hashlib(int(n), seconds))
    print(f"bench/cfr.py --threads {k}: {repeat} repeats of {seconds:g} wall s per subject after {warm} "
          f"iterations not timed (medians; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at the end)")
    for name, values in rows.items():
        unit = "iterations/s" if name.startswith("solver") else "MB/s (control)"
        extra = f"  {statistics.median(cpu[name]):12,.1f} iterations/CPU s" if name in cpu else ""
        print(f"  {name:10s} {statistics.median(values):12,.1f} {unit}{extra}")
    solver = statistics.median(x / y for x, y in zip(rows[f"solver-{k}"], rows["solver-1"], strict=True))
    control = statistics.median(x / y for x, y in zip(rows[f"hashlib-{k}"], rows["hashlib-1"], strict=True))
    per_cpu = statistics.median(x / y for x, y in zip(cpu[f"solver-{k}"], cpu["solver-1"], strict=True))
    print(f"  {k} threads / 1: solver {solver:.2f}x, hashlib control {control:.2f}x; solver / control "
          f"{solver / control:.2f}; per CPU second {per_cpu:.2f}x (the shared run's cost per iteration)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per subject and repeat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--abstraction", default=None, help="an abstraction JSON file (default: the defaults)")
    parser.add_argument("--threads", type=int, default=0,
                        help="measure only Trainer(threads=1) vs threads=THREADS, with a hashlib control")
    parser.add_argument("--warm", type=int, default=0,
                        help="with --threads: iterations each trainer runs before it is timed (default 0)")
    parser.add_argument("--one", default=None, help=argparse.SUPPRESS)     # a subject, in this process
    parser.add_argument("--sampling", default="external", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads:
        main_threads(args.threads, args.seconds, args.repeat, args.abstraction, args.warm)
        return
    if args.one:
        print(json.dumps(measure(args.one, args.seconds, args.abstraction, args.sampling)))
        return
    runs: dict[str, list[dict[str, float]]] = {"compiled": [], "pure": [], "compiled-os": [], "pure-os": [],
                                               "openspiel": []}
    for _ in range(args.repeat):
        for kind in runs:
            env = dict(os.environ)
            if kind.startswith("pure"):
                env["POKERDRAW32_NO_EXTENSIONS"] = "1"
            else:
                env.pop("POKERDRAW32_NO_EXTENSIONS", None)
            cmd = [sys.executable, __file__, "--one", kind.split("-")[0], "--seconds", str(args.seconds),
                   "--sampling", "outcome" if kind.endswith("-os") else "external"]
            if args.abstraction:
                cmd += ["--abstraction", args.abstraction]
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
            runs[kind].append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert all(r["implementation"] == 1.0 for r in runs["compiled"] + runs["compiled-os"]), "no compiled walk"
    assert all(r["implementation"] == 0.0 for r in runs["pure"] + runs["pure-os"])
    print(f"bench/cfr.py: {args.repeat} repeats of {args.seconds:g} CPU s per subject (medians)")
    for kind, rs in runs.items():
        line = f"  {kind:11s} {statistics.median(r['iterations'] for r in rs):12,.1f} iterations/CPU s"
        if "nodes" in rs[0]:
            line += f"  {statistics.median(r['nodes'] for r in rs):14,.0f} nodes/CPU s"
        print(line)
    def ratio(a: str, b: str) -> float:
        return statistics.median(x["iterations"] / y["iterations"] for x, y in zip(runs[a], runs[b], strict=True))

    print(f"  compiled / pure (external sampling): {ratio('compiled', 'pure'):.1f}x; (outcome sampling): "
          f"{ratio('compiled-os', 'pure-os'):.1f}x")
    print(f"  outcome-sampling MCCFR, compiled / OpenSpiel's Python: {ratio('compiled-os', 'openspiel'):.1f}x "
          "(iterations per CPU second; target >= 20x)")
    print(f"  external-sampling compiled / OpenSpiel's outcome-sampling: {ratio('compiled', 'openspiel'):.1f}x")


if __name__ == "__main__":
    main()
