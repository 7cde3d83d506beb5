"""Memory of finished hands held in memory: the installed pokerdraw32 (compiled, pure) and a baseline revision.

    python bench/memory.py                     # 10,000 hands a subject, tracemalloc on 2,000
    python bench/memory.py --trace-hands 10000 # tracemalloc on all 10,000 (about 4x slower)
    python bench/memory.py --top 10            # + the 10 source lines that allocated most (tracemalloc)
    python bench/memory.py --baseline REV      # another baseline revision (--no-baseline: none)

Each subject plays ``--hands`` seeded 5-player hands through the public ``Hand`` loop (the engine's
own deck: ``Hand(Rules(), [200] * 5, n % 5, rng=Rng(seed))``, a check/call bot that discards the
first ``--discard`` cards, 4 by default: the 5p-draw4 scenario of bench/simulate.py) and keeps every
finished ``Hand`` in a list.  What it costs is measured in a fresh process, after 50 warm-up hands
(so that tables and caches built on first use are not counted) and a ``gc.collect()``:

* RSS: the growth of the process's resident set (``/proc/self/statm``; elsewhere the growth of
  peak RSS), what a server would see;
* tracemalloc: the growth of the memory Python's allocators hand out, in a second process with
  tracemalloc on (``--trace-hands`` hands: tracing slows play about 4x).  Memory a compiled engine
  takes with plain ``malloc`` is invisible to it, so RSS is the figure judged.

Each is taken twice: with the hands as they are ("held") and after reading ``hand.events`` of
every hand ("events read": ``Event`` objects materialized, if the engine builds them lazily and
keeps them).  Subjects: compiled, pure (``POKERDRAW32_NO_EXTENSIONS=1``) and the baseline revision's
pure engine (default ``fef819d``, main before the compiled hand of issue 11; see bench/baseline.py).
The target of issue 11: 10,000 finished 5-player hands in at most 25 MB (2.5 KB a hand, ``Hand``
and its log, events still readable), judged on the compiled engine's RSS figure, held.
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
import targets

CHILD = r"""
import gc, json, os, sys
import pokerdraw32
from pokerdraw32 import ActionKind, Hand, Rng, Rules

def rss():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024

rules = Rules()

def play(rng, n, keep):
    for i in range(n):
        h = Hand(rules, [200] * PLAYERS, i % PLAYERS, rng=rng)
        while h.actor is not None:
            legal = h.legal_actions()
            if ActionKind.DISCARD in legal.kinds:
                h.discard(legal.hole_cards[:DISCARD])
            elif ActionKind.CHECK in legal.kinds:
                h.check()
            else:
                h.call()
        if keep is not None:
            keep.append(h)

play(Rng(SEED + 1), 50, None)          # warm-up: lazily built tables and caches are not the hands' cost
gc.collect()
if TRACE:
    import tracemalloc
    tracemalloc.start()
    used = lambda: tracemalloc.get_traced_memory()[0]
else:
    used = rss
m0 = used()
hands = []
play(Rng(SEED), N, hands)
gc.collect()
m1 = used()
events = sum(len(h.events) for h in hands)
gc.collect()
m2 = used()
top = []
if TRACE and TOP:
    for stat in tracemalloc.take_snapshot().statistics("lineno")[:TOP]:
        frame = stat.traceback[0]
        top.append([f"{frame.filename}:{frame.lineno}", stat.size, stat.count])
print(json.dumps({"name": pokerdraw32.IMPLEMENTATION, "file": pokerdraw32.__file__, "hands": len(hands),
                  "held": m1 - m0, "events_read": m2 - m0, "events": events, "top": top}))
"""


def run(env: dict[str, str], **params: object) -> dict[str, object]:
    src = "\n".join(f"{k} = {v!r}" for k, v in params.items()) + "\n" + CHILD
    proc = subprocess.run([sys.executable, "-c", src], env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed")
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def kb(total: float, hands: int) -> str:
    return f"{total / hands / 1000:>7.2f} KB"


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10_000, help="hands a subject holds, RSS (default 10000)")
    ap.add_argument("--trace-hands", type=int, default=2000,
                    help="hands a subject holds, tracemalloc (default 2000; 0: no tracemalloc)")
    ap.add_argument("--players", type=int, default=5, help="players a hand (default 5)")
    ap.add_argument("--discard", type=int, default=4, help="cards each player discards (default 4)")
    ap.add_argument("--seed", type=int, default=1, help="the hands' seed (default 1)")
    ap.add_argument("--top", type=int, default=0, help="print the N source lines that allocated most (tracemalloc)")
    ap.add_argument("--baseline", metavar="REV", default=baseline.DEFAULT_REV,
                    help=f"the revision whose pure engine is the baseline (default {baseline.DEFAULT_REV})")
    ap.add_argument("--no-baseline", action="store_true", help="no baseline revision")
    args = ap.parse_args(argv)
    base = {k: v for k, v in os.environ.items() if k != "POKERDRAW32_NO_EXTENSIONS"}
    common = {"PLAYERS": args.players, "DISCARD": args.discard, "SEED": args.seed, "TOP": args.top}
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        subjects = baseline.subjects(base, tmp, None if args.no_baseline else args.baseline)
        print(f"memory: finished {args.players}-player hands held in a list (check/call, each discards "
              f"{args.discard}, seed {args.seed}); per hand and in all")
        print(f"  (RSS over {args.hands:,} hands a subject"
              + (f", tracemalloc over {args.trace_hands:,}" if args.trace_hands else "")
              + "; 'read': after reading every hand's events)")
        print(f"  {'subject':<24} {'RSS held':>10} {'in all':>10} {'RSS read':>10} {'in all':>10}"
              + (f" {'traced held':>12} {'traced read':>12}" if args.trace_hands else ""))
        for label, env, src in subjects:
            try:
                r = run(env, TRACE=False, N=args.hands, **common)
                t = run(env, TRACE=True, N=args.trace_hands, **common) if args.trace_hands else None
            except RuntimeError as e:
                print(f"  {label:<24} (skipped: {e})")
                continue
            if src is not None:
                baseline.check_origin(str(r["file"]), src)
            if label == "compiled" and r["name"] != "cython":
                label = f"compiled (not built: {r['name']})"
            n = int(r["hands"])  # type: ignore[call-overload]
            held, read = float(r["held"]), float(r["events_read"])  # type: ignore[arg-type]
            row = {"hands": n, "rss_held": held, "rss_events_read": read, "events_per_hand": int(r["events"]) / n}  # type: ignore[call-overload]
            line = f"  {label:<24} {kb(held, n)} {held / 1e6:>7.1f} MB {kb(read, n)} {read / 1e6:>7.1f} MB"
            if t is not None:
                tn = int(t["hands"])  # type: ignore[call-overload]
                row["traced_held_per_hand"] = float(t["held"]) / tn  # type: ignore[arg-type]
                row["traced_events_read_per_hand"] = float(t["events_read"]) / tn  # type: ignore[arg-type]
                line += f"  {kb(row['traced_held_per_hand'], 1)}  {kb(row['traced_events_read_per_hand'], 1)}"
            print(line)
            if t is not None and t["top"]:
                for where, size, count in t["top"]:  # type: ignore[union-attr]
                    where = where.split(f"{os.sep}pokerdraw32{os.sep}")[-1]  # type: ignore[union-attr]
                    print(f"      {size / tn:>8,.0f} B/hand {count / tn:>7,.1f} blocks/hand  {where}")
            results[label] = row
    per = {k: v["rss_held"] / v["hands"] for k, v in results.items()}  # type: ignore[index]
    base_label = next((k for k in results if k.startswith("baseline")), None)
    if base_label is not None:
        for k in results:
            if k != base_label:
                print(f"  {k} / {base_label}: {per[k] / per[base_label]:.2f}x the memory a hand (RSS, held)")
    if "compiled" in results:
        mb = per["compiled"] * 10_000 / 1e6
        print(targets.line("10,000 finished 5-player hands, compiled, RSS held", f"{mb:.1f} MB "
                           f"({per['compiled'] / 1000:.1f} KB a hand)", f"<= {targets.MEMORY_MB:.0f} MB",
                           targets.verdict(mb, targets.MEMORY_MB, higher=False)))
        read = results["compiled"]["rss_events_read"] / results["compiled"]["hands"] * 10_000 / 1e6  # type: ignore[index]
        print(f"    (after reading every hand's events: {read:.1f} MB)")
        if args.players != 5 or args.hands != 10_000:
            print(f"    (scaled from {args.hands:,} {args.players}-player hands: the target is about 10,000 "
                  "5-player hands)")
    return results


if __name__ == "__main__":
    main()
