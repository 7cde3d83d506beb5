"""Hand simulation speed: pokerdraw32 (compiled, pure, a baseline revision) vs the C loop and PokerKit.

    python bench/simulate.py                         # ours, the baseline and the C loop
    python bench/simulate.py --peers /path/to/python # + PokerKit, if installed there
    python bench/simulate.py --no-c-loop             # without the C loop
    python bench/simulate.py --baseline HEAD~3       # another baseline revision (--no-baseline: none)
    python bench/simulate.py --sim-hands 20000       # the simulate() path at the size of issue 11's command

Per-action scenarios (the public ``Hand`` loop: ``Hand()``, ``actor``, ``legal_actions()``,
``discard``/``check``/``call``; no-limit, blinds 1/2 and the over blind 4 at 4-5 players, stacks 200):

* ``3p-pat``: 3 players, everybody checks or calls both rounds, everybody stands pat;
* ``5p-draw4``: 5 players, check/call, every player discards 4 (the stub runs out, R6.2).

The simulate path: ``pokerdraw32.simulate(players=5, hands=N, seed=7)``, the call that
``pokerdraw32 simulate --players 5 --hands N --seed 7 --json`` makes (mixed bots at a ``Table``),
timed in its own process; it prints the ``hands_per_second`` that command reports (wall clock) and
hands per CPU second.

Subjects: the installed pokerdraw32 compiled, and pure (``POKERDRAW32_NO_EXTENSIONS=1``); the
baseline: the pure engine of revision ``--baseline`` (default ``fef819d``, main before the compiled
hand of issue 11), its ``src/`` taken with ``git archive`` and put first on ``PYTHONPATH`` (see
bench/baseline.py); PokerKit with ``--peers`` (the variant of ``shared/research/engines.md`` A.3:
a 32-card deck, flush above full house, A-7-8-9-T lowest straight, blinds/straddle (1, 2, 4) at 5
players).  Each repeat of each subject runs in a fresh process, pinned to CPU 1, for ``--seconds``;
the repeats are interleaved (a round runs every subject once, each round starting with the next
subject) so that a change of load on the shared machine hits every subject alike; the figure is
the median over ``--repeat`` rounds.  Ratios are between figures of this run only.  A ratio to the
baseline is judged on the best round of each side (the load of a shared machine only ever slows a
run down, so the fastest is the nearest to the engine's own speed), with the ratio of the medians
and the range of the per-round ratios beside it.  A control subject, the baseline run a second time
(``--no-control``: none), measures the noise of the run: how far from 1.00x two identical engines
come out, in the best runs, the medians and round by round; when that exceeds 2.5%, a ratio within
twice it of 1.00x, either way, is reported as "unclear": the run cannot tell.

The ceiling, when a C compiler is present: bench/c_hand/hand.c, a plain C loop doing the engine's
work for the same bot (see bench/c_loop.py), compiled with ``-O2``, as fast as plain C plays these
hands (issue 25: a flat hand on the stack, a fixed event array, no allocation per hand or event).
Before timing anything it is checked against pokerdraw32, compiled and pure (same stacks, event
logs and generator state; the run stops on a mismatch); then it runs pinned like the other subjects,
for at least 1 s of CPU time per repeat, and its figure is hands per CPU second.  The ratios to it compare hands per CPU
second on both sides (the Python subjects time their CPU too), so that a busy machine, which
slows wall-clock figures, does not tilt them; the other figures are per wall-clock second.

Each issue-11 target measured here ends in a ``target:`` line with its verdict (bench/targets.py):
the per-action loop >= 1/20 of the C loop (compiled), the simulate path >= 0.2 of the C loop's
5p-draw4 rate (compiled), and the pure engine no slower than the baseline on both (ratio >= 1;
within 5% is reported as noise, and a ratio within twice the control's noise, when that is
larger, as unclear: rerun with more rounds, or on a quieter machine).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import baseline
import c_loop
import targets

OURS = r"""
import json, sys, time
import pokerdraw32
from pokerdraw32 import IMPLEMENTATION, ActionKind, Hand, Rng, Rules
players, discard, seconds, repeat = PLAYERS, DISCARD, SECONDS, REPEAT
rules = Rules()
rng = Rng(1)
rates = []
cpu_rates = []


def play(seconds):   # the hands played in `seconds`: a function, as a user's loop is (fast locals)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        h = Hand(rules, [200] * players, n % players, rng=rng)
        while h.actor is not None:
            legal = h.legal_actions()
            if ActionKind.DISCARD in legal.kinds:
                h.discard(legal.hole_cards[:discard])
            elif ActionKind.CHECK in legal.kinds:
                h.check()
            else:
                h.call()
        n += 1
    return n


for _ in range(repeat):
    t0 = time.perf_counter()
    c0 = time.process_time()
    n = play(seconds)
    rates.append(n / (time.perf_counter() - t0))
    cpu_rates.append(n / (time.process_time() - c0))
print(json.dumps({"name": IMPLEMENTATION, "file": pokerdraw32.__file__, "rates": rates, "cpu_rates": cpu_rates}))
"""

SIM = r"""
import json, time
import pokerdraw32
from pokerdraw32.simulate import simulate
pokerdraw32.evaluate("Ah Kh Qh Jh Th")   # the evaluator's tables, built on first use: not play (as in simulate())
c0 = time.process_time()
import inspect
if "mode" in inspect.signature(simulate).parameters:
    # A run cut into chunks (issue 13): one chunk of a table session, seeded so that its generator is
    # Rng(SEED), plays the very hands the engine before chunks played with seed SEED (the baseline).
    from pokerdraw32.parallel import chunk_seed
    M, G = (1 << 64) - 1, 0x9E3779B97F4A7C15

    def unshift(z, k):                    # the inverse of z ^= z >> k
        x = z
        for _ in range(64 // k + 1):
            x = z ^ (x >> k)
        return x

    z = unshift(SEED, 31)
    z = unshift((z * pow(0x94D049BB133111EB, -1, 1 << 64)) & M, 27)
    z = unshift((z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & M, 30)
    seed = (z - G) & M
    assert chunk_seed(seed, 0) == SEED
    res = simulate(players=PLAYERS, hands=HANDS, seed=seed, mode="session", chunk=max(HANDS, 1))
else:
    res = simulate(players=PLAYERS, hands=HANDS, seed=SEED)
cpu = time.process_time() - c0
print(json.dumps({"name": pokerdraw32.IMPLEMENTATION, "file": pokerdraw32.__file__,
                  "rates": [res.hands_per_second], "cpu_rates": [res.hands_played / cpu],
                  "final_stacks": res.final_stacks}))
"""

POKERKIT = r"""
import json, random, time, warnings
warnings.simplefilter("ignore")
import sys
sys.path.insert(0, BENCH_DIR)
from pokerkit32 import new_state

players, discard, seconds, repeat = PLAYERS, DISCARD, SECONDS, REPEAT
random.seed(1)
rates = []
for _ in range(repeat):
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = new_state(players)
        while s.status:
            if s.can_stand_pat_or_discard():
                i = s.stand_patter_or_discarder_index
                s.stand_pat_or_discard(s.hole_cards[i][:discard])
            elif s.can_check_or_call():
                s.check_or_call()
            else:
                raise RuntimeError("stuck")
        n += 1
    rates.append(n / (time.perf_counter() - t0))
import pokerkit
print(json.dumps({"name": "pokerkit " + pokerkit.__version__ if hasattr(pokerkit, "__version__") else "pokerkit",
                  "rates": rates}))
"""

SCENARIOS = {"3p-pat": (3, 0), "5p-draw4": (5, 4)}
SIM_PLAYERS, SIM_SEED = 5, 7
C_LOOP = "C loop"
AGAIN = "(control)"


def pinned(cmd: list[str]) -> list[str]:
    if sys.platform.startswith("linux") and subprocess.run(["which", "taskset"], capture_output=True,
                                                           check=False).returncode == 0:
        return ["taskset", "-c", "1", *cmd]
    return cmd


def run(python: str, code: str, env: dict[str, str], **params: object) -> dict[str, object] | None:
    params = dict(params, BENCH_DIR=str(Path(__file__).resolve().parent))
    src = "\n".join(f"{k} = {v!r}" for k, v in params.items()) + "\n" + code
    proc = subprocess.run(pinned([python, "-c", src]), env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(f"  (skipped: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else 'failed'})")
        return None
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


class Subject:
    """One engine to time: a label, an interpreter and an environment (``src``: a baseline tree to check)."""

    def __init__(self, label: str, python: str, env: dict[str, str], src: Path | None = None,
                 code: str = OURS) -> None:
        self.label, self.python, self.env, self.src, self.code = label, python, env, src, code
        self.rates: list[float] = []
        self.cpu_rates: list[float] = []
        self.finals: list[object] = []

    def once(self, code: str, **params: object) -> bool:
        r = run(self.python, code, self.env, **params)
        if r is None:
            return False
        if self.src is not None:
            baseline.check_origin(str(r["file"]), self.src)
        if self.label == "compiled" and r["name"] != "cython":
            self.label = f"compiled (not built: {r['name']})"
        self.rates += r["rates"]  # type: ignore[arg-type]
        self.cpu_rates += r.get("cpu_rates", [])  # type: ignore[arg-type]
        if "final_stacks" in r:
            self.finals.append(r["final_stacks"])
        return True


def subjects(args: argparse.Namespace, base: dict[str, str], base_src: Path | None, short: str | None,
             code: str) -> list[Subject]:
    out = [Subject("compiled", sys.executable, base, code=code),
           Subject("pure", sys.executable, baseline.pure_env(base), code=code)]
    if base_src is not None:
        out.append(Subject(f"baseline {short} pure", sys.executable, baseline.pure_env(base, base_src), base_src,
                           code=code))
        if not args.no_control:  # the same engine again: how far apart two identical subjects come out
            out.append(Subject(f"baseline {short} pure {AGAIN}", sys.executable, baseline.pure_env(base, base_src),
                               base_src, code=code))
    if args.peers and code is OURS:
        out.append(Subject("pokerkit", args.peers, base, code=POKERKIT))
    return out


def rotated(subs: list[Subject], r: int) -> list[Subject]:
    """Round ``r``'s order: each round starts one subject later, so that none is always first or last."""
    k = r % len(subs)
    return subs[k:] + subs[:k]


def paired(a: Subject, b: Subject, cpu: bool = True) -> tuple[float, float, float, float]:
    """Best(a) / best(b), median(a) / median(b), and the smallest and largest per-round ratio."""
    xa, xb = (a.cpu_rates, b.cpu_rates) if cpu else (a.rates, b.rates)
    per_round = sorted(x / y for x, y in zip(xa, xb, strict=False))
    return max(xa) / max(xb), median(xa) / median(xb), per_round[0], per_round[-1]


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peers", metavar="PYTHON", help="a Python with pokerkit installed")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per repeat (default 1)")
    ap.add_argument("--repeat", type=int, default=7, help="interleaved rounds per scenario (default 7)")
    ap.add_argument("--no-c-loop", action="store_true", help="skip the C loop (bench/c_loop.py)")
    ap.add_argument("--check-hands", type=int, default=500,
                    help="hands per case of the C loop's check, compiled (default 500; pure: a fifth)")
    ap.add_argument("--baseline", metavar="REV", default=baseline.DEFAULT_REV,
                    help=f"the revision whose pure engine is the baseline (default {baseline.DEFAULT_REV}: main "
                         "before the compiled hand of issue 11)")
    ap.add_argument("--no-baseline", action="store_true", help="no baseline revision")
    ap.add_argument("--no-control", action="store_true",
                    help="no control (the baseline run twice, to measure the noise of the run)")
    ap.add_argument("--sim-hands", type=int, default=2000,
                    help="hands per run of the simulate path (default 2000; issue 11's command plays 20000; "
                         "0: skip it)")
    ap.add_argument("--sim-repeat", type=int, default=3, help="interleaved rounds of the simulate path (default 3)")
    ap.add_argument("--no-per-action", action="store_true",
                    help="skip the per-action scenarios (the simulate path is then compared with a C loop run "
                         "of its own)")
    args = ap.parse_args(argv)
    print(targets.machine())
    base = {k: v for k, v in os.environ.items() if k != "POKERDRAW32_NO_EXTENSIONS"}
    with tempfile.TemporaryDirectory() as tmp:
        exe = None
        if not args.no_c_loop and c_loop.compiler() is not None:
            exe = c_loop.build(tmp)
            for env, hands in ((base, args.check_hands), (baseline.pure_env(base), max(1, args.check_hands // 5))):
                proc = subprocess.run([sys.executable, str(Path(c_loop.__file__)), "--check", "--exe", str(exe),
                                       "--hands", str(hands)], env=env, capture_output=True, text=True, check=False)
                print(proc.stdout.strip() or proc.stderr.strip())
                if proc.returncode != 0:
                    sys.exit("the C loop does not do the engine's work: no ratios against it")
        elif not args.no_c_loop:
            print("(no C compiler: no C loop)")
        base_src = short = None
        if not args.no_baseline:
            try:
                short = baseline.describe(args.baseline)
                base_src = baseline.extract(short, tmp)
                print(f"baseline: {short}, pure, from git archive ({base_src})")
            except baseline.BaselineError as e:
                print(f"(no baseline: {e})")
        results: dict[str, object] = {"baseline": short}
        c_rates: dict[str, float] = {}
        if not args.no_per_action:
            results["per_action"] = measure(args, base, exe, base_src, short, c_rates)
        if args.sim_hands > 0:
            results["simulate"] = measure_simulate(args, base, exe, base_src, short, c_rates)
    return results


def measure(args: argparse.Namespace, base: dict[str, str], exe: Path | None, base_src: Path | None,
            short: str | None, c_rates: dict[str, float]) -> dict[str, object]:
    results: dict[str, object] = {}
    for scenario, (players, discard) in SCENARIOS.items():
        params = {"PLAYERS": players, "DISCARD": discard, "SECONDS": args.seconds, "REPEAT": 1}
        subs = subjects(args, base, base_src, short, OURS)
        c_subject = Subject(C_LOOP, "", base) if exe is not None else None
        for r in range(args.repeat):
            for s in rotated(subs, r):
                s.once(s.code, **params)
            if c_subject is not None:
                c = c_loop.bench(exe, players, discard, max(args.seconds, 1.0), 1)  # type: ignore[arg-type]
                c_subject.rates += c.get("wall_rates", c["rates"])  # type: ignore[arg-type]
                c_subject.cpu_rates += c["rates"]  # type: ignore[arg-type]
        subs = [s for s in subs if s.rates]
        print(f"{scenario}: {players} players, check/call, each discards {discard} "
              f"(median of {args.repeat} interleaved rounds)")
        for s in [*subs, *([c_subject] if c_subject else [])]:
            cpu = f"{median(s.cpu_rates):>10,.0f} per CPU second" if s.cpu_rates else ""
            print(f"  {s.label:<34} {median(s.rates):>10,.0f} hands/s {cpu}")
        results[scenario] = report(scenario, subs, c_subject, c_rates)
    return results


def report(scenario: str, subs: list[Subject], c_subject: Subject | None, c_rates: dict[str, float],
           simulate_path: bool = False) -> dict[str, float]:
    """Print the ratios of one scenario and its target lines; return the figures by name."""
    out: dict[str, float] = {s.label: median(s.cpu_rates or s.rates) for s in subs}
    by = {s.label: s for s in subs}
    peer = next((s for s in subs if s.label.startswith("pokerkit")), None)
    control = next((s for s in subs if s.label.endswith(AGAIN)), None)
    if peer is not None:
        for s in subs:
            if s is not peer and s is not control:
                r = median(s.rates) / median(peer.rates)
                out[f"{s.label} / pokerkit"] = r
                print(f"  {s.label} / pokerkit: {r:.2f}x (wall clock)")
        if "compiled" in by:
            r = out["compiled / pokerkit"]
            print(targets.line("per-action loop, compiled / PokerKit", f"{r:.1f}x",
                               f">= {targets.PER_ACTION_OF_POKERKIT:.0f}x",
                               targets.verdict(r, targets.PER_ACTION_OF_POKERKIT)))
    if c_subject is not None:
        ceiling = median(c_subject.cpu_rates)
        c_rates[scenario] = out[C_LOOP] = ceiling
        for s in subs:
            if s is not peer and s is not control:
                r = median(s.cpu_rates) / ceiling
                out[f"{s.label} / C loop"] = r
                print(f"  {s.label} / C loop{' 5p-draw4' if simulate_path else ''}: {r:.4f}x (1/{1 / r:,.0f}), "
                      "per CPU second")
        if "compiled" in by:
            r = median(by["compiled"].cpu_rates) / ceiling
            what, goal = (("simulate path, compiled / C loop 5p-draw4", targets.SIMULATE_OF_C) if simulate_path
                          else (f"per-action loop {scenario}, compiled / C loop", targets.PER_ACTION_OF_C))
            print(targets.line(what, f"{r:.4f}x", f">= {goal:.2f}x", targets.verdict(r, goal)))
    base = next((s for s in subs if s.label.startswith("baseline") and s is not control), None)
    noise = None
    if base is not None and control is not None:
        cbest, cmed, clo, chi = paired(control, base)
        noise = max(abs(1 - cbest), abs(1 - cmed), 1 - clo, chi - 1)
        out["control / baseline"] = cbest
        print(f"  noise: the baseline against itself: {cbest:.2f}x best (median {cmed:.2f}x, rounds "
              f"{clo:.2f}-{chi:.2f})")
    if base is not None and "pure" in by:
        best, r, lo, hi = paired(by["pure"], base)
        out["pure / baseline"] = best
        out["pure / baseline, median"] = r
        if "compiled" in by:
            cbest, rc, clo, chi = paired(by["compiled"], base)
            out["compiled / baseline"] = cbest
            print(f"  compiled / {base.label}: {cbest:.2f}x best (median {rc:.2f}x, rounds {clo:.2f}-{chi:.2f}), "
                  "per CPU second")
        what = "simulate path" if simulate_path else f"per-action loop {scenario}"
        print(targets.line(f"{what}, pure / {base.label}", f"{best:.2f}x best (median {r:.2f}x, rounds "
                           f"{lo:.2f}-{hi:.2f})", f">= {targets.NO_SLOWER:.2f}x",
                           targets.verdict(best, targets.NO_SLOWER, tolerance=targets.TOLERANCE, noise=noise)))
    return out


def measure_simulate(args: argparse.Namespace, base: dict[str, str], exe: Path | None, base_src: Path | None,
                     short: str | None, c_rates: dict[str, float]) -> dict[str, object]:
    params = {"PLAYERS": SIM_PLAYERS, "HANDS": args.sim_hands, "SEED": SIM_SEED}
    subs = subjects(args, base, base_src, short, SIM)
    c_subject = None
    if exe is not None:
        c_subject = Subject(C_LOOP, "", base)
        if "5p-draw4" in c_rates:
            c_subject.cpu_rates = [c_rates["5p-draw4"]]
    for r in range(args.sim_repeat):
        for s in rotated(subs, r):
            s.once(SIM, **params)
        if c_subject is not None and "5p-draw4" not in c_rates:
            c = c_loop.bench(exe, *SCENARIOS["5p-draw4"], 1.0, 1)  # type: ignore[arg-type]
            c_subject.cpu_rates += c["rates"]  # type: ignore[arg-type]
    subs = [s for s in subs if s.rates]
    print(f"simulate path: simulate(players={SIM_PLAYERS}, hands={args.sim_hands:,}), mixed bots, one table "
          f"session on one thread playing the hands seed {SIM_SEED} gave before runs were cut into chunks (the same "
          f"hands in every subject, baseline included; median of {args.sim_repeat} interleaved rounds)")
    for s in subs:
        print(f"  {s.label:<34} {median(s.rates):>10,.0f} hands/s (its hands_per_second) "
              f"{median(s.cpu_rates):>10,.0f} per CPU second")
    if c_subject is not None:
        print(f"  {C_LOOP + ' 5p-draw4':<34} {median(c_subject.cpu_rates):>10,.0f} hands per CPU second")
    finals = {json.dumps(f) for s in subs for f in s.finals}
    if len(finals) > 1:
        print(f"  NOTE: the subjects' final stacks differ for seed {SIM_SEED}: "
              + "; ".join(f"{s.label} {s.finals[0]}" for s in subs))
    return report("5p-draw4", subs, c_subject, {}, simulate_path=True)


if __name__ == "__main__":
    main()
