"""Snapshot size, snapshot/restore time and clone time of a hand in progress, against PokerKit's
``copy.deepcopy`` (and pickle size) of a comparable state.

The state: 5 players, everyone called the first round, each discarded 4 (the stub ran out and
the discard pile was reshuffled, R6.2), one check in the second round.  Each subject runs in a
fresh process; figures are the median of ``--repeat`` timings.

    python bench/snapshot.py [--peers /path/to/python-with-pokerkit] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

OURS = r"""
import copy, json, pickle, sys
sys.path.insert(0, BENCH_DIR)
from timing import median_us
from pokerdraw32 import IMPLEMENTATION, Hand, Rules
repeat = REPEAT
h = Hand(Rules(), [200] * 5, 0, seed=1)
while h.phase.value == "first-round":
    h.check() if h.can("check") else h.call()
while h.phase.value == "draw":
    h.discard(h.legal_actions().hole_cards[:4])
h.check()

def timed(fn, n):
    return median_us(fn, n, repeat)

snap = h.snapshot()
text = json.dumps(snap, separators=(",", ":"))
print(json.dumps({
    "name": "pokerdraw32 " + IMPLEMENTATION,
    "events": len(h.events),
    "clone_us": timed(h.clone, 2000),
    "deepcopy_us": timed(lambda: copy.deepcopy(h), 200),
    "snapshot_us": timed(h.snapshot, 500),
    "snapshot_json_us": timed(lambda: json.dumps(h.snapshot(), separators=(",", ":")), 500),
    "restore_us": timed(lambda: Hand.restore(json.loads(text)), 500),
    "json_bytes": len(text.encode()),
    "pickle_bytes": len(pickle.dumps(h)),
}))
"""

POKERKIT = r"""
import copy, json, pickle, sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, BENCH_DIR)
from pokerkit32 import new_state
from timing import median_us
repeat = REPEAT
s = new_state(5)
while s.street_index == 0:
    s.check_or_call()
while s.can_stand_pat_or_discard():
    s.stand_pat_or_discard(s.hole_cards[s.stand_patter_or_discarder_index][:4])
s.check_or_call()

def timed(fn, n):
    return median_us(fn, n, repeat)

import pokerkit
print(json.dumps({
    "name": "pokerkit " + getattr(pokerkit, "__version__", ""),
    "deepcopy_us": timed(lambda: copy.deepcopy(s), 100),
    "pickle_bytes": len(pickle.dumps(s)),
}))
"""


def run(python: str, code: str, env: dict[str, str], repeat: int) -> dict[str, object] | None:
    code = code.replace("REPEAT", str(repeat)).replace("BENCH_DIR", repr(str(Path(__file__).resolve().parent)))
    proc = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(f"  ({python}: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else 'failed'})")
        return None
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peers", metavar="PYTHON", help="a Python with pokerkit installed")
    ap.add_argument("--repeat", type=int, default=7, help="timings per figure (default 7)")
    args = ap.parse_args()
    base = {k: v for k, v in os.environ.items() if k != "POKERDRAW32_NO_EXTENSIONS"}
    rows = []
    for env in (base, dict(base, POKERDRAW32_NO_EXTENSIONS="1")):
        r = run(sys.executable, OURS, env, args.repeat)
        if r is not None:
            rows.append(r)
    peer = run(args.peers, POKERKIT, base, args.repeat) if args.peers else None
    print("5 players, all drew 4 (reshuffle), second round after one check")
    for r in rows:
        print(f"  {r['name']}: {r['events']} events; clone {r['clone_us']:.1f} us, deepcopy {r['deepcopy_us']:.0f} us,"
              f" snapshot {r['snapshot_us']:.0f} us (+json {r['snapshot_json_us']:.0f} us), restore from json"
              f" {r['restore_us']:.0f} us; snapshot {r['json_bytes']:,} bytes of JSON, pickle {r['pickle_bytes']:,}")
    if peer is not None:
        print(f"  {peer['name']}: deepcopy {peer['deepcopy_us']:.0f} us; pickle {peer['pickle_bytes']:,} bytes")
        for r in rows:
            print(f"  {r['name']} clone vs pokerkit deepcopy: {peer['deepcopy_us'] / r['clone_us']:.0f}x faster;"
                  f" snapshot+json vs pokerkit deepcopy: {peer['deepcopy_us'] / r['snapshot_json_us']:.1f}x;"
                  f" json snapshot / pokerkit pickle size: {r['json_bytes'] / peer['pickle_bytes']:.2f}")


if __name__ == "__main__":
    main()
