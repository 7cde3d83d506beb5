"""Differential-fuzz driver (adversarial review): plays seeded random hands (random rules, 2-5 seats, tiny
stacks, legal and illegal actions, explicit deals, clones, restores, determinize) and prints one JSON line of
observations per step.  Run by tests/test_adv_core.py under the baseline engine and both builds of this one."""
import json
import random
import sys
import traceback

import pokerdraw32 as pd
from pokerdraw32 import Action, Hand, Rules
from pokerdraw32.actions import ActionKind


def exc(e):
    return {"exc": type(e).__name__, "msg": str(e)}

def safe(f):
    try:
        return f()
    except Exception as e:
        return exc(e)

def ev(e):
    return e.to_dict() if hasattr(e, "to_dict") else repr(e)

def obs(h, deep):
    o = {"pv": safe(h.public_view), "legal": safe(lambda: (lambda l: None if l is None else l.to_dict())(h.legal_actions())),
         "views": [safe(lambda s=s: h.view(s)) for s in range(h.n)],
         "stacks": list(h.stacks), "pot": h.pot}
    if deep:
        o["events"] = [e.to_dict() for e in h.events]
        o["ef"] = [safe(lambda s=s: [e.to_dict() for e in h.events_for(s, 0)]) for s in [None, *list(range(h.n))]]
        o["snap"] = safe(h.snapshot)
        o["res"] = safe(lambda: None if h.result is None else repr(h.result))
        o["phh"] = safe(lambda: pd.HandHistory.from_hand(h, number=1).dumps())
        o["posted"] = safe(lambda: {str(k): v for k, v in h.posted_extras.items()})
    return o

def rules_for(r):
    kw = {}
    if r.random() < 0.5:
        kw["structure"] = r.choice(["no-limit", "pot-limit", "fixed-limit"])
        if kw["structure"] == "fixed-limit" and r.random() < 0.5:
            kw["cap"] = r.choice([None, 1, 2, 3, 4, 5])
    if r.random() < 0.5:
        kw["sb"] = r.choice([1, 2, 3, 5, 10])
    for opt in ("heads_up_button_posts_small", "suit_tiebreak", "reshuffle_folded", "parole", "muck_losers", "over_blind"):
        if r.random() < 0.3:
            kw[opt] = r.random() < 0.5
    if r.random() < 0.3:
        kw["second_round_first"] = r.choice(["after_button", "after_largest_blind"])
    return Rules.preset(r.choice(["classic", "two-blind"]), **kw)

def weird_amount(r, lo, hi):
    return r.choice([lo, hi, lo - 1, hi + 1, (lo + hi) // 2, 0, -1, 2**64, True, 3.0, "10", None])

def step(h, r):
    """One random operation: returns (description, outcome)."""
    x = r.random()
    la = h.legal_actions()
    if x < 0.04:
        s, c = r.randrange(-1, h.n + 1), r.choice([True, False, None, "x", 1])
        return f"choice {s} {c}", safe(lambda: h.set_showdown_choice(s, c))
    if x < 0.07:
        return "withdraw", safe(lambda: ev(h.withdraw_raise()))
    if x < 0.09:
        return "timeout", safe(lambda: ev(h.timeout()))
    if x < 0.11:
        return "all_in", safe(lambda: ev(h.all_in()))
    if x < 0.13:
        v = r.choice([True, False])
        def tog():
            h.auto_deal = v
            return h.pending_deal is not None
        return f"auto_deal {v}", safe(tog)
    if x < 0.16:
        t = r.choice(["c", "f", "x", "r 10", "b 4", "d", "d Ah", "split", "decline", "timeout", "r", "zz", "r 1e3", "r -4", "b 99999999999999999999"])
        s = r.choice([None, None, 0, 1, 2, 5, -1])
        return f"can {t} {s}", safe(lambda: [h.can(t, s), h.can(t)])
    if x < 0.18:
        s = r.choice([None, *list(range(h.n))])
        st = r.randint(0, len(h.events) + 1)
        return f"ef {s} {st}", safe(lambda: [e.to_dict() for e in h.events_for(s, st)])
    if h.pending_deal is not None:
        pdl = h.pending_deal
        y = r.random()
        if y < 0.5:
            return "deal", safe(lambda: ev(h.deal()))
        pool = list(h.stub) if y < 0.8 else list(range(32))
        if pdl.kind == "draw" and r.random() < 0.5:
            pool = list(h.stub) + list(h.pile) + (list(range(32)) if r.random() < 0.2 else [])
        pool = sorted(set(pool))
        k = pdl.count + (r.choice([-1, 1]) if r.random() < 0.1 else 0)
        k = max(0, min(k, len(pool)))
        cards = r.sample(pool, k)
        if r.random() < 0.3 and pdl.kind == "draw" and len(h.stub) < pdl.count:
            cards = list(h.stub) + r.sample(sorted(h.pile), max(0, min(len(h.pile), pdl.count - len(h.stub))))
        return f"deal {cards}", safe(lambda: ev(h.deal([pd.DECK[c] for c in cards])))
    if la is None:
        return "act-none", safe(lambda: ev(h.act(r.choice(["f", "c", "k", "x"]))))
    seat = la.seat if r.random() < 0.9 else r.randrange(-1, h.n + 1)
    kinds = sorted(k.value for k in la.kinds)
    if r.random() < 0.1:
        kinds = [k.value for k in ActionKind]
    kind = r.choice(kinds)
    if kind in ("bet", "raise"):
        if la.min_to is not None and r.random() < 0.8:
            amt = r.choice([la.min_to, la.max_to, r.randint(la.min_to, la.max_to)])
        else:
            lo = la.min_to if la.min_to is not None else 2
            hi = la.max_to if la.max_to is not None else 100
            amt = weird_amount(r, lo, hi)
        try:
            a = Action(ActionKind(kind), amt)
        except Exception as e:
            return f"mk {kind} {amt!r}", exc(e)
        return f"{kind} {amt!r} s{seat}", safe(lambda: ev(h.act(a, seat)))
    if kind == "discard":
        hole = list(h.hole[la.seat])
        k = r.randint(0, min(5, len(hole)))
        cards = r.sample(hole, k)
        if r.random() < 0.1:
            cards.append(r.randrange(32))
        cs = [pd.DECK[c] for c in cards]
        if r.random() < 0.5:
            return f"discard {cards} s{seat}", safe(lambda: ev(h.discard(cs, seat)))
        return f"act-d {cards} s{seat}", safe(lambda: ev(h.act("d " + " ".join(map(str, cs)) if cs else "d", seat)))
    if r.random() < 0.5:
        meth = getattr(h, kind)
        return f"{kind} s{seat}", safe(lambda: ev(meth(seat)))
    return f"act {kind} s{seat}", safe(lambda: ev(h.act(Action(ActionKind(kind)), seat)))

def play(seed):
    r = random.Random(seed)
    try:
        rules = rules_for(r)
    except Exception as e:
        print(json.dumps({"seed": seed, "rules": exc(e)})); return
    n = r.randint(2, 5)
    stacks = [r.choice([1, 2, 3, 5, 8, 20, 50, 100, 1000, r.randint(1, 300)]) for _ in range(n)]
    if r.random() < 0.05:
        stacks[0] = r.choice([0, -5, 2**53, "10", 2.0])
    button = r.randrange(n) if r.random() < 0.97 else n
    kw = {"seed": r.randrange(2**32), "auto_deal": r.random() < 0.6}
    if r.random() < 0.2:
        L = rules.largest_blind(n)
        kw["posts"] = {r.randrange(n + (r.random() < 0.1)): (r.randint(0, L + (r.random() < 0.1)), r.randint(0, 5))
                       for _ in range(r.randint(1, 2))}
    try:
        h = Hand(rules, stacks, button, **kw)
    except Exception as e:
        print(json.dumps({"seed": seed, "init": exc(e)}, default=str)); return
    print(json.dumps({"seed": seed, "i": -1, "obs": obs(h, True)}, default=str))
    for i in range(400):
        if h.is_complete:
            break
        d, o = step(h, r)
        y = r.random()
        if y < 0.05:
            h = h.clone(); d += " +clone"
        elif y < 0.08:
            h = Hand.restore(json.loads(json.dumps(h.snapshot()))); d += " +restore"
        elif y < 0.10:
            s = r.randrange(h.n)
            dz = h.determinize(s, seed=r.randrange(1000))
            o = {"o": o, "det": safe(lambda: [e.to_dict() for e in dz.events]), "dv": safe(lambda: dz.view(s)),
                 "dsnap": safe(dz.snapshot)}
        print(json.dumps({"seed": seed, "i": i, "op": d, "out": o, "obs": obs(h, i % 7 == 0)}, default=str))
    print(json.dumps({"seed": seed, "end": obs(h, True)}, default=str))

if __name__ == "__main__":
    a, b = int(sys.argv[1]), int(sys.argv[2])
    for seed in range(a, b):
        seed = seed * 7919 + 13
        try:
            play(seed)
        except Exception:
            print(json.dumps({"seed": seed, "crash": traceback.format_exc()}))
