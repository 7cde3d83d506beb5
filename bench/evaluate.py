"""Evaluation speed: batch, per call, the string API and small batches, against C loops and the peers.

    python bench/evaluate.py                               # ours (+ the C loops if a C compiler is found)
    python bench/evaluate.py --peers /path/to/python       # + treys, eval7, phevaluator there
    python bench/evaluate.py --only batch,small            # some sections: batch, percall, string, small
    python bench/evaluate.py --repeat 7 --rounds 5 --hands 200000 --json out.json

Every subject runs in a fresh process (pinned to one core with ``taskset`` when available);
inside it, each of ``--repeat`` passes is timed in CPU time of the process (``time.process_time``,
``CLOCK_PROCESS_CPUTIME_ID`` in C: on a shared machine, wall time would charge a pass for the
moments another process had the core) and the median is reported.  Every ratio is
between figures of this run only (the machine is shared and absolute figures are noisy).  Each
section times one subject twice (a control); how far the two came apart is the run's noise, and
a ratio within twice that of its target is reported "unclear" (:func:`targets.verdict`).

**batch** (``--hands`` random 5-card hands of the 32-card deck: the first 5 cards of decks from
``deal_many`` with seed 322024; conversion to each input type is not timed; figures in hands/s):

* ``compiled/pure: evaluate_many(uint8 rows | uint32 masks)``: ``pokerdraw32._kernels.evaluate_many``
  on 5 codes a row (``bytes``) or one mask a hand (``array('I')``), writing, like the C loops, into
  an ``array('I')`` allocated once (``out=``); the same without ``out`` (a new 800 KB array each
  call, whose fresh pages cost faults the C loops do not pay) is printed as information.
* The C loops, compiled with ``cc -O2`` at run time into a temporary directory (nothing generated is
  kept), from tables that Python builds from the engine's own ``evaluate_many`` of all 201,376
  hands, writing a uint32 output like ``evaluate_many``.  None validates its input (ours does: a
  code above 31, a card twice, a mask without 5 cards are errors), so each is a bar, not a twin:

  - *perfect hash, uint32 masks* (the bar for masks; issue 15 target: ours masks
    >= :data:`targets.MASKS_OF_PERFECT_HASH` of it): ``VALUE[h1(m) ^ DISP[h2(m)]]`` with
    ``h1(m) = (m * 0x9E3779B1) >> 14`` (2^18 uint32 slots, 1 MiB) and
    ``h2(m) = ((m ^ (m >> 15)) * 0x85EBCA6B) >> 16`` (2^16 uint8 displacements, 64 KiB): 1.06 MiB.
    The displacements are found in C before timing (buckets largest first, each at the first
    displacement 0..255 that puts all its keys on free slots); the script prints the table's size,
    the largest bucket and displacement.  The same on uint8 rows is printed as information.
  - *two 16-bit halves*, the engine's new layout (the bar for rows, "the same layout"; target: ours
    rows >= :data:`targets.ROWS_OF_SAME_LAYOUT` of it; ours masks against it is printed too):
    ``f = A[m & 0xFFFF] + B[m >> 16]``, valid iff ``f >> 20 == 5``, value
    ``VALUES[INDEX16[f & 0xFFFFF]]``.  For a 16-bit ``v`` of ``k = popcount(v) <= 5`` bits and
    ``rank(v)`` = the number of smaller ``w`` with ``k`` bits: ``A[v] = k << 20 | (base[k] +
    rank(v) * C(16, 5 - k))``, ``B[v] = k << 20 | rank(v)``, ``base[k] = sum_{i<k} C(16, i) *
    C(16, 5 - i)``; for ``k > 5`` both are ``0xF0000000``.  ``f & 0xFFFFF`` is then a bijection
    of the 201,376 hands onto 0..201375 (checked when the tables are built).  The rows loop reads
    5 codes a row (stride 5) and ORs ``1 << code``.
  - *colex*, today's kernel layout (a third reference): colex rank by five count-trailing-zeros
    steps -> uint16 index -> uint32 value.

  Every C loop must give exactly the engine's values: each is checked, untimed, on all 201,376
  hands, and the sum and the position-weighted sum of its timed output against ``evaluate_many``
  of the same hands; a mismatch stops the script.  The compiled subjects and the C loops run in
  ``--rounds`` interleaved rounds (each round starting with the next subject), a figure being the
  median of its rounds'; control: ours on masks and the perfect-hash loop each timed as a second
  subject.  The pure engine runs once, as information.

**percall**: ``evaluate_mask(int)`` and ``evaluate_codes(tuple)`` per call, compiled and pure, and the
peers' per-call evaluators on cards they hold already (``--peers``); information, no target.

**string** (``--string-hands`` random hands as card strings such as ``"Ah Kd 7c 8s 9h"``, the same
hands in every subject; hands/s): ours ``pokerdraw32.evaluate(" ".join(cards))`` (compiled; pure as
information) against phevaluator ``evaluate_cards(*cards)`` (5 strings) and treys
``[Card.new(c) for c in cards]`` then ``Evaluator().evaluate(cs[:2], cs[2:])`` timed together
(eval7 ``Card(c)`` + ``evaluate`` as information).  Targets: ours over each >=
:data:`targets.STRING_OF_PEERS` (needs ``--peers``).  The peers evaluate 52-card hands; they are
given only 7..A cards, the same work a call.  Control: ours run twice.

**small** (``--small-hands`` hands, cut into batches of N, compiled, ``--small-repeat`` passes; ns
a hand): batches of 8 given to the public ``pokerdraw32.evaluate_many`` as 40-byte ``bytes``,
``bytearray``, ``array('I')`` of 8 masks, and ``bytes`` with a preallocated
``out=array('I', [0] * 8)`` (the kernel's own ``evaluate_many`` as information), against 8 single
calls ``[evaluate_codes(t) for t in tuples]`` and ``[evaluate_mask(m) for m in masks]`` of
``pokerdraw32._kernels``.  The bar is the faster single-call form; the figure is batch time / 8
calls' time (lower is better), target < :data:`targets.SMALL_BATCH_OF_SINGLE`.  N = 1, 2, 4, 16,
64 are an informative table (``bytes`` against the faster single call).  All forms are timed in
one process, round-robin within each pass; control: the single-mask form timed twice.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import targets

SECTIONS = ("batch", "percall", "string", "small")
ALL_HANDS = 201_376  # C(32, 5)
DISTINCT_VALUES = 2520  # distinct hand values, suit tie-break (R2.4) on: VALUES of the two table layouts

SETUP = r"""
import json, sys, time, gc
N, REPEAT, name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
clock = time.process_time   # CPU time: a pass is not charged for the time other work had the core
def timeit(fn):
    gc.disable()
    rates = []
    for _ in range(REPEAT):
        t = clock(); fn(); rates.append(N / (clock() - t))
    gc.enable()
    return sorted(rates)[len(rates) // 2]
def checks(values):
    return {"sum": sum(values), "wsum": sum((i + 1) * v for i, v in enumerate(values)) % (1 << 64)}
"""

OUR_SCRIPT = SETUP + r"""
import pokerdraw32
from pokerdraw32 import _kernels as K
out = {"impl": K.IMPLEMENTATION}
if name == "evaluate(str) per call":
    import random
    rng = random.Random(322024)
    RANKS, SUITS = "789TJQKA", "scdh"
    strings = [" ".join(RANKS[c // 4] + SUITS[c % 4] for c in rng.sample(range(32), 5)) for _ in range(N)]
    ev = pokerdraw32.evaluate
    out.update(checks([ev(s).value for s in strings]))
    out["rate"] = timeit(lambda: [ev(s) for s in strings])
else:
    decks = K.deal_many(K.Rng(322024), N)
    rows = bytes(b for d in range(N) for b in decks[32 * d : 32 * d + 5])
    tuples = [tuple(rows[5 * i : 5 * i + 5]) for i in range(N)]
    masks = [sum(1 << c for c in t) for t in tuples]
    from array import array
    mask_array = array("I", masks)
    prealloc = array("I", bytes(4 * N))
    f, g = K.evaluate_mask, K.evaluate_codes
    fn = {
        # like the C loops, into an output allocated once (a new 800 KB array a call costs page faults)
        "evaluate_many(uint8 rows)": lambda: K.evaluate_many(rows, prealloc),
        "evaluate_many(uint32 masks)": lambda: K.evaluate_many(mask_array, prealloc),
        "evaluate_many(uint8 rows), a new array each call": lambda: K.evaluate_many(rows),
        "evaluate_mask(int) per call": lambda: [f(m) for m in masks],
        "evaluate_codes(tuple) per call": lambda: [g(t) for t in tuples],
    }[name]
    out.update(checks(list(fn())))
    out["rate"] = timeit(fn)
print(json.dumps(out))
"""

PEER_SCRIPT = SETUP + r"""
import random
rng = random.Random(322024)
RANKS, SUITS = "789TJQKA", "scdh"
hands = [[RANKS[c // 4] + SUITS[c % 4] for c in rng.sample(range(32), 5)] for _ in range(N)]
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
elif name == "treys Card.new x5 + Evaluator.evaluate(2, 3)":
    from treys import Card, Evaluator
    ev, new = Evaluator(), Card.new
    def treys_strings():
        out = []
        for h in hands:
            cs = [new(c) for c in h]
            out.append(ev.evaluate(cs[:2], cs[2:]))
        return out
    rate = timeit(treys_strings)
elif name == "eval7 Card(str) x5 + evaluate":
    import eval7
    card, evaluate = eval7.Card, eval7.evaluate
    rate = timeit(lambda: [evaluate([card(c) for c in h]) for h in hands])
print(json.dumps({"rate": rate}))
"""
PEERS = ["treys Evaluator.evaluate(2, 3)", "treys Evaluator._five", "eval7 evaluate(list[Card])",
         "phevaluator evaluate_cards"]
STRING_PEERS = ["phevaluator evaluate_cards", "treys Card.new x5 + Evaluator.evaluate(2, 3)",
                "eval7 Card(str) x5 + evaluate"]
JUDGED_STRING_PEERS = STRING_PEERS[:2]

SMALL_SCRIPT = r"""
import json, sys, time, gc
from array import array
import pokerdraw32
from pokerdraw32 import _kernels as K
H, REPEAT, ALL_FORMS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[4])
SIZES = [int(s) for s in sys.argv[3].split(",")]
decks = K.deal_many(K.Rng(322024), H)
rows = bytes(b for d in range(H) for b in decks[32 * d : 32 * d + 5])
tuples = [tuple(rows[5 * i : 5 * i + 5]) for i in range(H)]
masks = [sum(1 << c for c in t) for t in tuples]
ev, kev, f, g = pokerdraw32.evaluate_many, K.evaluate_many, K.evaluate_mask, K.evaluate_codes
clock = time.process_time   # CPU time: a pass is not charged for the time other work had the core
expected = sum(kev(rows))

def forms(s):
    nb = H // s
    rb = [rows[5 * s * j : 5 * s * (j + 1)] for j in range(nb)]
    rba = [bytearray(b) for b in rb]
    ma = [array("I", masks[s * j : s * (j + 1)]) for j in range(nb)]
    tb = [tuples[s * j : s * (j + 1)] for j in range(nb)]
    mb = [masks[s * j : s * (j + 1)] for j in range(nb)]
    out = array("I", [0] * s)
    def batch_bytes():
        for b in rb: ev(b)
    def batch_bytearray():
        for b in rba: ev(b)
    def batch_masks():
        for b in ma: ev(b)
    def batch_out():
        for b in rb: ev(b, out)
    def kernel_bytes():
        for b in rb: kev(b)
    def single_codes():
        for t in tb: [g(x) for x in t]
    def single_masks():
        for t in mb: [f(x) for x in t]
    def out_sum():
        total = 0
        for b in rb: total += sum(ev(b, out))
        return total
    every = {
        "evaluate_many(bytes rows)": (batch_bytes, lambda: sum(sum(ev(b)) for b in rb)),
        "evaluate_many(bytearray rows)": (batch_bytearray, lambda: sum(sum(ev(b)) for b in rba)),
        "evaluate_many(array('I') masks)": (batch_masks, lambda: sum(sum(ev(b)) for b in ma)),
        "evaluate_many(bytes rows, out=preallocated)": (batch_out, out_sum),
        "_kernels.evaluate_many(bytes rows) (information)": (kernel_bytes, lambda: sum(sum(kev(b)) for b in rb)),
        "evaluate_codes(tuple) x N": (single_codes, lambda: sum(sum(g(x) for x in t) for t in tb)),
        "evaluate_mask(int) x N": (single_masks, lambda: sum(sum(f(x) for x in t) for t in mb)),
        "evaluate_mask(int) x N (control)": (single_masks, lambda: sum(sum(f(x) for x in t) for t in mb)),
    }
    keep = every if ALL_FORMS and s == 8 else {k: every[k] for k in (
        "evaluate_many(bytes rows)", "evaluate_codes(tuple) x N", "evaluate_mask(int) x N")}
    for label, (_, check) in keep.items():
        got = check()
        if got != expected:
            raise SystemExit(f"N={s}, {label}: sum of values {got} != {expected} (evaluate_many of the same hands)")
    return {label: fn for label, (fn, _) in keep.items()}

result = {"impl": K.IMPLEMENTATION}
for s in SIZES:
    fs = list(forms(s).items())
    times = {label: [] for label, _ in fs}
    gc.disable()
    for p in range(REPEAT):
        k = p % len(fs)   # each pass starts with the next form
        for label, fn in fs[k:] + fs[:k]:
            t = clock(); fn(); times[label].append((clock() - t) / H * 1e9)
    gc.enable()
    result[str(s)] = times
print(json.dumps(result))
"""

C_SOURCE = r"""
/* The bars of bench/evaluate.py: generated and compiled at run time, nothing kept. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define HANDS 201376
#define NVALUES 2520
#define PH_BITS 18
static uint32_t BINOM[6][32]; static uint16_t INDEX[HANDS]; static uint32_t VALUES[NVALUES];
static uint32_t ALLM[HANDS], ALLV[HANDS];          /* every hand's mask and value: building, checking */
static uint32_t A[65536], B[65536]; static uint16_t INDEX16[HANDS];
static uint32_t PH[1u << PH_BITS]; static uint8_t DISP[1u << 16];

static inline uint32_t colex(uint32_t m) {
    uint32_t i = BINOM[1][__builtin_ctz(m)]; m &= m - 1; i += BINOM[2][__builtin_ctz(m)]; m &= m - 1;
    i += BINOM[3][__builtin_ctz(m)]; m &= m - 1; i += BINOM[4][__builtin_ctz(m)]; m &= m - 1;
    return VALUES[INDEX[i + BINOM[5][__builtin_ctz(m)]]];
}
static inline uint32_t h1(uint32_t m) { return (uint32_t)(m * 0x9E3779B1u) >> (32 - PH_BITS); }
static inline uint32_t h2(uint32_t m) { return (uint32_t)((m ^ (m >> 15)) * 0x85EBCA6Bu) >> 16; }
static inline uint32_t phash(uint32_t m) { return PH[h1(m) ^ DISP[h2(m)]]; }
static inline uint32_t halves(uint32_t m) {
    uint32_t f = A[m & 0xFFFFu] + B[m >> 16];     /* a valid hand iff f >> 20 == 5: not checked (a bar) */
    return VALUES[INDEX16[f & 0xFFFFFu]];
}
#define ROW(h) ((1u << (h)[0]) | (1u << (h)[1]) | (1u << (h)[2]) | (1u << (h)[3]) | (1u << (h)[4]))

static int max_bucket, max_disp;
static int build_phash(void) {          /* 0, or -1: a bucket found no displacement */
    static uint32_t count[65536], start[65537], fill[65536], keys[HANDS]; static uint8_t used[1u << PH_BITS];
    for (int i = 0; i < HANDS; i++) count[h2(ALLM[i])]++;
    start[0] = 0;
    for (int b = 0; b < 65536; b++) {
        start[b + 1] = start[b] + count[b]; fill[b] = start[b];
        if ((int)count[b] > max_bucket) max_bucket = (int)count[b];
    }
    for (int i = 0; i < HANDS; i++) keys[fill[h2(ALLM[i])]++] = (uint32_t)i;
    for (int size = max_bucket; size > 0; size--)
        for (int b = 0; b < 65536; b++) {
            if ((int)count[b] != size) continue;
            int d = 0;
            for (; d < 256; d++) {
                int j = 0;
                for (; j < size; j++) {
                    uint32_t slot = h1(ALLM[keys[start[b] + j]]) ^ (uint32_t)d;
                    if (used[slot]) break;
                    used[slot] = 1;
                }
                if (j == size) break;
                while (j-- > 0) used[h1(ALLM[keys[start[b] + j]]) ^ (uint32_t)d] = 0;
            }
            if (d == 256) return -1;
            DISP[b] = (uint8_t)d;
            if (d > max_disp) max_disp = d;
            for (int j = 0; j < size; j++) { uint32_t k = keys[start[b] + j]; PH[h1(ALLM[k]) ^ (uint32_t)d] = ALLV[k]; }
        }
    return 0;
}

static double now(void) {    /* CPU time, as the Python subjects' time.process_time() */
    struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: loop DATA N REPEAT MODE\n"); return 1; }
    long n = atol(argv[2]); int repeat = atoi(argv[3]); const char *mode = argv[4];
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    if (fread(VALUES, 4, NVALUES, f) != NVALUES || fread(INDEX, 2, HANDS, f) != HANDS
        || fread(ALLM, 4, HANDS, f) != HANDS || fread(ALLV, 4, HANDS, f) != HANDS
        || fread(A, 4, 65536, f) != 65536 || fread(B, 4, 65536, f) != 65536
        || fread(INDEX16, 2, HANDS, f) != HANDS) { fprintf(stderr, "short table file\n"); return 1; }
    uint8_t *rows = malloc(5 * n); uint32_t *ms = malloc(4 * n); uint32_t *out = malloc(4 * n);
    if (fread(rows, 1, 5 * n, f) != (size_t)(5 * n)) { fprintf(stderr, "short rows\n"); return 1; }
    fclose(f);
    for (int k = 0; k < 6; k++) for (int b = 0; b < 32; b++)
        BINOM[k][b] = k == 0 ? 1 : b == 0 ? 0 : BINOM[k][b - 1] + BINOM[k - 1][b - 1];
    double t0 = now();
    if (build_phash() != 0) { fprintf(stderr, "perfect hash: a bucket found no displacement in 0..255\n"); return 3; }
    double build = now() - t0;
    for (int i = 0; i < HANDS; i++) {   /* every layout against the engine on every hand (untimed) */
        uint32_t m = ALLM[i], fh = A[m & 0xFFFFu] + B[m >> 16];
        if (colex(m) != ALLV[i] || phash(m) != ALLV[i] || halves(m) != ALLV[i] || (fh >> 20) != 5) {
            fprintf(stderr, "hand 0x%08x: colex %u, perfect hash %u, halves %u (f >> 20 = %u); the engine says %u\n",
                    m, colex(m), phash(m), halves(m), fh >> 20, ALLV[i]);
            return 2;
        }
    }
    for (long i = 0; i < n; i++) ms[i] = ROW(rows + 5 * i);
    static const char *modes[6] = {"colex-rows", "colex-masks", "phash-rows", "phash-masks",
                                   "halves-rows", "halves-masks"};
    int which = -1;
    for (int i = 0; i < 6; i++) if (!strcmp(mode, modes[i])) which = i;
    if (which < 0) { fprintf(stderr, "unknown mode %s\n", mode); return 1; }
    double *rates = malloc(sizeof(double) * repeat);
    for (int r = 0; r < repeat; r++) {
        double t = now();
        switch (which) {
        case 0: for (long i = 0; i < n; i++) out[i] = colex(ROW(rows + 5 * i)); break;
        case 1: for (long i = 0; i < n; i++) out[i] = colex(ms[i]); break;
        case 2: for (long i = 0; i < n; i++) out[i] = phash(ROW(rows + 5 * i)); break;
        case 3: for (long i = 0; i < n; i++) out[i] = phash(ms[i]); break;
        case 4: for (long i = 0; i < n; i++) out[i] = halves(ROW(rows + 5 * i)); break;
        case 5: for (long i = 0; i < n; i++) out[i] = halves(ms[i]); break;
        }
        rates[r] = n / (now() - t);
    }
    uint64_t sum = 0, wsum = 0;
    for (long i = 0; i < n; i++) { sum += out[i]; wsum += (uint64_t)(i + 1) * out[i]; }
    for (int a = 0; a < repeat; a++) for (int b = a + 1; b < repeat; b++)
        if (rates[b] < rates[a]) { double x = rates[a]; rates[a] = rates[b]; rates[b] = x; }
    printf("{\"rate\": %f, \"sum\": %llu, \"wsum\": %llu, \"build_s\": %f, \"max_bucket\": %d, \"max_disp\": %d}\n",
           rates[repeat / 2], (unsigned long long)sum, (unsigned long long)wsum, build, max_bucket, max_disp);
    return 0;
}
"""

C_LOOPS = {  # label: (mode, table bytes)
    "C loop, perfect hash, uint32 masks": ("phash-masks", (1 << 18) * 4 + (1 << 16)),
    "C loop, perfect hash, uint8 rows (information)": ("phash-rows", (1 << 18) * 4 + (1 << 16)),
    "C loop, two 16-bit halves, uint8 rows": ("halves-rows", 2 * 65536 * 4 + 2 * ALL_HANDS + 4 * DISTINCT_VALUES),
    "C loop, two 16-bit halves, uint32 masks": ("halves-masks", 2 * 65536 * 4 + 2 * ALL_HANDS + 4 * DISTINCT_VALUES),
    "C loop, colex (today's layout), uint8 rows": ("colex-rows", 6 * 32 * 4 + 2 * ALL_HANDS + 4 * DISTINCT_VALUES),
    "C loop, colex (today's layout), uint32 masks": ("colex-masks", 6 * 32 * 4 + 2 * ALL_HANDS + 4 * DISTINCT_VALUES),
}
PHASH_BAR, ROWS_BAR = "C loop, perfect hash, uint32 masks", "C loop, two 16-bit halves, uint8 rows"
COLEX_ROWS, COLEX_MASKS = "C loop, colex (today's layout), uint8 rows", "C loop, colex (today's layout), uint32 masks"
AGAIN = " (control)"


class Mismatch(RuntimeError):
    """A C loop (or a subject) did not give exactly the engine's values."""


def pinned(cmd: list[str]) -> list[str]:
    if shutil.which("taskset"):
        return ["taskset", "-c", "1" if (os.cpu_count() or 1) > 1 else "0", *cmd]
    return cmd


def run(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, object]:
    result = subprocess.run(pinned(cmd), capture_output=True, text=True, env=env, timeout=900, check=False)
    if result.returncode != 0:
        return {"error": result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed"}
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def control_noise(control: list[float], base: list[float]) -> float:
    """How far apart a subject and its control (the same subject timed again) came out, relative, from
    their times (smaller is faster; pass ``1 / rate`` for rates): the
    largest of their medians' and fastest figures' ratios' distance from 1 and, when paired figures
    are given (one per pass or round), the interquartile range of the pairs' ratios (as
    bench/import_time.py does)."""
    med = sorted(control)[len(control) // 2] / sorted(base)[len(base) // 2]
    fast = min(control) / min(base)
    noise = max(abs(1 - med), abs(1 - fast))
    if len(control) == len(base) and len(base) >= 4:
        pairs = sorted(c / b for c, b in zip(control, base, strict=True))
        noise = max(noise, 1 - pairs[len(pairs) // 4], pairs[(3 * len(pairs)) // 4] - 1)
    return noise


def checksums(values: object) -> dict[str, int]:
    vals = list(values)  # type: ignore[call-overload]
    return {"sum": sum(vals), "wsum": sum((i + 1) * v for i, v in enumerate(vals)) % (1 << 64)}


def build_tables(k: object) -> dict[str, object]:
    """The tables of the three layouts, from the engine ``k`` (``pokerdraw32._kernels``)'s values of all
    201,376 hands: ``values`` (ascending distinct values), ``masks``/``by_hand`` (every hand in ascending
    mask order, which is colex order, and its value), ``index`` (colex rank -> value index), ``a``,
    ``b``, ``index16`` (the two-halves layout).  Asserts the two-halves layout's bijection."""
    from array import array
    from itertools import combinations
    from math import comb

    masks = array("I", sorted(sum(1 << c for c in combo) for combo in combinations(range(32), 5)))
    by_hand = k.evaluate_many(masks)  # type: ignore[attr-defined]
    values = sorted(set(by_hand))
    if len(values) != DISTINCT_VALUES:
        raise Mismatch(f"{len(values)} distinct hand values, expected {DISTINCT_VALUES}")
    position = {v: i for i, v in enumerate(values)}
    index = array("H", [position[v] for v in by_hand])
    cnt = [comb(16, i) for i in range(6)]
    base = [sum(cnt[i] * cnt[5 - i] for i in range(j)) for j in range(6)]
    a, b = array("I", [0xF0000000] * 65536), array("I", [0xF0000000] * 65536)
    seen = [0] * 6
    for v in range(65536):
        j = bin(v).count("1")
        if j <= 5:
            rank = seen[j]
            seen[j] += 1
            a[v] = j << 20 | (base[j] + rank * cnt[5 - j])
            b[v] = j << 20 | rank
    index16 = array("H", [0]) * ALL_HANDS
    hit = bytearray(ALL_HANDS)
    for m, value in zip(masks, by_hand, strict=True):
        f = (a[m & 0xFFFF] + b[m >> 16]) & 0xFFFFFFFF
        slot = f & 0xFFFFF
        if f >> 20 != 5 or slot >= ALL_HANDS or hit[slot]:
            raise Mismatch(f"two 16-bit halves: mask {m:#010x} gives f = {f:#010x}, "
                           f"not a fresh index below {ALL_HANDS}")
        hit[slot] = 1
        index16[slot] = position[value]
    return {"values": array("I", values), "masks": masks, "by_hand": array("I", by_hand), "index": index,
            "a": a, "b": b, "index16": index16}


class CLoops:
    """The C loops compiled in ``workdir`` over ``n`` hands; :meth:`run` times one of :data:`C_LOOPS`.

    Raises :class:`Mismatch` when a loop's values differ from ``evaluate_many``'s (the C program
    checks every layout on all 201,376 hands itself before timing; :meth:`run`, the sums of its
    timed output).  ``cc`` is None without a C compiler."""

    def __init__(self, n: int, workdir: str) -> None:
        self.cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
        self.n = n
        if self.cc is None:
            return
        import pokerdraw32._kernels as k

        t = build_tables(k)
        decks = k.deal_many(k.Rng(322024), n)
        rows = bytes(b for d in range(n) for b in decks[32 * d : 32 * d + 5])
        self.expected = checksums(k.evaluate_many(rows))
        self.data = os.path.join(workdir, "tables.bin")
        with open(self.data, "wb") as f:
            for key in ("values", "index", "masks", "by_hand", "a", "b", "index16"):
                f.write(t[key].tobytes())  # type: ignore[attr-defined]
            f.write(rows)
        src, self.exe = os.path.join(workdir, "loop.c"), os.path.join(workdir, "loop")
        with open(src, "w") as f:
            f.write(C_SOURCE)
        subprocess.run([self.cc, "-O2", src, "-o", self.exe], check=True)

    def run(self, label: str, repeat: int) -> dict[str, object]:
        mode, size = C_LOOPS[label.removesuffix(AGAIN)]
        r = run([self.exe, self.data, str(self.n), str(repeat), mode])
        if "error" in r:
            raise Mismatch(f"{label}: {r['error']}")
        if (r["sum"], r["wsum"]) != (self.expected["sum"], self.expected["wsum"]):
            raise Mismatch(f"{label}: output sums {r['sum']}, {r['wsum']}; evaluate_many of the same hands: "
                           f"{self.expected['sum']}, {self.expected['wsum']}")
        r["table_bytes"] = size
        return r


def c_loops(n: int, repeat: int, workdir: str) -> dict[str, dict[str, object]]:
    """Every C loop timed once on ``n`` hands (``{}`` without a C compiler); see :class:`CLoops`."""
    loops = CLoops(n, workdir)
    return {label: loops.run(label, repeat) for label in C_LOOPS} if loops.cc else {}


def fmt_bytes(n: int) -> str:
    return f"{n:,} bytes ({n / 2 ** 20:.2f} MiB)"


def print_rates(results: dict[str, dict[str, object]], unit: str = "M hands/s") -> None:
    width = max(map(len, results))
    print(f"  {'subject':<{width}}  {unit:>10}  {'ns/hand':>8}")
    for name, r in results.items():
        rate = r.get("rate")
        if isinstance(rate, float):
            print(f"  {name:<{width}}  {rate / 1e6:>10.3f}  {1e9 / rate:>8.1f}")
        else:
            print(f"  {name:<{width}}  {r.get('error')}")


def rate_of(results: dict[str, dict[str, object]], key: str) -> float | None:
    value = results.get(key, {}).get("rate")
    return value if isinstance(value, float) else None


def print_information(results: dict[str, dict[str, object]], pairs: list[tuple[str, str, str]]) -> None:
    """One line a ``(label, a, b)``: subject ``a``'s rate over ``b``'s, where both were measured."""
    for label, a, b in pairs:
        ra, rb = rate_of(results, a), rate_of(results, b)
        if ra and rb:
            print(f"  information: {label}: {ra / rb:.2f}x (speed)")


def check_ours(label: str, r: dict[str, object], expected: dict[str, int] | None) -> None:
    if expected is not None and "sum" in r and (r["sum"], r["wsum"]) != (expected["sum"], expected["wsum"]):
        raise Mismatch(f"{label}: sums {r['sum']}, {r['wsum']} differ from evaluate_many's "
                       f"{expected['sum']}, {expected['wsum']}")


def write(tmp: str, name: str, text: str) -> str:
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def envs() -> dict[str, dict[str, str]]:
    """The subjects' environments: compiled (as installed) and pure (forced; a REQUIRE flag, which would
    make that an import error, dropped)."""
    base = {k: v for k, v in os.environ.items() if k != "POKERDRAW32_NO_EXTENSIONS"}
    pure = {k: v for k, v in base.items() if k != "POKERDRAW32_REQUIRE_EXTENSIONS"}
    return {"compiled": base, "pure": {**pure, "POKERDRAW32_NO_EXTENSIONS": "1"}}


def section_batch(args: argparse.Namespace, tmp: str) -> dict[str, dict[str, object]]:
    n, repeat, rounds = args.hands, args.repeat, args.rounds
    script = write(tmp, "ours.py", OUR_SCRIPT)
    import pokerdraw32._kernels as k

    decks = k.deal_many(k.Rng(322024), n)
    expected = checksums(k.evaluate_many(bytes(b for d in range(n) for b in decks[32 * d : 32 * d + 5])))
    loops = CLoops(n, tmp)
    if loops.cc is None:
        print("(no C compiler: no C loops, no bars)")
    ours = [("compiled", "evaluate_many(uint8 rows)"), ("compiled", "evaluate_many(uint32 masks)"),
            ("compiled", "evaluate_many(uint32 masks)" + AGAIN),
            ("compiled", "evaluate_many(uint8 rows), a new array each call")]
    pure = [("pure", "evaluate_many(uint8 rows)"), ("pure", "evaluate_many(uint32 masks)")]
    c_labels = [*C_LOOPS, PHASH_BAR + AGAIN] if loops.cc else []

    def ours_once(impl: str, name: str) -> dict[str, object]:
        label = f"{impl}: {name}"
        r = run([sys.executable, script, str(n), str(max(1, repeat // 2) if impl == "pure" else repeat),
                 name.removesuffix(AGAIN)], envs()[impl])
        check_ours(label, r, expected)
        return r

    # rounds: every compiled subject and C loop once a round, each round starting with the next one, so
    # that a slow spell of the shared machine falls on all of them; a subject's figure is the median of
    # its rounds' figures (each the median of its passes).  The pure engine: once (information).
    jobs = [(f"{impl}: {name}", lambda impl=impl, name=name: ours_once(impl, name)) for impl, name in ours]
    jobs += [(label, lambda label=label: loops.run(label, repeat)) for label in c_labels]
    per_round: dict[str, list[dict[str, object]]] = {label: [] for label, _ in jobs}
    for r in range(rounds):
        j = r % len(jobs)
        for label, job in jobs[j:] + jobs[:j]:
            per_round[label].append(job())
    results: dict[str, dict[str, object]] = {}
    for label, got in per_round.items():
        rates = [x["rate"] for x in got if isinstance(x.get("rate"), float)]
        results[label] = dict(got[0], rate=sorted(rates)[len(rates) // 2], rates=rates) if rates else got[0]
    for impl, name in pure:
        results[f"{impl}: {name}"] = ours_once(impl, name)
    impl_seen = results["compiled: evaluate_many(uint8 rows)"].get("impl")
    print(f"batch: {n:,} hands; median of {repeat} passes in a process, median of {rounds} interleaved rounds "
          f"(pure: {max(1, repeat // 2)} passes, 1 round)")
    if impl_seen != "cython":
        print(f"  (the compiled kernels are not built: 'compiled' is {impl_seen})")
    print_rates(results)
    if loops.cc:
        ph = results[PHASH_BAR]
        print(f"  perfect hash: {fmt_bytes(int(ph['table_bytes']))} (2^18 uint32 values + 2^16 uint8 displacements); "
              f"largest bucket {ph['max_bucket']} keys, largest displacement {ph['max_disp']}, built in "
              f"{float(ph['build_s']) * 1e3:.1f} ms (untimed)")
        print(f"  two 16-bit halves: {fmt_bytes(int(results[ROWS_BAR]['table_bytes']))} (A, B: 2 x 2^16 uint32; "
              f"INDEX16: 201,376 uint16; VALUES: 2,520 uint32)")
        print(f"  colex: {fmt_bytes(int(results[COLEX_ROWS]['table_bytes']))} (binomials; INDEX: 201,376 uint16; "
              "VALUES: 2,520 uint32)")
        print("  every C loop: the engine's values on all 201,376 hands, and the sums of its timed output equal "
              "evaluate_many's: checked")
    noises = []
    for a, b in (("compiled: evaluate_many(uint32 masks)", "compiled: evaluate_many(uint32 masks)" + AGAIN),
                 (PHASH_BAR, PHASH_BAR + AGAIN)):
        ra, rb = results.get(a, {}).get("rates"), results.get(b, {}).get("rates")
        if ra and rb:
            noises.append(control_noise([1 / x for x in rb], [1 / x for x in ra]))  # type: ignore[union-attr]
            print(f"  noise: {a} against itself: {rate_of(results, b) / rate_of(results, a):.2f}x "  # type: ignore[operator]
                  f"(median of rounds), ±{noises[-1]:.0%} (rounds' medians, fastest and spread)")
    noise = max(noises) if noises else None
    ours_rows, ours_masks = rate_of(results, "compiled: evaluate_many(uint8 rows)"), rate_of(
        results, "compiled: evaluate_many(uint32 masks)")
    if ours_masks and rate_of(results, PHASH_BAR):
        r = ours_masks / rate_of(results, PHASH_BAR)  # type: ignore[operator]
        print(targets.line("compiled evaluate_many(uint32 masks) / C loop over a perfect hash", f"{r:.2f}x",
                           f">= {targets.MASKS_OF_PERFECT_HASH:.2f}x",
                           targets.verdict(r, targets.MASKS_OF_PERFECT_HASH, tolerance=targets.TOLERANCE,
                                           noise=noise)))
    if ours_rows and rate_of(results, ROWS_BAR):
        r = ours_rows / rate_of(results, ROWS_BAR)  # type: ignore[operator]
        print(targets.line("compiled evaluate_many(uint8 rows) / C loop over the same layout (two 16-bit halves)",
                           f"{r:.2f}x", f">= {targets.ROWS_OF_SAME_LAYOUT:.2f}x",
                           targets.verdict(r, targets.ROWS_OF_SAME_LAYOUT, tolerance=targets.TOLERANCE, noise=noise)))
    info = [("compiled masks / C loop, two 16-bit halves, masks", "compiled: evaluate_many(uint32 masks)",
             "C loop, two 16-bit halves, uint32 masks"),
            ("compiled rows / C loop, perfect hash, rows", "compiled: evaluate_many(uint8 rows)",
             "C loop, perfect hash, uint8 rows (information)"),
            ("compiled rows / C loop, colex, rows", "compiled: evaluate_many(uint8 rows)", COLEX_ROWS),
            ("compiled masks / C loop, colex, masks", "compiled: evaluate_many(uint32 masks)", COLEX_MASKS),
            ("C loop: colex / two 16-bit halves, rows", COLEX_ROWS, ROWS_BAR),
            ("C loop: two 16-bit halves / perfect hash, masks", "C loop, two 16-bit halves, uint32 masks", PHASH_BAR),
            ("compiled / pure, rows", "compiled: evaluate_many(uint8 rows)", "pure: evaluate_many(uint8 rows)"),
            ("compiled / pure, masks", "compiled: evaluate_many(uint32 masks)", "pure: evaluate_many(uint32 masks)")]
    print_information(results, info)
    return results


def section_percall(args: argparse.Namespace, tmp: str) -> dict[str, dict[str, object]]:
    n, repeat = args.hands, args.repeat
    script = write(tmp, "ours.py", OUR_SCRIPT)
    results: dict[str, dict[str, object]] = {}
    for impl in ("compiled", "pure"):
        for name in ("evaluate_mask(int) per call", "evaluate_codes(tuple) per call"):
            results[f"{impl}: {name}"] = run([sys.executable, script, str(n), str(repeat), name], envs()[impl])
    if args.peers:
        peer_script = write(tmp, "peers.py", PEER_SCRIPT)
        for name in PEERS:
            results[f"peer: {name}"] = run([args.peers, peer_script, str(n), str(repeat), name])
    print(f"per call: {n:,} hands, median of {repeat} passes (information, no target)")
    print_rates(results)
    ratios = [(f"compiled / pure, {x}", f"compiled: {x}", f"pure: {x}")
              for x in ("evaluate_mask(int) per call", "evaluate_codes(tuple) per call")]
    for peer in PEERS if args.peers else []:
        ratios.append((f"compiled evaluate_codes / {peer}", "compiled: evaluate_codes(tuple) per call",
                       f"peer: {peer}"))
        ratios.append((f"pure evaluate_mask / {peer}", "pure: evaluate_mask(int) per call", f"peer: {peer}"))
    print_information(results, ratios)
    return results


def section_string(args: argparse.Namespace, tmp: str) -> dict[str, dict[str, object]]:
    n, repeat = args.string_hands, args.repeat
    script = write(tmp, "ours.py", OUR_SCRIPT)
    results: dict[str, dict[str, object]] = {}
    name = "evaluate(str) per call"
    for label, impl in ((f"compiled: {name}", "compiled"), (f"compiled: {name}{AGAIN}", "compiled"),
                        (f"pure: {name} (information)", "pure")):
        results[label] = run([sys.executable, script, str(n), str(repeat), name], envs()[impl])
    first = results[f"compiled: {name}"]
    for label, r in results.items():
        if "sum" in r and "sum" in first and r["sum"] != first["sum"]:
            raise Mismatch(f"{label}: the values' sum {r['sum']} differs from compiled's {first['sum']}")
    if args.peers:
        peer_script = write(tmp, "peers.py", PEER_SCRIPT)
        for peer in STRING_PEERS:
            results[f"peer: {peer}"] = run([args.peers, peer_script, str(n), str(repeat), peer])
    print(f'string API, per call: {n:,} hands as strings such as "Ah Kd 7c 8s 9h", median of {repeat} passes')
    print_rates(results)
    ours = rate_of(results, f"compiled: {name}")
    again = rate_of(results, f"compiled: {name}{AGAIN}")
    noise = abs(1 - again / ours) if ours and again else None
    if noise is not None:
        print(f"  noise: ours against itself: {again / ours:.2f}x")  # type: ignore[operator]
    if not args.peers:
        print("  (no --peers: the string-API targets need treys and phevaluator; not judged)")
    for peer in STRING_PEERS:
        rp = rate_of(results, f"peer: {peer}")
        if ours and rp:
            r = ours / rp
            if peer in JUDGED_STRING_PEERS:
                print(targets.line(f'evaluate("Ah Kh Qh Jh Th")-style per call / {peer}', f"{r:.2f}x",
                                   f">= {targets.STRING_OF_PEERS:.1f}x",
                                   targets.verdict(r, targets.STRING_OF_PEERS, tolerance=targets.TOLERANCE,
                                                   noise=noise)))
            else:
                print(f"  information: ours / {peer}: {r:.2f}x (speed)")
        elif args.peers and peer in JUDGED_STRING_PEERS:
            print(f"  {peer}: {results.get(f'peer: {peer}', {}).get('error')} (not judged)")
    return results


def section_small(args: argparse.Namespace, tmp: str) -> dict[str, object]:
    script = write(tmp, "small.py", SMALL_SCRIPT)
    sizes = [1, 2, 4, 8, 16, 64]
    h = args.small_hands - args.small_hands % 64
    repeat = args.small_repeat
    r = run([sys.executable, script, str(h), str(repeat), ",".join(map(str, sizes)), "1"], envs()["compiled"])
    if "error" in r:
        print(f"small batches: {r['error']}")
        return r
    if r.get("impl") != "cython":
        print(f"small batches: the compiled kernels are not built ({r.get('impl')}): not judged")
    print(f"small batches (compiled): {h:,} hands a pass cut into batches of N, median of {repeat} passes "
          "(ns a hand; ratio: batch / the faster single-call form, lower is better)")
    med: dict[str, dict[str, float]] = {}
    for s in sizes:
        times: dict[str, list[float]] = r[str(s)]  # type: ignore[assignment]
        med[str(s)] = {label: sorted(ts)[len(ts) // 2] for label, ts in times.items()}
    eight: dict[str, list[float]] = r["8"]  # type: ignore[assignment]
    m8 = med["8"]
    bar_label = min(("evaluate_codes(tuple) x N", "evaluate_mask(int) x N"), key=lambda k: m8[k])
    bar = m8[bar_label]
    noise = control_noise(eight["evaluate_mask(int) x N (control)"], eight["evaluate_mask(int) x N"])
    width = max(map(len, m8))
    print("  N = 8:")
    for label, t in m8.items():
        print(f"    {label:<{width}}  {t:>7.1f} ns/hand  {t / bar:>5.2f}x")
    print(f"  the bar: {bar_label} (the faster single-call form); noise: the single-mask form against itself: "
          f"±{noise:.0%}")
    judged = ["evaluate_many(bytes rows)", "evaluate_many(bytearray rows)", "evaluate_many(array('I') masks)",
              "evaluate_many(bytes rows, out=preallocated)"]
    if r.get("impl") == "cython":
        for label in judged:
            ratio = m8[label] / bar
            print(targets.line(f"8 hands in one call, {label} / 8 single calls", f"{ratio:.2f}x the time",
                               f"< {targets.SMALL_BATCH_OF_SINGLE:.2f}x",
                               targets.verdict(ratio, targets.SMALL_BATCH_OF_SINGLE, higher=False, noise=noise)))
    print("  information: evaluate_many(bytes rows) against the faster single call, by batch size N:")
    print(f"    {'N':>3}  {'batch ns/hand':>13}  {'single ns/hand':>14}  {'ratio':>6}")
    for s in sizes:
        m = med[str(s)]
        single = min(m["evaluate_codes(tuple) x N"], m["evaluate_mask(int) x N"])
        print(f"    {s:>3}  {m['evaluate_many(bytes rows)']:>13.1f}  {single:>14.1f}  "
              f"{m['evaluate_many(bytes rows)'] / single:>5.2f}x")
    return {"median_ns": med, "bar": bar_label, "noise": noise}


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200_000, help="batch and per-call hands (default 200,000)")
    parser.add_argument("--string-hands", type=int, default=20_000, help="string-API hands (default 20,000)")
    parser.add_argument("--small-hands", type=int, default=65_536,
                        help="small batches: hands a pass (a multiple of 64; default 65,536)")
    parser.add_argument("--repeat", type=int, default=7, help="timed passes a subject; the median counts")
    parser.add_argument("--rounds", type=int, default=5,
                        help="batch: interleaved rounds of every compiled subject and C loop (default 5)")
    parser.add_argument("--small-repeat", type=int, default=15,
                        help="small batches: passes (short ones, so more of them; default 15)")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"sections, comma-separated: {', '.join(SECTIONS)}")
    parser.add_argument("--peers", help="a Python with treys / eval7 / phevaluator installed")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(only) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}: choose from {', '.join(SECTIONS)}")
    print("command:", shlex.join([sys.executable, *sys.argv] if argv is None else [sys.executable, __file__, *argv]))
    print(targets.machine())
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in (("batch", section_batch), ("percall", section_percall), ("string", section_string),
                         ("small", section_small)):
            if name in only:
                print()
                results[name] = fn(args, tmp)
                sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return results


if __name__ == "__main__":
    main()
