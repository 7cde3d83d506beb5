"""Hand simulation speed: pokerdraw32 (compiled, pure) vs PokerKit on the same 32-card draw scenarios.

    python bench/simulate.py                         # ours only
    python bench/simulate.py --peers /path/to/python # + PokerKit, if installed there
    python bench/simulate.py --no-c-loop             # without the C loop

Scenarios (no-limit, blinds 1/2 and the over blind 4 at 4-5 players, stacks 200):

* ``3p-pat``: 3 players, everybody checks or calls both rounds, everybody stands pat;
* ``5p-draw4``: 5 players, check/call, every player discards 4 (the stub runs out, R6.2).

PokerKit plays the variant of ``shared/research/engines.md`` A.3 (a 32-card deck, flush above
full house, A-7-8-9-T lowest straight, blinds/straddle (1, 2, 4) at 5 players).  Each subject runs
in a fresh process for ``--seconds`` per repeat; the figure is the median of ``--repeat``
repeats; ratios are between figures of this run only.

The ceiling, when a C compiler is present: bench/c_hand/hand.c, a plain C loop doing the engine's
work for the same bot (see bench/c_loop.py), compiled with ``-O2``.  Before timing anything it is
checked against pokerdraw32, compiled and pure (same stacks, event logs and generator state; the
run stops on a mismatch); then it runs pinned like the other subjects, for at least 1 s of CPU time
per repeat, and its figure is hands per CPU second.  The ratios to it compare hands per CPU
second on both sides (the Python subjects time their CPU too), so that a busy machine, which
slows wall-clock figures, does not tilt them; the other figures are per wall-clock second.
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
import c_loop

OURS = r"""
import json, sys, time
from pokerdraw32 import IMPLEMENTATION, Hand, Rng, Rules
from pokerdraw32.actions import ActionKind
players, discard, seconds, repeat = PLAYERS, DISCARD, SECONDS, REPEAT
rules = Rules()
rng = Rng(1)
rates = []
cpu_rates = []
for _ in range(repeat):
    n = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
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
    rates.append(n / (time.perf_counter() - t0))
    cpu_rates.append(n / (time.process_time() - c0))
print(json.dumps({"name": IMPLEMENTATION, "rates": rates, "cpu_rates": cpu_rates}))
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


def run(python: str, code: str, env: dict[str, str], **params: object) -> dict[str, object] | None:
    params = dict(params, BENCH_DIR=str(Path(__file__).resolve().parent))
    src = "\n".join(f"{k} = {v!r}" for k, v in params.items()) + "\n" + code
    cmd = [python, "-c", src]
    if sys.platform.startswith("linux") and subprocess.run(["which", "taskset"], capture_output=True,
                                                           check=False).returncode == 0:
        cmd = ["taskset", "-c", "1", *cmd]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(f"  (skipped: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else 'failed'})")
        return None
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peers", metavar="PYTHON", help="a Python with pokerkit installed")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per repeat (default 2)")
    ap.add_argument("--repeat", type=int, default=5, help="repeats per subject (default 5)")
    ap.add_argument("--no-c-loop", action="store_true", help="skip the C loop (bench/c_loop.py)")
    ap.add_argument("--check-hands", type=int, default=500,
                    help="hands per case of the C loop's check, compiled (default 500; pure: a fifth)")
    args = ap.parse_args()
    base = {k: v for k, v in os.environ.items() if k != "POKERDRAW32_NO_EXTENSIONS"}
    with tempfile.TemporaryDirectory() as tmp:
        exe = None
        if not args.no_c_loop and c_loop.compiler() is not None:
            exe = c_loop.build(tmp)
            for env, hands in ((base, args.check_hands), (dict(base, POKERDRAW32_NO_EXTENSIONS="1"),
                                                          max(1, args.check_hands // 5))):
                proc = subprocess.run([sys.executable, str(Path(c_loop.__file__)), "--check", "--exe", str(exe),
                                       "--hands", str(hands)], env=env, capture_output=True, text=True, check=False)
                print(proc.stdout.strip() or proc.stderr.strip())
                if proc.returncode != 0:
                    sys.exit("the C loop does not do the engine's work: no ratios against it")
        elif not args.no_c_loop:
            print("(no C compiler: no C loop)")
        measure(args, base, exe)


def measure(args: argparse.Namespace, base: dict[str, str], exe: Path | None) -> None:
    results: dict[str, dict[str, float]] = {}
    for scenario, (players, discard) in SCENARIOS.items():
        params = {"PLAYERS": players, "DISCARD": discard, "SECONDS": args.seconds, "REPEAT": args.repeat}
        row: dict[str, float] = {}
        cpu: dict[str, float] = {}  # hands per CPU second, for the ratios to the C loop
        for label, env in (("compiled", base), ("pure", dict(base, POKERDRAW32_NO_EXTENSIONS="1"))):
            r = run(sys.executable, OURS, env, **params)
            if r is not None:
                name = f"pokerdraw32 {r['name']}" if label == "compiled" else "pokerdraw32 python"
                row[name] = median(r["rates"])
                cpu[name] = median(r["cpu_rates"])
        if args.peers:
            r = run(args.peers, POKERKIT, base, **params)
            if r is not None:
                row[str(r["name"])] = median(r["rates"])
        if exe is not None:
            c = c_loop.bench(exe, players, discard, max(args.seconds, 1.0), args.repeat)
            row["C loop"] = cpu["C loop"] = median(c["rates"])  # type: ignore[arg-type]
        results[scenario] = row
        print(f"{scenario}: {players} players, check/call, each discards {discard}")
        for name, rate in row.items():
            print(f"  {name:<24} {rate:>10,.0f} hands/s")
        peer = next((v for k, v in row.items() if k.startswith("pokerkit")), None)
        if peer:
            for name, rate in row.items():
                if not name.startswith("pokerkit"):
                    print(f"  {name} / pokerkit: {rate / peer:.2f}x")
        ceiling = cpu.get("C loop")
        if ceiling:
            for name, rate in cpu.items():
                if name != "C loop":
                    print(f"  {name} / C loop: {rate / ceiling:.4f}x (1/{ceiling / rate:,.0f}; {rate:,.0f} hands per "
                          "CPU second)")


if __name__ == "__main__":
    main()
