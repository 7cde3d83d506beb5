"""One timed subject per process: python bench.py SUBJECT IMPL ROUNDS  ->  prints rounds/s.

SUBJECT: pub_cc / pub_rand  (driver in Python: legal_actions() tuple + act(kind, amount) per action)
         sim_cc / sim_rand  (whole rounds inside the module: play(rounds, seed, policy))
         r1_cc              (first round only, classic blinds sb1/bb2/ob4, 100bb stacks, check/call,
                             public path: the slice's equivalent of hand_cc)
         hand_cc            (pokerdraw32.Hand from /work/main/src, IMPL ignored: Hand(...) then
                             check/call until the first betting round ends)
         hand_new           (pokerdraw32.Hand construction only: blinds + shuffle + deal)
IMPL: A (slice_twin), B (slice_pure_c), B2 (slice_ann_c), Bpy (slice_pure), B2py (slice_ann).
"""
import sys
import time

subject, impl, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
MODS = {"A": "slice_twin", "B": "slice_pure_c", "B2": "slice_ann_c", "Bpy": "slice_pure", "B2py": "slice_ann"}


def lcg(x):
    return (x * 1103515245 + 12345) & 0x7FFFFFFF


def params(count, seed=1):
    """The same random rounds play() generates."""
    out = []
    x = seed
    for _ in range(count):
        x = lcg(x); n = 2 + x % 4
        x = lcg(x); structure = x % 3
        x = lcg(x); second = x % 2
        x = lcg(x); sb = 1 + x % 5
        bb = 2 * sb
        x = lcg(x); ob = 2 * bb if x % 2 else 0
        stacks = []
        for _ in range(n):
            x = lcg(x); stacks.append(1 + x % (60 * bb))
        x = lcg(x)
        out.append((stacks, structure, 4 if x % 4 else 0, sb, bb, ob, second, 0 if not second else x % 50))
    return out


def r1_params(count):
    x = 7
    out = []
    for _ in range(count):
        x = lcg(x)
        n = 2 + x % 4
        out.append(([200] * n, 0, 4, 1, 2, 4 if n >= 4 else 0, False, 0))
    return out


if subject.startswith("hand"):
    sys.path.insert(0, "/work/main/src")
    from pokerdraw32 import IMPLEMENTATION, Hand, Phase, Rules
    rules = Rules()
    ps = r1_params(rounds)
    t0 = time.perf_counter()
    if subject == "hand_cc":
        for k, p in enumerate(ps):
            h = Hand(rules, p[0], 0, seed=k)
            while h.phase is Phase.FIRST_ROUND:
                la = h.legal_actions()
                if la.call_amount:
                    h.call()
                else:
                    h.check()
    else:
        for k, p in enumerate(ps):
            h = Hand(rules, p[0], 0, seed=k)
    dt = time.perf_counter() - t0
    print(f"{subject} {IMPLEMENTATION} {rounds / dt:.1f}")
    sys.exit()

mod = __import__(MODS[impl])
Round = mod.Round
if subject.startswith("gen"):          # baseline for callgrind: generation only
    ps = params(rounds) if subject == "gen" else r1_params(rounds)
    print(f"{subject} {impl} 0")
    sys.exit()
if subject.startswith("sim"):
    t0 = time.perf_counter()
    mod.play(rounds, 1, 0 if subject == "sim_cc" else 1)
    dt = time.perf_counter() - t0
else:
    ps = params(rounds) if subject.startswith("pub") else r1_params(rounds)
    CHECK, CALL, BET, RAISE = 1, 2, 3, 4
    t0 = time.perf_counter()
    if subject in ("pub_cc", "r1_cc"):
        for p in ps:
            r = Round(*p)
            while True:
                la = r.legal_actions()
                if la is None:
                    break
                r.act(CHECK if la[1] >> CHECK & 1 else CALL, 0)
    else:
        x = 1
        for p in ps:
            r = Round(*p)
            while True:
                la = r.legal_actions()
                if la is None:
                    break
                kinds = la[1]
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                kind = x % 5
                while not (kinds >> kind & 1):
                    kind = (kind + 1) % 5
                amount = 0
                if kind == BET or kind == RAISE:
                    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                    amount = la[3] + x % (la[4] - la[3] + 1)
                if r.act(kind, amount):
                    raise AssertionError("refused")
    dt = time.perf_counter() - t0
print(f"{subject} {impl} {rounds / dt:.1f}")
