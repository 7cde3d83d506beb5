"""Evaluation speed: batch and per-call, compiled vs pure vs a plain C loop vs the peers.

    python bench/evaluate.py                               # ours (+ C loop if a C compiler is found)
    python bench/evaluate.py --peers /path/to/python       # + treys, eval7, phevaluator there
    python bench/evaluate.py --repeat 7 --hands 200000 --json out.json

Hands: ``--hands`` random 5-card hands from the 32-card deck (the first 5 cards of decks
from ``deal_many`` with seed 322024); conversion to each subject's input type is not timed.
Every subject runs in a fresh process (pinned to one core with ``taskset`` when available);
inside it, each of ``--repeat`` passes is timed and the median is reported, and ratios
are between figures of this run only. The C loop is the kernel's own table and layout (colex
rank by count-trailing-zeros -> uint16 index -> uint32 value), compiled with ``cc -O2`` from
the same uint8 rows or uint32 masks, writing a uint32 output like ``evaluate_many``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

SETUP = r"""
import json, sys, time, gc
import pokerdraw32
from pokerdraw32 import _kernels as K
N, REPEAT = int(sys.argv[1]), int(sys.argv[2])
decks = K.deal_many(K.Rng(322024), N)
rows = bytes(b for d in range(N) for b in decks[32 * d : 32 * d + 5])
tuples = [tuple(rows[5 * i : 5 * i + 5]) for i in range(N)]
masks = [sum(1 << c for c in t) for t in tuples]
from array import array
mask_array = array("I", masks)
def timeit(fn):
    gc.disable()
    rates = []
    for _ in range(REPEAT):
        t = time.perf_counter(); fn(); rates.append(N / (time.perf_counter() - t))
    gc.enable()
    return sorted(rates)[len(rates) // 2]
"""

OURS = {
    "evaluate_many(uint8 rows)": "lambda: K.evaluate_many(rows)",
    "evaluate_many(uint32 masks)": "lambda: K.evaluate_many(mask_array)",
    "evaluate_mask(int) per call": "lambda: [f(m) for m in masks]",
    "evaluate_codes(tuple) per call": "lambda: [g(t) for t in tuples]",
    "evaluate(str) per call (façade, 1/20 of the hands)": "None",
}

OUR_SCRIPT = SETUP + r"""
f, g = K.evaluate_mask, K.evaluate_codes
name = sys.argv[3]
t0 = time.perf_counter(); K.evaluate_mask(31); first = time.perf_counter() - t0
out = {"first_call_s": first, "impl": K.IMPLEMENTATION}
if name == "evaluate_many(uint8 rows)":
    out["rate"] = timeit(lambda: K.evaluate_many(rows))
elif name == "evaluate_many(uint32 masks)":
    out["rate"] = timeit(lambda: K.evaluate_many(mask_array))
elif name == "evaluate_mask(int) per call":
    out["rate"] = timeit(lambda: [f(m) for m in masks])
elif name == "evaluate_codes(tuple) per call":
    out["rate"] = timeit(lambda: [g(t) for t in tuples])
print(json.dumps(out))
"""

PEER_SCRIPT = r"""
import json, sys, time, gc, random
N, REPEAT, name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(322024)
RANKS, SUITS = "789TJQKA", "scdh"
hands = [[RANKS[c // 4] + SUITS[c % 4] for c in rng.sample(range(32), 5)] for _ in range(N)]
def timeit(fn):
    gc.disable(); rates = []
    for _ in range(REPEAT):
        t = time.perf_counter(); fn(); rates.append(N / (time.perf_counter() - t))
    gc.enable(); return sorted(rates)[len(rates) // 2]
if name == "treys Evaluator.evaluate(2, 3)":
    from treys import Card, Evaluator
    ev = Evaluator(); cs = [[Card.new(c) for c in h] for h in hands]
    rate = timeit(lambda: [ev.evaluate(c[:2], c[2:]) for c in cs])
elif name == "treys Evaluator._five":
    from treys import Card, Evaluator
    ev = Evaluator(); cs = [[Card.new(c) for c in h] for h in hands]
    rate = timeit(lambda: [ev._five(c) for c in cs])
elif name == "eval7 evaluate(list[Card])":
    import eval7
    cs = [[eval7.Card(c) for c in h] for h in hands]
    rate = timeit(lambda: [eval7.evaluate(c) for c in cs])
elif name == "phevaluator evaluate_cards":
    from phevaluator import evaluate_cards
    rate = timeit(lambda: [evaluate_cards(*h) for h in hands])
print(json.dumps({"rate": rate}))
"""
PEERS = ["treys Evaluator.evaluate(2, 3)", "treys Evaluator._five", "eval7 evaluate(list[Card])",
         "phevaluator evaluate_cards"]

C_SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static uint32_t BINOM[6][32]; static uint16_t INDEX[201376]; static uint32_t VALUES[2520];
static inline uint32_t lookup(uint32_t m) {
    uint32_t i = BINOM[1][__builtin_ctz(m)]; m &= m - 1; i += BINOM[2][__builtin_ctz(m)]; m &= m - 1;
    i += BINOM[3][__builtin_ctz(m)]; m &= m - 1; i += BINOM[4][__builtin_ctz(m)]; m &= m - 1;
    return VALUES[INDEX[i + BINOM[5][__builtin_ctz(m)]]];
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv) {
    long n = atol(argv[2]); int repeat = atoi(argv[3]); int masks = argv[4][0] == 'm';
    FILE *f = fopen(argv[1], "rb");
    if (fread(VALUES, 4, 2520, f) != 2520 || fread(INDEX, 2, 201376, f) != 201376) return 1;
    uint8_t *rows = malloc(5 * n); uint32_t *ms = malloc(4 * n); uint32_t *out = malloc(4 * n);
    if (fread(rows, 1, 5 * n, f) != (size_t)(5 * n)) return 1;
    fclose(f);
    for (int k = 0; k < 6; k++) for (int b = 0; b < 32; b++)
        BINOM[k][b] = k == 0 ? 1 : b == 0 ? 0 : BINOM[k][b - 1] + BINOM[k - 1][b - 1];
    for (long i = 0; i < n; i++) { const uint8_t *h = rows + 5 * i;
        ms[i] = (1u << h[0]) | (1u << h[1]) | (1u << h[2]) | (1u << h[3]) | (1u << h[4]); }
    double *rates = malloc(sizeof(double) * repeat); uint64_t check = 0;
    for (int r = 0; r < repeat; r++) {
        double t = now();
        if (masks) for (long i = 0; i < n; i++) out[i] = lookup(ms[i]);
        else for (long i = 0; i < n; i++) { const uint8_t *h = rows + 5 * i;
            out[i] = lookup((1u << h[0]) | (1u << h[1]) | (1u << h[2]) | (1u << h[3]) | (1u << h[4])); }
        rates[r] = n / (now() - t);
        for (long i = 0; i < n; i++) check += out[i];
    }
    for (int a = 0; a < repeat; a++) for (int b = a + 1; b < repeat; b++)
        if (rates[b] < rates[a]) { double x = rates[a]; rates[a] = rates[b]; rates[b] = x; }
    printf("{\"rate\": %f, \"check\": %llu}\n", rates[repeat / 2], (unsigned long long)check);
    return 0;
}
"""


def run(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, object]:
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "1" if (os.cpu_count() or 1) > 1 else "0", *cmd]
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if result.returncode != 0:
        return {"error": result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed"}
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def c_loop(n: int, repeat: int, workdir: str) -> dict[str, dict[str, object]]:
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        return {}
    from array import array
    from itertools import combinations

    import pokerdraw32._kernels as k

    masks = array("I", [sum(1 << c for c in combo) for combo in combinations(range(32), 5)])
    by_hand = k.evaluate_many(masks)  # values of every hand, then put in colex order:
    colex = sorted(range(len(masks)), key=lambda i: masks[i])  # colex order = ascending mask
    values = sorted(set(by_hand))
    position = {v: i for i, v in enumerate(values)}
    index = array("H", [position[by_hand[i]] for i in colex])
    decks = k.deal_many(k.Rng(322024), n)
    rows = bytes(b for d in range(n) for b in decks[32 * d : 32 * d + 5])
    data = os.path.join(workdir, "tables.bin")
    with open(data, "wb") as f:
        f.write(array("I", values).tobytes() + index.tobytes() + rows)
    src, exe = os.path.join(workdir, "loop.c"), os.path.join(workdir, "loop")
    with open(src, "w") as f:
        f.write(C_SOURCE)
    subprocess.run([cc, "-O2", src, "-o", exe], check=True)
    return {
        "C loop, uint8 rows": run([exe, data, str(n), str(repeat), "rows"]),
        "C loop, uint32 masks": run([exe, data, str(n), str(repeat), "masks"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--peers", help="a Python with treys / eval7 / phevaluator installed")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    n, repeat = args.hands, args.repeat
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "ours.py")
        with open(script, "w") as f:
            f.write(OUR_SCRIPT)
        for impl, flag in (("compiled", "0"), ("pure", "1")):
            env = {**os.environ, "POKERDRAW32_NO_EXTENSIONS": flag}
            for name in list(OURS)[:4]:
                runs = max(1, repeat // 2) if impl == "pure" and name.startswith("evaluate_many") else repeat
                results[f"{impl}: {name}"] = run([sys.executable, script, str(n), str(runs), name], env)
        results.update(c_loop(n, repeat, tmp))
        if args.peers:
            peer_script = os.path.join(tmp, "peers.py")
            with open(peer_script, "w") as f:
                f.write(PEER_SCRIPT)
            for name in PEERS:
                results[f"peer: {name}"] = run([args.peers, peer_script, str(n), str(repeat), name])
    width = max(map(len, results))
    print(f"{'subject':<{width}}  {'M hands/s':>10}  {'ns/hand':>8}")
    for name, r in results.items():
        rate = r.get("rate")
        if isinstance(rate, float):
            extra = f"  first call {r['first_call_s'] * 1e3:.1f} ms" if "first_call_s" in r else ""
            print(f"{name:<{width}}  {rate / 1e6:>10.2f}  {1e9 / rate:>8.1f}{extra}")
        else:
            print(f"{name:<{width}}  {r.get('error')}")

    def rate(key: str) -> float | None:
        value = results.get(key, {}).get("rate")
        return value if isinstance(value, float) else None

    print()
    ratios = [
        ("compiled evaluate_many rows / C loop rows",
         "compiled: evaluate_many(uint8 rows)", "C loop, uint8 rows"),
        ("compiled evaluate_many masks / C loop masks",
         "compiled: evaluate_many(uint32 masks)", "C loop, uint32 masks"),
    ]
    for label in list(OURS)[:4]:
        ratios.append((f"compiled / pure, {label}", f"compiled: {label}", f"pure: {label}"))
    for peer in PEERS:
        ratios.append(
            (f"compiled evaluate_codes / {peer}", "compiled: evaluate_codes(tuple) per call", f"peer: {peer}"))
        ratios.append((f"pure evaluate_codes / {peer}", "pure: evaluate_codes(tuple) per call", f"peer: {peer}"))
        ratios.append((f"pure evaluate_mask / {peer}", "pure: evaluate_mask(int) per call", f"peer: {peer}"))
    for label, a, b in ratios:
        ra, rb = rate(a), rate(b)
        if ra and rb:
            print(f"{label}: {ra / rb:.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
