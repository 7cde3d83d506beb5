#!/bin/bash
# 5 repetitions; each subject in a fresh process pinned to CPU 1; subjects interleaved per repetition.
cd "$(dirname "$0")"
PY=venv/bin/python
OUT=${OUT:-bench_raw.txt}
: > $OUT
SUBJECTS=(
  "pub_cc A 300000" "pub_cc B 300000" "pub_cc B2 300000" "pub_cc Bpy 30000" "pub_cc B2py 30000"
  "pub_rand A 300000" "pub_rand B 300000" "pub_rand B2 300000" "pub_rand Bpy 30000" "pub_rand B2py 30000"
  "sim_cc A 3000000" "sim_cc B 3000000" "sim_cc B2 3000000" "sim_cc Bpy 30000" "sim_cc B2py 30000"
  "sim_rand A 2000000" "sim_rand B 2000000" "sim_rand B2 2000000" "sim_rand Bpy 20000" "sim_rand B2py 20000"
  "r1_cc A 300000" "r1_cc B 300000" "r1_cc Bpy 30000" "r1_cc B2py 30000"
  "hand_cc x 5000" "hand_new x 5000"
)
for rep in 1 2 3 4 5; do
  for s in "${SUBJECTS[@]}"; do
    echo "$rep $(taskset -c 1 $PY bench.py $s)" >> $OUT
  done
done
$PY summarize.py $OUT
