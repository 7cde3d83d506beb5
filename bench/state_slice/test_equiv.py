"""Equivalence: compiled B (slice_pure_c), compiled A (slice_twin), B as plain Python (slice_pure),
plus the annotations-only B2 compiled (slice_ann_c) and plain (slice_ann).

Plays ROUNDS random betting rounds (2-5 seats, three structures, caps, both rounds, random and
short stacks, over blind or not), compares legal_actions() at every decision point and state()
after every action, and tries illegal actions (refusal code equal, state unchanged).
Then compares the in-module whole-round simulation play() across the three."""
import random
import sys

import slice_ann  # B2, annotations-only style, plain Python
import slice_ann_c  # B2 compiled
import slice_pure
import slice_pure_c
import slice_twin

assert slice_pure.__file__.endswith(".py") and not slice_pure_c.__file__.endswith(".py")
IMPLS = (slice_pure_c, slice_twin, slice_pure, slice_ann_c, slice_ann)
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000


def main():
    rnd = random.Random(20261201)
    decisions = refusals = actions = 0
    counts = {}
    for k in range(ROUNDS):
        n = rnd.randint(2, 5)
        structure = rnd.randrange(3)
        cap = rnd.choice((4, 4, 3, 0))
        sb = rnd.randint(1, 5)
        bb = 2 * sb
        ob = 2 * bb if rnd.random() < 0.5 else 0
        second = rnd.random() < 0.5
        L = ob if ob and n >= 4 else bb
        stacks = []
        for _ in range(n):
            u = rnd.random()
            if second and u < 0.1:
                stacks.append(0)                       # all-in from the first round
            elif u < 0.35:
                stacks.append(rnd.randint(1, 3 * L))   # short stacks: R4.5, R3.5, R5.5
            else:
                stacks.append(rnd.randint(1, 100 * L))
        dead = rnd.randint(0, 40) if second else 0
        rs = [m.Round(stacks, structure, cap, sb, bb, ob, second, dead) for m in IMPLS]
        st = [r.state() for r in rs]
        assert all(x == st[0] for x in st), (k, stacks, st)
        while True:
            legal = [r.legal_actions() for r in rs]
            assert all(x == legal[0] for x in legal), (k, legal)
            if legal[0] is None:
                break
            decisions += 1
            _, kinds, call, lo, hi = legal[0]
            if rnd.random() < 0.15:                    # try something illegal, or at least random
                kind = rnd.randint(-1, 5)
                amount = rnd.choice((lo - 1, hi + 1, lo, hi, rnd.randint(-5, 10 ** 6)))
            else:
                kind = rnd.choice([i for i in range(5) if kinds >> i & 1])
                amount = 0
                if lo >= 0:
                    amount = rnd.choice((lo, hi, rnd.randint(lo, hi)))
            before = rs[0].state()
            codes = [r.act(kind, amount) for r in rs]
            assert all(x == codes[0] for x in codes), (k, kind, amount, codes)
            st = [r.state() for r in rs]
            assert all(x == st[0] for x in st), (k, kind, amount, st)
            if codes[0]:
                refusals += 1
                assert st[0] == before, (k, kind, amount)
            else:
                actions += 1
                counts[kind] = counts.get(kind, 0) + 1
        assert rs[0].phase in (3, 4)
        assert sum(rs[0].state()[1]) + sum(rs[0].state()[3]) == sum(stacks)   # chips conserved
    print(f"{ROUNDS} rounds, {decisions} decision points, {actions} actions {counts}, {refusals} refusals: "
          "all identical")
    for seed in (1, 2, 3):
        for policy in (0, 1):
            sums = [m.play(20_000, seed, policy) for m in IMPLS]
            assert all(x == sums[0] for x in sums), (seed, policy, sums)
    print(f"play(): 6 x 20,000 rounds, checksums identical across {len(IMPLS)} implementations")


main()
