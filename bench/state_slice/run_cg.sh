#!/bin/bash
# Instruction counts (callgrind, repeatable under load). Per-round Ir = (Ir(subject) - Ir(baseline)) / N,
# the baseline being the same process doing everything but the rounds (start-up, import, parameter generation).
cd "$(dirname "$0")"
PY=venv/bin/python
OUT=cg_raw.txt
: > $OUT
ir() {  # subject impl rounds
  valgrind --tool=callgrind --callgrind-out-file=cg/cg.%p.out $PY bench.py "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for impl in A B B2; do
  for s in pub_cc pub_rand; do echo "$s $impl 20000 $(ir $s $impl 20000) $(ir gen $impl 20000)" >> $OUT; done
  for s in sim_cc sim_rand; do echo "$s $impl 200000 $(ir $s $impl 200000) $(ir gen $impl 0)" >> $OUT; done
  echo "r1_cc $impl 20000 $(ir r1_cc $impl 20000) $(ir gen_r1 $impl 20000)" >> $OUT
done
for impl in Bpy B2py; do
  for s in pub_cc pub_rand; do echo "$s $impl 2000 $(ir $s $impl 2000) $(ir gen $impl 2000)" >> $OUT; done
  for s in sim_cc sim_rand; do echo "$s $impl 2000 $(ir $s $impl 2000) $(ir gen $impl 0)" >> $OUT; done
  echo "r1_cc $impl 2000 $(ir r1_cc $impl 2000) $(ir gen_r1 $impl 2000)" >> $OUT
done
echo "hand_cc x 300 $(ir hand_cc x 300) $(ir hand_new x 300)" >> $OUT
rm -f cg/cg.*.out
$PY - <<'PY'
rows = [l.split() for l in open("cg_raw.txt")]
per = {}
for s, impl, n, ir, base in rows:
    per[s, impl] = (int(ir) - int(base)) / int(n)
    print(f"{s:9} {impl:5} N={n:>7}  Ir/round = {per[s, impl]:12,.0f}")
print()
for s in ("pub_cc", "pub_rand", "sim_cc", "sim_rand", "r1_cc"):
    for i in ("B", "B2"):
        print(f"{s:9} Ir ratio {i}/A = {per[s, i] / per[s, 'A']:.3f}")
    print(f"{s:9} Ir ratio B2py/Bpy = {per[s, 'B2py'] / per[s, 'Bpy']:.3f}")
print(f"hand_cc - hand_new (hand.py betting part of round 1) Ir/round = {per['hand_cc', 'x']:,.0f};"
      f" slice r1_cc Bpy (incl. construction and blinds) = {per['r1_cc', 'Bpy']:,.0f}")
PY
