import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
for line in open(sys.argv[1]):
    rep, subject, impl, rate = line.split()
    runs[subject, impl].append(float(rate))
med = {k: statistics.median(v) for k, v in runs.items()}
print(f"{'subject':10} {'impl':7} {'median rounds/s':>16}  (5 runs: min..max)")
for (s, i), m in med.items():
    v = runs[s, i]
    print(f"{s:10} {i:7} {m:16,.0f}  ({min(v):,.0f}..{max(v):,.0f})")
print()
for s in ("pub_cc", "pub_rand", "sim_cc", "sim_rand", "r1_cc"):
    a = med.get((s, "A"))
    for i in ("B", "B2", "Bpy", "B2py"):
        if (s, i) in med and a:
            print(f"{s:10} time ratio {i}/A = {a / med[s, i]:.3f}")
for s in ("pub_cc", "pub_rand", "sim_cc", "sim_rand", "r1_cc"):
    if (s, "Bpy") in med and (s, "B2py") in med:
        print(f"{s:10} time ratio B2py/Bpy = {med[s, 'Bpy'] / med[s, 'B2py']:.3f}")
if ("r1_cc", "Bpy") in med and ("hand_cc", "cython") in med:
    h, hn = med["hand_cc", "cython"], med["hand_new", "cython"]
    print(f"hand.py first round check/call: {h:,.0f} rounds/s (construction alone {hn:,.0f}/s);"
          f" slice r1_cc pure Bpy {med['r1_cc', 'Bpy']:,.0f}/s = {med['r1_cc', 'Bpy'] / h:.1f}x hand.py")
    per_hand = 1 / h - 1 / hn
    print(f"hand.py betting part only (hand_cc - hand_new): {per_hand * 1e6:.1f} us/round; "
          f"slice Bpy {1e6 / med['r1_cc', 'Bpy']:.1f} us/round (incl. construction)")
